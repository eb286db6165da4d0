// Run > Run with launcher: the demo project runs in an apertura-cli process (plain, or under
// mpirun with two ranks), its JSON events reach the convergence charts and its FITS outputs the
// image views; a launcher that does not exist is a readable error and the window stays usable.
#include <QDir>
#include <QFileInfo>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <memory>

#include "core/engine/run_observer.h"
#include "gui/controller/app_preferences.h"
#include "gui/controller/run_controller.h"
#include "gui/dialogs/preferences_dialog.h"
#include "gui/panels/run_settings_panel.h"
#include "gui/plots/convergence_panel.h"
#include "gui/view/image_panel.h"
#include "gui/view/image_view.h"
#include "gui/window/image_tabs.h"
#include "gui/window/main_window.h"
#include "gui/window/project_actions.h"
#include "gui/window/surface_tab.h"
#include "gui_test_support.h"

using apertura::gui::AppPreferences;
using apertura::gui::MainWindow;

namespace {
constexpr int kIterations = 4;

void setLauncher(const QString& launcher) {
  AppPreferences p = AppPreferences::load();
  p.launcher_command = launcher;
  p.save();
}

QString logText(MainWindow& w) {
  QString text;
  for (auto* edit : w.findChildren<QPlainTextEdit*>())
    text += edit->toPlainText();
  return text;
}
}  // namespace

class TestLauncherRun : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    apertura::testing::useThrowAwaySettings(dir_.path());
    qputenv("APERTURA_CLI", QByteArray(APERTURA_CLI_PATH));
  }

  void preferencesStoreLauncher() {
    setLauncher(QString());
    apertura::gui::PreferencesDialog dialog;
    QCOMPARE(dialog.launcherEdit()->text(), QString());
    dialog.launcherEdit()->setText(QStringLiteral("  mpirun -np 4  "));
    dialog.accept();
    QCOMPARE(AppPreferences::load().launcher_command, QStringLiteral("mpirun -np 4"));
    apertura::gui::PreferencesDialog reopened;
    QCOMPARE(reopened.launcherEdit()->text(), QStringLiteral("mpirun -np 4"));
  }

  void disabledWithoutLauncher() {
    const auto window = demoWindow(QString(), kIterations);
    if (!window)
      return;
    MainWindow& w = *window;
    QVERIFY(!w.launcherRunAction()->isEnabled());
    QVERIFY(!w.startLauncherRun());
    QVERIFY(logText(w).contains("no launcher command"));
  }

  void plainCliRun() { runDemo(QStringLiteral("env")); }

  void mpirunTwoRanks() {
    if (QStandardPaths::findExecutable("mpirun").isEmpty())
      QSKIP("mpirun not installed");
    runDemo(QStringLiteral("mpirun --allow-run-as-root --oversubscribe -np 2"));
  }

  void badLauncherIsReadableError() {
    const auto window = demoWindow(QStringLiteral("/nonexistent/launcher"), kIterations);
    if (!window)
      return;
    MainWindow& w = *window;
    QSignalSpy finished(&w, &MainWindow::runFinished);
    QVERIFY(w.startLauncherRun());
    QVERIFY(finished.wait(20000) || finished.count() == 1);
    QCOMPARE(finished.at(0).at(0).toString(), QStringLiteral("failed"));
    const QString message = finished.at(0).at(1).toString();
    QVERIFY2(message.contains("/nonexistent/launcher"), qPrintable(message));
    QVERIFY2(logText(w).contains("Could not start launcher \"/nonexistent/launcher\""),
             qPrintable(logText(w)));
    // Still usable: an in-process run starts and finishes afterwards.
    QVERIFY(!w.runController()->isRunning());
    QVERIFY(w.startRun());
    QVERIFY(finished.wait(120000));
    QCOMPARE(finished.at(1).at(0).toString(), QStringLiteral("finished"));
  }

  void stopCancelsLauncherRun() {
    const auto window = demoWindow(QStringLiteral("env"), 5000);
    if (!window)
      return;
    MainWindow& w = *window;
    QSignalSpy iterations(w.runController(), &apertura::gui::RunController::iterations);
    QVERIFY(w.startLauncherRun());
    stopOnceRunning(w, iterations);  // it really runs before Stop
  }

  // apertura-cli --snapshot-dir: the model view and the iteration stack change DURING the run
  // (before "finished"); the run's project file and snapshots live in a temporary folder that is
  // gone afterwards, and nothing is left beside the user's saved project.
  void snapshotsArriveDuringTheRun() {
    const auto window = demoWindow(QStringLiteral("env"), 12);
    if (!window)
      return;
    MainWindow& w = *window;
    auto settings = w.runSettings()->settings(apertura::project::ProjectSettings{});
    QVERIFY(settings);
    settings->optimizer.snapshot_every = 1;
    w.runSettings()->setSettings(*settings);
    QTemporaryDir project_dir;
    QVERIFY(project_dir.isValid());
    const QString project = project_dir.filePath("snapshots-demo.apertura");
    QVERIFY(w.projectActions()->saveAs(project));

    QSignalSpy finished(&w, &MainWindow::runFinished);
    auto* model = w.imageTabs()->panel("model");
    QVERIFY(model);
    // Connected after the window's own connections: when this runs, the views have the image.
    QList<int> model_iterations_before_finish;
    int stack_slices_before_finish = 0;
    connect(w.runController(), &apertura::gui::RunController::snapshot, this,
            [&](const std::shared_ptr<const apertura::engine::ImageSnapshot>& s) {
              if (s->name != "model" || !finished.isEmpty())
                return;
              model_iterations_before_finish << s->iteration;
              QVERIFY(model->view()->image());
              QCOMPARE(model->view()->image()->nx, s->nx);
              QCOMPARE(model->view()->image()->at(s->nx / 2, s->ny / 2),
                       double(s->pixels[std::size_t(s->ny / 2) * s->nx + s->nx / 2]));
              stack_slices_before_finish = w.surfaceTab()->stack().sliceCount();
            });
    QVERIFY(w.startLauncherRun());
    const QString snapshot_dir = snapshotDir(w);
    QVERIFY2(!snapshot_dir.isEmpty(), qPrintable(logText(w)));
    const QString run_dir = QFileInfo(snapshot_dir).absolutePath();
    QVERIFY(!run_dir.startsWith(project_dir.path()));
    QVERIFY(QFileInfo::exists(run_dir + "/launcher.apertura"));
    QVERIFY(finished.wait(300000));
    QVERIFY2(finished.at(0).at(0).toString() == "finished",
             qPrintable(finished.at(0).at(1).toString() + "\n" + logText(w)));

    qInfo("model snapshots before finished: %s; stack slices %d", qPrintable([&] {
            QStringList l;
            for (int i : model_iterations_before_finish)
              l << QString::number(i);
            return l.join(' ');
          }()),
          stack_slices_before_finish);
    // Several model snapshots, in increasing iteration order, reached the views mid-run.
    QVERIFY2(model_iterations_before_finish.size() >= 2, qPrintable(logText(w)));
    for (int i = 1; i < model_iterations_before_finish.size(); ++i)
      QVERIFY(model_iterations_before_finish[i] >= model_iterations_before_finish[i - 1]);
    QVERIFY(model_iterations_before_finish.first() < 12);
    QVERIFY(stack_slices_before_finish >= 2);
    // The first model snapshot came while the run still had iterations to go.
    const auto& metrics = w.convergence()->metrics();
    QVERIFY(!metrics.isEmpty());
    QVERIFY(model_iterations_before_finish.first() < metrics.last().iteration);
    // The temporary folder (project file and snapshots) is gone; nothing beside the project.
    QVERIFY2(!QFileInfo::exists(run_dir), qPrintable(run_dir));
    QVERIFY(!QFileInfo::exists(project_dir.filePath(".snapshots-demo.launcher.apertura")));
    const QStringList beside = QDir(project_dir.path())
                                   .entryList(QStringList() << "*.apertura",
                                              QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot);
    QCOMPARE(beside, QStringList() << "snapshots-demo.apertura");
    // The outputs are still written under the project's prefix and shown.
    QVERIFY(QFileInfo::exists(project_dir.filePath("snapshots-demo-model.fits")));
    QTRY_VERIFY_WITH_TIMEOUT(logText(w).contains("loaded 5 images"), 30000);
  }

  // Stop during a run with snapshots: the temporary folder is removed too.
  void stopRemovesSnapshotFolder() {
    const auto window = demoWindow(QStringLiteral("env"), 5000);
    if (!window)
      return;
    MainWindow& w = *window;
    QSignalSpy snapshots(w.runController(), &apertura::gui::RunController::snapshot);
    QVERIFY(w.startLauncherRun());
    const QString snapshot_dir = snapshotDir(w);
    QVERIFY2(!snapshot_dir.isEmpty(), qPrintable(logText(w)));
    const QString run_dir = QFileInfo(snapshot_dir).absolutePath();
    stopOnceRunning(w, snapshots);  // the dirty image at least
    if (QTest::currentTestFailed())
      return;
    QVERIFY2(!QFileInfo::exists(run_dir), qPrintable(run_dir));
  }

 private:
  // The run set-up every test shares: `launcher` in the preferences and a window with the demo
  // data set open for an L-BFGS run of `iterations`. Null when that failed (the test has failed).
  std::unique_ptr<MainWindow> demoWindow(const QString& launcher, int iterations) {
    setLauncher(launcher);
    auto w = std::make_unique<MainWindow>();
    apertura::testing::openDemoForLbfgsRun(*w, iterations, dir_.path());
    if (QTest::currentTestFailed())
      return nullptr;
    return w;
  }

  // Stops the running launcher run once `progress` has fired and checks that it ends cancelled.
  void stopOnceRunning(MainWindow& w, QSignalSpy& progress) {
    QVERIFY(progress.wait(120000));
    QSignalSpy finished(&w, &MainWindow::runFinished);
    w.runController()->cancel();
    QVERIFY(finished.wait(30000));
    QCOMPARE(finished.at(0).at(0).toString(), QStringLiteral("cancelled"));
  }

  // The --snapshot-dir the launcher run was started with, as the log shows the command; empty
  // when it has none.
  static QString snapshotDir(MainWindow& w) {
    return QRegularExpression("--snapshot-dir (\\S+)").match(logText(w)).captured(1);
  }

  void runDemo(const QString& launcher) {
    const auto window = demoWindow(launcher, kIterations);
    if (!window)
      return;
    MainWindow& w = *window;
    QVERIFY(w.launcherRunAction()->isEnabled());
    QSignalSpy finished(&w, &MainWindow::runFinished);
    QVERIFY(w.startLauncherRun());
    QVERIFY(!w.launcherRunAction()->isEnabled());
    QVERIFY(finished.wait(300000));
    QVERIFY2(finished.at(0).at(0).toString() == "finished",
             qPrintable(finished.at(0).at(1).toString() + "\n" + logText(w)));
    QVERIFY(finished.at(0).at(1).toString().startsWith("finished: "));
    // The charts got the iterations from the process's JSON lines, in order.
    const auto& metrics = w.convergence()->metrics();
    QVERIFY2(metrics.size() >= 2, qPrintable(logText(w)));
    QVERIFY(metrics.size() <= kIterations);
    for (int i = 1; i < metrics.size(); ++i)
      QVERIFY(metrics[i].iteration > metrics[i - 1].iteration);
    QVERIFY(std::isfinite(metrics.last().objective));
    QVERIFY(metrics.last().objective <= metrics.first().objective);
    // The model view shows the written FITS model once it is read back.
    auto* model = w.imageTabs()->panel("model");
    QVERIFY(model);
    QTRY_VERIFY_WITH_TIMEOUT(model->view()->image() && !model->view()->image()->empty(), 30000);
    QVERIFY(model->view()->image()->nx > 0 && model->view()->image()->ny > 0);
    // Snapshots fill the views during the run; the outputs are read after it.
    QTRY_VERIFY_WITH_TIMEOUT(logText(w).contains("loaded 5 images"), 30000);
    const QString shot = apertura::testing::artifact(
        QStringLiteral("launcher-run-%1.png").arg(launcher.startsWith("mpirun") ? "mpi" : "cli"));
    if (!shot.isEmpty())
      w.grab().save(shot);
  }

  QTemporaryDir dir_;
};

int main(int argc, char** argv) {
  return apertura::testing::runWindowTest<TestLauncherRun>(argc, argv, "test_launcher_run");
}

#include "test_launcher_run.moc"
