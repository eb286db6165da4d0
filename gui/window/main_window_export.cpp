// The export side of the main window: FITS of the image in the current tab, PNG of the current
// view or the whole window, and the iteration metrics as CSV. Files are written on a worker
// thread from immutable copies (the shared ImageData, a QImage, the metrics), atomically.
#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QImage>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPixmap>
#include <QSaveFile>
#include <QTabWidget>
#include <QtConcurrent/QtConcurrentRun>

#include <cctype>
#include <cmath>
#include <exception>
#include <functional>

#include "core/io/fits_image_io.h"
#include "core/pipeline/imaging_products.h"
#include "core/util/atomic_file.h"
#include "core/util/sky_format.h"
#include "core/version.h"
#include "gui/controller/run_controller.h"
#include "gui/plots/convergence_panel.h"
#include "gui/plots/metrics_csv.h"
#include "gui/view/image_data.h"
#include "gui/view/image_panel.h"
#include "gui/view/image_view.h"
#include "gui/window/image_tabs.h"
#include "gui/window/main_window.h"
#include "gui/window/surface_tab.h"

namespace apertura::gui {

namespace {

// FITS spells units in capitals (BUNIT = 'JY/BEAM'), as the command-line exports do.
std::string fitsUnit(const std::string& unit) {
  std::string u = unit;
  for (char& c : u)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return u;
}

FitsImage toFitsImage(const ImageData& d, const QString& name, const FitsImage* data_keys) {
  FitsImage f;
  if (data_keys) {  // frequency, bandwidth, object, telescope, date of the run's data
    f = *data_keys;
  }
  f.nx = d.nx;
  f.ny = d.ny;
  f.pixels.assign(d.pixels.begin(), d.pixels.end());
  f.cell_x_rad = d.wcs.cell_x_rad;
  f.cell_y_rad = d.wcs.cell_y_rad;
  f.ref_pixel_x = d.wcs.ref_pixel_x;
  f.ref_pixel_y = d.wcs.ref_pixel_y;
  f.ref_ra_rad = d.wcs.ref_ra_rad;
  f.ref_dec_rad = d.wcs.ref_dec_rad;
  f.projection = d.wcs.projection;
  f.bunit = fitsUnit(d.unit);
  if (d.frequency_hz > 0.0) {  // a cube plane: its own frequency, not the run's mean
    f.frequency_hz = d.frequency_hz;
    f.bandwidth_hz = 0.0;
  }
  if (d.beam) {
    f.beam =
        ImageBeam{d.beam->major_rad, d.beam->minor_rad, d.beam->position_angle_deg * M_PI / 180.0};
  } else {
    f.beam.reset();
  }
  f.history.push_back(std::string("Apertura ") + kVersion + ": " + name.toStdString() +
                      " image exported from the desktop application");
  return f;
}

// Runs `write` on the thread pool; `done` gets its error ("" on success) on the GUI thread.
void runInBackground(QObject* owner, std::function<QString()> write,
                     std::function<void(const QString&)> done) {
  auto* watcher = new QFutureWatcher<QString>(owner);
  QObject::connect(watcher, &QFutureWatcher<QString>::finished, owner,
                   [watcher, done = std::move(done)] {
                     done(watcher->result());
                     watcher->deleteLater();
                   });
  watcher->setFuture(QtConcurrent::run([write = std::move(write)]() -> QString {
    try {
      return write();
    } catch (const std::exception& e) {
      return QString::fromStdString(e.what());
    }
  }));
}

}  // namespace

void MainWindow::buildExportMenu() {
  QMenu* menu = menuBar()->addMenu(tr("E&xport"));
  export_fits_action_ =
      menu->addAction(tr("Export image as &FITS…"), this, [this] { chooseExportPath("fits"); });
  export_fits_action_->setShortcut(QKeySequence(tr("Ctrl+E")));
  export_fits_action_->setToolTip(
      tr("The image of the current tab with its sky coordinates, unit and clean beam"));
  export_png_action_ =
      menu->addAction(tr("Export view as &PNG…"), this, [this] { chooseExportPath("png"); });
  export_window_png_action_ =
      menu->addAction(tr("Export &window as PNG…"), this, [this] { chooseExportPath("window"); });
  export_csv_action_ =
      menu->addAction(tr("Export &metrics CSV…"), this, [this] { chooseExportPath("csv"); });
  connect(menu, &QMenu::aboutToShow, this, &MainWindow::updateExportActions);
  connect(tabs_, &QTabWidget::currentChanged, this, &MainWindow::updateExportActions);
  connect(this, &MainWindow::exportFinished, this, [this](const QString& path, const QString& e) {
    status_label_->setText(e.isEmpty() ? tr("Exported %1").arg(path) : e);
    log(e.isEmpty() ? tr("exported %1").arg(path) : tr("error: %1").arg(e));
  });
  connect(run_, &RunController::started, this, [this] {
    export_template_.reset();
    updateExportActions();
  });
  connect(run_, &RunController::snapshot, this, &MainWindow::updateExportActions);
  connect(run_, &RunController::iterations, this, &MainWindow::updateExportActions);
  connect(run_, &RunController::stageFinished, this, [this](const QString& stage, double) {
    // The read stage wrote these before it finished; the worker leaves them alone afterwards.
    if (stage != "read" || !products_)
      return;
    auto keys = std::make_shared<FitsImage>();
    keys->frequency_hz = products_->frequency_hz;
    keys->bandwidth_hz = products_->bandwidth_hz;
    keys->object = products_->object;
    keys->telescope = products_->telescope;
    if (products_->start_time_mjd_s > 0.0)
      keys->date_obs = formatMjdSeconds(products_->start_time_mjd_s);
    keys->history = run_history_;  // the run's project, as its automatic outputs carry it
    export_template_ = std::move(keys);
  });
  updateExportActions();
}

std::shared_ptr<const ImageData> MainWindow::currentImage(QString* name) const {
  QWidget* current = tabs_->currentWidget();
  QString found;
  if (current == surface_tab_) {
    found = surface_tab_->currentName();
  } else {
    for (const QString& n : image_tabs_->names()) {
      if (image_tabs_->panel(n) == current)
        found = n;
    }
  }
  ImagePanel* panel = found.isEmpty() ? nullptr : image_tabs_->panel(found);
  auto image = panel ? panel->view()->image() : nullptr;
  if (!image || image->empty())
    return nullptr;
  if (name)
    *name = found;
  return image;
}

void MainWindow::updateExportActions() {
  if (!export_fits_action_)
    return;
  export_fits_action_->setEnabled(currentImage() != nullptr);
  export_png_action_->setEnabled(tabs_->currentWidget() != nullptr);
  export_csv_action_->setEnabled(!convergence_->metrics().isEmpty());
}

bool MainWindow::exportImageFits(const QString& path, QString* error) {
  QString name;
  const auto image = currentImage(&name);
  if (!image) {
    if (error)
      *error = tr("No image in the current tab to export");
    return false;
  }
  const auto keys = export_template_;
  runInBackground(
      this,
      [image, name, keys, file = path.toStdString()] {
        writeFitsImage(file, toFitsImage(*image, name, keys.get()));
        return QString();
      },
      [this, path](const QString& e) { emit exportFinished(path, e); });
  return true;
}

bool MainWindow::exportViewPng(const QString& path, bool whole_window, QString* error) {
  QWidget* target = whole_window ? static_cast<QWidget*>(this) : tabs_->currentWidget();
  if (!target) {
    if (error)
      *error = tr("No view to export");
    return false;
  }
  // Grabbing must happen here (widgets live on this thread); encoding the PNG need not.
  const QImage picture = target->grab().toImage();
  runInBackground(
      this,
      [picture, path] {
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly) || !picture.save(&file, "PNG") || !file.commit())
          return QStringLiteral("%1: could not write the PNG (%2)").arg(path, file.errorString());
        return QString();
      },
      [this, path](const QString& e) { emit exportFinished(path, e); });
  return true;
}

bool MainWindow::exportMetricsCsv(const QString& path, QString* error) {
  const QVector<engine::IterationMetrics>& metrics = convergence_->metrics();
  if (metrics.isEmpty()) {
    if (error)
      *error = tr("No iteration metrics yet: run the imaging first");
    return false;
  }
  std::vector<engine::IterationMetrics> copy(metrics.begin(), metrics.end());
  runInBackground(
      this,
      [copy = std::move(copy), file = path.toStdString()] {
        writeFileAtomically(file, metricsToCsv(copy));
        return QString();
      },
      [this, path](const QString& e) { emit exportFinished(path, e); });
  return true;
}

void MainWindow::chooseExportPath(const QString& kind) {
  QString name;
  currentImage(&name);
  const QString base =
      dataset_ ? QFileInfo(QString::fromStdString(dataset_->path)).completeBaseName() : "apertura";
  QString suggested, filter;
  if (kind == "fits") {
    suggested = base + "-" + name + ".fits";
    filter = tr("FITS image (*.fits *.fit)");
  } else if (kind == "csv") {
    suggested = base + "-metrics.csv";
    filter = tr("CSV (*.csv)");
  } else {
    suggested =
        base + "-" +
        (kind == "window" ? QString("window") : tabs_->tabText(tabs_->currentIndex()).toLower()) +
        ".png";
    filter = tr("PNG image (*.png)");
  }
  const QString path = QFileDialog::getSaveFileName(this, tr("Export"), suggested, filter);
  if (path.isEmpty())
    return;
  // Report this export's outcome in a dialog as well as the status bar.
  auto connection = std::make_shared<QMetaObject::Connection>();
  *connection = connect(this, &MainWindow::exportFinished, this,
                        [this, path, connection](const QString& done, const QString& e) {
                          if (done != path)
                            return;
                          disconnect(*connection);
                          if (!e.isEmpty())
                            QMessageBox::warning(this, tr("Export failed"), e);
                        });
  QString error;
  bool started = false;
  if (kind == "fits") {
    started = exportImageFits(path, &error);
  } else if (kind == "csv") {
    started = exportMetricsCsv(path, &error);
  } else {
    started = exportViewPng(path, kind == "window", &error);
  }
  if (!started) {
    disconnect(*connection);
    status_label_->setText(error);
  }
}

}  // namespace apertura::gui
