#include "gui/view/image_panel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

#include "gui/view/colorbar_widget.h"
#include "gui/view/histogram_widget.h"
#include "gui/view/image_toolbar.h"
#include "gui/view/image_view.h"
#include "gui/view/plane_selector.h"

namespace apertura::gui {

ImagePanel::ImagePanel(QWidget* parent)
    : QWidget(parent),
      toolbar_(new ImageToolbar(this)),
      planes_(new PlaneSelector(this)),
      view_(new ImageView(this)),
      colorbar_(new ColorbarWidget(this)),
      histogram_(new HistogramWidget(this)),
      status_(new QLabel(this)),
      caption_(new QLabel(this)) {
  caption_->setObjectName("image-caption");
  caption_->setStyleSheet("color: #a05a00");
  caption_->hide();
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  status_->setMinimumWidth(100);
  QFont mono = status_->font();
  mono.setFamily("DejaVu Sans Mono");
  mono.setStyleHint(QFont::Monospace);
  status_->setFont(mono);
  histogram_->setVisible(false);

  auto* image_row = new QHBoxLayout;
  image_row->setContentsMargins(0, 0, 0, 0);
  image_row->setSpacing(2);
  image_row->addWidget(view_, 1);
  image_row->addWidget(colorbar_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->setSpacing(2);
  layout->addWidget(toolbar_);
  layout->addWidget(caption_);
  layout->addWidget(planes_);
  layout->addLayout(image_row, 1);
  layout->addWidget(histogram_);
  layout->addWidget(status_);

  toolbar_->setSettings(view_->displaySettings());
  connect(toolbar_, &ImageToolbar::settingsChanged, view_, &ImageView::setDisplaySettings);
  connect(toolbar_, &ImageToolbar::fitRequested, view_, &ImageView::fitToWindow);
  connect(toolbar_, &ImageToolbar::histogramToggled, this, &ImagePanel::setHistogramVisible);
  connect(view_, &ImageView::displayChanged, this, &ImagePanel::refreshScale);
  connect(view_, &ImageView::cursorInfo, status_, &QLabel::setText);
  connect(planes_, &PlaneSelector::planeChosen, this, [this](int k) {
    wanted_plane_ = k;
    showPlane();
    emit planeChanged(k);
  });
}

void ImagePanel::setImage(ImageData image) {
  cube_ = ImageCube{};
  planes_->setPlanes(0, {});
  view_->setImage(std::move(image));
}

void ImagePanel::setImage(ImageCube cube) {
  if (cube.empty() || cube.planes == 1 || !cube.consistent()) {
    setImage(cube.plane(0));  // empty for an empty or inconsistent cube
    return;
  }
  cube_ = std::move(cube);
  planes_->setPlanes(cube_.planes, cube_.frequencies_hz);
  showPlane();
}

int ImagePanel::plane() const {
  return cube_.empty() ? 0 : planes_->plane();
}

int ImagePanel::planeCount() const {
  if (!cube_.empty())
    return cube_.planes;
  const auto image = view_->image();
  return image && !image->empty() ? 1 : 0;
}

void ImagePanel::setPlane(int plane) {
  wanted_plane_ = std::max(0, plane);
  if (!cube_.empty())
    showPlane();
}

void ImagePanel::showPlane() {
  // Only the plane on screen is copied out of the cube and rendered; the renderer's clip
  // (min/max, percentiles) is therefore the plane's own.
  planes_->setPlane(wanted_plane_);
  view_->setImage(cube_.plane(planes_->plane()));
}

void ImagePanel::setDisplaySettings(const DisplaySettings& settings) {
  toolbar_->setSettings(settings);
  view_->setDisplaySettings(settings);
}

DisplaySettings ImagePanel::displaySettings() const {
  return view_->displaySettings();
}

void ImagePanel::setHistogramVisible(bool visible) {
  histogram_->setVisible(visible);
  toolbar_->histogramButton()->setChecked(visible);
  if (visible)
    refreshSamples();
}

QString ImagePanel::statusText() const {
  return status_->text();
}

void ImagePanel::refreshSamples() {
  const auto image = view_->image();
  if (histogram_->isHidden() || samples_source_.lock() == image)
    return;
  samples_source_ = image;
  ImageRenderer& renderer = view_->renderer();
  histogram_->setSamples(renderer.samples(), renderer.dataRange(),
                         image ? QString::fromStdString(image->unit) : QString());
  histogram_->setClipRange(renderer.clipRange());
}

void ImagePanel::refreshScale() {
  ImageRenderer& renderer = view_->renderer();
  const auto image = view_->image();
  if (!image || image->empty()) {
    colorbar_->clear();
    return;
  }
  const ValueRange clip = renderer.clipRange();
  std::vector<ColorbarWidget::Tick> ticks;
  for (double value : niceTicks(clip.min, clip.max, 6))
    ticks.push_back({value, renderer.levelOf(value)});
  colorbar_->setScale(renderer.colorTable(), clip, std::move(ticks),
                      QString::fromStdString(image->unit));
  if (renderer.settings().clip != ClipMode::User)
    toolbar_->showClipRange(clip);
  refreshSamples();
  histogram_->setClipRange(clip);
}

void ImagePanel::setCaption(const QString& caption) {
  caption_->setText(caption);
  caption_->setVisible(!caption.isEmpty());
}

QString ImagePanel::caption() const {
  return caption_->text();
}

}  // namespace apertura::gui
