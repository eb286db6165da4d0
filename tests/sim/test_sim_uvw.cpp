// UVW from Apertura's Earth-rotation code against casacore Measures (MBaseline ITRF -> J2000 and
// MVuvw, as derivedmscal's UVW_J2000 computes it) for generated arrays, several declinations and
// dates. Agreement must be better than 1 mm on every baseline.
#include <QtTest>
#include <cmath>

#include "core/sim/array_layout.h"
#include "core/sim/uvw.h"
#include "core/util/input_error.h"
#include "tests/sim/casacore_uvw.h"

using namespace apertura;
using namespace apertura::sim;

namespace {

double maxBaselineDifference(const ArrayLayout& layout, double ra, double dec, double t,
                             double* longest = nullptr) {
  std::vector<Vec3> pos;
  for (std::size_t i = 0; i < layout.antennas.size(); ++i)
    pos.push_back(layout.position(i));
  UvwFrame frame{ra, dec, pos[0], EarthOrientation{testing::casacoreDut1(t)}};
  std::vector<Vec3> mine;
  antennaUvw(t, frame, pos, mine);
  const auto ref = testing::casacoreAntennaUvw(t, pos, pos[0], ra, dec);
  double worst = 0.0, len = 0.0;
  for (std::size_t a = 0; a < pos.size(); ++a) {
    for (std::size_t b = a + 1; b < pos.size(); ++b) {
      for (int k = 0; k < 3; ++k) {
        worst = std::max(worst, std::fabs((mine[b][k] - mine[a][k]) - (ref[b][k] - ref[a][k])));
      }
      len = std::max(
          len, std::sqrt(std::pow(ref[b][0] - ref[a][0], 2) + std::pow(ref[b][1] - ref[a][1], 2) +
                         std::pow(ref[b][2] - ref[a][2], 2)));
    }
  }
  if (longest)
    *longest = len;
  return worst;
}

}  // namespace

class TestSimUvw : public QObject {
  Q_OBJECT
 private slots:
  void cleanupTestCase() { qInfo("largest |uvw - casacore| / baseline length: %.3g", worst_); }

  void matchesCasacore_data() {
    QTest::addColumn<int>("layout");
    QTest::addColumn<double>("dec_deg");
    QTest::addColumn<double>("mjd");
    for (int layout = 0; layout < 3; ++layout) {
      for (double dec : {-70.0, -23.0, 0.0, 45.0, 85.0}) {
        for (double mjd : {55400.3, 57000.71, 60390.45}) {
          QTest::newRow(qPrintable(QString("layout%1 dec%2 mjd%3").arg(layout).arg(dec).arg(mjd)))
              << layout << dec << mjd;
        }
      }
    }
  }

  void matchesCasacore() {
    QFETCH(int, layout);
    QFETCH(double, dec_deg);
    QFETCH(double, mjd);
    const ArrayLayout arrays[3] = {almaCompactLayout(), vlaYLayout(600.0), vlaYLayout(21000.0)};
    double longest = 0.0;
    for (double ra : {0.3, 2.9, 5.1}) {
      for (double hours : {0.0, 3.3, 7.9}) {
        const double t = (mjd + hours / 24.0) * 86400.0;
        const double diff =
            maxBaselineDifference(arrays[layout], ra, dec_deg * M_PI / 180.0, t, &longest);
        worst_ = std::max(worst_, diff / longest);
        QVERIFY2(diff < 1e-3, qPrintable(QString("max |uvw - casacore| = %1 m").arg(diff)));
      }
    }
    QVERIFY(longest > (layout == 0 ? 100.0 : layout == 1 ? 900.0 : 30000.0));
  }

  void generatedLayoutsHaveTheAdvertisedShape() {
    const ArrayLayout alma = almaCompactLayout();
    QCOMPARE(alma.antennas.size(), std::size_t(32));
    double bmin = 1e9, bmax = 0.0;
    for (std::size_t a = 0; a < alma.antennas.size(); ++a) {
      for (std::size_t b = a + 1; b < alma.antennas.size(); ++b) {
        const Vec3 pa = alma.position(a), pb = alma.position(b);
        const double d = std::hypot(std::hypot(pa[0] - pb[0], pa[1] - pb[1]), pa[2] - pb[2]);
        bmin = std::min(bmin, d);
        bmax = std::max(bmax, d);
      }
    }
    QVERIFY2(bmin > 15.0 && bmax < 161.0 && bmax > 140.0,
             qPrintable(QString("%1 %2").arg(bmin).arg(bmax)));
    // Geodetic round trip of the array centre (WGS84): Chajnantor, ~5060 m.
    QVERIFY(std::fabs(alma.latitude * 180.0 / M_PI + 23.0229) < 1e-3);
    QVERIFY(std::fabs(alma.height_m - 5060.0) < 5.0);
    const ArrayLayout random = randomCompactLayout(300.0, 20, 12.0, 7);
    QCOMPARE(random.antennas.size(), std::size_t(20));
    const ArrayLayout again = randomCompactLayout(300.0, 20, 12.0, 7);
    QCOMPARE(again.antennas[19].position_itrf_m[0], random.antennas[19].position_itrf_m[0]);
    QVERIFY_EXCEPTION_THROWN(randomCompactLayout(30.0, 50, 12.0, 7), InputError);
    QVERIFY_EXCEPTION_THROWN(arrayLayoutFromSpec("nonsense", 1), InputError);
    QCOMPARE(arrayLayoutFromSpec("random:400:10:7", 3).antennas.size(), std::size_t(10));
  }

 private:
  double worst_ = 0.0;
};

QTEST_GUILESS_MAIN(TestSimUvw)
#include "test_sim_uvw.moc"
