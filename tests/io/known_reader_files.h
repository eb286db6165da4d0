#pragma once

#include <QString>
#include <QTemporaryDir>
#include <QtTest>

#include <cstddef>
#include <string>
#include <vector>

#include "core/io/read_options.h"
#include "tests/io/uvfits_fixture.h"
#include "tests/support/test_ms_builder.h"

namespace apertura::testing {

// One way to read a known file in chunks, named for a Qt Test data tag ("ms rows=2").
struct ChunkedReadCase {
  QString tag;
  QString file;
  int chunk_rows = 0;  // 0: the size the reader picks
};

// Reading options for `chunk_rows` rows per chunk (0: the reader picks) in `mode`.
inline ReadOptions chunkedReadOptions(int chunk_rows, ReadMode mode) {
  ReadOptions o;
  if (chunk_rows > 0)
    o.chunk_rows = static_cast<std::size_t>(chunk_rows);
  o.mode = mode;
  return o;
}

// The known Measurement Set (test_ms_builder) and UVFITS file (uvfits_fixture) that the chunked
// reading tests compare, written into a temporary folder that lives as long as this object.
class KnownReaderFiles {
 public:
  // Writes both files. Fails the calling test (check QTest::currentTestFailed()) when the
  // temporary folder cannot be made.
  void write() {
    QVERIFY(dir_.isValid());
    ms_ = writeTestMs((dir_.path() + "/known.ms").toStdString());
    uvfits_ = UvfitsFixture::write((dir_.path() + "/known.uvfits").toStdString());
  }

  const std::string& ms() const { return ms_; }
  const std::string& uvfits() const { return uvfits_; }
  QString dir() const { return dir_.path(); }

  // Each file with 1, 2 and 3 rows per chunk (the last chunk short or not) and with the size the
  // reader picks from its memory budget.
  std::vector<ChunkedReadCase> chunkedReadCases() const {
    std::vector<ChunkedReadCase> cases;
    for (int rows : {1, 2, 3, 0}) {
      cases.push_back({QString("ms rows=%1").arg(rows), QString::fromStdString(ms_), rows});
      cases.push_back({QString("uvfits rows=%1").arg(rows), QString::fromStdString(uvfits_), rows});
    }
    return cases;
  }

 private:
  QTemporaryDir dir_;
  std::string ms_, uvfits_;
};

}  // namespace apertura::testing
