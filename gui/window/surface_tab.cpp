#include "gui/window/surface_tab.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QVBoxLayout>

#include "gui/view/image_panel.h"
#include "gui/view/image_view.h"
#include "gui/view/surface_view.h"
#include "gui/window/image_tabs.h"

namespace apertura::gui {

SurfaceTab::SurfaceTab(ImageTabs* images, QWidget* parent)
    : QWidget(parent),
      images_(images),
      image_choice_(new QComboBox),
      height_(new QSlider(Qt::Horizontal)),
      view_(new SurfaceView) {
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

  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(4, 2, 4, 2);
  bar->addWidget(new QLabel(tr("Image")));
  bar->addWidget(image_choice_);
  bar->addSpacing(12);
  bar->addWidget(new QLabel(tr("Height")));
  bar->addWidget(height_);
  bar->addWidget(reset);
  bar->addStretch(1);
  bar->addWidget(new QLabel(tr("Drag to rotate, wheel to zoom, shift-drag to pan")));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->setSpacing(2);
  layout->addLayout(bar);
  layout->addWidget(view_, 1);
  view_->setMinimumSize(320, 240);

  refresh_.setSingleShot(true);
  refresh_.setInterval(kRefreshMs);
  connect(&refresh_, &QTimer::timeout, this, &SurfaceTab::refreshNow);
  connect(image_choice_, &QComboBox::currentIndexChanged, this, [this] {
    dirty_ = true;
    refreshNow();
  });
  connect(height_, &QSlider::valueChanged, this,
          [this](int percent) { view_->setHeightScale(percent / 100.0); });
  connect(reset, &QPushButton::clicked, this, [this] {
    view_->resetCamera();
    view_->requestRender();
  });
  for (const QString& name : images_->names()) {
    connect(images_->panel(name)->view(), &ImageView::displayChanged, this, [this, name] {
      if (name == currentName())
        markDirty();
    });
  }
}

QString SurfaceTab::currentName() const {
  return image_choice_->currentData().toString();
}

void SurfaceTab::setCurrentName(const QString& name) {
  const int index = image_choice_->findData(name);
  if (index >= 0)
    image_choice_->setCurrentIndex(index);
}

void SurfaceTab::refreshNow() {
  refresh_.stop();
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

void SurfaceTab::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (dirty_)
    refreshNow();
}

void SurfaceTab::markDirty() {
  dirty_ = true;
  if (isVisible() && !refresh_.isActive())
    refresh_.start();
}

}  // namespace apertura::gui
