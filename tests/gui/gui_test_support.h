#pragma once

#include <QApplication>
#include <QString>
#include <QtTest>

#include <functional>
#include <memory>

#include "gui/view/vtk_host_widget.h"

class QComboBox;
class QTemporaryDir;

namespace apertura::gui {
class MainWindow;
}

namespace apertura::testing {

// `name` in the test artifacts folder (APERTURA_TEST_ARTIFACTS); empty when that is not set.
QString artifact(const QString& name);

// The run settings panel's combo box that lists `item`, found the way a user finds it: by what it
// shows. nullptr when none does.
QComboBox* comboWith(apertura::gui::MainWindow& w, const QString& item);

// Shows `w`, opens the demo data set (generated on first use, then kept with the test artifacts,
// else under `fallback_dir`) and sets up an L-BFGS run of `iterations` at 256 px with L1 at a
// fixed λ 1. Fails the calling test (check QTest::currentTestFailed()) when the demo does not
// load or the settings are invalid.
void openDemoForLbfgsRun(apertura::gui::MainWindow& w, int iterations, const QString& fallback_dir);

// A new main window set up by openDemoForLbfgsRun, with `dir` as the fallback folder. nullptr,
// and the calling test failed, when `dir` is not valid or the set-up fails.
std::unique_ptr<apertura::gui::MainWindow> demoWindowForLbfgsRun(int iterations,
                                                                 const QTemporaryDir& dir);

// Starts the in-process run set up in `w` and waits for its end (at most 4 minutes); `started`
// is called right after the start. Fails the calling test (check QTest::currentTestFailed())
// unless the run finishes.
void runToFinish(apertura::gui::MainWindow& w, const std::function<void()>& started = {});

// Points QSettings (INI format) at `dir`/settings, so that recent project lists and preferences
// go to a throw-away file instead of the user's.
void useThrowAwaySettings(const QString& dir);

// Empties the recent project list and stores the default preferences: each test function starts
// from a fresh installation.
void resetRecentProjectsAndPreferences();

// Names the application organisation "AperturaTest", application `name` (its settings file, see
// useThrowAwaySettings), and keeps the event loop running when the last window closes, as the
// tests that close windows need.
void configureSettingsTestApplication(const char* name);

// The main() of a test of the real main window: VTK's surface format before the QApplication,
// then the Test object run by QTest. With `settings_name`, the application is also set up by
// configureSettingsTestApplication.
template <typename Test>
int runWindowTest(int argc, char** argv, const char* settings_name = nullptr) {
  apertura::gui::VtkHostWidget::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  if (settings_name)
    configureSettingsTestApplication(settings_name);
  Test test;
  return QTest::qExec(&test, argc, argv);
}

}  // namespace apertura::testing
