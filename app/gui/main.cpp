// apertura: the desktop application. A thin main: options, the main window, and the one-shot
// screenshot mode used by tests and for the README picture.
#include <QApplication>
#include <QTabWidget>
#include <QTimer>

#include "app/gui/app_icon.h"
#include "app/gui/gui_options.h"
#include "core/util/address_space_guard.h"
#include "core/version.h"
#include "gui/controller/window_layout.h"
#include "gui/plots/convergence_panel.h"
#include "gui/view/volume_view.h"
#include "gui/view/vtk_host_widget.h"
#include "gui/window/main_window.h"
#include "gui/window/project_actions.h"
#include "gui/window/surface_tab.h"
#include "gui/window/window_screenshot.h"

int main(int argc, char** argv) {
  apertura::installAddressSpaceGuard();
  // VTK needs a core-profile context; the default format must be set before QApplication.
  apertura::gui::VtkHostWidget::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  QApplication::setApplicationName("Apertura");
  QApplication::setOrganizationName("Apertura");
  QApplication::setApplicationVersion(QString::fromLatin1(apertura::kVersion));
  QApplication::setWindowIcon(apertura::app::applicationIcon());
  // Lets desktops match the window to the installed apertura.desktop (name, icon, grouping).
  QGuiApplication::setDesktopFileName("apertura");

  const apertura::app::GuiOptions options = apertura::app::parseGuiOptions(app.arguments());
  // A project file (the desktop entry passes double-clicked *.apertura files here) opens with its
  // settings and then loads its data set; anything else is opened as a data set.
  const bool is_project = options.dataset.endsWith(".apertura", Qt::CaseInsensitive);
  apertura::gui::MainWindow window;
  // The last session's size and docks; a scripted screenshot keeps the defaults (and its own
  // -geometry) so that its picture does not depend on the last session.
  if (options.screenshot.isEmpty()) {
    window.setRemembersLayout(true);
    apertura::gui::restoreWindowLayout(window);
  }
  window.show();

  int exit_code = 0;
  // Lives as long as main(): the connections below call it when the data or the run is ready.
  // --tab: a centre or Convergence tab by its title, or the 3D tab's iteration stack; false when
  // none matches.
  const auto showTab = [&]() -> bool {
    if (options.tab.isEmpty())
      return true;
    QTabWidget* tabs = window.centralTabs();
    if (options.tab.compare("3d-volume", Qt::CaseInsensitive) == 0) {
      window.surfaceTab()->setMode(apertura::gui::SurfaceTab::Mode::IterationStack);
      tabs->setCurrentWidget(window.surfaceTab());
      return true;
    }
    // The centre tabs, then the Convergence dock's (by title, or by the chart's object name for
    // titles awkward to type such as "λ path": lambda-path).
    for (QTabWidget* t : {tabs, static_cast<QTabWidget*>(window.convergence())}) {
      for (int i = 0; i < t->count(); ++i) {
        if (t->tabText(i).remove('&').compare(options.tab, Qt::CaseInsensitive) == 0 ||
            t->widget(i)->objectName().compare(options.tab, Qt::CaseInsensitive) == 0) {
          t->setCurrentIndex(i);
          return true;
        }
      }
    }
    return false;
  };
  const auto shoot = [&] {
    if (!showTab()) {
      qCritical("apertura: --tab %s: no such tab", qPrintable(options.tab));
      exit_code = 1;
    }
    QTimer::singleShot(options.screenshot_delay_ms, &window, [&] {
      // The volume renders on its own thread: wait for its frame of the current stack.
      if (window.surfaceTab()->isVisible() &&
          window.surfaceTab()->mode() == apertura::gui::SurfaceTab::Mode::IterationStack) {
        window.surfaceTab()->refreshNow();
        window.surfaceTab()->volumeView()->grabRendered();
      }
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
    if (is_project) {
      QObject::connect(window.projectActions(), &apertura::gui::ProjectActions::projectFailed,
                       &window, [&](const QString&, const QString& message) {
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
  } else if (is_project) {
    window.projectActions()->openProject(options.dataset);
  } else if (!options.dataset.isEmpty()) {
    window.openDataset(options.dataset);
  }
  const int rc = app.exec();
  return exit_code != 0 ? exit_code : rc;
}
