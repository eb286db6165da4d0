#include "gui/panels/mask_panel.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <functional>

#include "core/project/ds9_regions.h"
#include "gui/view/image_view.h"

namespace apertura::gui {
namespace {

// The outcome of a background read or write: regions read, or the error to show.
struct RegionIoResult {
  bool ok = false;
  QString message;
  std::vector<project::MaskRegion> regions;
};

QString num(double v) {
  return QString::number(v, 'f', 1);
}

}  // namespace

MaskPanel::MaskPanel(QWidget* parent)
    : QWidget(parent),
      subtract_(new QToolButton),
      list_(new QListWidget),
      delete_(new QPushButton(tr("Delete"))),
      clear_(new QPushButton(tr("Clear"))),
      import_(new QPushButton(tr("Import DS9…"))),
      export_(new QPushButton(tr("Export DS9…"))),
      use_mask_(new QCheckBox(tr("Use mask in the next run"))),
      status_(new QLabel) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);

  auto* tools = new QHBoxLayout;
  auto* group = new QButtonGroup(this);
  const std::pair<MaskTool, QString> kinds[] = {{MaskTool::Pan, tr("Pan")},
                                                {MaskTool::Rectangle, tr("Rect")},
                                                {MaskTool::Ellipse, tr("Ellipse")},
                                                {MaskTool::Polygon, tr("Polygon")}};
  const QString tips[] = {tr("Drag to pan the image views"),
                          tr("Drag a rectangle on any image view"),
                          tr("Drag the box an ellipse fills on any image view"),
                          tr("Click vertices on any image view; double-click closes, Esc cancels")};
  for (int i = 0; i < 4; ++i) {
    auto* b = new QToolButton;
    b->setText(kinds[i].second);
    b->setToolTip(tips[i]);
    b->setCheckable(true);
    b->setObjectName("mask-tool-" + maskToolName(kinds[i].first));
    group->addButton(b, i);
    tools->addWidget(b);
    tool_buttons_[i] = b;
    const MaskTool tool = kinds[i].first;
    connect(b, &QToolButton::clicked, this, [this, tool] { setTool(tool); });
  }
  tool_buttons_[0]->setChecked(true);
  subtract_->setText(tr("Subtract"));
  subtract_->setCheckable(true);
  subtract_->setToolTip(
      tr("New regions remove pixels from the mask (or hold Shift while drawing)"));
  connect(subtract_, &QToolButton::toggled, this, [this](bool on) {
    for (ImageView* v : views_)
      v->setMaskSubtract(on);
  });
  tools->addSpacing(8);
  tools->addWidget(subtract_);
  tools->addStretch(1);
  layout->addLayout(tools);

  list_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  list_->setToolTip(tr("Regions in 0-based image pixels, applied in order: + adds, − subtracts"));
  layout->addWidget(list_, 1);

  // Two rows: one row of four made the left dock (and so the window) too wide for 1024 px.
  auto* buttons = new QGridLayout;
  buttons->addWidget(delete_, 0, 0);
  buttons->addWidget(clear_, 0, 1);
  buttons->addWidget(import_, 1, 0);
  buttons->addWidget(export_, 1, 1);
  layout->addLayout(buttons);
  use_mask_->setToolTip(
      tr("Regularizers act inside the mask only and model pixels outside it are held at zero. "
         "Unchecked, the regions are saved with the project but the run ignores them."));
  layout->addWidget(use_mask_);
  status_->setWordWrap(true);
  layout->addWidget(status_);

  connect(delete_, &QPushButton::clicked, this, [this] {
    QList<int> rows;
    for (QListWidgetItem* item : list_->selectedItems())
      rows << list_->row(item);
    std::sort(rows.begin(), rows.end(), std::greater<int>());
    for (int row : rows)
      regions_.erase(regions_.begin() + row);
    if (!rows.isEmpty())
      refresh();
  });
  connect(clear_, &QPushButton::clicked, this, &MaskPanel::confirmClear);
  connect(import_, &QPushButton::clicked, this, &MaskPanel::chooseImport);
  connect(export_, &QPushButton::clicked, this, &MaskPanel::chooseExport);
  connect(use_mask_, &QCheckBox::toggled, this, [this] { emit changed(); });
  connect(list_, &QListWidget::itemSelectionChanged, this,
          [this] { delete_->setEnabled(!list_->selectedItems().isEmpty()); });
  refresh();
}

void MaskPanel::addView(ImageView* view) {
  views_.push_back(view);
  view->setMaskTool(tool_);
  view->setMaskSubtract(subtract_->isChecked());
  view->setMaskRegions(regions_);
  connect(view, &ImageView::maskRegionDrawn, this,
          [this](const project::MaskRegion& r) { addRegion(r); });
  connect(view, &QObject::destroyed, this, [this, view] {
    views_.erase(std::remove(views_.begin(), views_.end(), view), views_.end());
  });
}

void MaskPanel::setRegions(std::vector<project::MaskRegion> regions) {
  regions_ = std::move(regions);
  refresh();
}

void MaskPanel::addRegion(project::MaskRegion region) {
  regions_.push_back(std::move(region));
  refresh();
}

void MaskPanel::removeRegion(int index) {
  if (index < 0 || index >= static_cast<int>(regions_.size()))
    return;
  regions_.erase(regions_.begin() + index);
  refresh();
}

void MaskPanel::clearRegions() {
  if (regions_.empty())
    return;
  regions_.clear();
  refresh();
}

void MaskPanel::setTool(MaskTool tool) {
  tool_ = tool;
  tool_buttons_[static_cast<int>(tool)]->setChecked(true);
  for (ImageView* v : views_)
    v->setMaskTool(tool);
}

bool MaskPanel::subtractMode() const {
  return subtract_->isChecked();
}

void MaskPanel::setSubtractMode(bool subtract) {
  subtract_->setChecked(subtract);
}

bool MaskPanel::useMask() const {
  return use_mask_->isChecked();
}

void MaskPanel::setUseMask(bool use) {
  use_mask_->setChecked(use);
}

void MaskPanel::applyTo(project::ProjectSettings& s) const {
  if (!useMask() || regions_.empty())
    return;
  s.mask = regions_;
  s.optimizer.mask_support = true;
  for (auto& r : s.regularizers)
    r.use_mask = true;
}

QString MaskPanel::describe(const project::MaskRegion& r, int index) {
  const auto& v = r.values;
  QString text = QStringLiteral("%1  %2 %3  ")
                     .arg(index + 1)
                     .arg(r.subtract ? QStringLiteral("−") : QStringLiteral("+"))
                     .arg(QString::fromStdString(r.shape));
  if (r.shape == "rectangle" && v.size() == 4) {
    text += QStringLiteral("x %1–%2, y %3–%4").arg(num(v[0]), num(v[2]), num(v[1]), num(v[3]));
  } else if (r.shape == "ellipse" && v.size() == 5) {
    text += QStringLiteral("centre (%1, %2), axes %3 × %4, %5°")
                .arg(num(v[0]), num(v[1]), num(v[2]), num(v[3]), num(v[4]));
  } else if (r.shape == "polygon") {
    QStringList points;
    for (std::size_t i = 0; i + 1 < v.size(); i += 2)
      points << QStringLiteral("(%1, %2)").arg(num(v[i]), num(v[i + 1]));
    text += QStringLiteral("%1 vertices: %2").arg(v.size() / 2).arg(points.join(" "));
  }
  if (r.subtract)
    text += QStringLiteral("  [subtract]");
  return text;
}

QString MaskPanel::statusText() const {
  return status_->text();
}

void MaskPanel::refresh() {
  list_->clear();
  for (std::size_t i = 0; i < regions_.size(); ++i) {
    auto* item = new QListWidgetItem(describe(regions_[i], static_cast<int>(i)), list_);
    item->setForeground(regions_[i].subtract ? QColor(200, 40, 30) : QColor(20, 130, 50));
  }
  for (ImageView* v : views_)
    v->setMaskRegions(regions_);
  delete_->setEnabled(false);
  clear_->setEnabled(!regions_.empty());
  export_->setEnabled(!regions_.empty() && !io_busy_);
  setStatus(regions_.empty() ? tr("No regions: choose a tool and draw on any image view")
                             : tr("%n region(s)", nullptr, static_cast<int>(regions_.size())),
            false);
  emit changed();
}

void MaskPanel::setStatus(const QString& text, bool error) {
  status_->setText(text);
  status_->setStyleSheet(error ? "color: #b00020" : QString());
}

void MaskPanel::setIoBusy(bool busy) {
  io_busy_ = busy;
  import_->setEnabled(!busy);
  export_->setEnabled(!busy && !regions_.empty());
}

std::optional<project::RegionSkyGrid> MaskPanel::skyGrid() const {
  for (ImageView* v : views_) {
    const auto image = v->image();
    if (!image || !image->wcs.valid())
      continue;
    project::RegionSkyGrid g;
    g.ref_ra_rad = image->wcs.ref_ra_rad;
    g.ref_dec_rad = image->wcs.ref_dec_rad;
    g.ref_pixel_x = image->wcs.ref_pixel_x;
    g.ref_pixel_y = image->wcs.ref_pixel_y;
    g.cell_x_rad = image->wcs.cell_x_rad;
    g.cell_y_rad = image->wcs.cell_y_rad;
    return g;
  }
  return std::nullopt;
}

void MaskPanel::importRegions(const QString& path) {
  if (io_busy_)
    return;
  setIoBusy(true);
  setStatus(tr("Reading %1…").arg(path), false);
  auto* watcher = new QFutureWatcher<RegionIoResult>(this);
  connect(watcher, &QFutureWatcher<RegionIoResult>::finished, this, [this, watcher] {
    const RegionIoResult r = watcher->result();
    watcher->deleteLater();
    setIoBusy(false);
    if (r.ok) {
      regions_.insert(regions_.end(), r.regions.begin(), r.regions.end());
      refresh();  // resets the status line, so the message follows it
    }
    setStatus(r.message, !r.ok);
    emit ioFinished(r.ok, r.message);
  });
  watcher->setFuture(QtConcurrent::run([path, grid = skyGrid()] {
    RegionIoResult r;
    try {
      r.regions = project::readDs9Regions(path.toStdString(), grid);
      r.ok = true;
      r.message = tr("Imported %n region(s) from %1", nullptr, static_cast<int>(r.regions.size()))
                      .arg(path);
    } catch (const std::exception& e) {
      r.message = QString::fromStdString(e.what());
    }
    return r;
  }));
}

void MaskPanel::exportRegions(const QString& path, RegionCoordinates coordinates) {
  if (io_busy_)
    return;
  std::optional<project::RegionSkyGrid> grid;
  if (coordinates == RegionCoordinates::Sky) {
    grid = skyGrid();
    if (!grid) {
      const QString message =
          tr("No image with sky coordinates yet: export in image pixels, or "
             "after a dirty image is shown");
      setStatus(message, true);
      emit ioFinished(false, message);
      return;
    }
  }
  setIoBusy(true);
  setStatus(tr("Writing %1…").arg(path), false);
  auto* watcher = new QFutureWatcher<RegionIoResult>(this);
  connect(watcher, &QFutureWatcher<RegionIoResult>::finished, this, [this, watcher] {
    const RegionIoResult r = watcher->result();
    watcher->deleteLater();
    setIoBusy(false);
    setStatus(r.message, !r.ok);
    emit ioFinished(r.ok, r.message);
  });
  watcher->setFuture(QtConcurrent::run([path, regions = regions_, grid] {
    RegionIoResult r;
    try {
      project::writeDs9Regions(path.toStdString(), regions, grid);
      r.ok = true;
      r.message =
          tr("Wrote %n region(s) to %1", nullptr, static_cast<int>(regions.size())).arg(path);
    } catch (const std::exception& e) {
      r.message = QString::fromStdString(e.what());
    }
    return r;
  }));
}

void MaskPanel::chooseImport() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Import DS9 regions"), QString(),
                                                    tr("DS9 regions (*.reg);;All (*)"));
  if (!path.isEmpty())
    importRegions(path);
}

void MaskPanel::chooseExport() {
  // Sky coordinates first when an image has them: DS9 then overlays the regions on any image of
  // the field, not only on Apertura's grid.
  const QString sky = tr("DS9 regions, sky coordinates fk5 (*.reg)");
  const QString image = tr("DS9 regions, image pixels (*.reg)");
  QString filter = skyGrid() ? sky : image;
  QString path = QFileDialog::getSaveFileName(this, tr("Export DS9 regions"), "mask.reg",
                                              sky + ";;" + image, &filter);
  if (path.isEmpty())
    return;
  if (QFileInfo(path).suffix().isEmpty())
    path += ".reg";
  exportRegions(path, filter == sky ? RegionCoordinates::Sky : RegionCoordinates::Image);
}

void MaskPanel::confirmClear() {
  if (regions_.empty())
    return;
  // Window-modal but not blocking: the views stay live, and a test can answer it.
  auto* box = new QMessageBox(
      QMessageBox::Question, tr("Clear the mask"),
      tr("Remove all %n region(s) of the mask? This cannot be undone; export them to a DS9 file "
         "first to keep a copy.",
         nullptr, static_cast<int>(regions_.size())),
      QMessageBox::Yes | QMessageBox::Cancel, this);
  box->setObjectName(QStringLiteral("mask-clear-confirmation"));
  box->setDefaultButton(QMessageBox::Cancel);
  box->setAttribute(Qt::WA_DeleteOnClose);
  connect(box, &QMessageBox::finished, this, [this](int result) {
    if (result == QMessageBox::Yes)
      clearRegions();
  });
  box->open();
}

}  // namespace apertura::gui
