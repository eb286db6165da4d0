// A run over its memory budget asks before it starts (issue #35 item 7: a 20 GiB run over a
// 12 GiB budget was "Settings valid" and started): the panel says so while settings are edited,
// and Run offers what fits (a smaller image, streaming), runs anyway or cancels.
#include <QAbstractButton>
#include <QFileInfo>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolButton>
#include <QtTest>

#include "core/engine/memory_estimate.h"
#include "core/project/project_file.h"
#include "core/sim/demo_dataset.h"
#include "gui/panels/run_settings_panel.h"
#include "gui/view/image_panel.h"
#include "gui/window/image_tabs.h"
#include "gui/window/main_window.h"
#include "gui/window/project_actions.h"
#include "tests/gui/gui_test_support.h"

using namespace apertura;
using namespace apertura::gui;

namespace {

// Clicks the button of the memory confirmation whose text starts with `button` once it shows,
// keeping its text and its buttons' in `seen`.
void answerWith(const QString& button, QStringList& seen) {
  QTimer::singleShot(0, [button, &seen] {
    auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
    if (box == nullptr || box->objectName() != "memory-confirmation") {
      seen << "no dialog";
      return;
    }
    seen << box->text() << box->informativeText();
    QAbstractButton* chosen = nullptr;
    for (QAbstractButton* b : box->buttons()) {
      seen << b->text();
      if (b->text().remove('&').startsWith(button))
        chosen = b;
    }
    if (chosen != nullptr)
      chosen->click();
    else
      box->reject();
  });
}

}  // namespace

class TestMemoryConfirmation : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    testing::useThrowAwaySettings(dir_.path());
    // The demo data set (kept with the test artifacts when they are kept).
    const QString artifacts = qEnvironmentVariable("APERTURA_TEST_ARTIFACTS");
    const std::string demo_dir =
        (artifacts.isEmpty() ? dir_.path() + "/demo" : artifacts + "/xdg-data/apertura/demo")
            .toStdString();
    const std::string ms = ensureDemo(demo_dir).ms_path;
    // The demo's project with a budget of 40 MB: 256 px needs more, smaller images fit.
    project::ProjectSettings s = project::defaultProject();
    s.data.path = ms;
    s.data.memory_budget_gb = 0.04;
    s.data.mode = ReadMode::kResident;
    s.imaging.nx = s.imaging.ny = 256;
    s.regularizers = {{"l1", 1.0, false, {}}};
    s.optimizer.max_iterations = 3;
    project_ = dir_.path() + "/budget.apertura";
    project::saveProject(s, project_.toStdString());
    window_ = std::make_unique<MainWindow>();
    window_->resize(1400, 900);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
  }

  void panelSaysTheEstimateIsOverBudget() {
    openProject();
    const QString message = window_->runSettings()->validationMessage();
    QVERIFY2(message.startsWith("Settings valid, but the run needs about"), qPrintable(message));
    QVERIFY(message.contains("over the memory budget of 41 MiB"));
  }

  void cancelLeavesTheRunUnstarted() {
    openProject();
    QStringList seen;
    answerWith("Cancel", seen);
    QVERIFY(!window_->startRun());
    QVERIFY2(seen.size() > 2, qPrintable(seen.join(" | ")));
    QVERIFY(seen[0].contains("over the budget of 41 MiB"));
    QVERIFY2(seen[1].startsWith("What fits:"), qPrintable(seen[1]));
    QVERIFY(seen.contains("Stream from disk") || seen.join(" ").contains(" px"));
    QVERIFY(seen.contains("Run anyway"));
    QCOMPARE(window_->projectActions()->currentProject()->imaging.nx, 256);
  }

  void smallerImageRunsAndIsKept() {
    openProject();
    const auto s = window_->projectActions()->currentProject();
    QVERIFY(s && s->data.memory_budget_gb);
    const engine::BudgetFit fit = engine::fitWithinBudget(
        *s, window_->runSettings()->dataVolume(*s), 8ull << 30);  // the budget is the file's
    QVERIFY2(fit.image_size >= 64 && fit.image_size < 256,
             qPrintable(QString::number(fit.image_size)));
    QStringList seen;
    answerWith(QString("Use %1 px").arg(fit.image_size), seen);
    testing::runToFinish(*window_);
    QVERIFY2(seen.contains(QString("Use %1 px").arg(fit.image_size)), qPrintable(seen.join(" | ")));
    QCOMPARE(window_->projectActions()->currentProject()->imaging.nx, fit.image_size);
    // The files the run wrote beside the project are announced, with their folder.
    auto* folder = window_->findChild<QToolButton*>("open-output-folder");
    QVERIFY(folder && folder->isVisible());
    QCOMPARE(folder->property("folder").toString(), QFileInfo(project_).absolutePath());
    const QString log = window_->findChild<QPlainTextEdit*>("log")->toPlainText();
    QVERIFY2(log.contains("wrote " + QFileInfo(project_).absolutePath() + "/budget-restored.fits"),
             qPrintable(log.right(600)));
    // The next run: until it publishes an image, the one shown is labelled as the last run's
    // (snapshots arrive through the event loop, so right after the start none has yet).
    QSignalSpy finished(window_.get(), &MainWindow::runFinished);
    QVERIFY(window_->startRun());  // within the budget now: no question
    for (const char* name : {"dirty", "model", "restored"})
      QVERIFY2(window_->imageTabs()->panel(name)->caption().startsWith("Previous run"), name);
    QVERIFY(finished.wait(120000));
    for (const char* name : {"dirty", "psf", "model", "residual", "restored"})
      QVERIFY2(window_->imageTabs()->panel(name)->caption().isEmpty(), name);
    // Within the budget now: the next run asks nothing.
    QVERIFY(window_->runSettings()->validationMessage().startsWith("Settings valid"));
    QVERIFY(!window_->runSettings()->validationMessage().contains("over the memory budget"));
  }

 private:
  // (Re)opens the project file: its budget, size and data mode, as saved (what the last test
  // changed is discarded).
  void openProject() {
    window_->projectActions()->setUnsavedPrompt(
        [](const QString&) { return ProjectActions::Answer::Discard; });
    QSignalSpy opened(window_->projectActions(), &ProjectActions::projectOpened);
    QSignalSpy loaded(window_.get(), &MainWindow::datasetLoaded);
    QVERIFY(window_->projectActions()->openProject(project_));
    QVERIFY(opened.count() > 0 || opened.wait(60000));
    QVERIFY(loaded.count() > 0 || loaded.wait(120000));
    QTRY_VERIFY_WITH_TIMEOUT(
        window_->runSettings()->validationMessage().startsWith("Settings valid"), 30000);
  }

  QTemporaryDir dir_;
  std::unique_ptr<MainWindow> window_;
  QString project_;
};

int main(int argc, char** argv) {
  return apertura::testing::runWindowTest<TestMemoryConfirmation>(argc, argv,
                                                                  "test_memory_confirmation");
}
#include "test_memory_confirmation.moc"
