// UVW from Apertura's Earth-rotation code for the antennas, times and phase centres of real
// Measurement Sets (../shared/data), against casacore Measures computed here; also reports how
// each file's own UVW column compares (it was written by other software, with other conventions).
#include <casacore/casa/Arrays/Matrix.h>
#include <casacore/casa/Arrays/Vector.h>
#include <casacore/ms/MeasurementSets/MSColumns.h>
#include <casacore/ms/MeasurementSets/MeasurementSet.h>
#include <QtTest>
#include <cmath>

#include "core/sim/uvw.h"
#include "tests/sim/casacore_uvw.h"
#include "tests/support/shared_data.h"

using namespace apertura;
using namespace apertura::sim;
namespace cc = casacore;

class TestSimUvwShared : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    if (testing::sharedDataDir().isEmpty()) {
      qInfo("SKIPPED: ../shared/data is absent");
      std::exit(testing::kSkipExitCode);
    }
  }

  void matchesCasacoreForRealArrays_data() {
    QTest::addColumn<QString>("path");
    QTest::newRow("vla") << "vla_day2_tdem0003/day2_TDEM0003_10s_norx_1src_1spw.ms";
    QTest::newRow("alma") << "alma_antennae_mosaic/all_fields.ms";
  }

  void matchesCasacoreForRealArrays() {
    QFETCH(QString, path);
    const std::string ms_path = (testing::sharedDataDir() + "/" + path).toStdString();
    cc::MeasurementSet ms(ms_path);
    cc::MSColumns c(ms);
    std::vector<Vec3> pos;
    for (cc::rownr_t a = 0; a < ms.antenna().nrow(); ++a) {
      const cc::Vector<double> p = c.antenna().position()(a);
      pos.push_back({p(0), p(1), p(2)});
    }
    double worst = 0.0, file_same = 0.0, file_flipped = 0.0;
    int compared = 0;
    const cc::rownr_t step = std::max<cc::rownr_t>(1, ms.nrow() / 2000);
    for (cc::rownr_t r = 0; r < ms.nrow(); r += step) {
      const int a1 = c.antenna1()(r), a2 = c.antenna2()(r);
      if (a1 == a2)
        continue;
      const cc::Matrix<double> dir = c.field().phaseDir()(c.fieldId()(r));
      const double ra = dir(0, 0), dec = dir(1, 0), t = c.time()(r);
      const UvwFrame frame{ra, dec, pos[0], EarthOrientation{testing::casacoreDut1(t)}};
      std::vector<Vec3> mine;
      antennaUvw(t, frame, pos, mine);
      const auto ref = testing::casacoreAntennaUvw(t, pos, pos[0], ra, dec);
      const cc::Vector<double> file = c.uvw()(r);
      for (int k = 0; k < 3; ++k) {
        const double casacore_k = ref[a2][k] - ref[a1][k];
        worst = std::max(worst, std::fabs((mine[a2][k] - mine[a1][k]) - casacore_k));
        file_same = std::max(file_same, std::fabs(file(k) - casacore_k));
        file_flipped = std::max(file_flipped, std::fabs(file(k) + casacore_k));
      }
      ++compared;
    }
    qInfo(
        "%s: %d rows; max |Apertura - casacore| = %.3g m; file UVW column vs casacore: "
        "max diff %.4g m as X2 - X1, %.4g m as X1 - X2",
        qPrintable(path), compared, worst, file_same, file_flipped);
    QVERIFY(compared > 200);
    QVERIFY2(worst < 1e-3, qPrintable(QString::number(worst)));
  }
};

QTEST_GUILESS_MAIN(TestSimUvwShared)
#include "test_sim_uvw_shared.moc"
