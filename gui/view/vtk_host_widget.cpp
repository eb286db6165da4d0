#include "gui/view/vtk_host_widget.h"

#include <QElapsedTimer>
#include <QMouseEvent>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QOpenGLFunctions>
#include <QPainter>
#include <QSurfaceFormat>
#include <QWheelEvent>

#include <algorithm>

#include <vtkCommand.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkInteractorStyleTrackballCamera.h>
#include <vtkOpenGLState.h>
#include <vtkRenderer.h>

#include "gui/view/vtk_frame_readback.h"

namespace apertura::gui {

namespace {

// What VTK's OpenGL2 backend needs. The context is ours alone, so this holds whatever default
// format the application set.
QSurfaceFormat vtkFormat() {
  QSurfaceFormat format;
  format.setRenderableType(QSurfaceFormat::OpenGL);
  format.setVersion(3, 2);
  format.setProfile(QSurfaceFormat::CoreProfile);
  format.setRedBufferSize(8);
  format.setGreenBufferSize(8);
  format.setBlueBufferSize(8);
  format.setAlphaBufferSize(8);
  format.setDepthBufferSize(24);
  format.setStencilBufferSize(0);
  // VTK resolves its own multisampled buffers.
  format.setSamples(0);
  return format;
}

}  // namespace

VtkHostWidget::VtkHostWidget(QWidget* parent) : QWidget(parent) {
  // Every pixel is painted from the frame: no background fill needed before it.
  setAttribute(Qt::WA_OpaquePaintEvent);
  // VTK defaults to "ready"; rendering before the context exists would run GL calls without one.
  render_window_->SetReadyForRendering(false);
  // The context is Qt's; VTK must neither create nor destroy it.
  render_window_->SetOwnContext(0);
  // There is no window buffer: the frame is blitted into our framebuffer by readBack().
  render_window_->SetFrameBlitModeToNoBlit();
  render_window_->SetUseOffScreenBuffers(false);
  // Core profiles deprecate line widths above 1; this makes VTK emulate wide lines in shaders
  // rather than trust the driver-reported range.
  render_window_->SetForceMaximumHardwareLineWidth(1);
  render_window_->AddRenderer(renderer_);

  for (unsigned long event : {vtkCommand::WindowMakeCurrentEvent, vtkCommand::WindowIsCurrentEvent,
                              vtkCommand::WindowFrameEvent}) {
    render_window_->AddObserver(event, this, &VtkHostWidget::onRenderWindowEvent);
  }

  interactor_->SetRenderWindow(render_window_);
  interactor_->SetInteractorStyle(style_);
  // Enables the interactor so the style's Render() calls reach the window; rendering is a
  // no-op until ensureContext() flips ReadyForRendering.
  interactor_->Initialize();

  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(false);
}

VtkHostWidget::~VtkHostWidget() {
  if (context_ && context_->makeCurrent(surface_.get())) {
    render_window_->Finalize();
    target_.reset();
    context_->doneCurrent();
  }
  render_window_->SetReadyForRendering(false);
  // The window may outlive us if someone else holds a reference; stop calling back into us.
  render_window_->RemoveObservers(vtkCommand::WindowMakeCurrentEvent);
  render_window_->RemoveObservers(vtkCommand::WindowIsCurrentEvent);
  render_window_->RemoveObservers(vtkCommand::WindowFrameEvent);
}

vtkRenderer* VtkHostWidget::renderer() const {
  return renderer_.GetPointer();
}

vtkGenericOpenGLRenderWindow* VtkHostWidget::renderWindow() const {
  return render_window_.GetPointer();
}

QSurfaceFormat VtkHostWidget::contextFormat() {
  return vtkFormat();
}

void VtkHostWidget::setDefaultSurfaceFormat() {
  QSurfaceFormat format = vtkFormat();
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

bool VtkHostWidget::softwareGl() const {
  const QString name = gl_renderer_.toLower();
  return name.contains("llvmpipe") || name.contains("softpipe") || name.contains("swrast") ||
         name.contains("software");
}

QImage VtkHostWidget::grabRendered() {
  if (dirty_ || frame_.isNull() || frame_.size() != deviceSize())
    renderFrame();
  return frame_;
}

bool VtkHostWidget::ensureContext() {
  if (context_)
    return true;
  if (!error_.isEmpty())
    return false;
  surface_ = std::make_unique<QOffscreenSurface>();
  surface_->setFormat(vtkFormat());
  surface_->create();
  context_ = std::make_unique<QOpenGLContext>();
  context_->setFormat(vtkFormat());
  if (!surface_->isValid() || !context_->create() || !context_->makeCurrent(surface_.get())) {
    error_ = tr("3D view unavailable: no OpenGL 3.2 context on this display");
    context_.reset();
    surface_.reset();
    return false;
  }
  // There is no native window for VTK to query; state what the context guarantees.
  render_window_->SetReadyForRendering(true);
  render_window_->SetMapped(1);
  render_window_->SetIsDirect(1);
  render_window_->SetSupportsOpenGL(1);
  render_window_->OpenGLInitContext();
  const auto* name = reinterpret_cast<const char*>(context_->functions()->glGetString(GL_RENDERER));
  gl_renderer_ = QString::fromLatin1(name ? name : "");
  contextReady();
  return true;
}

void VtkHostWidget::renderFrame() {
  if (in_render_ || !ensureContext())
    return;
  QElapsedTimer clock;
  clock.start();
  if (!context_->makeCurrent(surface_.get()))
    return;
  const QSize size = deviceSize();
  const int* current = render_window_->GetSize();
  if (current[0] != size.width() || current[1] != size.height()) {
    // The interactor keeps its own size for y-flipping mouse positions.
    interactor_->UpdateSize(size.width(), size.height());
    render_window_->SetSize(size.width(), size.height());
  }
  vtkOpenGLState* state = render_window_->GetState();
  // Qt's framebuffer calls (toImage) change GL state behind VTK's cache.
  state->Reset();
  state->Push();
  in_render_ = true;
  render_window_->Render();
  in_render_ = false;
  readBack();
  state->Pop();
  dirty_ = false;
  ++frames_;
  last_frame_ms_ = clock.nsecsElapsed() / 1e6;
}

void VtkHostWidget::readBack() {
  QImage frame = readVtkFrame(render_window_.Get(), context_.get(), target_);
  if (!frame.isNull())
    frame_ = std::move(frame);
}

void VtkHostWidget::paintEvent(QPaintEvent* /*event*/) {
  if (dirty_ || frame_.isNull() || frame_.size() != deviceSize())
    renderFrame();
  QPainter painter(this);
  if (!frame_.isNull()) {
    painter.setRenderHint(QPainter::SmoothPixmapTransform, render_scale_ < 1.0);
    painter.drawImage(rect(), frame_);
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

void VtkHostWidget::onRenderWindowEvent(vtkObject* /*caller*/, unsigned long event_id,
                                        void* call_data) {
  switch (event_id) {
    case vtkCommand::WindowMakeCurrentEvent:
      if (context_)
        context_->makeCurrent(surface_.get());
      break;
    case vtkCommand::WindowIsCurrentEvent: {
      auto* is_current = static_cast<bool*>(call_data);
      *is_current = context_ && QOpenGLContext::currentContext() == context_.get();
      break;
    }
    case vtkCommand::WindowFrameEvent:
      // A frame rendered outside renderFrame() (the interactor during a drag or wheel): read it
      // back and show it, rather than rendering it again in the next paint.
      if (!in_render_ && context_) {
        readBack();
        ++frames_;
        dirty_ = false;
        update();
      }
      break;
    default:
      break;
  }
}

void VtkHostWidget::forwardMouse(QMouseEvent* event, unsigned long vtk_event) {
  const qreal dpr = devicePixelRatioF() * render_scale_;
  const QPointF pos = event->position() * dpr;
  const Qt::KeyboardModifiers mods = event->modifiers();
  const bool repeat = event->type() == QEvent::MouseButtonDblClick;
  interactor_->SetEventInformationFlipY(static_cast<int>(pos.x()), static_cast<int>(pos.y()),
                                        (mods & Qt::ControlModifier) ? 1 : 0,
                                        (mods & Qt::ShiftModifier) ? 1 : 0, 0, repeat ? 1 : 0);
  interactor_->SetAltKey((mods & Qt::AltModifier) ? 1 : 0);
  interactor_->InvokeEvent(vtk_event, nullptr);
}

void VtkHostWidget::mousePressEvent(QMouseEvent* event) {
  switch (event->button()) {
    case Qt::LeftButton:
      forwardMouse(event, vtkCommand::LeftButtonPressEvent);
      break;
    case Qt::MiddleButton:
      forwardMouse(event, vtkCommand::MiddleButtonPressEvent);
      break;
    case Qt::RightButton:
      forwardMouse(event, vtkCommand::RightButtonPressEvent);
      break;
    default:
      QWidget::mousePressEvent(event);
      return;
  }
  event->accept();
}

void VtkHostWidget::mouseReleaseEvent(QMouseEvent* event) {
  switch (event->button()) {
    case Qt::LeftButton:
      forwardMouse(event, vtkCommand::LeftButtonReleaseEvent);
      break;
    case Qt::MiddleButton:
      forwardMouse(event, vtkCommand::MiddleButtonReleaseEvent);
      break;
    case Qt::RightButton:
      forwardMouse(event, vtkCommand::RightButtonReleaseEvent);
      break;
    default:
      QWidget::mouseReleaseEvent(event);
      return;
  }
  event->accept();
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
  const QPointF pos = event->position() * dpr;
  const Qt::KeyboardModifiers mods = event->modifiers();
  interactor_->SetEventInformationFlipY(static_cast<int>(pos.x()), static_cast<int>(pos.y()),
                                        (mods & Qt::ControlModifier) ? 1 : 0,
                                        (mods & Qt::ShiftModifier) ? 1 : 0);
  interactor_->InvokeEvent(
      delta > 0 ? vtkCommand::MouseWheelForwardEvent : vtkCommand::MouseWheelBackwardEvent,
      nullptr);
  event->accept();
}

QSize VtkHostWidget::deviceSize() const {
  const qreal dpr = devicePixelRatioF() * render_scale_;
  return {std::max(1, static_cast<int>(width() * dpr + 0.5)),
          std::max(1, static_cast<int>(height() * dpr + 0.5))};
}

}  // namespace apertura::gui
