// The main window end to end: opening a data set reads it off the GUI thread, the summary panel
// shows the numbers, the uv view draws the coverage, and errors are shown rather than thrown.
#include <QApplication>
#include <QDockWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "core/sim/simulation_request.h"
#include "gui/controller/open_error_hint.h"
#include "gui/controller/run_controller.h"
#include "gui/panels/dataset_summary_panel.h"
#include "gui/panels/run_settings_panel.h"
#include "gui/plots/convergence_panel.h"
#include "gui/plots/metrics_chart.h"
#include "gui/view/uv_coverage_view.h"
#include "gui/view/vtk_host_widget.h"
#include "gui/window/image_tabs.h"
#include "gui/window/main_window.h"
#include "gui/window/window_screenshot.h"
#include "tests/support/test_ms_builder.h"

using apertura::gui::MainWindow;

namespace {

// Pixels of the uv view that differ from its top-left (background) pixel.
int foregroundPixels(const QImage& image) {
  const QRgb background = image.pixel(0, 0);
  int count = 0;
  for (int y = 0; y < image.height(); ++y) {
    for (int x = 0; x < image.width(); ++x)
      count += image.pixel(x, y) != background ? 1 : 0;
  }
  return count;
}

QString artifact(const QString& name) {
  const QString dir = qEnvironmentVariable("APERTURA_TEST_ARTIFACTS");
  return dir.isEmpty() ? QString() : dir + "/" + name;
}

}  // namespace

class TestMainWindow : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    ms_ = QString::fromStdString(
        apertura::testing::writeTestMs((dir_.path() + "/known.ms").toStdString()));
  }

  void hasFileMenuWithOpenAndQuit() {
    MainWindow w;
    const QList<QAction*> menus = w.menuBar()->actions();
    QVERIFY(!menus.isEmpty());
    QCOMPARE(menus.first()->text(), QString("&File"));
    QStringList items;
    for (QAction* a : menus.first()->menu()->actions())
      items << a->text();
    QVERIFY2(items.contains("&Open data set…") && items.contains("&Quit"),
             qPrintable(items.join(",")));
  }

  // Activating a window focuses the first control of its tab chain (today the view tabs' bar). A
  // focused settings combo or spin box takes the wheel (WheelScrollsPanel), so a reordered chain
  // must not start the window in the run settings.
  // Issue #35 item 8: the settings scroll up and down, never sideways (at 1400 px they needed
  // a horizontal scroll bar).
  void settingsNeverScrollSideways() {
    MainWindow w;
    w.resize(800, 600);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    auto* scroll = qobject_cast<QScrollArea*>(w.findChild<QDockWidget*>("settings-dock")->widget());
    QVERIFY(scroll);
    QCOMPARE(scroll->horizontalScrollBarPolicy(), Qt::ScrollBarAlwaysOff);
    // (Layouts settle in the event loop after the first show.)
    QTRY_VERIFY2(scroll->viewport()->width() >= w.runSettings()->minimumSizeHint().width(),
                 qPrintable(QString("viewport %1 px, settings need %2 px")
                                .arg(scroll->viewport()->width())
                                .arg(w.runSettings()->minimumSizeHint().width())));
    // The window fits a 1024 px screen (#35): the settings' widest row beside the image toolbar
    // of the widest tab (1021 px measured; the 3D tab's hint is clipped rather than widening it).
    QVERIFY2(w.width() <= 1024, qPrintable(QString::number(w.width())));
  }

  void startsWithNoSettingsControlFocused() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QApplication::setActiveWindow(&w);  // Xvfb without a window manager activates nothing
    QTRY_VERIFY(QApplication::focusWidget() != nullptr);
    QWidget* focused = QApplication::focusWidget();
    auto* settings = w.findChild<apertura::gui::RunSettingsPanel*>();
    QVERIFY(settings != nullptr);
    QVERIFY2(!settings->isAncestorOf(focused), focused->metaObject()->className());
  }

  void openingShowsSummaryAndCoverage() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const QImage before = w.uvView()->grabRendered();
    QSignalSpy loaded(&w, &MainWindow::datasetLoaded);
    w.openDataset(ms_);
    QVERIFY(loaded.wait(20000));
    const QString text = w.summaryPanel()->text();
    QVERIFY2(text.contains("Rows:          12 (2 autocorrelations)"), qPrintable(text));
    QVERIFY2(text.contains("Antennas:      3 used of 4 listed"), qPrintable(text));
    QVERIFY(w.windowTitle().contains("known.ms"));
    // 10 cross-correlation rows, each drawn with its conjugate; autocorrelations left out.
    QCOMPARE(w.uvView()->pointCount(), 20);
    QTest::qWait(300);
    const QImage after = w.uvView()->grabRendered();
    QVERIFY(foregroundPixels(after) > 20);
    QVERIFY(after != before);
    const QString shot = artifact("test-main-window.png");
    if (!shot.isEmpty()) {
      QString error;
      QVERIFY2(apertura::gui::saveWindowScreenshot(w, shot, &error), qPrintable(error));
    }
  }

  void simulateThenRunShowsImagesAndPlots() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QSignalSpy loaded(&w, &MainWindow::datasetLoaded);
    apertura::sim::SimulationRequest request;
    request.points = {"1.0,0.8,0.5"};
    request.hours = 0.5;
    request.integration_s = 120.0;
    request.sigma_jy = 0.05;
    request.output = (dir_.path() + "/sim.ms").toStdString();
    w.runSimulation(request);
    QVERIFY(loaded.wait(60000));
    QVERIFY(w.summaryPanel()->text().contains("Telescope:     ALMA"));

    apertura::project::ProjectSettings s;
    s.imaging.nx = s.imaging.ny = 64;
    s.optimizer.max_iterations = 20;
    s.optimizer.snapshot_every = 1;
    s.regularizers = {{"l1", 1e-4, false, {}}, {"tsv", 1e-3, false, {}}};
    w.runSettings()->setSettings(s);
    QSignalSpy finished(&w, &MainWindow::runFinished);
    // The event loop must keep ticking while the run computes.
    QElapsedTimer clock;
    qint64 last = 0, worst = 0;
    QTimer ticker;
    ticker.setInterval(5);
    connect(&ticker, &QTimer::timeout, this, [&] {
      worst = std::max(worst, clock.elapsed() - last);
      last = clock.elapsed();
    });
    QVERIFY(w.startRun());
    clock.start();
    ticker.start();
    QVERIFY(!w.startRun());  // one run at a time
    QVERIFY(finished.wait(120000));
    ticker.stop();
    QCOMPARE(finished.first().at(0).toString(), QString("finished"));
    for (const char* name : {"dirty", "psf", "model", "residual", "restored"}) {
      QVERIFY2(w.imageTabs()->snapshotsShown(name) >= 1, name);
    }
    QCOMPARE(w.convergence()->objectiveChart()->pointCount("objective"), 20);
    qInfo("worst event-loop gap during the run: %lld ms", worst);
    QVERIFY2(worst < 250, qPrintable(QString::number(worst)));
    const QString shot = artifact("test-main-window-finished.png");
    if (!shot.isEmpty()) {
      QString error;
      QVERIFY2(apertura::gui::saveWindowScreenshot(w, shot, &error), qPrintable(error));
    }
    // Run > Continue from last model: the next run's first iteration starts at the first run's
    // fit, not from an empty image.
    const double last_chi2 = w.convergence()->metrics().last().chi2_per_dof;
    const double first_chi2 = w.convergence()->metrics().first().chi2_per_dof;
    finished.clear();
    QVERIFY(w.continueRun());
    QVERIFY(finished.wait(120000));
    QCOMPARE(finished.first().at(0).toString(), QString("finished"));
    const double resumed = w.convergence()->metrics().first().chi2_per_dof;
    qInfo("chi2/dof: first run %.3f -> %.3f, continued run starts at %.3f", first_chi2, last_chi2,
          resumed);
    QVERIFY(resumed <= last_chi2 * 1.05);
    QVERIFY(resumed < 0.5 * first_chi2);
  }

  void invalidSettingsRefuseToRun() {
    MainWindow w;
    QVERIFY(!w.startRun());  // no data set yet
    QSignalSpy loaded(&w, &MainWindow::datasetLoaded);
    w.openDataset(ms_);
    QVERIFY(loaded.wait(20000));
    apertura::project::ProjectSettings s;
    s.regularizers = {{"l1", -1.0, false, {}}};
    w.runSettings()->setSettings(s);
    QVERIFY(!w.startRun());
    // Named as the form names the field (not regularizers[0].lambda).
    QVERIFY2(w.runSettings()->validationMessage().contains("L1 λ must be a number ≥ 0, or auto"),
             qPrintable(w.runSettings()->validationMessage()));
    QVERIFY(!w.runController()->isRunning());
  }

  void badPathIsReportedInThePanel() {
    MainWindow w;
    QSignalSpy failed(&w, &MainWindow::datasetFailed);
    w.openDataset(dir_.path() + "/missing.ms");
    QVERIFY(failed.wait(20000));
    QVERIFY2(failed.first().at(1).toString().contains("no such file or directory"),
             qPrintable(failed.first().at(1).toString()));
    QVERIFY(w.summaryPanel()->text().contains("missing.ms"));
    // And in a dialog: the file, the reason and what to try (issue #35 item 6).
    auto* box = w.findChild<QMessageBox*>("open-error");
    QVERIFY(box);
    QVERIFY(box->isVisible());
    QVERIFY(box->text().contains(dir_.path() + "/missing.ms"));
    QVERIFY(box->informativeText().contains("no such file or directory"));
    QVERIFY(box->informativeText().contains("Check the path"));
    box->accept();
  }

  void openErrorHintsFollowTheReason() {
    using apertura::gui::openErrorHint;
    QVERIFY(openErrorHint("x.ms: no such file or directory").contains("Check the path"));
    QVERIFY(openErrorHint("x.ms: permission denied").contains("read the file"));
    QVERIFY(openErrorHint("x.ms: not a Measurement Set (no table.dat)").contains("UVFITS"));
    QVERIFY(openErrorHint("something else").contains("Log tab"));
  }

 private:
  QTemporaryDir dir_;
  QString ms_;
};

int main(int argc, char** argv) {
  apertura::gui::VtkHostWidget::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  TestMainWindow test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_main_window.moc"
