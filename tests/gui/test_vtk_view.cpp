#include <QApplication>
#include <QColor>
#include <QDir>
#include <QImage>
#include <QObject>
#include <QRandomGenerator>
#include <QScreen>
#include <QString>
#include <QTest>
#include <QWheelEvent>

#include <vtkRenderer.h>

#include <cmath>
#include <vector>

#include "gui/view/uv_coverage_view.h"

namespace {

using apertura::gui::UvCoverageView;

struct PixelStats {
  int differing = 0;  // pixels noticeably different from the background
  int bright = 0;     // pixels much brighter than the dark background
  bool uniform = true;
};

// Tolerance absorbs MSAA edge blending and 8-bit rounding of the background colour.
constexpr int kTolerance = 24;
constexpr double kTwoPi = 6.283185307179586;

PixelStats analyse(const QImage& image, QRgb background) {
  PixelStats stats;
  const QImage img = image.convertToFormat(QImage::Format_RGB32);
  const QRgb first = img.pixel(0, 0);
  for (int y = 0; y < img.height(); ++y) {
    for (int x = 0; x < img.width(); ++x) {
      const QRgb p = img.pixel(x, y);
      if (p != first) {
        stats.uniform = false;
      }
      const int dr = std::abs(qRed(p) - qRed(background));
      const int dg = std::abs(qGreen(p) - qGreen(background));
      const int db = std::abs(qBlue(p) - qBlue(background));
      if (dr + dg + db > kTolerance) {
        ++stats.differing;
      }
      if (qGray(p) > 96) {
        ++stats.bright;
      }
    }
  }
  return stats;
}

// The renderer's background, as the 8-bit colour VTK writes for it.
QRgb backgroundOf(UvCoverageView& view) {
  double rgb[3];
  view.renderer()->GetBackground(rgb);
  return qRgb(static_cast<int>(std::lround(rgb[0] * 255.0)),
              static_cast<int>(std::lround(rgb[1] * 255.0)),
              static_cast<int>(std::lround(rgb[2] * 255.0)));
}

void saveArtifact(const QImage& image, const QString& name) {
  const QString dir = qEnvironmentVariable("APERTURA_TEST_ARTIFACTS");
  if (dir.isEmpty()) {
    return;
  }
  QDir().mkpath(dir);
  const QString path = QDir(dir).filePath(name);
  if (!image.save(path)) {
    qWarning("could not save test artifact %s", qPrintable(path));
  }
}

// Uniform random points in a 5 km disk; fixed seed keeps the image reproducible.
void fillDisk(UvCoverageView& view, int n) {
  QRandomGenerator rng(1234);
  std::vector<double> u;
  std::vector<double> v;
  u.reserve(n);
  v.reserve(n);
  for (int i = 0; i < n; ++i) {
    const double r = 5000.0 * std::sqrt(rng.generateDouble());
    const double phi = kTwoPi * rng.generateDouble();
    u.push_back(r * std::cos(phi));
    v.push_back(r * std::sin(phi));
  }
  view.setUvw(u, v);
}

int countDifferentPixels(const QImage& a, const QImage& b) {
  const QImage ia = a.convertToFormat(QImage::Format_RGB32);
  const QImage ib = b.convertToFormat(QImage::Format_RGB32);
  if (ia.size() != ib.size()) {
    return ia.width() * ia.height();
  }
  int count = 0;
  for (int y = 0; y < ia.height(); ++y) {
    for (int x = 0; x < ia.width(); ++x) {
      if (ia.pixel(x, y) != ib.pixel(x, y)) {
        ++count;
      }
    }
  }
  return count;
}

QImage showAndGrab(UvCoverageView& view) {
  view.resize(400, 400);
  view.show();
  if (!QTest::qWaitForWindowExposed(&view)) {
    return {};
  }
  // Let the first paint (context creation, resize, VTK render) complete before grabbing.
  QTest::qWait(200);
  return view.grabRendered();
}

// The interaction tests' scene: 500 uv points on a 400 x 400 view, shown and rendered once.
QImage showDisk(UvCoverageView& view) {
  view.resize(400, 400);
  fillDisk(view, 500);
  return showAndGrab(view);
}

}  // namespace

class TestVtkView : public QObject {
  Q_OBJECT

 private slots:
  void rendersUvPoints() {
    UvCoverageView view;
    view.resize(400, 400);
    const int n = 500;
    fillDisk(view, n);
    QCOMPARE(view.pointCount(), 2 * n);

    const QImage image = showAndGrab(view);
    QVERIFY2(!image.isNull(), "window was never exposed or grab failed");
    saveArtifact(image, QStringLiteral("uv_view.png"));

    const PixelStats stats = analyse(image, backgroundOf(view));
    qInfo("uv view: %dx%d, %d differing, %d bright", image.width(), image.height(), stats.differing,
          stats.bright);
    QVERIFY2(!stats.uniform, "rendered image is a single flat colour");
    QVERIFY2(stats.bright >= 200, qPrintable(QString("only %1 bright pixels").arg(stats.bright)));
    QVERIFY2(stats.differing >= 200,
             qPrintable(QString("only %1 non-background pixels").arg(stats.differing)));
    // The background must still dominate; a fully bright frame means garbage, not points.
    QVERIFY2(stats.differing < image.width() * image.height() / 2,
             qPrintable(QString("%1 non-background pixels").arg(stats.differing)));

    // grabFramebuffer() only proves our FBO holds the frame; on X11 the window contents can be
    // read back too, which also covers Qt's composition of that FBO onto the screen.
    if (QGuiApplication::platformName() == QLatin1String("xcb")) {
      const QImage on_screen = view.screen()->grabWindow(view.winId()).toImage();
      saveArtifact(on_screen, QStringLiteral("uv_view_screen.png"));
      const PixelStats screen_stats = analyse(on_screen, backgroundOf(view));
      qInfo("on screen: %d bright", screen_stats.bright);
      QVERIFY2(screen_stats.bright >= 200,
               qPrintable(QString("only %1 bright pixels on screen").arg(screen_stats.bright)));
    }
  }

  void emptyViewShowsPlaceholder() {
    UvCoverageView view;
    const QImage image = showAndGrab(view);
    QVERIFY2(!image.isNull(), "window was never exposed or grab failed");
    saveArtifact(image, QStringLiteral("uv_view_empty.png"));

    const PixelStats stats = analyse(image, backgroundOf(view));
    qInfo("empty view: %d differing", stats.differing);
    QVERIFY2(!stats.uniform, "placeholder view is a single flat colour");
    QVERIFY2(stats.differing > 100,
             qPrintable(QString("only %1 non-background pixels").arg(stats.differing)));
    // A thin outline must leave the background dominant; anything else is a broken frame.
    QVERIFY2(stats.differing < image.width() * image.height() / 2,
             qPrintable(QString("%1 non-background pixels").arg(stats.differing)));
  }

  // Interaction renders outside paintGL; that frame must still reach the widget.
  void wheelZoomChangesView() {
    UvCoverageView view;
    const QImage before = showDisk(view);
    QVERIFY2(!before.isNull(), "window was never exposed or grab failed");

    const QPointF centre(200.0, 200.0);
    for (int i = 0; i < 3; ++i) {
      QWheelEvent wheel(centre, view.mapToGlobal(centre), QPoint(), QPoint(0, 120), Qt::NoButton,
                        Qt::NoModifier, Qt::NoScrollPhase, false);
      QApplication::sendEvent(&view, &wheel);
    }
    QTest::qWait(100);
    const QImage after = view.grabRendered();
    saveArtifact(after, QStringLiteral("uv_view_zoomed.png"));

    const int changed = countDifferentPixels(before, after);
    qInfo("zoom changed %d pixels", changed);
    QVERIFY2(changed > 500, qPrintable(QString("only %1 pixels changed").arg(changed)));
    const PixelStats stats = analyse(after, backgroundOf(view));
    QVERIFY2(stats.bright >= 200, qPrintable(QString("only %1 bright pixels").arg(stats.bright)));
  }

  // A left-button drag reaches the interactor through press, move and release, and the frame
  // it renders reaches the widget.
  void dragChangesView() {
    UvCoverageView view;
    const QImage before = showDisk(view);
    QVERIFY2(!before.isNull(), "window was never exposed or grab failed");
    const int frames = view.framesRendered();

    QTest::mousePress(&view, Qt::LeftButton, {}, QPoint(200, 200));
    QTest::mouseMove(&view, QPoint(280, 230));
    QTest::mouseRelease(&view, Qt::LeftButton, {}, QPoint(280, 230));
    QTest::qWait(100);
    QVERIFY2(view.framesRendered() > frames, "the drag rendered no frame");
    const QImage after = view.grabRendered();
    const int changed = countDifferentPixels(before, after);
    qInfo("drag changed %d pixels", changed);
    QVERIFY2(changed > 500, qPrintable(QString("only %1 pixels changed").arg(changed)));
  }
};

int main(int argc, char** argv) {
  // Must precede QApplication: the default format only applies to contexts created later.
  apertura::gui::VtkHostWidget::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  TestVtkView test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_vtk_view.moc"
