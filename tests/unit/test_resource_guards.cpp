// Resource limits turned into errors rather than aborts (issue #33): the file-descriptor check
// before casacore creates a Measurement Set, the address-space margin of large allocations, and
// repeated signals absorbed while a cancelled command cleans up. Each limit is set in a child
// process, so the test process keeps its own.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <new>
#include <vector>

#include "core/engine/interrupt.h"
#include "core/io/ms_writer.h"
#include "core/sim/visibility_sink.h"
#include "core/util/address_space_guard.h"
#include "core/util/input_error.h"
#include "core/util/open_files.h"

using namespace apertura;

namespace {

// Runs `child` in a forked process; returns its wait status.
int inChild(const std::function<int()>& child) {
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0)
    ::_exit(child());
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

std::size_t mappedBytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  unsigned long pages = 0;
  if (f != nullptr) {
    if (std::fscanf(f, "%lu", &pages) != 1)
      pages = 0;
    std::fclose(f);
  }
  return std::size_t(pages) * std::size_t(sysconf(_SC_PAGESIZE));
}

// In a child: lowers the open-file limit to 10 above what is open now. False when refused.
bool leaveFewDescriptors() {
  rlimit now{};
  getrlimit(RLIMIT_NOFILE, &now);
  const long open_now = long(now.rlim_cur) - freeFileDescriptors();
  rlimit tight{rlim_t(open_now + 10), rlim_t(open_now + 10)};
  return setrlimit(RLIMIT_NOFILE, &tight) == 0;
}

// Whether allocating and touching `bytes` succeeds (bad_alloc: false).
bool allocates(std::size_t bytes) {
  try {
    std::vector<char> block(bytes, 1);
    return block.back() == 1;
  } catch (const std::bad_alloc&) {
    return false;
  }
}

}  // namespace

class TestResourceGuards : public QObject {
  Q_OBJECT

 private slots:
  void freeDescriptorsCountOpenFiles() {
    const long before = freeFileDescriptors();
    std::vector<int> fds;
    for (int i = 0; i < 5; ++i)
      fds.push_back(::open("/dev/null", O_RDONLY));
    QCOMPARE(freeFileDescriptors(), before - 5);
    for (int fd : fds)
      ::close(fd);
    QCOMPARE(freeFileDescriptors(), before);
  }

  void tooFewDescriptorsIsAResourceError() {
    const int status = inChild([] {
      if (!leaveFewDescriptors())
        return 3;
      try {
        requireFreeFileDescriptors(48, "x.ms", "creating a Measurement Set");
      } catch (const ResourceError& e) {
        const std::string m = e.what();
        return m.find("x.ms") != std::string::npos && m.find("ulimit -n") != std::string::npos ? 0
                                                                                               : 1;
      }
      return 2;
    });
    QVERIFY(WIFEXITED(status));
    QCOMPARE(WEXITSTATUS(status), 0);
    requireFreeFileDescriptors(8, "x.ms", "opening");  // the test process has plenty
  }

  void sinkErrorsNameTheFinalPath() {
    // A Measurement Set is written under a temporary name and renamed when complete; errors from
    // opening it name the path the user asked for, and a resource error stays one.
    QTemporaryDir dir;
    const std::string ms = dir.path().toStdString() + "/out.ms";
    try {
      sim::openVisibilitySink(sim::OutputFormat::MeasurementSet, ms, MsLayout{}, {});
      QFAIL("an empty layout was accepted");
    } catch (const InputError& e) {
      QCOMPARE(QString::fromStdString(e.path()), QString::fromStdString(ms));
    }
    MsLayout one;
    one.antennas.resize(2);
    one.fields.push_back({"F", 0.0, 0.0});
    one.spectral_windows.resize(1);
    one.spectral_windows[0].channel_frequencies_hz = {1e9};
    one.spectral_windows[0].channel_width_hz = 1e6;
    const int status = inChild([&] {
      if (!leaveFewDescriptors())
        return 3;
      try {
        sim::openVisibilitySink(sim::OutputFormat::MeasurementSet, ms, one, {});
      } catch (const ResourceError& e) {
        return e.path() == ms ? 0 : 1;
      } catch (...) {
        return 4;
      }
      return 2;
    });
    QVERIFY(WIFEXITED(status));
    QCOMPARE(WEXITSTATUS(status), 0);
    QVERIFY(!std::filesystem::exists(ms));
  }

  void largeAllocationsLeaveAMargin() {
    // Under a limit 200 MB above what is mapped now, 100 MB fits with the 64 MB margin, 150 MB
    // would fit the limit but not the margin, so it fails as bad_alloc (not an abort later).
    const int status = inChild([] {
      installAddressSpaceGuard();
      const rlim_t limit = rlim_t(mappedBytes() + (std::size_t(200) << 20));
      rlimit as{limit, limit};
      if (setrlimit(RLIMIT_AS, &as) != 0)
        return 3;
      if (!allocates(std::size_t(100) << 20))
        return 1;
      if (allocates(std::size_t(150) << 20))
        return 2;
      return 0;
    });
    QVERIFY(WIFEXITED(status));
    QCOMPARE(WEXITSTATUS(status), 0);
  }

  void repeatedSignalIsAbsorbedThenEndsTheProcess() {
    const int status = inChild([] {
      engine::installInterruptHandlers();
      std::raise(SIGINT);
      std::raise(SIGINT);  // Ctrl-C pressed twice: still cleaning up
      std::raise(SIGHUP);
      if (engine::interruptSignal() != SIGINT)
        return 1;
      ::usleep(2200 * 1000);
      std::raise(SIGTERM);  // much later: a hung command is ended
      return 2;
    });
    QVERIFY(WIFSIGNALED(status));
    QCOMPARE(WTERMSIG(status), SIGTERM);
  }

  void hangupIsHandled() {
    const int status = inChild([] {
      engine::installInterruptHandlers();
      std::raise(SIGHUP);
      return engine::interruptSignal() == SIGHUP ? 0 : 1;
    });
    QVERIFY(WIFEXITED(status));
    QCOMPARE(WEXITSTATUS(status), 0);
  }
};

QTEST_GUILESS_MAIN(TestResourceGuards)
#include "test_resource_guards.moc"
