#include "gui/view/vtk_host_widget.h"

#include <QElapsedTimer>
#include <QMouseEvent>
#include <QOffscreenSurface>
#include <QPainter>
#include <QSurfaceFormat>
#include <QWheelEvent>

#include <algorithm>

#include <vtkCommand.h>

namespace apertura::gui {

VtkHostWidget::VtkHostWidget(QWidget* parent) : QWidget(parent) {
  // Every pixel is painted from the frame: no background fill needed before it.
  setAttribute(Qt::WA_OpaquePaintEvent);
  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(false);
}

// The window releases its OpenGL resources first (members go in reverse order), then the surface.
VtkHostWidget::~VtkHostWidget() = default;

vtkRenderer* VtkHostWidget::renderer() const {
  return window_.renderer();
}

vtkGenericOpenGLRenderWindow* VtkHostWidget::renderWindow() const {
  return window_.renderWindow();
}

QSurfaceFormat VtkHostWidget::contextFormat() {
  return OffscreenVtkWindow::contextFormat();
}

void VtkHostWidget::setDefaultSurfaceFormat() {
  QSurfaceFormat format = OffscreenVtkWindow::contextFormat();
  format.setSwapBehavior(QSurfaceFormat::DoubleBuffer);
  QSurfaceFormat::setDefaultFormat(format);
}

void VtkHostWidget::setRenderScale(double scale) {
  scale = std::clamp(scale, 0.25, 1.0);
  if (scale == render_scale_)
    return;
  render_scale_ = scale;
  requestRender();
}

void VtkHostWidget::requestRender() {
  dirty_ = true;
  update();
}

QImage VtkHostWidget::grabRendered() {
  if (dirty_ || window_.frame().isNull() || window_.frame().size() != deviceSize())
    renderFrame();
  return window_.frame();
}

bool VtkHostWidget::ensureContext() {
  if (window_.isOpen())
    return true;
  if (!error_.isEmpty())
    return false;
  surface_ = std::make_unique<QOffscreenSurface>();
  surface_->setFormat(OffscreenVtkWindow::contextFormat());
  surface_->create();
  if (!window_.open(surface_.get())) {
    error_ = tr("3D view unavailable: no OpenGL 3.2 context on this display");
    surface_.reset();
    return false;
  }
  contextReady();
  return true;
}

void VtkHostWidget::renderFrame() {
  if (window_.rendering() || !ensureContext())
    return;
  QElapsedTimer clock;
  clock.start();
  if (!window_.render(deviceSize()))
    return;
  dirty_ = false;
  ++frames_;
  last_frame_ms_ = clock.nsecsElapsed() / 1e6;
}

void VtkHostWidget::paintEvent(QPaintEvent* /*event*/) {
  if (dirty_ || window_.frame().isNull() || window_.frame().size() != deviceSize())
    renderFrame();
  QPainter painter(this);
  if (!window_.frame().isNull()) {
    painter.setRenderHint(QPainter::SmoothPixmapTransform, render_scale_ < 1.0);
    painter.drawImage(rect(), window_.frame());
    painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
    paintOverlay(painter);
    return;
  }
  painter.fillRect(rect(), QColor(16, 18, 26));
  painter.setPen(QColor(180, 184, 200));
  painter.drawText(rect().adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap,
                   error_.isEmpty() ? tr("Preparing the 3D view…") : error_);
}

void VtkHostWidget::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  dirty_ = true;
}

void VtkHostWidget::onInteractorFrame() {
  // Shown as it is, rather than rendered again in the next paint.
  ++frames_;
  dirty_ = false;
  update();
}

void VtkHostWidget::forwardMouse(QMouseEvent* event, unsigned long vtk_event) {
  const qreal dpr = devicePixelRatioF() * render_scale_;
  window_.sendMouse(vtk_event, event->position() * dpr, event->modifiers(),
                    event->type() == QEvent::MouseButtonDblClick);
}

void VtkHostWidget::mousePressEvent(QMouseEvent* event) {
  if (const unsigned long vtk_event = OffscreenVtkWindow::buttonEvent(event->button(), true)) {
    forwardMouse(event, vtk_event);
    event->accept();
  } else {
    QWidget::mousePressEvent(event);
  }
}

void VtkHostWidget::mouseReleaseEvent(QMouseEvent* event) {
  if (const unsigned long vtk_event = OffscreenVtkWindow::buttonEvent(event->button(), false)) {
    forwardMouse(event, vtk_event);
    event->accept();
  } else {
    QWidget::mouseReleaseEvent(event);
  }
}

void VtkHostWidget::mouseMoveEvent(QMouseEvent* event) {
  forwardMouse(event, vtkCommand::MouseMoveEvent);
  event->accept();
}

void VtkHostWidget::wheelEvent(QWheelEvent* event) {
  const int delta = event->angleDelta().y();
  if (delta == 0) {
    QWidget::wheelEvent(event);
    return;
  }
  const qreal dpr = devicePixelRatioF() * render_scale_;
  window_.sendMouse(
      delta > 0 ? vtkCommand::MouseWheelForwardEvent : vtkCommand::MouseWheelBackwardEvent,
      event->position() * dpr, event->modifiers(), false);
  event->accept();
}

QSize VtkHostWidget::deviceSize() const {
  const qreal dpr = devicePixelRatioF() * render_scale_;
  return {std::max(1, static_cast<int>(width() * dpr + 0.5)),
          std::max(1, static_cast<int>(height() * dpr + 0.5))};
}

}  // namespace apertura::gui
