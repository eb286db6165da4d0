#pragma once

#include <QString>

class QComboBox;

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
// else under `fallback_dir`) and sets up an L-BFGS run of `iterations`. Fails the calling test
// (check QTest::currentTestFailed()) when the demo does not load or the settings are invalid.
void openDemoForLbfgsRun(apertura::gui::MainWindow& w, int iterations, const QString& fallback_dir);

}  // namespace apertura::testing
