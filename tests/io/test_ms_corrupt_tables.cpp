// Measurement Sets whose table files are damaged (issue #33). casacore meets this damage with a
// crash, an abort or a hang, so the readers check the files first (core/io/ms_table_check.h).
// Each case damages a copy of a simulated MS and expects from the summary (`info`) and from a
// streamed read through the I/O thread (`dirty`, `run`) an InputError naming the damaged file
// and what was expected, with the MS left exactly as it was.
#include <sys/stat.h>

#include <QTemporaryDir>
#include <QtTest>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "core/io/dataset_summary_reader.h"
#include "core/io/read_options.h"
#include "core/io/stman_header_check.h"
#include "core/io/visibility_source_factory.h"
#include "core/sim/array_layout.h"
#include "core/sim/simulator.h"
#include "core/util/input_error.h"
#include "tests/io/ms_fixture_edits.h"
#include "tests/io/read_pass.h"

using namespace apertura;
using namespace apertura::testing;

namespace {

namespace fs = std::filesystem;

std::string readBytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeBytes(const fs::path& file, const std::string& bytes) {
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
}

// Every entry under `root` (links not followed) with its kind and, for regular files, its bytes.
void snapshotInto(const fs::path& root, const fs::path& folder,
                  std::map<std::string, std::string>& entries) {
  for (const auto& entry : fs::directory_iterator(folder)) {
    const fs::file_status s = entry.symlink_status();
    std::string state = std::to_string(static_cast<int>(s.type()));
    if (fs::is_regular_file(s))
      state += ":" + readBytes(entry.path());
    else if (fs::is_symlink(s))
      state += ":" + fs::read_symlink(entry.path()).string();
    entries[entry.path().lexically_relative(root).string()] = state;
    if (fs::is_directory(s))
      snapshotInto(root, entry.path(), entries);
  }
}

std::map<std::string, std::string> snapshot(const fs::path& root) {
  std::map<std::string, std::string> entries;
  snapshotInto(root, root, entries);
  return entries;
}

// What is wrong with the errors `info` and a streamed read give for `ms`: each must be an
// InputError containing `expected`, and the MS must not change. Empty when all is well.
QString checkNamedError(const std::string& ms, const std::string& expected) {
  const auto before = snapshot(ms);
  QString problems;
  const auto expect = [&](const char* what, const QString& message) {
    if (!message.contains(QString::fromStdString(expected))) {
      problems += QString("%1 gave \"%2\", expected \"%3\"; ")
                      .arg(what, message, QString::fromStdString(expected));
    }
  };
  try {
    summarizeDataset(ms);
    expect("the summary", "no error");
  } catch (const InputError& e) {
    expect("the summary", e.what());
  }
  try {
    ReadOptions o;
    o.mode = ReadMode::kStreaming;  // through the prefetching I/O thread
    auto source = openVisibilitySource(ms, o);
    readPass(*source);
    expect("a streamed read", "no error");
  } catch (const InputError& e) {
    expect("a streamed read", e.what());
  }
  if (snapshot(ms) != before)
    problems += "the Measurement Set changed";
  return problems;
}

// A StandardStMan or IncrementalStMan header as casacore writes it (AipsIO: magic, object
// length, type name, version, endian flag from SSM 3 / ISM 5 on, bucket size, bucket count),
// padded to the 512-byte block that precedes the buckets.
std::string bucketHeader(const std::string& type, std::uint32_t version, bool big_endian,
                         bool endian_flag, std::uint32_t bucket_size, std::uint32_t buckets) {
  const auto u32 = [big_endian](std::uint32_t v) {
    std::string b(4, '\0');
    for (int i = 0; i < 4; ++i)
      b[big_endian ? 3 - i : i] = static_cast<char>((v >> (8 * i)) & 0xff);
    return b;
  };
  std::string body = u32(static_cast<std::uint32_t>(type.size())) + type + u32(version);
  if (endian_flag)
    body += big_endian ? '\1' : '\0';
  body += u32(bucket_size) + u32(buckets);
  std::string header = "\xbe\xbe\xbe\xbe" + u32(static_cast<std::uint32_t>(body.size() + 4)) + body;
  header.resize(512, '\0');
  return header;
}

}  // namespace

class TestMsCorruptTables : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    sim::SkyModel sky;
    sky.points.push_back({1.0, 0.0, 0.0, 0.0});
    sim::ObservationSpec spec;
    spec.duration_h = 0.25;
    spec.integration_s = 60.0;
    pristine_ = path("pristine.ms");
    sim::simulateMeasurementSet(sky, sim::randomCompactLayout(300.0, 8, 12.0, 1), spec, pristine_,
                                false);
  }

  void soundTablesPass() {
    summarizeDataset(pristine_);  // an exception fails the test
    ReadOptions o;
    o.mode = ReadMode::kStreaming;
    auto source = openVisibilitySource(pristine_, o);
    QVERIFY(readPass(*source).rows > 0);
  }

  // casacore reads a folder as its lock file and crashes (LockFile::getInfo).
  void lockFileIsAFolder_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("main table") << "table.lock";
    QTest::newRow("subtable") << "ANTENNA/table.lock";
  }
  void lockFileIsAFolder() {
    QFETCH(QString, file);
    const std::string name = file.toStdString();
    const std::string ms = damaged("lock.ms", [&](const fs::path& p) {
      fs::remove(p / name);
      fs::create_directory(p / name);
    });
    const QString e = checkNamedError(
        ms, ms + "/" + name + ": is not a regular file but a directory (expected casacore's lock");
    QVERIFY2(e.isEmpty(), qPrintable(e));
  }

  // casacore builds the row index of a StandardStMan file cut short from a short read and
  // crashes (SSMIndex::getIndex, on the reader's I/O thread).
  void truncatedStandardStMan() {
    const std::uintmax_t size = fs::file_size(fs::path(pristine_) / "ANTENNA/table.f0");
    const std::string ms = damaged(
        "ssm.ms", [&](const fs::path& p) { fs::resize_file(p / "ANTENNA/table.f0", size / 2); });
    const QString e = checkNamedError(
        ms, ms + "/ANTENNA/table.f0: truncated storage-manager file (" + std::to_string(size / 2) +
                " bytes, the StandardStMan header says " + std::to_string(size));
    QVERIFY2(e.isEmpty(), qPrintable(e));
  }

  // casacore 3.5 answers a column type it does not know with a bare `throw;` (std::terminate).
  void unknownColumnType() {
    const std::string ms = damaged("coltype.ms", [](const fs::path& p) {
      std::string dat = readBytes(p / "FIELD/table.dat");
      const std::size_t at = dat.find("ColumnDesc<");
      QVERIFY(at != std::string::npos);
      dat[at + 5] = '\x94';  // "Colum\x94Desc<...": no such column class
      writeBytes(p / "FIELD/table.dat", dat);
    });
    const QString e = checkNamedError(
        ms, ms + "/FIELD/table.dat: damaged table description: a column has a type casacore does "
                 "not know");
    QVERIFY2(e.isEmpty(), qPrintable(e));
  }

  // casacore blocks for ever in open() on a FIFO; SIGTERM does not end it there.
  void fifoInPlaceOfATableFile_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("main table.dat") << "table.dat";
    QTest::newRow("main table.f0") << "table.f0";
    QTest::newRow("subtable table.f0") << "ANTENNA/table.f0";
    QTest::newRow("subtable table.lock") << "FIELD/table.lock";
  }
  void fifoInPlaceOfATableFile() {
    QFETCH(QString, file);
    const std::string name = file.toStdString();
    const std::string ms = damaged("fifo.ms", [&](const fs::path& p) {
      fs::remove(p / name);
      QCOMPARE(mkfifo((p / name).c_str(), 0644), 0);
    });
    const QString e = checkNamedError(ms, ms + "/" + name + ": is not a regular file but a FIFO");
    QVERIFY2(e.isEmpty(), qPrintable(e));
  }

  void symbolicLinkLoop() {
    const std::string ms = damaged("loop.ms", [](const fs::path& p) {
      fs::remove(p / "SPECTRAL_WINDOW/table.f0");
      fs::create_symlink("table.f0", p / "SPECTRAL_WINDOW/table.f0");
    });
    const QString e =
        checkNamedError(ms, ms + "/SPECTRAL_WINDOW/table.f0: cannot be resolved (Too many levels");
    QVERIFY2(e.isEmpty(), qPrintable(e));
  }

  void truncatedTiledData() {
    std::string data;  // the first table.f<N>_TSM<k> of the main table
    for (const auto& entry : fs::directory_iterator(pristine_)) {
      const std::string name = entry.path().filename().string();
      if (name.find("_TSM") != std::string::npos && (data.empty() || name < data))
        data = name;
    }
    QVERIFY2(!data.empty(), "the simulator writes tiled columns");
    const std::string header = data.substr(0, data.find("_TSM"));
    const std::uintmax_t size = fs::file_size(fs::path(pristine_) / data);
    const std::string ms =
        damaged("tsm.ms", [&](const fs::path& p) { fs::resize_file(p / data, size / 2); });
    const QString e = checkNamedError(ms, ms + "/" + data + ": truncated storage-manager file (" +
                                              std::to_string(size / 2) + " bytes, " + header +
                                              " says " + std::to_string(size) + ")");
    QVERIFY2(e.isEmpty(), qPrintable(e));
  }

  void truncatedIndirectArrays() {
    const fs::path file = fs::path(pristine_) / "table.f0i";
    QVERIFY2(fs::exists(file), "the simulator writes indirect arrays in table.f0i");
    const std::uintmax_t size = fs::file_size(file);
    const std::string ms = damaged(
        "arrays.ms", [&](const fs::path& p) { fs::resize_file(p / "table.f0i", size / 2); });
    const QString e = checkNamedError(ms, ms + "/table.f0i: truncated storage-manager file (" +
                                              std::to_string(size / 2) +
                                              " bytes, the header says " + std::to_string(size));
    QVERIFY2(e.isEmpty(), qPrintable(e));
  }

  // Shapes read from a foreign file make casacore raise ArrayError, which is no AipsError.
  void arrayErrorsNameTheDataSet() {
    const std::string ms = damaged("foreign.ms", [](const fs::path& p) {
      fs::copy_file(p / "STATE/table.lock", p / "table.f0i", fs::copy_options::overwrite_existing);
    });
    try {
      ReadOptions o;
      o.mode = ReadMode::kStreaming;
      auto source = openVisibilitySource(ms, o);
      readPass(*source);
      QFAIL("expected an InputError");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(ms + ": casacore could not")),
               e.what());
    }
  }

  // Headers in both byte orders and both bucket storage managers (the simulator writes
  // little-endian StandardStMan only): whole files pass, shorter ones name what is missing.
  void bucketHeadersOfEitherByteOrder_data() {
    QTest::addColumn<QString>("type");
    QTest::addColumn<int>("version");
    QTest::addColumn<bool>("big_endian");
    QTest::addColumn<bool>("endian_flag");
    QTest::newRow("SSM 2, big-endian") << "StandardStMan" << 2 << true << false;
    QTest::newRow("SSM 3, little-endian") << "StandardStMan" << 3 << false << true;
    QTest::newRow("ISM 4, big-endian") << "IncrementalStMan" << 4 << true << false;
    QTest::newRow("ISM 5, little-endian") << "IncrementalStMan" << 5 << false << true;
  }
  void bucketHeadersOfEitherByteOrder() {
    QFETCH(QString, type);
    QFETCH(int, version);
    QFETCH(bool, big_endian);
    QFETCH(bool, endian_flag);
    const fs::path folder = path("headers");
    fs::create_directories(folder);
    const fs::path file = folder / "table.f3";
    const std::string header = bucketHeader(type.toStdString(), static_cast<std::uint32_t>(version),
                                            big_endian, endian_flag, 1000, 2);
    writeBytes(file, header + std::string(2000, 'x'));  // 512 + 2 buckets of 1000 bytes
    checkStorageManagerFile(file.string());
    writeBytes(file, header + std::string(1999, 'x'));
    try {
      checkStorageManagerFile(file.string());
      QFAIL("expected an InputError for a bucket cut short");
    } catch (const InputError& e) {
      const QString expected = QString(
                                   "table.f3: truncated storage-manager file (2511 bytes, the "
                                   "%1 header says 2512: 512 + 2 buckets of 1000 bytes)")
                                   .arg(type);
      QVERIFY2(QString(e.what()).contains(expected), e.what());
    }
    writeBytes(file, header.substr(0, 20));
    QVERIFY_THROWS_EXCEPTION(InputError, checkStorageManagerFile(file.string()));
  }

 private:
  std::string path(const char* name) const { return (dir_.path() + "/" + name).toStdString(); }
  // A fresh copy of the simulated MS, damaged by `damage` (given the copy's path).
  template <typename F>
  std::string damaged(const char* name, F damage) {
    std::string copy = path(name);
    fs::remove_all(copy);
    copyTable(pristine_, copy);
    damage(fs::path(copy));
    return copy;
  }

  QTemporaryDir dir_;
  std::string pristine_;
};

QTEST_GUILESS_MAIN(TestMsCorruptTables)
#include "test_ms_corrupt_tables.moc"
