#include "gui/view/volume_render_worker.h"

#include <QElapsedTimer>

#include <algorithm>

#include <vtkCamera.h>
#include <vtkRenderer.h>

namespace apertura::gui {

VolumeRenderWorker::VolumeRenderWorker(QOffscreenSurface* surface) : surface_(surface) {
  window_.renderer()->SetBackground(0.06, 0.07, 0.1);
  scene_.attach(window_.renderer());
}

VolumeRenderWorker::~VolumeRenderWorker() {
  shutdown();
}

void VolumeRenderWorker::shutdown() {
  if (shut_down_)
    return;
  shut_down_ = true;
  window_.release();
}

void VolumeRenderWorker::setInput(const std::shared_ptr<const VolumeInput>& input) {
  if (!input)
    return;
  if (scene_.setInput(*input))
    scene_.resetCamera(window_.renderer());
  else
    window_.renderer()->ResetCameraClippingRange();
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
  scene_.resetCamera(window_.renderer());
  scheduleRender();
}

void VolumeRenderWorker::requestRender() {
  scheduleRender();
}

void VolumeRenderWorker::rotate(double azimuth_deg, double elevation_deg) {
  vtkCamera* camera = window_.renderer()->GetActiveCamera();
  camera->Azimuth(azimuth_deg);
  camera->Elevation(elevation_deg);
  camera->OrthogonalizeViewUp();
  window_.renderer()->ResetCameraClippingRange();
  scheduleRender();
}

void VolumeRenderWorker::mouseEvent(unsigned long vtk_event, QPointF device_pos,
                                    Qt::KeyboardModifiers modifiers, bool repeat) {
  if (ensureContext()) {
    window_.resize(renderSize());
    window_.sendMouse(vtk_event, device_pos * scale_, modifiers, repeat);
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
  if (window_.isOpen())
    return true;
  if (!error_.isEmpty() || shut_down_)
    return false;
  if (!window_.open(surface_)) {
    error_ = tr("3D view unavailable: no OpenGL 3.2 context on this display");
    return false;
  }
  const bool software = window_.softwareGl();
  // The GPU ray caster is a fragment shader, which software OpenGL runs far more slowly than
  // VTK's multi-threaded fixed-point CPU ray caster; half the resolution is a quarter the time.
  scene_.useCpuRayCasting(software);
  scale_ = software ? 0.5 : 1.0;
  return true;
}

void VolumeRenderWorker::renderFrame(quint64 serial) {
  if (window_.rendering())
    return;
  if (!ensureContext()) {
    emit frameReady(QImage(), 0.0, QString(), window_.glRenderer(), error_, serial);
    return;
  }
  QElapsedTimer clock;
  clock.start();
  if (!window_.render(renderSize())) {
    emit frameReady(QImage(), 0.0, QString(), window_.glRenderer(),
                    tr("3D view unavailable: the OpenGL context was lost"), serial);
    return;
  }
  dirty_ = false;
  emitFrame(clock.nsecsElapsed() / 1e6, serial);
}

void VolumeRenderWorker::emitFrame(double ms, quint64 serial) {
  emit frameReady(window_.frame(), ms, QString::fromLatin1(scene_.method()), window_.glRenderer(),
                  error_, serial);
}

}  // namespace apertura::gui
