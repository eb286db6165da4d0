#include <QtTest>
#include <cmath>

#include "core/util/sky_format.h"

using namespace apertura;

class TestSkyFormat : public QObject {
  Q_OBJECT
 private slots:
  void rightAscension() {
    QCOMPARE(QString::fromStdString(formatRightAscension(0.0)), QString("00:00:00.000"));
    QCOMPARE(QString::fromStdString(formatRightAscension(M_PI)), QString("12:00:00.000"));
    // 3h 30m = 52.5 deg; negative angles wrap into [0, 24h).
    QCOMPARE(QString::fromStdString(formatRightAscension(52.5 * M_PI / 180.0)),
             QString("03:30:00.000"));
    QCOMPARE(QString::fromStdString(formatRightAscension(-M_PI / 2.0)), QString("18:00:00.000"));
    // 59.99999 s must round up into the next minute, never print "60".
    const double almost = (1.0 + 59.99999 / 3600.0) * M_PI / 12.0;
    QCOMPARE(QString::fromStdString(formatRightAscension(almost)), QString("01:01:00.000"));
    // In degrees, as FITS headers carry it: [0, 360) whatever the turn.
    QVERIFY(std::fabs(rightAscensionDegrees(-120.8 * M_PI / 180.0) - 239.2) < 1e-12);
    QVERIFY(std::fabs(rightAscensionDegrees(720.5 * M_PI / 180.0) - 0.5) < 1e-12);
    QCOMPARE(rightAscensionDegrees(-1e-18), 0.0);
    QCOMPARE(rightAscensionDegrees(2.0 * M_PI), 0.0);
  }
  void declination() {
    QCOMPARE(QString::fromStdString(formatDeclination(0.0)), QString("+00:00:00.00"));
    QCOMPARE(QString::fromStdString(formatDeclination(-M_PI / 4.0)), QString("-45:00:00.00"));
    // -0.5 deg keeps its sign even though the degree part is zero.
    QCOMPARE(QString::fromStdString(formatDeclination(-0.5 * M_PI / 180.0)),
             QString("-00:30:00.00"));
    QCOMPARE(QString::fromStdString(formatDeclination(12.5822 * M_PI / 180.0)),
             QString("+12:34:55.92"));
  }
  void mjdSeconds() {
    // J2000.0 epoch: MJD 51544.5.
    QCOMPARE(QString::fromStdString(formatMjdSeconds(51544.5 * 86400.0)),
             QString("2000-01-01T12:00:00.000"));
    QCOMPARE(QString::fromStdString(formatMjdSeconds(40587.0 * 86400.0)),
             QString("1970-01-01T00:00:00.000"));
    // Leap day and rounding to the next day.
    QCOMPARE(QString::fromStdString(formatMjdSeconds(60369.0 * 86400.0 + 3723.5)),
             QString("2024-02-29T01:02:03.500"));
    QCOMPARE(QString::fromStdString(formatMjdSeconds(60369.0 * 86400.0 - 0.0001)),
             QString("2024-02-29T00:00:00.000"));
  }
  void mjdDate() {
    QCOMPARE(QString::fromStdString(formatMjdDate(51544.5 * 86400.0)), QString("2000-01-01"));
    QCOMPARE(QString::fromStdString(formatMjdDate(60369.0 * 86400.0)), QString("2024-02-29"));
    // The day that holds the instant: no rounding into the next day (formatMjdSeconds rounds).
    QCOMPARE(QString::fromStdString(formatMjdDate(60370.0 * 86400.0 - 0.0001)),
             QString("2024-02-29"));
    // Before 1970 and the Gregorian century rules: MJD 0 is 1858-11-17; 1900 was no leap year.
    QCOMPARE(QString::fromStdString(formatMjdDate(0.0)), QString("1858-11-17"));
    QCOMPARE(QString::fromStdString(formatMjdDate(15079.0 * 86400.0)), QString("1900-03-01"));
  }
  void frequency() {
    QCOMPARE(QString::fromStdString(formatFrequency(344.8177538281e9)), QString("344.8178 GHz"));
    QCOMPARE(QString::fromStdString(formatFrequency(27.384e6)), QString("27.384 MHz"));
    QCOMPARE(QString::fromStdString(formatFrequency(-2e6)), QString("-2 MHz"));
    QCOMPARE(QString::fromStdString(formatFrequency(500.0)), QString("500 Hz"));
  }
};

QTEST_GUILESS_MAIN(TestSkyFormat)
#include "test_sky_format.moc"
