#include "app/gui/gui_options.h"

#include <QCommandLineParser>

namespace apertura::app {

GuiOptions parseGuiOptions(const QStringList& arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      "Apertura: interactive regularized maximum likelihood imaging for radio interferometry");
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(
      "dataset", "Measurement Set, UVFITS file or project file (.apertura) to open", "[dataset]");
  QCommandLineOption screenshot("screenshot",
                                "Render the main window to FILE (PNG) once the data set is loaded "
                                "(or the run finished, with --run), then exit.",
                                "FILE");
  QCommandLineOption delay("screenshot-delay", "Milliseconds to wait before the screenshot.", "MS",
                           "500");
  QCommandLineOption demo("demo",
                          "Create (the first time) and open the built-in demo data set: an "
                          "ALMA-like array observing an inclined disk with a gap.");
  QCommandLineOption tab(
      "tab",
      "Show this tab before the screenshot: a centre tab's title (Data, Dirty, Model, Restored, "
      "3D, ...), 3d-volume for the 3D tab's iteration stack, or a Convergence tab's title "
      "(Objective, Memory, ...; lambda-path for the λ path).",
      "NAME");
  QCommandLineOption run("run", "Start an imaging run with the default settings once loaded.");
  parser.addOption(demo);
  parser.addOption(run);
  parser.addOption(screenshot);
  parser.addOption(delay);
  parser.addOption(tab);
  parser.process(arguments);

  GuiOptions options;
  const QStringList positional = parser.positionalArguments();
  if (!positional.isEmpty())
    options.dataset = positional.first();
  options.screenshot = parser.value(screenshot);
  options.demo = parser.isSet(demo);
  options.run = parser.isSet(run);
  options.tab = parser.value(tab);
  bool ok = false;
  const int ms = parser.value(delay).toInt(&ok);
  if (ok && ms >= 0)
    options.screenshot_delay_ms = ms;
  return options;
}

}  // namespace apertura::app
