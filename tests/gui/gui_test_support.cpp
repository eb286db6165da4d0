#include "tests/gui/gui_test_support.h"

#include <QComboBox>
#include <QFile>
#include <QSignalSpy>
#include <QtTest>

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
  settings->optimizer.method = "lbfgs";
  settings->optimizer.max_iterations = iterations;
  w.runSettings()->setSettings(*settings);
}

}  // namespace apertura::testing
