// The 3D tab's iteration stack: the bounded stack of model snapshots (downsampling, thinning,
// memory), the volume view that ray-casts it (a non-blank picture that changes when rotated), and
// a demo run in the real window with the volume on screen.
#include <QApplication>
#include <QFile>
#include <QOpenGLContext>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "core/engine/run_observer.h"
#include "gui/controller/run_controller.h"
#include "gui/panels/run_settings_panel.h"
#include "gui/view/image_panel.h"
#include "gui/view/image_view.h"
#include "gui/view/iteration_stack.h"
#include "gui/view/volume_scene.h"
#include "gui/view/volume_view.h"
#include "gui/view/vtk_host_widget.h"
#include "gui/window/image_tabs.h"
#include "gui/window/main_window.h"
#include "gui/window/surface_tab.h"
#include "tests/gui/event_loop_monitor.h"

using apertura::gui::IterationStack;
using apertura::gui::MainWindow;
using apertura::gui::SurfaceTab;
using apertura::gui::VolumeScene;
using apertura::gui::VolumeView;

namespace {

struct PictureStats {
  double variance = 0.0;  // of the grey level
  int foreground = 0;     // pixels differing from the background colour
};

PictureStats pictureStats(const QImage& image, QRgb background) {
  PictureStats s;
  const QImage img = image.convertToFormat(QImage::Format_RGB32);
  double sum = 0.0, sum2 = 0.0;
  for (int y = 0; y < img.height(); ++y) {
    for (int x = 0; x < img.width(); ++x) {
      const QRgb p = img.pixel(x, y);
      const double g = qGray(p);
      sum += g;
      sum2 += g * g;
      const int d = std::abs(qRed(p) - qRed(background)) +
                    std::abs(qGreen(p) - qGreen(background)) +
                    std::abs(qBlue(p) - qBlue(background));
      s.foreground += d > 24 ? 1 : 0;
    }
  }
  const double n = double(img.width()) * img.height();
  s.variance = n > 0 ? sum2 / n - (sum / n) * (sum / n) : 0.0;
  return s;
}

QRgb backgroundOf(VolumeView& /*view*/) {
  return VolumeView::backgroundColor().rgb();
}

int differingPixels(const QImage& a, const QImage& b) {
  const QImage ia = a.convertToFormat(QImage::Format_RGB32);
  const QImage ib = b.convertToFormat(QImage::Format_RGB32);
  if (ia.size() != ib.size())
    return ia.width() * ia.height();
  int n = 0;
  for (int y = 0; y < ia.height(); ++y) {
    for (int x = 0; x < ia.width(); ++x)
      n += ia.pixel(x, y) != ib.pixel(x, y) ? 1 : 0;
  }
  return n;
}

// A Gaussian blob (peak 1, sigma 5 px) that moves right by one pixel per iteration.
std::vector<float> blob(int n, int iteration) {
  std::vector<float> p(std::size_t(n) * n);
  const double cx = 16.0 + iteration, cy = 0.5 * n;
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x)
      p[std::size_t(y) * n + x] =
          float(std::exp(-((x - cx) * (x - cx) + (y - cy) * (y - cy)) / (2.0 * 25.0)));
  }
  return p;
}

constexpr qint64 kMaxStallMs = 50;  // the requirement for the event loop during a run

void saveArtifact(const QImage& image, const QString& name) {
  const QString dir = qEnvironmentVariable("APERTURA_TEST_ARTIFACTS");
  if (!dir.isEmpty())
    image.save(dir + "/" + name);
}

}  // namespace

class TestVolumeView : public QObject {
  Q_OBJECT
 private slots:
  // Block means of the finite pixels, partial blocks at the edges included.
  void stackDownsamplesByBlockMeans() {
    IterationStack stack(8, 16);
    const int nx = 50, ny = 30;
    std::vector<float> p(std::size_t(nx) * ny);
    for (int y = 0; y < ny; ++y) {
      for (int x = 0; x < nx; ++x)
        p[std::size_t(y) * nx + x] = float(x + 100 * y);
    }
    p[1] = std::numeric_limits<float>::quiet_NaN();  // pixel (1, 0) blanked
    QVERIFY(stack.add(0, nx, ny, p));
    QCOMPARE(stack.factor(), 4);  // ceil(50 / 16)
    QCOMPARE(stack.nx(), 13);
    QCOMPARE(stack.ny(), 8);
    const auto& s = stack.slices().front()->pixels;
    // Block (0, 0): x 0..3, y 0..3 without (1, 0): (sum of x + 100 y over 16 pixels - 1) / 15.
    QVERIFY(std::abs(s[0] - (6.0 * 4 + 100.0 * 6 * 4 - 1.0) / 15.0) < 1e-4);
    // Block (12, 7): x 48..49, y 28..29: mean x 48.5, mean y 28.5.
    QCOMPARE(s[std::size_t(7) * 13 + 12], 48.5f + 2850.0f);
    // Inconsistent input is refused and changes nothing.
    QVERIFY(!stack.add(1, nx, ny, std::vector<float>(10)));
    QCOMPARE(stack.sliceCount(), 1);
  }

  // However long the run, at most maxSlices + 1 slices, evenly spread, the newest on top.
  void stackStaysBoundedAndEven() {
    IterationStack stack(8, 16);
    const int n = 64;
    for (int it = 0; it < 100; ++it)
      QVERIFY(stack.add(it, n, n, blob(n, it % 30)));
    const auto slices = stack.slices();
    QVERIFY2(slices.size() <= 9 && slices.size() >= 5, qPrintable(QString::number(slices.size())));
    QCOMPARE(slices.front()->iteration, 0);
    QCOMPARE(slices.back()->iteration, 99);
    const int step = slices[1]->iteration - slices[0]->iteration;
    QCOMPARE(step, stack.keepEvery());
    for (std::size_t i = 1; i + 1 < slices.size(); ++i)
      QCOMPARE(slices[i]->iteration - slices[i - 1]->iteration, step);
    QVERIFY(stack.bytes() <= std::size_t(9) * 16 * 16 * sizeof(float));
    QCOMPARE(stack.bytes(), slices.size() * 16 * 16 * sizeof(float));

    // The same iteration again updates the top slice; an earlier one starts a new run.
    const std::size_t count = slices.size();
    QVERIFY(stack.add(99, n, n, std::vector<float>(std::size_t(n) * n, 7.0f)));
    QCOMPARE(std::size_t(stack.sliceCount()), count);
    QCOMPARE(stack.slices().back()->pixels[5], 7.0f);
    QVERIFY(stack.add(3, n, n, blob(n, 0)));
    QCOMPARE(stack.sliceCount(), 1);
    QCOMPARE(stack.keepEvery(), 1);
    // Another image size starts over too.
    QVERIFY(stack.add(4, 32, 32, blob(32, 0)));
    QCOMPARE(stack.sliceCount(), 1);
    QCOMPARE(stack.nx(), 16);
  }

  // Each slice is scaled on its own: its sky (median + 3 MAD) is transparent, a high percentile is
  // full brightness, and asinh lifts faint emission (3 % of the peak) above the transparent floor
  // (0.12) where a linear scale leaves it at 0.03; a model 10^4 times fainter looks the same;
  // negatives and blanks are empty; the stack is half as tall as the image is wide.
  void slicesAreNormalisedOnTheirOwn() {
    const int n = 32;
    const std::size_t plane = std::size_t(n) * n;
    apertura::gui::VolumeInput input;
    input.nx = input.ny = n;
    input.nz = 2;
    input.pixel = 2.0;
    input.values.assign(plane * 2, 0.0f);
    const std::size_t centre = std::size_t(n / 2) * n + n / 2;
    for (int k = 0; k < 2; ++k) {
      const float peak = k == 0 ? 0.01f : 100.0f;
      float* s = input.values.data() + plane * k;
      for (int y = 0; y < n; ++y) {
        for (int x = 0; x < n; ++x) {
          const std::size_t i = std::size_t(y) * n + x;
          // Sky: a low positive ripple (0 to 0.2 % of the peak), as RML models have.
          s[i] = 0.002f * peak * float((x * 7 + y * 13) % 10) / 10.0f;
          if (std::hypot(x - n / 2.0, y - n / 2.0) < 6.0)
            s[i] = 0.03f * peak;  // a faint disk
          if (std::abs(x - n / 2) <= 1 && std::abs(y - n / 2) <= 1)
            s[i] = peak;  // a bright 3 x 3 source on it
        }
      }
      s[0] = -peak;                                    // negative: empty
      s[1] = std::numeric_limits<float>::quiet_NaN();  // blank: empty
    }
    VolumeScene scene;
    scene.setInput(input);
    const float* v = scene.normalisedValues();
    QVERIFY(v);
    const std::size_t disk = centre + 4;
    const std::size_t sky = std::size_t(2) * n + 20;
    for (int k = 0; k < 2; ++k) {
      const float* s = v + plane * k;
      QCOMPARE(s[centre], 1.0f);
      QVERIFY2(s[disk] > 0.2f && s[disk] < 0.5f, qPrintable(QString::number(s[disk])));
      QCOMPARE(s[sky], 0.0f);
      QCOMPARE(s[0], 0.0f);
      QCOMPARE(s[1], 0.0f);
    }
    // Per slice: the faint first model is drawn exactly like the bright second one.
    for (std::size_t i = 0; i < plane; ++i)
      QVERIFY(std::abs(v[i] - v[plane + i]) < 1e-5f);
    // A flat slice has no emission at all.
    std::vector<float> flat(plane, 3.0f);
    VolumeScene::normaliseSlice(flat.data(), flat.size());
    QCOMPARE(*std::max_element(flat.begin(), flat.end()), 0.0f);

    const auto b = scene.bounds();
    const double width = b[1] - b[0];
    QCOMPARE(width, (n - 1) * 2.0);
    QVERIFY(std::abs((b[5] - b[4]) - 0.5 * width) < 1e-9);
  }

  // The stack as a ray-cast volume: a non-blank picture that changes when rotated.
  void volumeRendersAndRotates() {
    IterationStack stack;
    const int n = 64;
    for (int it = 0; it < 20; ++it)
      stack.add(it, n, n, blob(n, it));
    VolumeView view;
    view.resize(480, 400);
    view.setStack(stack);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const auto dims = view.dimensions();
    QCOMPARE(dims[0], 64);
    QCOMPARE(dims[1], 64);
    QCOMPARE(dims[2], 20);
    QCOMPARE(view.slices(), 20);
    QVERIFY(view.valueRange().valid());

    const QImage first = view.grabRendered();
    QVERIFY2(!first.isNull(), qPrintable(view.errorText()));
    saveArtifact(first, "volume_view.png");
    const PictureStats stats = pictureStats(first, backgroundOf(view));
    qInfo("volume: %s on %s, %.1f ms per frame, grey variance %.1f, %d foreground pixels",
          qPrintable(view.method()), qPrintable(view.glRenderer()), view.lastFrameMs(),
          stats.variance, stats.foreground);
    QVERIFY(!view.method().isEmpty());
    if (view.softwareGl())
      QCOMPARE(view.method(), QString("CPU ray casting"));
    QVERIFY2(stats.variance > 50.0, qPrintable(QString::number(stats.variance)));
    QVERIFY2(stats.foreground > 2000, qPrintable(QString::number(stats.foreground)));

    const int frames = view.framesRendered();
    view.rotate(70.0);
    const QImage rotated = view.grabRendered();
    QVERIFY(view.framesRendered() > frames);
    saveArtifact(rotated, "volume_view_rotated.png");
    const int changed = differingPixels(first, rotated);
    QVERIFY2(changed > 2000, qPrintable(QString("only %1 pixels changed").arg(changed)));

    // A mouse drag rotates through the interactor, which renders outside paint: that frame is
    // read back and shown too.
    const int before_drag = view.framesRendered();
    QTest::mousePress(&view, Qt::LeftButton, {}, QPoint(240, 200));
    QTest::mouseMove(&view, QPoint(300, 220));
    QTest::mouseRelease(&view, Qt::LeftButton, {}, QPoint(300, 220));
    QTRY_VERIFY_WITH_TIMEOUT(view.framesRendered() > before_drag, 20000);
    QVERIFY(differingPixels(rotated, view.grabRendered()) > 500);

    // Clearing shows the placeholder only.
    view.clear();
    QCOMPARE(view.slices(), 0);
    const PictureStats empty = pictureStats(view.grabRendered(), backgroundOf(view));
    QVERIFY2(empty.foreground < stats.foreground / 2,
             qPrintable(QString::number(empty.foreground)));
  }

  // A demo run in the window with the volume on screen: the stack receives the model snapshots,
  // its top slice is the final model, the picture is not blank and the event loop keeps running.
  void demoRunFillsTheStack() {
    const QString artifacts = qEnvironmentVariable("APERTURA_TEST_ARTIFACTS");
    qputenv("XDG_DATA_HOME", QFile::encodeName(artifacts.isEmpty() ? dir_.path() + "/xdg"
                                                                   : artifacts + "/xdg-data"));
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QSignalSpy loaded(&w, &MainWindow::datasetLoaded);
    w.openDemo();
    QVERIFY2(loaded.wait(180000), "the demo data set did not load");
    auto settings = w.runSettings()->settings(apertura::project::ProjectSettings{});
    QVERIFY(settings);
    settings->optimizer.method = apertura::project::OptimizerMethod::Lbfgs;
    settings->optimizer.max_iterations = 20;
    settings->optimizer.snapshot_every = 1;
    w.runSettings()->setSettings(*settings);

    SurfaceTab* tab = w.surfaceTab();
    tab->setMode(SurfaceTab::Mode::IterationStack);
    int model_snapshots = 0;
    connect(w.runController(), &apertura::gui::RunController::snapshot, this,
            [&](const std::shared_ptr<const apertura::engine::ImageSnapshot>& s) {
              model_snapshots += s->name == "model" ? 1 : 0;
            });
    QSignalSpy finished(&w, &MainWindow::runFinished);
    QVERIFY(w.startRun());
    w.centralTabs()->setCurrentWidget(tab);  // the run shows the dirty image first
    const double load_before = apertura::testing::loadAverage();
    apertura::testing::EventLoopMonitor loop;
    loop.start();
    QVERIFY(finished.wait(240000));
    loop.stop();
    const qint64 worst = loop.worstGapMs();
    const double worst_cpu = loop.worstGuiCpuMs();
    QCOMPARE(finished.first().at(0).toString(), QString("finished"));
    w.centralTabs()->setCurrentWidget(tab);
    tab->refreshNow();

    const IterationStack& stack = tab->stack();
    VolumeView* volume = tab->volumeView();
    qInfo(
        "demo run with the volume on screen: %d model snapshots, %d slices, %zu bytes, "
        "%d frames (last %.1f ms, %s), worst event-loop gap %lld ms, most GUI-thread CPU "
        "between two ticks %.1f ms, load average before %.2f",
        model_snapshots, stack.sliceCount(), stack.bytes(), volume->framesRendered(),
        volume->lastFrameMs(), volume->threaded() ? "render thread" : "GUI thread", worst,
        worst_cpu, load_before);
    // Frames are rendered off the GUI thread wherever Qt supports OpenGL on other threads.
    QCOMPARE(volume->threaded(), QOpenGLContext::supportsThreadedOpenGL());
    // The controller hands the window the latest snapshot of each kind per batch, so a fast run
    // delivers fewer than one per iteration; the stack holds each distinct iteration delivered.
    QVERIFY2(model_snapshots >= 3, qPrintable(QString::number(model_snapshots)));
    QVERIFY(stack.sliceCount() >= 3);
    QVERIFY(stack.sliceCount() <= model_snapshots);
    QCOMPARE(volume->slices(), stack.sliceCount());
    QVERIFY(volume->framesRendered() >= 1);

    // The top slice is the final model, block-averaged.
    const auto model = w.imageTabs()->panel("model")->view()->image();
    QVERIFY(model && !model->empty());
    const int f = stack.factor();
    QCOMPARE(stack.nx(), (model->nx + f - 1) / f);
    const auto& top = stack.slices().back()->pixels;
    double worst_diff = 0.0, peak = 0.0;
    for (int by = 0; by < stack.ny(); by += 7) {
      for (int bx = 0; bx < stack.nx(); bx += 5) {
        double sum = 0.0;
        int count = 0;
        for (int y = by * f; y < std::min(model->ny, (by + 1) * f); ++y) {
          for (int x = bx * f; x < std::min(model->nx, (bx + 1) * f); ++x) {
            sum += model->at(x, y);
            ++count;
          }
        }
        const double expected = sum / count;
        peak = std::max(peak, std::abs(expected));
        worst_diff =
            std::max(worst_diff, std::abs(expected - top[std::size_t(by) * stack.nx() + bx]));
      }
    }
    QVERIFY2(worst_diff <= 1e-5 * std::max(peak, 1e-12),
             qPrintable(QString("top slice differs from the model by %1").arg(worst_diff)));

    const QImage picture = volume->grabRendered();
    saveArtifact(picture, "volume_view_demo.png");
    saveArtifact(w.grab().toImage(), "main-window-volume.png");
    const PictureStats stats = pictureStats(picture, backgroundOf(*volume));
    QVERIFY2(stats.variance > 20.0, qPrintable(QString::number(stats.variance)));
    QVERIFY2(worst < 1000, qPrintable(QString("the event loop froze for %1 ms").arg(worst)));
    // The requirement with the volume on screen, as test_run_status checks it without:
    // the GUI thread's own work between two 5 ms ticks stays under 50 ms (always enforced), and
    // so does the wall-clock gap, unless other processes held the CPU before the run started.
    QVERIFY2(worst_cpu < kMaxStallMs,
             qPrintable(QString("the GUI thread worked %1 ms without returning to the event loop")
                            .arg(worst_cpu)));
    const int cores = QThread::idealThreadCount();
    if (worst >= kMaxStallMs && load_before >= cores) {
      QSKIP(qPrintable(QString("wall-clock gap %1 ms not checked against %2 ms: load average %3 "
                               "on %4 cores before the run")
                           .arg(worst)
                           .arg(kMaxStallMs)
                           .arg(load_before, 0, 'f', 2)
                           .arg(cores)));
    }
    QVERIFY2(worst < kMaxStallMs,
             qPrintable(QString("the event loop stalled for %1 ms").arg(worst)));
  }

 private:
  QTemporaryDir dir_;
};

int main(int argc, char** argv) {
  apertura::gui::VtkHostWidget::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  TestVolumeView test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_volume_view.moc"
