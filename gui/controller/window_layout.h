#pragma once

class QMainWindow;

namespace apertura::gui {

// The main window's size, position and dock layout across sessions (QSettings group "window"):
// saved when the window closes, restored when the application starts. Scripted sessions
// (--screenshot) and tests do not restore, so their pictures do not depend on the last session.
void saveWindowLayout(const QMainWindow& window);
// False, changing nothing, when no layout was saved (or it does not fit this window's docks).
bool restoreWindowLayout(QMainWindow& window);

}  // namespace apertura::gui
