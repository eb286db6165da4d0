// Temporary names that say who made them, the removal of dead processes' leftovers (and nothing
// else), and output sets that appear together or not at all (issue #33).
#include <sys/wait.h>
#include <unistd.h>

#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>

#include "core/util/input_error.h"
#include "core/util/output_set.h"
#include "core/util/temporary_names.h"

using namespace apertura;
namespace fs = std::filesystem;

namespace {

void writeText(const fs::path& p, const std::string& text) {
  std::ofstream(p) << text;
}

std::string readText(const fs::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// A process id that was just used and has ended (reaped): no process runs under it now.
pid_t deadPid() {
  const pid_t pid = ::fork();
  if (pid == 0)
    ::_exit(0);
  ::waitpid(pid, nullptr, 0);
  return pid;
}

std::vector<std::string> namesIn(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

class TestOutputFiles : public QObject {
  Q_OBJECT

  std::unique_ptr<QTemporaryDir> tmp_;
  fs::path dir_;

 private slots:
  void init() {
    tmp_ = std::make_unique<QTemporaryDir>();  // a fresh, empty folder per test
    QVERIFY(tmp_->isValid());
    dir_ = tmp_->path().toStdString();
  }

  void temporaryNamesNameTheirMaker() {
    const std::string t = temporarySiblingPath("/a/b/img.fits");
    QVERIFY(t.rfind("/a/b/img.fits.tmp-", 0) == 0);
    QVERIFY(t.find("-" + std::to_string(::getpid()) + "-") != std::string::npos);
    QVERIFY(temporarySiblingPath("x") != temporarySiblingPath("x"));
    // Our own temporaries are never stale while we run.
    QVERIFY(!isStaleTemporaryName(fs::path(t).filename().string()));
  }

  void onlyDeadProcessesLeftoversAreRemoved() {
    // This host's tag, and the name of a temporary that a dead process made.
    const std::string mine = temporarySiblingPath("f");
    const std::string tag = mine.substr(6, 8);  // "f.tmp-" then 8 hex digits
    const std::string dead = ".tmp-" + tag + "-" + std::to_string(deadPid());
    const std::string alive = ".tmp-" + tag + "-" + std::to_string(::getpid());
    const std::string other_host = std::string(".tmp-") +
                                   (tag == "00000000" ? "11111111" : "00000000") + "-" +
                                   std::to_string(deadPid());
    const std::vector<std::string> stale = {"run-dirty.fits" + dead + "-0",
                                            "run-metrics.csv" + dead + "-7.probe",
                                            "obs.ms" + dead + "-2.old"};
    for (const auto& n : stale)
      writeText(dir_ / n, "x");
    fs::create_directories(dir_ / ("sim.ms" + dead + "-1") / "ANTENNA");  // a half-written MS
    writeText(dir_ / ("sim.ms" + dead + "-1") / "table.dat", "x");
    const std::vector<std::string> kept = {
        "run-dirty.fits",  // the user's and finished outputs
        "notes.tmp-1-2",
        "run-psf.fits" + alive + "-0",       // a process that runs
        "run-psf.fits" + other_host + "-0",  // another machine's, on a shared disk
        "run-psf.fits" + dead + "-0.bak",    // not a suffix of ours
        "run-psf.fits" + dead + "-x",
        ".tmp-" + tag + "-" + std::to_string(deadPid()) + "-0",  // no final name before it
    };
    for (const auto& n : kept)
      writeText(dir_ / n, "x");
    std::vector<std::string> removed = removeStaleTemporaries(dir_.string());
    QCOMPARE(removed.size(), stale.size() + 1);
    std::vector<std::string> expected = kept;
    std::sort(expected.begin(), expected.end());
    QCOMPARE(namesIn(dir_), expected);
    // Beside a path: the same folder.
    writeText(dir_ / stale.front(), "x");
    QCOMPARE(removeStaleTemporariesBeside((dir_ / "run").string()).size(), std::size_t(1));
    QCOMPARE(removeStaleTemporaries((dir_ / "missing").string()).size(), std::size_t(0));
  }

  void anOutputSetAppearsTogether() {
    writeText(dir_ / "p-dirty.fits", "old dirty");
    writeText(dir_ / "p-psf.fits", "old psf");
    {
      OutputSet set;
      set.write((dir_ / "p-dirty.fits").string(),
                [](const std::string& f) { writeText(f, "new dirty"); });
      set.write((dir_ / "p-psf.fits").string(),
                [](const std::string& f) { writeText(f, "new psf"); });
      QCOMPARE(readText(dir_ / "p-dirty.fits"), std::string("old dirty"));  // not yet
      QCOMPARE(namesIn(dir_).size(), std::size_t(4));
      set.commit();
      QCOMPARE(set.finalPaths().size(), std::size_t(2));
    }
    QCOMPARE(readText(dir_ / "p-dirty.fits"), std::string("new dirty"));
    QCOMPARE(readText(dir_ / "p-psf.fits"), std::string("new psf"));
    QCOMPARE(namesIn(dir_).size(), std::size_t(2));
  }

  void aFailedExportLeavesTheOldSet() {
    writeText(dir_ / "p-dirty.fits", "old dirty");
    writeText(dir_ / "p-psf.fits", "old psf");
    const std::string psf = (dir_ / "p-psf.fits").string();
    try {
      OutputSet set;
      set.write((dir_ / "p-dirty.fits").string(),
                [](const std::string& f) { writeText(f, "new"); });
      set.write(psf, [](const std::string& f) {
        writeText(f, "half");
        throw ResourceError(f, "no space left on device");
      });
      QFAIL("expected an error");
    } catch (const ResourceError& e) {
      QCOMPARE(e.path(), psf);  // the user's name, not the temporary one
    }
    QCOMPARE(readText(dir_ / "p-dirty.fits"), std::string("old dirty"));
    QCOMPARE(readText(dir_ / "p-psf.fits"), std::string("old psf"));
    QCOMPARE(namesIn(dir_).size(), std::size_t(2));
    // A folder in the way of one output: refused before any file moves.
    fs::create_directories(dir_ / "p-model.fits");
    try {
      OutputSet set;
      set.write((dir_ / "p-dirty.fits").string(),
                [](const std::string& f) { writeText(f, "new"); });
      set.write((dir_ / "p-model.fits").string(), [](const std::string& f) { writeText(f, "m"); });
      set.commit();
      QFAIL("expected an error");
    } catch (const InputError& e) {
      QVERIFY(QString(e.what()).contains("is a folder"));
    }
    QCOMPARE(readText(dir_ / "p-dirty.fits"), std::string("old dirty"));
    QCOMPARE(namesIn(dir_).size(), std::size_t(3));
  }
};

QTEST_APPLESS_MAIN(TestOutputFiles)
#include "test_output_files.moc"
