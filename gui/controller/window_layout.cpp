#include "gui/controller/window_layout.h"

#include <QMainWindow>
#include <QSettings>

namespace apertura::gui {
namespace {

// Bumped when the docks change, so that an older layout is not forced onto new docks.
constexpr int kLayoutVersion = 1;

}  // namespace

void saveWindowLayout(const QMainWindow& window) {
  QSettings settings;
  settings.beginGroup(QStringLiteral("window"));
  settings.setValue(QStringLiteral("geometry"), window.saveGeometry());
  settings.setValue(QStringLiteral("state"), window.saveState(kLayoutVersion));
}

bool restoreWindowLayout(QMainWindow& window) {
  QSettings settings;
  settings.beginGroup(QStringLiteral("window"));
  const QByteArray geometry = settings.value(QStringLiteral("geometry")).toByteArray();
  const QByteArray state = settings.value(QStringLiteral("state")).toByteArray();
  if (geometry.isEmpty() || state.isEmpty())
    return false;
  // Geometry first: the dock sizes in the state are relative to the window's size.
  return window.restoreGeometry(geometry) && window.restoreState(state, kLayoutVersion);
}

}  // namespace apertura::gui
