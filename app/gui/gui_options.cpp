#include "app/gui/gui_options.h"

#include <QCommandLineParser>

namespace apertura::app {

GuiOptions parseGuiOptions(const QStringList& arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      "Apertura: interactive regularized maximum likelihood imaging for radio interferometry");
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument("dataset", "Measurement Set to open", "[dataset]");
  QCommandLineOption screenshot("screenshot",
                                "Render the main window to FILE (PNG) once the data set is loaded, "
                                "then exit.",
                                "FILE");
  QCommandLineOption delay("screenshot-delay", "Milliseconds to wait before the screenshot.", "MS",
                           "500");
  parser.addOption(screenshot);
  parser.addOption(delay);
  parser.process(arguments);

  GuiOptions options;
  const QStringList positional = parser.positionalArguments();
  if (!positional.isEmpty())
    options.dataset = positional.first();
  options.screenshot = parser.value(screenshot);
  bool ok = false;
  const int ms = parser.value(delay).toInt(&ok);
  if (ok && ms >= 0)
    options.screenshot_delay_ms = ms;
  return options;
}

}  // namespace apertura::app
