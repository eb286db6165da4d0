// The image view's geometry (north up, east left, zoom about the cursor), linking, the render cache
// and the sky-coordinate readout checked against the analytic SIN projection.
#include <QSignalSpy>
#include <QWheelEvent>
#include <QtTest>

#include <cmath>

#include "core/util/sky_format.h"
#include "gui/view/image_view.h"
#include "gui/view/sky_projection.h"
#include "gui/view/view_linker.h"
#include "tests/view/offscreen_main.h"

using namespace apertura::gui;

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kArcsec = kPi / (180.0 * 3600.0);

ImageData blankImage(int nx, int ny) {
  ImageData image;
  image.nx = nx;
  image.ny = ny;
  image.pixels.assign(static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny), 0.0f);
  image.unit = "Jy/beam";
  return image;
}

DisplaySettings grayMinMax() {
  DisplaySettings settings;
  settings.colormap = ColormapKind::Gray;
  settings.clip = ClipMode::MinMax;
  return settings;
}

// Bounding box of the pure-white screen pixels.
QRect whiteBox(const QImage& shot) {
  QRect box;
  for (int y = 0; y < shot.height(); ++y) {
    for (int x = 0; x < shot.width(); ++x) {
      if ((shot.pixel(x, y) & 0xffffff) == 0xffffff)
        box = box.united(QRect(x, y, 1, 1));
    }
  }
  return box;
}

// Inverse SIN projection (Greisen & Calabretta 2002): direction cosines (l east, m north) about
// (ra0, dec0) to RA, Dec.
void sinInverse(double l, double m, double ra0, double dec0, double& ra, double& dec) {
  const double n = std::sqrt(1.0 - l * l - m * m);
  dec = std::asin(m * std::cos(dec0) + n * std::sin(dec0));
  ra = ra0 + std::atan2(l, n * std::cos(dec0) - m * std::sin(dec0));
}

ImageWcs testGrid() {
  ImageWcs wcs;
  wcs.ref_ra_rad = 201.365063 * kPi / 180.0;
  wcs.ref_dec_rad = -43.019113 * kPi / 180.0;
  wcs.ref_pixel_x = 128.0;
  wcs.ref_pixel_y = 128.0;
  wcs.cell_x_rad = -36.0 * kArcsec;  // 100 cells = 1 degree, so the projection's curvature shows
  wcs.cell_y_rad = 36.0 * kArcsec;
  return wcs;
}

}  // namespace

class TestImageView : public QObject {
  Q_OBJECT
 private slots:
  // Pixel (10, 5) of a 64 x 48 image, viewed at zoom 4 centred on (20, 10) in a 400 x 300
  // widget, lands at x = 200 + (10 - 20) * 4 = 160, y = 150 - (5 - 10) * 4 = 170: higher rows
  // are drawn higher (north up) and pixel x = 0 on the left.
  void brightPixelLandsWhereExpected() {
    ImageData image = blankImage(64, 48);
    image.pixels[5 * 64 + 10] = 1.0f;
    ImageView view;
    view.resize(400, 300);
    view.setDisplaySettings(grayMinMax());
    view.setImage(std::move(image));
    view.setView(QPointF(20, 10), 4.0);
    QCOMPARE(view.imageToWidget(QPointF(10, 5)), QPointF(160, 170));
    const QRect box = whiteBox(view.grab().toImage());
    QCOMPARE(box, QRect(158, 168, 4, 4));
    // A pixel further north (y larger) appears above it.
    QVERIFY(view.imageToWidget(QPointF(10, 6)).y() < 170);
  }

  void wheelZoomKeepsPixelUnderCursor() {
    ImageView view;
    view.resize(400, 300);
    view.setImage(blankImage(64, 48));
    view.setView(QPointF(20, 10), 4.0);
    const QPointF cursor(123.0, 77.0);
    const QPointF anchor = view.widgetToImage(cursor);
    QWheelEvent wheel(cursor, view.mapToGlobal(cursor), QPoint(), QPoint(0, 240), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(&view, &wheel);
    QVERIFY(std::abs(view.zoom() - 4.0 * 1.25 * 1.25) < 1e-12);
    const QPointF after = view.widgetToImage(cursor);
    QVERIFY(std::abs(after.x() - anchor.x()) < 1e-9 && std::abs(after.y() - anchor.y()) < 1e-9);
  }

  void dragAndKeysMoveTheView() {
    ImageView view;
    view.resize(400, 300);
    view.setImage(blankImage(64, 48));
    view.setView(QPointF(20, 10), 4.0);
    QMouseEvent press(QEvent::MouseButtonPress, QPointF(200, 150),
                      view.mapToGlobal(QPointF(200, 150)), Qt::LeftButton, Qt::LeftButton,
                      Qt::NoModifier);
    QApplication::sendEvent(&view, &press);
    QMouseEvent move(QEvent::MouseMove, QPointF(240, 130), view.mapToGlobal(QPointF(240, 130)),
                     Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&view, &move);
    // Dragging 40 px right and 20 px up moves the image with the mouse: the centre goes 10
    // pixels west (x smaller) and 5 pixels south (y smaller).
    QCOMPARE(view.center(), QPointF(10, 5));
    QTest::keyClick(&view, Qt::Key_Plus);
    QVERIFY(std::abs(view.zoom() - 5.0) < 1e-12);
    QTest::keyClick(&view, Qt::Key_Right);
    QVERIFY(std::abs(view.center().x() - (10 + 0.1 * 300 / 5.0)) < 1e-9);
    QTest::keyClick(&view, Qt::Key_F);
    QCOMPARE(view.zoom(), std::min(400.0 / 64, 300.0 / 48));
    QCOMPARE(view.center(), QPointF(31.5, 23.5));
  }

  void linkedViewsFollowWithoutEchoes() {
    ImageView a, b, c;
    for (ImageView* v : {&a, &b, &c}) {
      v->resize(300, 300);
      v->setImage(blankImage(100, 100));
    }
    ViewLinker linker;
    for (ImageView* v : {&a, &b, &c})
      linker.addView(v);
    QSignalSpy spy_a(&a, &ImageView::viewChanged);
    QSignalSpy spy_b(&b, &ImageView::viewChanged);
    QSignalSpy spy_c(&c, &ImageView::viewChanged);
    a.setView(QPointF(30, 60), 2.5);
    QCOMPARE(b.center(), QPointF(30, 60));
    QCOMPARE(c.zoom(), 2.5);
    QCOMPARE(spy_a.count(), 1);
    QCOMPARE(spy_b.count(), 1);
    QCOMPARE(spy_c.count(), 1);
    b.zoomAbout(QPointF(10, 20), 2.0);
    QCOMPARE(a.center(), b.center());
    QCOMPARE(c.zoom(), 5.0);
    QCOMPARE(spy_a.count(), 2);
    linker.removeView(&c);
    a.setView(QPointF(50, 50), 1.0);
    QCOMPARE(b.center(), QPointF(50, 50));
    QVERIFY(c.center() != QPointF(50, 50));
    QCOMPARE(linker.viewCount(), 2);
  }

  // Zoom and pan reuse the cached picture; only data or display changes recompute it.
  void renderCacheIsReused() {
    ImageView view;
    view.resize(200, 200);
    view.setImage(blankImage(512, 512));
    view.grab();
    const int renders = view.renderer().renderCount();
    QCOMPARE(renders, 1);
    for (int i = 0; i < 5; ++i) {
      view.setView(QPointF(100 + 10 * i, 200), 1.0 + i);
      view.grab();
    }
    QCOMPARE(view.renderer().renderCount(), renders);
    DisplaySettings settings = view.displaySettings();
    settings.colormap = ColormapKind::Viridis;
    view.setDisplaySettings(settings);
    view.grab();
    QCOMPARE(view.renderer().renderCount(), renders + 1);
  }

  // Beam 20 x 4 cells at zoom 2 (semi-axes 20 and 4 screen pixels) in the bottom-left box: at
  // PA 0 the long axis points north (up), at PA 90 east (left when CDELT1 < 0).
  void beamEllipseFollowsPositionAngle() {
    for (const double pa : {0.0, 90.0}) {
      ImageData image = blankImage(200, 200);
      image.pixels[0] = 1.0f;
      image.wcs = testGrid();
      image.beam = BeamShape{20 * 36 * kArcsec, 4 * 36 * kArcsec, pa};
      ImageView view;
      view.resize(400, 400);
      view.setDisplaySettings(grayMinMax());
      view.setImage(std::move(image));
      view.setView(QPointF(100, 100), 2.0);
      const QImage shot = view.grab().toImage();
      const bool vertical = pa == 0.0;
      const double half_w = vertical ? 4 : 20;
      const double half_h = vertical ? 20 : 4;
      const QPointF centre(10 + 6 + half_w, 400 - 10 - 6 - half_h);
      const auto brightness = [&](QPointF offset) {
        return qGray(shot.pixel((centre + offset).toPoint()));
      };
      const QPointF along = vertical ? QPointF(0, -14) : QPointF(-14, 0);
      const QPointF across = vertical ? QPointF(-6, 0) : QPointF(0, -6);
      QVERIFY2(brightness(along) > 60, qPrintable(QString::number(brightness(along))));
      QVERIFY2(brightness(across) < 40, qPrintable(QString::number(brightness(across))));
    }
  }

  void referencePixelReadsCrval() {
    const ImageWcs wcs = testGrid();
    const SkyProjection projection(wcs);
    QVERIFY(projection.valid());
    const auto sky = projection.pixelToWorld(128.0, 128.0);
    QVERIFY(sky.has_value());
    QVERIFY(std::abs(sky->ra_rad - wcs.ref_ra_rad) < 1e-13);
    QVERIFY(std::abs(sky->dec_rad - wcs.ref_dec_rad) < 1e-13);

    ImageData image = blankImage(256, 256);
    image.wcs = wcs;
    image.pixels[128 * 256 + 128] = 0.0125f;
    ImageView view;
    view.setImage(std::move(image));
    const QString expected =
        QString::fromStdString(apertura::formatRightAscension(wcs.ref_ra_rad) + " " +
                               apertura::formatDeclination(wcs.ref_dec_rad)) +
        "  (128, 128)  0.0125 Jy/beam";
    QCOMPARE(view.cursorText(QPointF(128.2, 127.7)), expected);
    QCOMPARE(view.cursorText(QPointF(-3, 10)), QString());
  }

  // 100 cells east (x = crpix - 100 because CDELT1 < 0) and the corner 100 east + 100 north,
  // against the analytic inverse; the flat-sky guess would be off by arcseconds.
  void offsetPixelsMatchAnalyticSin() {
    const ImageWcs wcs = testGrid();
    const SkyProjection projection(wcs);
    const double cell = 36.0 * kArcsec;
    for (const QPointF offset : {QPointF(100, 0), QPointF(100, 100), QPointF(-60, -120)}) {
      double ra = 0.0;
      double dec = 0.0;
      sinInverse(offset.x() * cell, offset.y() * cell, wcs.ref_ra_rad, wcs.ref_dec_rad, ra, dec);
      const auto sky = projection.pixelToWorld(128.0 - offset.x(), 128.0 + offset.y());
      QVERIFY(sky.has_value());
      QVERIFY2(std::abs(sky->ra_rad - ra) < 1e-11,
               qPrintable(QString::number((sky->ra_rad - ra) / kArcsec)));
      QVERIFY(std::abs(sky->dec_rad - dec) < 1e-11);
      if (offset == QPointF(100, 0)) {
        QVERIFY(sky->ra_rad > wcs.ref_ra_rad);  // east = larger RA
        const double flat_ra = wcs.ref_ra_rad + 100 * cell / std::cos(wcs.ref_dec_rad);
        QVERIFY(std::abs(flat_ra - ra) > 0.1 * kArcsec);  // the test can tell SIN from flat
      }
    }
  }

  void noGridMeansNoSkyReadout() {
    ImageView view;
    view.setImage(blankImage(8, 8));
    QCOMPARE(view.cursorText(QPointF(2, 3)), QString("(2, 3)  0 Jy/beam"));
    QVERIFY(!SkyProjection(ImageWcs{}).valid());
  }
};

APERTURA_OFFSCREEN_TEST_MAIN(TestImageView)
#include "test_image_view.moc"
