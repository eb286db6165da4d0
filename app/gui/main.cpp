// apertura: the desktop application. A thin main: options, the main window, and the one-shot
// screenshot mode used by tests and for the README picture.
#include <QApplication>
#include <QTimer>

#include "app/gui/gui_options.h"
#include "core/version.h"
#include "gui/view/vtk_host_widget.h"
#include "gui/window/main_window.h"
#include "gui/window/window_screenshot.h"

int main(int argc, char** argv) {
  // VTK needs a core-profile context; the default format must be set before QApplication.
  apertura::gui::VtkHostWidget::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  QApplication::setApplicationName("Apertura");
  QApplication::setOrganizationName("Apertura");
  QApplication::setApplicationVersion(QString::fromLatin1(apertura::kVersion));

  const apertura::app::GuiOptions options = apertura::app::parseGuiOptions(app.arguments());
  apertura::gui::MainWindow window;
  window.show();

  int exit_code = 0;
  // Lives as long as main(): the connections below call it when the data or the run is ready.
  const auto shoot = [&] {
    QTimer::singleShot(options.screenshot_delay_ms, &window, [&] {
      QString error;
      if (!apertura::gui::saveWindowScreenshot(window, options.screenshot, &error)) {
        qCritical("apertura: %s", qPrintable(error));
        exit_code = 1;
      }
      app.exit(exit_code);
    });
  };
  if (!options.screenshot.isEmpty()) {
    if (options.dataset.isEmpty() && !options.demo) {
      shoot();
    } else if (options.run) {
      QObject::connect(&window, &apertura::gui::MainWindow::runFinished, &window,
                       [&](const QString& state, const QString& message) {
                         if (state != "finished") {
                           qCritical("apertura: run %s: %s", qPrintable(state),
                                     qPrintable(message));
                           exit_code = 1;
                         }
                         shoot();
                       });
    } else {
      QObject::connect(&window, &apertura::gui::MainWindow::datasetLoaded, &window, shoot);
      QObject::connect(&window, &apertura::gui::MainWindow::datasetFailed, &window,
                       [&](const QString&, const QString& message) {
                         qCritical("apertura: %s", qPrintable(message));
                         exit_code = 1;
                         shoot();
                       });
    }
  }
  if (options.run) {
    QObject::connect(&window, &apertura::gui::MainWindow::datasetLoaded, &window, [&] {
      if (!window.startRun()) {
        qCritical("apertura: the run could not start");
        app.exit(1);
      }
    });
  }
  if (options.demo) {
    window.openDemo();
  } else if (!options.dataset.isEmpty()) {
    window.openDataset(options.dataset);
  }
  const int rc = app.exec();
  return exit_code != 0 ? exit_code : rc;
}
