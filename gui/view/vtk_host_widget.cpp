#include "gui/view/vtk_host_widget.h"

#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLExtraFunctions>
#include <QSurfaceFormat>
#include <QWheelEvent>

#include <vtkCommand.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkInteractorStyleTrackballCamera.h>
#include <vtkOpenGLState.h>
#include <vtkRenderer.h>

namespace apertura::gui {

VtkHostWidget::VtkHostWidget(QWidget* parent) : QOpenGLWidget(parent) {
  // VTK defaults to "ready"; rendering before initializeGL would run GL calls without a context.
  render_window_->SetReadyForRendering(false);
  // Qt owns the context; VTK must neither create nor destroy it.
  render_window_->SetOwnContext(0);
  // Qt composes our FBO itself, so VTK must not blit to the (non-existent) window buffers.
  render_window_->SetFrameBlitModeToNoBlit();
  // paintGL blits VTK's display framebuffer itself; VTK's own Qt adapter also turns this off.
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
  // no-op until initializeGL flips ReadyForRendering.
  interactor_->Initialize();

  setFocusPolicy(Qt::StrongFocus);
}

VtkHostWidget::~VtkHostWidget() {
  // The base destructor destroys the context and emits aboutToBeDestroyed after this part of
  // the object is gone, so the slot must not fire then.
  QObject::disconnect(context_destroyed_);
  if (context() != nullptr) {
    makeCurrent();
    releaseGraphics();
    doneCurrent();
  }
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

void VtkHostWidget::setDefaultSurfaceFormat() {
  QSurfaceFormat format;
  format.setRenderableType(QSurfaceFormat::OpenGL);
  format.setVersion(3, 2);
  format.setProfile(QSurfaceFormat::CoreProfile);
  format.setSwapBehavior(QSurfaceFormat::DoubleBuffer);
  format.setRedBufferSize(8);
  format.setGreenBufferSize(8);
  format.setBlueBufferSize(8);
  format.setAlphaBufferSize(8);
  format.setDepthBufferSize(24);
  format.setStencilBufferSize(0);
  // VTK resolves its own multisampled buffers; a multisampled Qt FBO would only cost memory.
  format.setSamples(0);
  QSurfaceFormat::setDefaultFormat(format);
}

void VtkHostWidget::requestRender() {
  frame_pending_ = false;
  update();
}

QImage VtkHostWidget::grabRendered() {
  return grabFramebuffer();
}

void VtkHostWidget::initializeGL() {
  // Qt recreates the context when the widget moves to another top-level window; VTK's GPU
  // objects belong to the old context and must be dropped while it is still alive.
  QObject::disconnect(context_destroyed_);
  context_destroyed_ = connect(
      context(), &QOpenGLContext::aboutToBeDestroyed, this,
      [this] {
        makeCurrent();
        releaseGraphics();
        doneCurrent();
      },
      Qt::DirectConnection);

  render_window_->SetReadyForRendering(true);
  // There is no native window for VTK to query; state what Qt's context guarantees.
  render_window_->SetMapped(1);
  render_window_->SetIsDirect(1);
  render_window_->SetSupportsOpenGL(1);
  render_window_->OpenGLInitContext();
  frame_pending_ = false;
}

void VtkHostWidget::resizeGL(int /*w*/, int /*h*/) {
  const int w = deviceWidth();
  const int h = deviceHeight();
  // The interactor keeps its own size for y-flipping mouse positions; it forwards to the window.
  interactor_->UpdateSize(w, h);
  render_window_->SetSize(w, h);
  frame_pending_ = false;
}

void VtkHostWidget::paintGL() {
  if (in_paint_ || !render_window_->GetReadyForRendering()) {
    return;
  }
  in_paint_ = true;

  vtkOpenGLState* state = render_window_->GetState();
  // Qt's painting changes GL state behind VTK's cache; a stale cache makes VTK skip calls.
  state->Reset();
  state->Push();
  // Qt sets GL_LESS, but VTK's passes assume GL_LEQUAL.
  state->vtkglDepthFunc(GL_LEQUAL);

  if (!frame_pending_) {
    render_window_->Render();
  }
  frame_pending_ = false;

  // Something triggered by the render (progress handlers, other widgets) may have switched
  // contexts; the blit must target our FBO in our context.
  if (QOpenGLContext::currentContext() != context()) {
    context()->makeCurrent(context()->surface());
  }

  const int w = deviceWidth();
  const int h = deviceHeight();
  state->vtkglBindFramebuffer(GL_DRAW_FRAMEBUFFER, defaultFramebufferObject());
  QOpenGLExtraFunctions* f = context()->extraFunctions();
  const GLenum draw_buffer = GL_COLOR_ATTACHMENT0;
  f->glDrawBuffers(1, &draw_buffer);
  const int* src = render_window_->GetSize();
  render_window_->BlitDisplayFramebuffer(0, 0, 0, src[0], src[1], 0, 0, w, h, GL_COLOR_BUFFER_BIT,
                                         GL_NEAREST);

  // VTK leaves the background alpha at 0; Qt treats the FBO as premultiplied, so without this
  // the background composes (and grabs) as transparent black instead of the renderer colour.
  state->vtkglViewport(0, 0, w, h);
  state->vtkglColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_TRUE);
  state->vtkglClearColor(0.0f, 0.0f, 0.0f, 1.0f);
  f->glClear(GL_COLOR_BUFFER_BIT);

  state->Pop();
  in_paint_ = false;
}

void VtkHostWidget::onRenderWindowEvent(vtkObject* /*caller*/, unsigned long event_id,
                                        void* call_data) {
  switch (event_id) {
    case vtkCommand::WindowMakeCurrentEvent:
      // QOpenGLWidget::makeCurrent() would also rebind Qt's FBO in the middle of VTK's frame,
      // leaving VTK's render target detached and the view black.
      if (context() != nullptr) {
        context()->makeCurrent(context()->surface());
      }
      break;
    case vtkCommand::WindowIsCurrentEvent: {
      auto* is_current = static_cast<bool*>(call_data);
      const QOpenGLContext* current = QOpenGLContext::currentContext();
      *is_current =
          current != nullptr && current == context() && current->surface() == context()->surface();
      break;
    }
    case vtkCommand::WindowFrameEvent:
      // A frame finished outside paintGL (interaction, explicit Render()); show it without
      // rendering again. Frames inside paintGL are blitted by paintGL itself.
      if (!in_paint_) {
        frame_pending_ = true;
        update();
      }
      break;
    default:
      break;
  }
}

void VtkHostWidget::releaseGraphics() {
  render_window_->Finalize();
  render_window_->SetReadyForRendering(false);
  frame_pending_ = false;
}

void VtkHostWidget::forwardMouse(QMouseEvent* event, unsigned long vtk_event) {
  const qreal dpr = devicePixelRatioF();
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
      QOpenGLWidget::mousePressEvent(event);
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
      QOpenGLWidget::mouseReleaseEvent(event);
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
    QOpenGLWidget::wheelEvent(event);
    return;
  }
  const qreal dpr = devicePixelRatioF();
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

int VtkHostWidget::deviceWidth() const {
  return static_cast<int>(width() * devicePixelRatioF() + 0.5);
}

int VtkHostWidget::deviceHeight() const {
  return static_cast<int>(height() * devicePixelRatioF() + 0.5);
}

}  // namespace apertura::gui
