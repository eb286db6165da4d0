#pragma once

#include <QString>
#include <QStringList>

namespace apertura::app {

struct GuiOptions {
  QString dataset;     // opened at start when not empty
  bool demo = false;   // create (first time) and open the built-in demo data set
  bool run = false;    // start an imaging run once the data set is loaded
  QString screenshot;  // render the window to this file and exit
  int screenshot_delay_ms = 500;
  // The tab shown before the screenshot: a centre tab's title ("Model", "3D", ...), "3d-volume"
  // (the 3D tab's iteration stack) or a Convergence tab's ("Memory", "lambda-path", ...); empty:
  // the window's own choice.
  QString tab;
};

// Parses the command line; exits the process with usage text on --help or bad arguments.
GuiOptions parseGuiOptions(const QStringList& arguments);

}  // namespace apertura::app
