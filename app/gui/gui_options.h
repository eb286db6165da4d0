#pragma once

#include <QString>
#include <QStringList>

namespace apertura::app {

struct GuiOptions {
  QString dataset;     // opened at start when not empty
  QString screenshot;  // render the window to this file and exit
  int screenshot_delay_ms = 500;
};

// Parses the command line; exits the process with usage text on --help or bad arguments.
GuiOptions parseGuiOptions(const QStringList& arguments);

}  // namespace apertura::app
