#pragma once

#include <QIcon>

namespace apertura::app {

// The application icon (resources/icons, compiled into the program from apertura_icons.qrc) in
// every size it is drawn at, so window managers and task bars pick a sharp one.
QIcon applicationIcon();

}  // namespace apertura::app
