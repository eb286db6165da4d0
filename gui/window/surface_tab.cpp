#include "gui/window/surface_tab.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <initializer_list>

#include "core/engine/run_observer.h"
#include "gui/controller/run_controller.h"
#include "gui/view/image_panel.h"
#include "gui/view/image_view.h"
#include "gui/view/surface_view.h"
#include "gui/view/volume_view.h"
#include "gui/window/image_tabs.h"

namespace apertura::gui {

SurfaceTab::SurfaceTab(ImageTabs* images, QWidget* parent)
    : QWidget(parent),
      images_(images),
      mode_choice_(new QComboBox),
      image_choice_(new QComboBox),
      height_(new QSlider(Qt::Horizontal)),
      surface_controls_(new QWidget),
      stack_info_(new QLabel),
      pages_(new QStackedWidget),
      view_(new SurfaceView),
      volume_(new VolumeView) {
  mode_choice_->addItem(tr("Surface"), static_cast<int>(Mode::Surface));
  mode_choice_->addItem(tr("Iteration stack (volume)"), static_cast<int>(Mode::IterationStack));
  mode_choice_->addItem(tr("Spectral cube (volume)"), static_cast<int>(Mode::SpectralCube));
  mode_choice_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  mode_choice_->setMinimumContentsLength(10);
  mode_choice_->setToolTip(
      tr("Surface: one image with height = value. Iteration stack: the model after each "
         "snapshot, stacked upwards as a volume. Spectral cube: the planes of a cube run's image, "
         "lowest frequency at the bottom"));
  for (const QString& name : images_->names())
    image_choice_->addItem(images_->title(name), name);
  image_choice_->setCurrentIndex(image_choice_->findData(QStringLiteral("restored")));
  image_choice_->setToolTip(tr("Image shown as a surface"));
  height_->setRange(5, 200);
  height_->setValue(static_cast<int>(view_->heightScale() * 100));
  height_->setMaximumWidth(180);
  height_->setToolTip(tr("Height of the value range, in percent of the image width"));
  auto* reset = new QPushButton(tr("Reset view"));
  reset->setToolTip(tr("Back to the oblique view of the whole image"));
  stack_info_->setToolTip(
      tr("Memory is bounded: images are averaged down to at most %1 pixels per side and at most "
         "%2 snapshots are kept, evenly spread over the run")
          .arg(stack_.maxSide())
          .arg(stack_.maxSlices()));

  auto* surface_bar = new QHBoxLayout(surface_controls_);
  surface_bar->setContentsMargins(0, 0, 0, 0);
  surface_bar->addWidget(new QLabel(tr("Image")));
  surface_bar->addWidget(image_choice_);
  surface_bar->addSpacing(12);
  surface_bar->addWidget(new QLabel(tr("Height")));
  surface_bar->addWidget(height_);
  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(4, 2, 4, 2);
  bar->addWidget(mode_choice_);
  bar->addSpacing(8);
  bar->addWidget(surface_controls_);
  bar->addWidget(stack_info_);
  bar->addWidget(reset);
  bar->addStretch(1);
  // How to move the view: on the views themselves, so that the bar fits a 1024 px window.
  for (QWidget* v : std::initializer_list<QWidget*>{view_, volume_})
    v->setToolTip(tr("Drag to rotate, wheel to zoom, shift-drag to pan"));
  pages_->addWidget(view_);
  pages_->addWidget(volume_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->setSpacing(2);
  layout->addLayout(bar);
  layout->addWidget(pages_, 1);
  view_->setMinimumSize(320, 240);
  volume_->setMinimumSize(320, 240);
  stack_info_->hide();

  refresh_.setSingleShot(true);
  refresh_.setInterval(kRefreshMs);
  connect(&refresh_, &QTimer::timeout, this, &SurfaceTab::refreshNow);
  connect(mode_choice_, &QComboBox::currentIndexChanged, this, [this] {
    const Mode m = mode();
    pages_->setCurrentIndex(m == Mode::Surface ? 0 : 1);
    surface_controls_->setVisible(m != Mode::IterationStack);
    height_->setEnabled(m == Mode::Surface);
    stack_info_->setVisible(m != Mode::Surface);
    dirty_ = stack_dirty_ = true;  // the volume shows the other stack now
    refreshNow();
  });
  connect(image_choice_, &QComboBox::currentIndexChanged, this, [this] {
    dirty_ = true;
    refreshNow();
  });
  connect(height_, &QSlider::valueChanged, this,
          [this](int percent) { view_->setHeightScale(percent / 100.0); });
  connect(reset, &QPushButton::clicked, this, [this] {
    if (mode() != Mode::Surface) {
      volume_->resetCamera();
      volume_->requestRender();
    } else {
      view_->resetCamera();
      view_->requestRender();
    }
  });
  for (const QString& name : images_->names()) {
    connect(images_->panel(name)->view(), &ImageView::displayChanged, this, [this, name] {
      if (name == currentName())
        markDirty();
    });
  }
}

SurfaceTab::Mode SurfaceTab::mode() const {
  return static_cast<Mode>(mode_choice_->currentData().toInt());
}

void SurfaceTab::setMode(Mode mode) {
  mode_choice_->setCurrentIndex(mode_choice_->findData(static_cast<int>(mode)));
}

QString SurfaceTab::currentName() const {
  return image_choice_->currentData().toString();
}

void SurfaceTab::setCurrentName(const QString& name) {
  const int index = image_choice_->findData(name);
  if (index >= 0)
    image_choice_->setCurrentIndex(index);
}

void SurfaceTab::attachRun(RunController* run) {
  connect(run, &RunController::started, this, &SurfaceTab::clearStack);
  connect(run, &RunController::snapshot, this, &SurfaceTab::addSnapshot);
}

void SurfaceTab::addSnapshot(const std::shared_ptr<const engine::ImageSnapshot>& image) {
  if (!image || image->name != "model")
    return;
  if (image->planes > 1) {
    // A cube's stack follows one plane (the one the image views show when the snapshot comes).
    const std::size_t n = static_cast<std::size_t>(image->nx) * static_cast<std::size_t>(image->ny);
    const std::size_t k =
        static_cast<std::size_t>(std::clamp(images_->plane(), 0, image->planes - 1));
    if (image->pixels.size() < n * (k + 1))
      return;
    const auto first = image->pixels.begin() + static_cast<std::ptrdiff_t>(n * k);
    const std::vector<float> plane(first, first + static_cast<std::ptrdiff_t>(n));
    if (stack_.add(image->iteration, image->nx, image->ny, plane))
      markStackDirty();
    return;
  }
  if (stack_.add(image->iteration, image->nx, image->ny, image->pixels))
    markStackDirty();
}

void SurfaceTab::clearStack() {
  stack_.clear();
  markStackDirty();
}

void SurfaceTab::refreshNow() {
  refresh_.stop();
  if (mode() == Mode::IterationStack) {
    if (!stack_dirty_)
      return;
    stack_dirty_ = false;
    stack_info_->setText(
        tr("%1 snapshots, %2 KiB").arg(stack_.sliceCount()).arg(stack_.bytes() / 1024));
    volume_->setStack(stack_);
    return;
  }
  if (mode() == Mode::SpectralCube) {
    if (dirty_)
      showCube();
    return;
  }
  if (!dirty_)
    return;
  dirty_ = false;
  ImagePanel* panel = images_->panel(currentName());
  if (!panel)
    return;
  ImageView* view = panel->view();
  const auto image = view->image();
  if (!image || image->empty()) {
    view_->clear();
    return;
  }
  // The 2D renderer caches its picture, so the colours cost nothing when that panel is current.
  view_->setImage(image, view->renderer().picture());
}

void SurfaceTab::showCube() {
  dirty_ = false;
  ImagePanel* panel = images_->panel(currentName());
  const ImageCube empty;
  const ImageCube& cube = panel ? panel->cube() : empty;
  cube_stack_ = IterationStack();  // at most its slice bound, spread evenly over the planes
  if (cube.empty() || cube.planes < 2 || !cube.pixels) {
    stack_info_->setText(tr("not a cube: choose Spectral mode \"Cube\" and run"));
    volume_->clear();
    return;
  }
  const std::size_t n = static_cast<std::size_t>(cube.nx) * static_cast<std::size_t>(cube.ny);
  for (int k = 0; k < cube.planes; ++k) {
    const auto first = cube.pixels->begin() + static_cast<std::ptrdiff_t>(n * std::size_t(k));
    cube_stack_.add(k, cube.nx, cube.ny,
                    std::vector<float>(first, first + static_cast<std::ptrdiff_t>(n)));
  }
  const auto ghz = [&](int k) { return QString::number(cube.frequencyOf(k) / 1e9, 'f', 3); };
  stack_info_->setText(tr("%1 planes, %2 KiB").arg(cube.planes).arg(cube_stack_.bytes() / 1024));
  volume_->setStack(cube_stack_, tr("%1: planes 1 (bottom, %2 GHz) to %3 (top, %4 GHz), each "
                                    "scaled to its own peak (asinh)")
                                     .arg(images_->title(currentName()))
                                     .arg(ghz(0))
                                     .arg(cube.planes)
                                     .arg(ghz(cube.planes - 1)));
}

void SurfaceTab::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (dirty_ || stack_dirty_)
    refreshNow();
}

void SurfaceTab::markDirty() {
  dirty_ = true;
  if (mode() != Mode::IterationStack)
    scheduleRefresh();
}

void SurfaceTab::markStackDirty() {
  stack_dirty_ = true;
  if (mode() == Mode::IterationStack)
    scheduleRefresh();
}

void SurfaceTab::scheduleRefresh() {
  if (isVisible() && !refresh_.isActive())
    refresh_.start();
}

}  // namespace apertura::gui
