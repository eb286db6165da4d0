// Run > Run with launcher: the demo project runs in an apertura-cli process (plain, or under
// mpirun with two ranks), its JSON events reach the convergence charts and its FITS outputs the
// image views; a launcher that does not exist is a readable error and the window stays usable.
#include <QApplication>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "gui/controller/app_preferences.h"
#include "gui/controller/run_controller.h"
#include "gui/dialogs/preferences_dialog.h"
#include "gui/plots/convergence_panel.h"
#include "gui/view/image_panel.h"
#include "gui/view/image_view.h"
#include "gui/view/vtk_host_widget.h"
#include "gui/window/image_tabs.h"
#include "gui/window/main_window.h"
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
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir_.path() + "/settings");
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
    setLauncher(QString());
    MainWindow w;
    apertura::testing::openDemoForLbfgsRun(w, kIterations, dir_.path());
    if (QTest::currentTestFailed())
      return;
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
    setLauncher(QStringLiteral("/nonexistent/launcher"));
    MainWindow w;
    apertura::testing::openDemoForLbfgsRun(w, kIterations, dir_.path());
    if (QTest::currentTestFailed())
      return;
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
    setLauncher(QStringLiteral("env"));
    MainWindow w;
    apertura::testing::openDemoForLbfgsRun(w, 5000, dir_.path());
    if (QTest::currentTestFailed())
      return;
    QSignalSpy finished(&w, &MainWindow::runFinished);
    QSignalSpy iterations(w.runController(), &apertura::gui::RunController::iterations);
    QVERIFY(w.startLauncherRun());
    QVERIFY(iterations.wait(120000));  // it really runs before Stop
    w.runController()->cancel();
    QVERIFY(finished.wait(30000));
    QCOMPARE(finished.at(0).at(0).toString(), QStringLiteral("cancelled"));
  }

 private:
  void runDemo(const QString& launcher) {
    setLauncher(launcher);
    MainWindow w;
    apertura::testing::openDemoForLbfgsRun(w, kIterations, dir_.path());
    if (QTest::currentTestFailed())
      return;
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
    QVERIFY(logText(w).contains("loaded 5 images"));
    const QString shot = apertura::testing::artifact(
        QStringLiteral("launcher-run-%1.png").arg(launcher.startsWith("mpirun") ? "mpi" : "cli"));
    if (!shot.isEmpty())
      w.grab().save(shot);
  }

  QTemporaryDir dir_;
};

int main(int argc, char** argv) {
  apertura::gui::VtkHostWidget::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  QApplication::setQuitOnLastWindowClosed(false);
  QApplication::setOrganizationName("AperturaTest");
  QApplication::setApplicationName("test_launcher_run");
  TestLauncherRun test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_launcher_run.moc"
