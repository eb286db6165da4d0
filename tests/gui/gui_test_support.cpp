#include "tests/gui/gui_test_support.h"

#include <QComboBox>
#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "gui/controller/app_preferences.h"
#include "gui/controller/recent_projects.h"
#include "gui/panels/run_settings_panel.h"
#include "gui/window/main_window.h"

namespace apertura::testing {

QString artifact(const QString& name) {
  const QString dir = qEnvironmentVariable("APERTURA_TEST_ARTIFACTS");
  return dir.isEmpty() ? QString() : dir + "/" + name;
}

QComboBox* comboWith(apertura::gui::MainWindow& w, const QString& item) {
  for (QComboBox* c : w.runSettings()->findChildren<QComboBox*>()) {
    if (c->findText(item) >= 0)
      return c;
  }
  return nullptr;
}

void openDemoForLbfgsRun(apertura::gui::MainWindow& w, int iterations,
                         const QString& fallback_dir) {
  // The demo is generated on first use; keep it with the test artifacts so reruns reuse it.
  const QString artifacts = qEnvironmentVariable("APERTURA_TEST_ARTIFACTS");
  qputenv("XDG_DATA_HOME",
          QFile::encodeName(artifacts.isEmpty() ? fallback_dir + "/xdg" : artifacts + "/xdg-data"));
  w.resize(1400, 900);
  w.show();
  QVERIFY(QTest::qWaitForWindowExposed(&w));

  QSignalSpy loaded(&w, &apertura::gui::MainWindow::datasetLoaded);
  w.openDemo();
  QVERIFY2(loaded.wait(180000), "the demo data set did not load");

  auto settings = w.runSettings()->settings(apertura::project::ProjectSettings{});
  QVERIFY2(settings, qPrintable(w.runSettings()->validationMessage()));
  settings->optimizer.method = apertura::project::OptimizerMethod::Lbfgs;
  settings->optimizer.max_iterations = iterations;
  // 256 px: quick runs (the default project's 512 px would only make them slower).
  settings->imaging.nx = settings->imaging.ny = 256;
  // A fixed lambda: one solver run of exactly `iterations` (an automatic one adds a path first).
  settings->regularizers = {{"l1", 1.0, false, {}}};
  w.runSettings()->setSettings(*settings);
}

std::unique_ptr<apertura::gui::MainWindow> demoWindowForLbfgsRun(int iterations,
                                                                 const QTemporaryDir& dir) {
  auto w = std::make_unique<apertura::gui::MainWindow>();
  // QVERIFY returns from the lambda on failure, so the window is still dropped below.
  [&] {
    QVERIFY(dir.isValid());
    openDemoForLbfgsRun(*w, iterations, dir.path());
  }();
  if (QTest::currentTestFailed())
    w.reset();
  return w;
}

void runToFinish(apertura::gui::MainWindow& w, const std::function<void()>& started) {
  QSignalSpy finished(&w, &apertura::gui::MainWindow::runFinished);
  QVERIFY(w.startRun());
  if (started)
    started();
  QVERIFY(finished.wait(240000));
  QCOMPARE(finished.first().at(0).toString(), QString("finished"));
}

void useThrowAwaySettings(const QString& dir) {
  QSettings::setDefaultFormat(QSettings::IniFormat);
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir + "/settings");
}

void resetRecentProjectsAndPreferences() {
  apertura::gui::RecentProjects::clear();
  apertura::gui::AppPreferences{}.save();
}

void configureSettingsTestApplication(const char* name) {
  QApplication::setQuitOnLastWindowClosed(false);
  QApplication::setOrganizationName("AperturaTest");
  QApplication::setApplicationName(name);
}

}  // namespace apertura::testing
