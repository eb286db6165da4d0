// Corrupted UVFITS files, each made from the fixture the test writes (tests/io/uvfits_fixture)
// and damaged in one way: every one must give an InputError naming the file and the problem, or
// a warning. Then a seeded random-mutation fuzz loop: each mutant must read or throw InputError.
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <random>

#include "core/io/dataset_summary_reader.h"
#include "core/io/uvfits_reader.h"
#include "core/util/input_error.h"
#include "tests/io/fits_bytes.h"
#include "tests/io/read_pass.h"
#include "tests/io/screened_pass.h"
#include "tests/io/uvfits_fixture.h"

using namespace apertura;
using namespace apertura::testing;

namespace {

QString readError(const std::string& file) {
  try {
    readPass(*openUvfitsReader(file, ReadOptions{}));
  } catch (const InputError& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

}  // namespace

class TestUvfitsBadInput : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    good_ = UvfitsFixture::write(path("good.uvfits"));
    bytes_ = readBytes(good_);
    QVERIFY(readError(good_).isEmpty());
  }

  void missingPathAndNotFits() {
    QVERIFY2(readError(path("absent.uvfits")).contains("absent.uvfits: no such file or directory"),
             qPrintable(readError(path("absent.uvfits"))));
    writeBytes(path("text.uvfits"), "hello, not FITS\n");
    const QString e = readError(path("text.uvfits"));
    QVERIFY2(e.contains("text.uvfits: not a FITS file"), qPrintable(e));
    try {
      summarizeDataset(path("text.uvfits"));
      QFAIL("expected an error");
    } catch (const InputError& err) {
      QVERIFY2(QString(err.what()).contains("unrecognised format"), err.what());
    }
  }

  void shortFile() {
    const QString e = readError(mutant("short.uvfits", bytes_.substr(0, 2000)));
    QVERIFY2(e.contains("short.uvfits: file is truncated: shorter than one 2880-byte"),
             qPrintable(e));
  }

  void truncatedData() {
    const std::size_t header = primaryHeaderSize(bytes_);
    const QString e = readError(mutant("cut.uvfits", bytes_.substr(0, header + 1000)));
    QVERIFY2(e.contains("cut.uvfits: file is truncated or GCOUNT/PCOUNT are wrong") &&
                 e.contains("6 groups of 79 values need 1896 bytes"),
             qPrintable(e));
  }

  void wrongGcountAndPcount() {
    QString e = readError(edited("gcount.uvfits", "GCOUNT", "600"));
    QVERIFY2(e.contains("gcount.uvfits: file is truncated or GCOUNT/PCOUNT are wrong: 600 groups"),
             qPrintable(e));
    e = readError(edited("pcount.uvfits", "PCOUNT", "8"));
    QVERIFY2(e.contains("pcount.uvfits: missing keyword PTYPE8 (PCOUNT = 8)"), qPrintable(e));
    e = readError(edited("pcount_neg.uvfits", "PCOUNT", "-3"));
    QVERIFY2(e.contains("pcount_neg.uvfits:"), qPrintable(e));
  }

  void missingKeywords() {
    QString e = readError(edited("no_ptype.uvfits", "PTYPE4", ""));
    QVERIFY2(e.contains("no_ptype.uvfits: missing keyword PTYPE4"), qPrintable(e));
    e = readError(edited("no_ctype.uvfits", "CTYPE3", ""));
    QVERIFY2(e.contains("no_ctype.uvfits: data axis 3 has CTYPE3 = '' and length 4"),
             qPrintable(e));
    e = readError(edited("no_groups.uvfits", "GROUPS", "F"));
    QVERIFY2(e.contains("no_groups.uvfits:"), qPrintable(e));
    e = readError(edited("no_uu.uvfits", "PTYPE1", "'XX      '"));
    QVERIFY2(e.contains("no_uu.uvfits: missing random parameter UU"), qPrintable(e));
  }

  void unknownStokesAndBadFrequencies() {
    QString e = readError(edited("stokes.uvfits", "CRVAL3", "-9.0"));
    QVERIFY2(e.contains("stokes.uvfits: STOKES axis value -9") &&
                 e.contains("is not a known correlation type"),
             qPrintable(e));
    e = readError(edited("zero_freq.uvfits", "CRVAL4", "0.0"));
    QVERIFY2(e.contains("zero_freq.uvfits: FREQ axis reference value CRVAL = 0"), qPrintable(e));
    e = readError(edited("neg_freq.uvfits", "CRVAL4", "-8.0E9"));
    QVERIFY2(e.contains("(expected > 0)"), qPrintable(e));
  }

  void ifsWithoutFrequencyTable() {
    UvfitsFixture::Options o;
    o.with_fq = false;
    const QString e = readError(UvfitsFixture::write(path("no_fq.uvfits"), o));
    QVERIFY2(e.contains("no_fq.uvfits: has 2 IFs but no AIPS FQ table"), qPrintable(e));
  }

  void allFlaggedIsAWarning() {
    UvfitsFixture::Options o;
    o.all_flagged = true;
    auto src = openUvfitsReader(UvfitsFixture::write(path("flagged.uvfits"), o), ReadOptions{});
    QCOMPARE(readPass(*src).unflagged, std::uint64_t(0));
    const auto w = src->warnings();
    QVERIFY(!w.empty());
    QVERIFY2(QString::fromStdString(w.back()).contains(
                 "flagged.uvfits: all 30 selected visibilities are flagged"),
             w.back().c_str());
  }

  // The geometry screen the MS reader uses (test_ms_bad_input): NaN, impossible and zero
  // baselines are flagged and counted (per group and IF); negative weights are AIPS flags.
  void impossibleGeometryIsFlagged() {
    UvfitsFixture::Options o;
    o.impossible_geometry = true;
    auto good = openUvfitsReader(UvfitsFixture::write(path("good_uvw.uvfits")), ReadOptions{});
    auto bad = openUvfitsReader(UvfitsFixture::write(path("uvw.uvfits"), o), ReadOptions{});
    const PassSums g = readPass(*good, true), b = readPass(*bad, true);
    QCOMPARE(b.rows, g.rows);
    const ScreenComparison c = compareScreenedPass(
        g, b, [](std::uint64_t row) { return row <= 2; },
        [](std::uint64_t row) { return row <= 2; });
    QCOMPARE(c.kept_in_flagged, std::uint64_t(0));
    QCOMPARE(c.changed, std::uint64_t(0));
    QCOMPARE(c.bad_uvw, std::uint64_t(0));
    const std::uint64_t lost = c.lost;
    QVERIFY(lost > 0);
    QCOMPARE(b.unflagged, g.unflagged - lost);
    QString all;
    for (const auto& w : bad->warnings())
      all += QString::fromStdString(w) + "\n";
    const char* expected[] = {"uvw.uvfits: 2 rows with NaN or Inf in random parameters UU, VV, WW",
                              "uvw.uvfits: 2 rows with random parameters UU, VV, WW longer than",
                              "uvw.uvfits: 2 rows with random parameters UU, VV, WW = (0, 0, 0)"};
    for (const char* e : expected)
      QVERIFY2(all.contains(e), qPrintable(all));
    QVERIFY2(!all.contains("negative weight"), qPrintable(all));
  }

  // A few hundred seeded mutations: overwritten bytes (mostly in the header), changed digits in
  // header values, shuffled cards and truncations. Each must read or throw InputError.
  void fuzz() {
    const std::size_t header = primaryHeaderSize(bytes_);
    int read_ok = 0, rejected = 0;
    for (int i = 0; i < 300; ++i) {
      std::mt19937 rng(20240601u + static_cast<unsigned>(i));
      std::string b = bytes_;
      auto pick = [&](std::size_t n) {
        return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
      };
      const int kind = static_cast<int>(pick(4));
      const int count = 1 + static_cast<int>(pick(4));
      for (int m = 0; m < count; ++m) {
        if (kind == 0) {
          const std::size_t at = pick(2) ? pick(header) : pick(b.size());
          b[at] = static_cast<char>(pick(256));
        } else if (kind == 1) {
          const std::size_t card = pick(header / 80) * 80;
          const std::size_t at = card + 10 + pick(20);
          b[at] = "0123456789-+.E "[pick(15)];
        } else if (kind == 2) {
          const std::size_t a = pick(header / 80) * 80, c = pick(header / 80) * 80;
          std::swap_ranges(b.begin() + static_cast<long>(a), b.begin() + static_cast<long>(a + 80),
                           b.begin() + static_cast<long>(c));
        } else {
          b.resize(pick(b.size()));
        }
      }
      const std::string file = path("fuzz.uvfits");
      writeBytes(file, b);
      try {
        summarizeDataset(file);
        readPass(*openUvfitsReader(file, ReadOptions{}));
        ++read_ok;
      } catch (const InputError&) {
        ++rejected;
      } catch (const std::exception& e) {
        QFAIL(qPrintable(QString("mutation %1 threw a non-InputError: %2").arg(i).arg(e.what())));
      }
    }
    qInfo("fuzz: %d mutants read, %d rejected with InputError", read_ok, rejected);
    QVERIFY(read_ok > 0);
    QVERIFY(rejected > 0);
    QCOMPARE(read_ok + rejected, 300);
  }

 private:
  std::string path(const char* name) const { return (dir_.path() + "/" + name).toStdString(); }
  std::string mutant(const char* name, const std::string& bytes) {
    writeBytes(path(name), bytes);
    return path(name);
  }
  std::string edited(const char* name, const char* key, const std::string& value) {
    std::string b = bytes_;
    if (!replaceCard(b, key, value))
      throw std::runtime_error(std::string("no card ") + key);
    return mutant(name, b);
  }

  QTemporaryDir dir_;
  std::string good_, bytes_;
};

QTEST_GUILESS_MAIN(TestUvfitsBadInput)
#include "test_uvfits_bad_input.moc"
