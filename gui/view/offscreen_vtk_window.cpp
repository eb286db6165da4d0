#include "gui/view/offscreen_vtk_window.h"

#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QOpenGLFunctions>

#include <utility>

#include <vtkCommand.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkInteractorStyleTrackballCamera.h>
#include <vtkOpenGLState.h>
#include <vtkRenderer.h>

#include "gui/view/vtk_frame_readback.h"

namespace apertura::gui {

OffscreenVtkWindow::OffscreenVtkWindow(std::function<void()> on_interactor_frame)
    : on_interactor_frame_(std::move(on_interactor_frame)) {
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
    render_window_->AddObserver(event, this, &OffscreenVtkWindow::onRenderWindowEvent);
  }
  interactor_->SetRenderWindow(render_window_);
  interactor_->SetInteractorStyle(style_);
  // Enables the interactor so the style's Render() calls reach the window; rendering is a
  // no-op until open() flips ReadyForRendering.
  interactor_->Initialize();
}

OffscreenVtkWindow::~OffscreenVtkWindow() {
  release();
  // The window may outlive us if someone else holds a reference; stop calling back into us.
  render_window_->RemoveObservers(vtkCommand::WindowMakeCurrentEvent);
  render_window_->RemoveObservers(vtkCommand::WindowIsCurrentEvent);
  render_window_->RemoveObservers(vtkCommand::WindowFrameEvent);
}

QSurfaceFormat OffscreenVtkWindow::contextFormat() {
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

bool OffscreenVtkWindow::isSoftwareRenderer(const QString& gl_renderer) {
  const QString name = gl_renderer.toLower();
  return name.contains("llvmpipe") || name.contains("softpipe") || name.contains("swrast") ||
         name.contains("software");
}

vtkRenderer* OffscreenVtkWindow::renderer() const {
  return renderer_.GetPointer();
}

vtkGenericOpenGLRenderWindow* OffscreenVtkWindow::renderWindow() const {
  return render_window_.GetPointer();
}

vtkGenericRenderWindowInteractor* OffscreenVtkWindow::interactor() const {
  return interactor_.GetPointer();
}

bool OffscreenVtkWindow::open(QOffscreenSurface* surface) {
  if (context_)
    return true;
  context_ = std::make_unique<QOpenGLContext>();
  context_->setFormat(contextFormat());
  if (!surface || !surface->isValid() || !context_->create() || !context_->makeCurrent(surface)) {
    context_.reset();
    return false;
  }
  surface_ = surface;
  // There is no native window for VTK to query; state what the context guarantees.
  render_window_->SetReadyForRendering(true);
  render_window_->SetMapped(1);
  render_window_->SetIsDirect(1);
  render_window_->SetSupportsOpenGL(1);
  render_window_->OpenGLInitContext();
  const auto* name = reinterpret_cast<const char*>(context_->functions()->glGetString(GL_RENDERER));
  gl_renderer_ = QString::fromLatin1(name ? name : "");
  return true;
}

void OffscreenVtkWindow::resize(QSize device_size) {
  const int* current = render_window_->GetSize();
  if (current[0] != device_size.width() || current[1] != device_size.height()) {
    interactor_->UpdateSize(device_size.width(), device_size.height());
    render_window_->SetSize(device_size.width(), device_size.height());
  }
}

bool OffscreenVtkWindow::render(QSize device_size) {
  if (!context_ || in_render_ || !context_->makeCurrent(surface_))
    return false;
  resize(device_size);
  vtkOpenGLState* state = render_window_->GetState();
  // Qt's framebuffer calls (toImage) change GL state behind VTK's cache.
  state->Reset();
  state->Push();
  in_render_ = true;
  render_window_->Render();
  in_render_ = false;
  readBack();
  state->Pop();
  return true;
}

void OffscreenVtkWindow::readBack() {
  QImage frame = readVtkFrame(render_window_.Get(), context_.get(), target_);
  if (!frame.isNull())
    frame_ = std::move(frame);
}

unsigned long OffscreenVtkWindow::buttonEvent(Qt::MouseButton button, bool press) {
  switch (button) {
    case Qt::LeftButton:
      return press ? vtkCommand::LeftButtonPressEvent : vtkCommand::LeftButtonReleaseEvent;
    case Qt::MiddleButton:
      return press ? vtkCommand::MiddleButtonPressEvent : vtkCommand::MiddleButtonReleaseEvent;
    case Qt::RightButton:
      return press ? vtkCommand::RightButtonPressEvent : vtkCommand::RightButtonReleaseEvent;
    default:
      return 0;
  }
}

void OffscreenVtkWindow::sendMouse(unsigned long vtk_event, QPointF pos,
                                   Qt::KeyboardModifiers modifiers, bool repeat) {
  interactor_->SetEventInformationFlipY(static_cast<int>(pos.x()), static_cast<int>(pos.y()),
                                        (modifiers & Qt::ControlModifier) ? 1 : 0,
                                        (modifiers & Qt::ShiftModifier) ? 1 : 0, 0, repeat ? 1 : 0);
  interactor_->SetAltKey((modifiers & Qt::AltModifier) ? 1 : 0);
  // The style renders through the window; WindowFrameEvent below reads that frame back.
  interactor_->InvokeEvent(vtk_event, nullptr);
}

void OffscreenVtkWindow::release() {
  if (context_ && context_->makeCurrent(surface_)) {
    render_window_->Finalize();
    target_.reset();
    context_->doneCurrent();
  }
  render_window_->SetReadyForRendering(false);
  context_.reset();
}

void OffscreenVtkWindow::onRenderWindowEvent(vtkObject* /*caller*/, unsigned long event_id,
                                             void* call_data) {
  switch (event_id) {
    case vtkCommand::WindowMakeCurrentEvent:
      if (context_)
        context_->makeCurrent(surface_);
      break;
    case vtkCommand::WindowIsCurrentEvent: {
      auto* is_current = static_cast<bool*>(call_data);
      *is_current = context_ && QOpenGLContext::currentContext() == context_.get();
      break;
    }
    case vtkCommand::WindowFrameEvent:
      // A frame rendered outside render(): read it back for the host rather than render again.
      if (!in_render_ && context_) {
        readBack();
        if (on_interactor_frame_)
          on_interactor_frame_();
      }
      break;
    default:
      break;
  }
}

}  // namespace apertura::gui
