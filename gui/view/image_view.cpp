#include "gui/view/image_view.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

#include "core/util/sky_format.h"
#include "gui/view/image_view_overlays.h"
#include "gui/view/mask_overlay.h"

namespace apertura::gui {
namespace {

constexpr double kKeyZoomStep = 1.25;
constexpr double kWheelZoomStep = 1.25;  // per 120 units of wheel angle (one notch)
// Screen pixels a drag must span (rectangle, ellipse) or that separate polygon vertices.
constexpr double kMinDrawScreenPixels = 3.0;
const QColor kBackground(24, 24, 30);

}  // namespace

ImageView::ImageView(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setFocusPolicy(Qt::StrongFocus);
  setMinimumSize(160, 120);
  setAttribute(Qt::WA_OpaquePaintEvent);
}

void ImageView::setImage(ImageData image) {
  setImage(std::make_shared<const ImageData>(std::move(image)));
}

void ImageView::setImage(std::shared_ptr<const ImageData> image) {
  const auto previous = renderer_.image();
  const bool same_grid =
      previous && image && previous->nx == image->nx && previous->ny == image->ny;
  renderer_.setImage(std::move(image));
  const auto& current = renderer_.image();
  projection_ = current ? SkyProjection(current->wcs) : SkyProjection();
  if (!same_grid)
    fitToWindow();
  update();
  emit displayChanged();
}

void ImageView::setDisplaySettings(const DisplaySettings& settings) {
  if (settings == renderer_.settings())
    return;
  renderer_.setSettings(settings);
  update();
  emit displayChanged();
}

double ImageView::fitZoom() const {
  const auto& image = renderer_.image();
  if (!image || image->empty())
    return 1.0;
  return std::clamp(
      std::min(width() / static_cast<double>(image->nx), height() / static_cast<double>(image->ny)),
      kMinZoom, kMaxZoom);
}

void ImageView::fitToWindow() {
  const auto& image = renderer_.image();
  const QPointF middle = image ? QPointF((image->nx - 1) / 2.0, (image->ny - 1) / 2.0) : QPointF();
  applyView(middle, fitZoom(), false);
  fit_mode_ = true;
}

void ImageView::setView(QPointF center, double zoom) {
  applyView(center, zoom, true);
}

void ImageView::applyView(QPointF center, double zoom, bool user_action) {
  if (user_action)
    fit_mode_ = false;
  const auto& image = renderer_.image();
  if (image && !image->empty()) {
    // Keep the view centre on the image so it can never be panned away entirely.
    center.setX(std::clamp(center.x(), -0.5, image->nx - 0.5));
    center.setY(std::clamp(center.y(), -0.5, image->ny - 0.5));
  }
  zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
  if (center == center_ && zoom == zoom_)
    return;
  center_ = center;
  zoom_ = zoom;
  update();
  emit viewChanged(center_, zoom_);
}

void ImageView::zoomAbout(QPointF widget_pos, double factor) {
  const QPointF anchor = widgetToImage(widget_pos);
  const double zoom = std::clamp(zoom_ * factor, kMinZoom, kMaxZoom);
  // Solve imageToWidget(anchor) == widget_pos for the new centre.
  const QPointF center(anchor.x() - (widget_pos.x() - width() / 2.0) / zoom,
                       anchor.y() + (widget_pos.y() - height() / 2.0) / zoom);
  applyView(center, zoom, true);
}

QPointF ImageView::imageToWidget(QPointF pixel) const {
  return {width() / 2.0 + (pixel.x() - center_.x()) * zoom_,
          height() / 2.0 - (pixel.y() - center_.y()) * zoom_};
}

QPointF ImageView::widgetToImage(QPointF widget_pos) const {
  return {center_.x() + (widget_pos.x() - width() / 2.0) / zoom_,
          center_.y() - (widget_pos.y() - height() / 2.0) / zoom_};
}

QString ImageView::cursorText(QPointF pixel) const {
  const auto& image = renderer_.image();
  if (!image || image->empty() || !image->consistent())
    return {};
  const long x = std::lround(pixel.x());
  const long y = std::lround(pixel.y());
  if (x < 0 || y < 0 || x >= image->nx || y >= image->ny)
    return {};
  QString text;
  if (const auto sky = projection_.pixelToWorld(static_cast<double>(x), static_cast<double>(y))) {
    text = QString::fromStdString(formatRightAscension(sky->ra_rad)) + " " +
           QString::fromStdString(formatDeclination(sky->dec_rad)) + "  ";
  }
  const float value = image->at(static_cast<int>(x), static_cast<int>(y));
  const QString value_text = std::isfinite(value) ? QString::number(value, 'g', 6) : "blank";
  text += QStringLiteral("(%1, %2)  %3").arg(x).arg(y).arg(value_text);
  if (std::isfinite(value) && !image->unit.empty())
    text += " " + QString::fromStdString(image->unit);
  // A cube plane's frequency: the third world coordinate of the readout.
  if (image->frequency_hz > 0.0)
    text += QStringLiteral("  %1 GHz").arg(image->frequency_hz * 1e-9, 0, 'f', 6);
  return text;
}

void ImageView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.fillRect(rect(), kBackground);
  const auto& image = renderer_.image();
  if (!image || image->empty() || !image->consistent()) {
    painter.setPen(QColor(150, 150, 160));
    painter.drawText(rect(), Qt::AlignCenter, tr("No image"));
    return;
  }
  const QImage& picture = renderer_.picture();
  // Picture column u = x + 0.5 and row v = ny - 0.5 - y (row 0 at the top = north).
  const double ox = width() / 2.0 - (0.5 + center_.x()) * zoom_;
  const double oy = height() / 2.0 - (image->ny - 0.5 - center_.y()) * zoom_;
  const int u0 = std::max(0, static_cast<int>(std::floor(-ox / zoom_)));
  const int u1 = std::min(image->nx, static_cast<int>(std::ceil((width() - ox) / zoom_)));
  const int v0 = std::max(0, static_cast<int>(std::floor(-oy / zoom_)));
  const int v1 = std::min(image->ny, static_cast<int>(std::ceil((height() - oy) / zoom_)));
  if (u1 > u0 && v1 > v0) {
    // Only the visible part is scaled, so a 4096^2 image at high zoom costs what the screen holds.
    const QRectF target(ox + u0 * zoom_, oy + v0 * zoom_, (u1 - u0) * zoom_, (v1 - v0) * zoom_);
    painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
    painter.drawImage(target, picture, QRectF(u0, v0, u1 - u0, v1 - v0));
  }
  painter.setPen(QPen(QColor(110, 110, 120), 1));
  painter.drawRect(QRectF(ox, oy, image->nx * zoom_, image->ny * zoom_));

  painter.setRenderHint(QPainter::Antialiasing, true);
  drawBeamEllipse(painter, QRectF(rect()), *image, zoom_);
  drawCompass(painter, QRectF(rect()), image->wcs);
  drawMaskOverlay(
      painter, mask_regions_, sketch_.preview(), [this](QPointF p) { return imageToWidget(p); },
      zoom_);
}

void ImageView::setMaskTool(MaskTool tool) {
  if (tool == mask_tool_)
    return;
  mask_tool_ = tool;
  sketch_.cancel();
  restoreCursor();
  update();
}

void ImageView::restoreCursor() {
  if (mask_tool_ == MaskTool::Pan)
    unsetCursor();
  else
    setCursor(Qt::CrossCursor);
}

bool ImageView::event(QEvent* event) {
  // Esc cancels a shape being drawn before the window's Esc shortcut (Stop) sees it.
  if (event->type() == QEvent::ShortcutOverride && sketch_.active() &&
      static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape) {
    event->accept();
    return true;
  }
  return QWidget::event(event);
}

void ImageView::setMaskRegions(std::vector<project::MaskRegion> regions) {
  mask_regions_ = std::move(regions);
  update();
}

void ImageView::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  if (fit_mode_)
    fitToWindow();
}

void ImageView::wheelEvent(QWheelEvent* event) {
  const double notches = event->angleDelta().y() / 120.0;
  if (notches != 0.0)
    zoomAbout(event->position(), std::pow(kWheelZoomStep, notches));
  event->accept();
}

void ImageView::mousePressEvent(QMouseEvent* event) {
  const bool draw = event->button() == Qt::LeftButton && mask_tool_ != MaskTool::Pan;
  if (draw) {
    const QPointF p = widgetToImage(event->position());
    const bool subtract = mask_subtract_ || (event->modifiers() & Qt::ShiftModifier);
    if (mask_tool_ == MaskTool::Polygon && sketch_.active())
      sketch_.addVertex(p, kMinDrawScreenPixels / zoom_);
    else
      sketch_.begin(mask_tool_, p, subtract);
    update();
  } else if (event->button() == Qt::LeftButton || event->button() == Qt::MiddleButton) {
    dragging_ = true;
    last_drag_pos_ = event->position();
    setCursor(Qt::ClosedHandCursor);
  }
  event->accept();
}

void ImageView::mouseMoveEvent(QMouseEvent* event) {
  if (sketch_.active()) {
    sketch_.moveTo(widgetToImage(event->position()));
    update();
  }
  if (dragging_) {
    const QPointF delta = event->position() - last_drag_pos_;
    last_drag_pos_ = event->position();
    applyView(center_ + QPointF(-delta.x() / zoom_, delta.y() / zoom_), zoom_, true);
  }
  emit cursorInfo(cursorText(widgetToImage(event->position())));
}

void ImageView::mouseReleaseEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton && sketch_.active() &&
      sketch_.tool() != MaskTool::Polygon) {
    const auto region =
        sketch_.finishDrag(widgetToImage(event->position()), kMinDrawScreenPixels / zoom_);
    update();
    if (region)
      emit maskRegionDrawn(*region);
  } else if (dragging_ &&
             (event->button() == Qt::LeftButton || event->button() == Qt::MiddleButton)) {
    dragging_ = false;
    restoreCursor();
  }
}

void ImageView::mouseDoubleClickEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton || mask_tool_ != MaskTool::Polygon) {
    QWidget::mouseDoubleClickEvent(event);
    return;
  }
  if (!sketch_.active()) {  // a double click without a polygon started: begin one
    mousePressEvent(event);
    return;
  }
  sketch_.addVertex(widgetToImage(event->position()), kMinDrawScreenPixels / zoom_);
  const auto region = sketch_.closePolygon();
  update();
  if (region)
    emit maskRegionDrawn(*region);
  event->accept();
}

void ImageView::keyPressEvent(QKeyEvent* event) {
  const QPointF middle(width() / 2.0, height() / 2.0);
  const double step = 0.1 * std::min(width(), height()) / zoom_;  // a tenth of the view
  switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
      zoomAbout(middle, kKeyZoomStep);
      break;
    case Qt::Key_Minus:
      zoomAbout(middle, 1.0 / kKeyZoomStep);
      break;
    case Qt::Key_Left:
      applyView(center_ - QPointF(step, 0.0), zoom_, true);
      break;
    case Qt::Key_Right:
      applyView(center_ + QPointF(step, 0.0), zoom_, true);
      break;
    case Qt::Key_Up:
      applyView(center_ + QPointF(0.0, step), zoom_, true);
      break;
    case Qt::Key_Down:
      applyView(center_ - QPointF(0.0, step), zoom_, true);
      break;
    case Qt::Key_F:
      fitToWindow();
      break;
    case Qt::Key_Escape:
      if (!sketch_.active()) {
        QWidget::keyPressEvent(event);
        return;
      }
      sketch_.cancel();
      update();
      break;
    default:
      QWidget::keyPressEvent(event);
      return;
  }
  event->accept();
}

void ImageView::leaveEvent(QEvent* event) {
  QWidget::leaveEvent(event);
  emit cursorInfo(QString());
}

}  // namespace apertura::gui
