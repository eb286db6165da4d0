// The application icon compiled into apertura: every hicolor size is there, has the size its name
// says, and shows the drawing (not an empty or flat square).
#include <QGuiApplication>
#include <QIcon>
#include <QImage>
#include <QSet>
#include <QtTest>

#include "app/gui/app_icon.h"

class TestAppIcon : public QObject {
  Q_OBJECT

 private slots:
  void everySizeIsCompiledIn_data() {
    QTest::addColumn<int>("size");
    for (const int size : {16, 22, 24, 32, 48, 64, 128, 256})
      QTest::addRow("%dpx", size) << size;
  }

  void everySizeIsCompiledIn() {
    QFETCH(int, size);
    QImage image(QString(":/icons/apertura-%1.png").arg(size));
    QVERIFY2(!image.isNull(), "missing from the resources");
    QCOMPARE(image.size(), QSize(size, size));
    image = image.convertToFormat(QImage::Format_ARGB32);
    // Transparent corners (the rounded square) and an opaque, many-coloured middle.
    QCOMPARE(qAlpha(image.pixel(0, 0)), 0);
    QCOMPARE(qAlpha(image.pixel(size / 2, size / 2)), 255);
    QSet<QRgb> colours;
    for (int y = 0; y < size; ++y)
      for (int x = 0; x < size; ++x)
        colours.insert(image.pixel(x, y));
    QVERIFY2(colours.size() > 20, qPrintable(QString("only %1 colours").arg(colours.size())));
  }

  void iconOffersEverySize() {
    const QIcon icon = apertura::app::applicationIcon();
    QVERIFY(!icon.isNull());
    QCOMPARE(icon.availableSizes().size(), 8);
    // The icon picks the exact size when asked for one it has.
    QCOMPARE(icon.pixmap(QSize(48, 48)).size(), QSize(48, 48));
    QCOMPARE(icon.pixmap(QSize(256, 256)).size(), QSize(256, 256));
    // The middle of the drawing is the bright core of the disk, not the dark background.
    const QImage big = icon.pixmap(QSize(256, 256)).toImage();
    QVERIFY(qGray(big.pixel(128, 128)) > 200);
    QVERIFY(qGray(big.pixel(30, 128)) < 100);
  }
};

int main(int argc, char** argv) {
  // Pixmaps need a QGuiApplication; the offscreen platform needs no display.
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QGuiApplication app(argc, argv);
  TestAppIcon test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_app_icon.moc"
