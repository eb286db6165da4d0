#include "gui/view/volume_render_worker.h"

#include <QElapsedTimer>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QOpenGLFunctions>

#include <algorithm>

#include <vtkCamera.h>
#include <vtkCommand.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkInteractorStyleTrackballCamera.h>
#include <vtkOpenGLState.h>
#include <vtkRenderer.h>

#include "gui/view/vtk_frame_readback.h"
#include "gui/view/vtk_host_widget.h"

namespace apertura::gui {

VolumeRenderWorker::VolumeRenderWorker(QOffscreenSurface* surface) : surface_(surface) {
  // The same protocol as VtkHostWidget: the context is ours, VTK neither creates nor swaps it,
  // and frames are blitted into our framebuffer and read back.
  render_window_->SetReadyForRendering(false);
  render_window_->SetOwnContext(0);
  render_window_->SetFrameBlitModeToNoBlit();
  render_window_->SetUseOffScreenBuffers(false);
  render_window_->SetForceMaximumHardwareLineWidth(1);
  render_window_->AddRenderer(renderer_);
  for (unsigned long event : {vtkCommand::WindowMakeCurrentEvent, vtkCommand::WindowIsCurrentEvent,
                              vtkCommand::WindowFrameEvent}) {
    render_window_->AddObserver(event, this, &VolumeRenderWorker::onRenderWindowEvent);
  }
  interactor_->SetRenderWindow(render_window_);
  interactor_->SetInteractorStyle(style_);
  interactor_->Initialize();
  renderer_->SetBackground(0.06, 0.07, 0.1);
  scene_.attach(renderer_);
}

VolumeRenderWorker::~VolumeRenderWorker() {
  shutdown();
  render_window_->RemoveObservers(vtkCommand::WindowMakeCurrentEvent);
  render_window_->RemoveObservers(vtkCommand::WindowIsCurrentEvent);
  render_window_->RemoveObservers(vtkCommand::WindowFrameEvent);
}

void VolumeRenderWorker::shutdown() {
  if (shut_down_)
    return;
  shut_down_ = true;
  if (context_ && context_->makeCurrent(surface_)) {
    render_window_->Finalize();
    target_.reset();
    context_->doneCurrent();
  }
  render_window_->SetReadyForRendering(false);
  context_.reset();
}

void VolumeRenderWorker::setInput(const std::shared_ptr<const VolumeInput>& input) {
  if (!input)
    return;
  if (scene_.setInput(*input))
    scene_.resetCamera(renderer_);
  else
    renderer_->ResetCameraClippingRange();
  scheduleRender();
}

void VolumeRenderWorker::clear() {
  scene_.clear();
  scheduleRender();
}

void VolumeRenderWorker::setSize(QSize device_size) {
  if (device_size == device_size_ || device_size.isEmpty())
    return;
  device_size_ = device_size;
  scheduleRender();
}

void VolumeRenderWorker::setActive(bool active) {
  active_ = active;
  if (active_ && dirty_)
    scheduleRender();
}

void VolumeRenderWorker::resetCamera() {
  scene_.resetCamera(renderer_);
  scheduleRender();
}

void VolumeRenderWorker::requestRender() {
  scheduleRender();
}

void VolumeRenderWorker::rotate(double azimuth_deg, double elevation_deg) {
  vtkCamera* camera = renderer_->GetActiveCamera();
  camera->Azimuth(azimuth_deg);
  camera->Elevation(elevation_deg);
  camera->OrthogonalizeViewUp();
  renderer_->ResetCameraClippingRange();
  scheduleRender();
}

void VolumeRenderWorker::mouseEvent(unsigned long vtk_event, QPointF device_pos,
                                    Qt::KeyboardModifiers modifiers, bool repeat) {
  if (ensureContext()) {
    const QSize size = renderSize();
    if (render_window_->GetSize()[0] != size.width() ||
        render_window_->GetSize()[1] != size.height()) {
      interactor_->UpdateSize(size.width(), size.height());
      render_window_->SetSize(size.width(), size.height());
    }
    const QPointF pos = device_pos * scale_;
    interactor_->SetEventInformationFlipY(static_cast<int>(pos.x()), static_cast<int>(pos.y()),
                                          (modifiers & Qt::ControlModifier) ? 1 : 0,
                                          (modifiers & Qt::ShiftModifier) ? 1 : 0, 0,
                                          repeat ? 1 : 0);
    interactor_->SetAltKey((modifiers & Qt::AltModifier) ? 1 : 0);
    // The style renders through the window (WindowFrameEvent below sends that frame).
    interactor_->InvokeEvent(vtk_event, nullptr);
  }
  emit mouseHandled();
}

void VolumeRenderWorker::renderNow(quint64 serial) {
  renderFrame(serial);
}

void VolumeRenderWorker::scheduleRender() {
  dirty_ = true;
  if (!active_ || render_posted_)
    return;
  // Queued behind whatever else is waiting (new data, a resize), so a burst costs one frame.
  render_posted_ = true;
  QMetaObject::invokeMethod(this, &VolumeRenderWorker::renderIfDirty, Qt::QueuedConnection);
}

void VolumeRenderWorker::renderIfDirty() {
  render_posted_ = false;
  if (active_ && dirty_)
    renderFrame(0);
}

QSize VolumeRenderWorker::renderSize() const {
  return {std::max(1, static_cast<int>(device_size_.width() * scale_ + 0.5)),
          std::max(1, static_cast<int>(device_size_.height() * scale_ + 0.5))};
}

bool VolumeRenderWorker::ensureContext() {
  if (context_)
    return true;
  if (!error_.isEmpty() || shut_down_)
    return false;
  context_ = std::make_unique<QOpenGLContext>();
  context_->setFormat(VtkHostWidget::contextFormat());
  if (!surface_ || !surface_->isValid() || !context_->create() ||
      !context_->makeCurrent(surface_)) {
    error_ = tr("3D view unavailable: no OpenGL 3.2 context on this display");
    context_.reset();
    return false;
  }
  render_window_->SetReadyForRendering(true);
  render_window_->SetMapped(1);
  render_window_->SetIsDirect(1);
  render_window_->SetSupportsOpenGL(1);
  render_window_->OpenGLInitContext();
  const auto* name = reinterpret_cast<const char*>(context_->functions()->glGetString(GL_RENDERER));
  gl_renderer_ = QString::fromLatin1(name ? name : "");
  const QString lower = gl_renderer_.toLower();
  const bool software = lower.contains("llvmpipe") || lower.contains("softpipe") ||
                        lower.contains("swrast") || lower.contains("software");
  // The GPU ray caster is a fragment shader, which software OpenGL runs far more slowly than
  // VTK's multi-threaded fixed-point CPU ray caster; half the resolution is a quarter the time.
  scene_.useCpuRayCasting(software);
  scale_ = software ? 0.5 : 1.0;
  return true;
}

void VolumeRenderWorker::renderFrame(quint64 serial) {
  if (in_render_)
    return;
  if (!ensureContext()) {
    emit frameReady(QImage(), 0.0, QString(), gl_renderer_, error_, serial);
    return;
  }
  QElapsedTimer clock;
  clock.start();
  if (!context_->makeCurrent(surface_)) {
    emit frameReady(QImage(), 0.0, QString(), gl_renderer_,
                    tr("3D view unavailable: the OpenGL context was lost"), serial);
    return;
  }
  const QSize size = renderSize();
  const int* current = render_window_->GetSize();
  if (current[0] != size.width() || current[1] != size.height()) {
    interactor_->UpdateSize(size.width(), size.height());
    render_window_->SetSize(size.width(), size.height());
  }
  vtkOpenGLState* state = render_window_->GetState();
  state->Reset();
  state->Push();
  in_render_ = true;
  render_window_->Render();
  in_render_ = false;
  readBack();
  state->Pop();
  dirty_ = false;
  emitFrame(clock.nsecsElapsed() / 1e6, serial);
}

void VolumeRenderWorker::emitFrame(double ms, quint64 serial) {
  emit frameReady(frame_, ms, QString::fromLatin1(scene_.method()), gl_renderer_, error_, serial);
}

void VolumeRenderWorker::readBack() {
  QImage frame = readVtkFrame(render_window_.Get(), context_.get(), target_);
  if (!frame.isNull())
    frame_ = std::move(frame);
}

void VolumeRenderWorker::onRenderWindowEvent(vtkObject* /*caller*/, unsigned long event_id,
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
      // A frame the interactor rendered (a drag or a wheel step): send it as it is.
      if (!in_render_ && context_) {
        readBack();
        dirty_ = false;
        emitFrame(0.0, 0);
      }
      break;
    default:
      break;
  }
}

}  // namespace apertura::gui
