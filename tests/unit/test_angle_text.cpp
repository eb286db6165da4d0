// Small angles with units, as the cell field takes them (issue #35: "2e-6" became 26 arcsec and
// no µas value could be typed).
#include <QtTest>

#include "core/util/angle_text.h"

using namespace apertura;

class TestAngleText : public QObject {
  Q_OBJECT
 private slots:
  void parsesUnits() {
    const struct {
      const char* text;
      double arcsec;
    } cases[] = {{"0.05", 0.05},      {" 0.05 arcsec ", 0.05}, {"0.05\"", 0.05},
                 {"0.05 asec", 0.05}, {"2e-6", 2e-6},          {"2uas", 2e-6},
                 {"2 µas", 2e-6},     {"2 μas", 2e-6},         {"0.5 mas", 5e-4},
                 {"50 MAS", 0.05},    {"1.5 arcmin", 90.0},    {"1'", 60.0},
                 {"0.01 deg", 36.0},  {"-3 mas", -3e-3}};
    for (const auto& c : cases) {
      const std::optional<double> a = parseAngleArcsec(c.text);
      QVERIFY2(a.has_value(), c.text);
      QVERIFY2(std::abs(*a - c.arcsec) <= 1e-15 * std::abs(c.arcsec),
               qPrintable(QString("%1: %2").arg(c.text).arg(*a, 0, 'g', 17)));
    }
    // Sub-arcsec units divide: "50 mas" is the same double as "0.05".
    QCOMPARE(*parseAngleArcsec("50 mas"), 0.05);
    QCOMPARE(*parseAngleArcsec("23.5 mas"), 0.0235);
    for (const char* bad : {"", "mas", "2 furlongs", "2e", "1 2", "nan", "inf arcsec", "auto"})
      QVERIFY2(!parseAngleArcsec(bad), bad);
  }

  void formatsReadably() {
    QCOMPARE(QString::fromStdString(formatAngleArcsec(2e-6)), QString("2 µas"));
    QCOMPARE(QString::fromStdString(formatAngleArcsec(5e-4)), QString("500 µas"));
    QCOMPARE(QString::fromStdString(formatAngleArcsec(2.5e-3)), QString("2.5 mas"));
    QCOMPARE(QString::fromStdString(formatAngleArcsec(0.1234)), QString("123.4 mas"));
    QCOMPARE(QString::fromStdString(formatAngleArcsec(2.5)), QString("2.5 arcsec"));
    QCOMPARE(QString::fromStdString(formatAngleArcsec(90.0)), QString("90 arcsec"));
    QCOMPARE(QString::fromStdString(formatAngleArcsec(0.0)), QString("0 arcsec"));
    // What is written is read back: exactly for values of up to 9 significant digits.
    for (double a : {2e-6, 8.3e-6, 0.0235, 0.05, 0.123456789, 1.0, 59.5, 61.0, 3600.0}) {
      const std::optional<double> back = parseAngleArcsec(formatAngleArcsec(a, 9));
      QVERIFY(back.has_value());
      QCOMPARE(*back, a);
    }
  }
};

QTEST_APPLESS_MAIN(TestAngleText)
#include "test_angle_text.moc"
