#pragma once

#include <QImage>
#include <QObject>
#include <QSize>
#include <QString>

#include <memory>

#include "gui/view/offscreen_vtk_window.h"
#include "gui/view/volume_scene.h"

class QOffscreenSurface;

namespace apertura::gui {

// Renders the iteration-stack volume away from the GUI thread. It lives on the volume view's
// render thread and owns everything VTK and OpenGL there: its own OpenGL context (on a surface
// the GUI thread created, as Qt requires), the VTK render window, the interactor and the scene.
// The view talks to it only through queued calls and receives finished frames as QImages, so a
// ray-cast frame (tens to hundreds of milliseconds under software OpenGL) never holds the event
// loop. Requests that arrive while a frame renders coalesce into one more frame.
class VolumeRenderWorker : public QObject {
  Q_OBJECT

 public:
  // `surface` must outlive this object (the view deletes it after the render thread ended).
  explicit VolumeRenderWorker(QOffscreenSurface* surface);
  ~VolumeRenderWorker() override;

  // All of these run on the worker's thread (the view calls them through queued invocations).
  void setInput(const std::shared_ptr<const VolumeInput>& input);
  void clear();
  // The view's size in device pixels; frames are rendered at a fraction of it under software
  // OpenGL (ray casting costs per pixel).
  void setSize(QSize device_size);
  // Frames are rendered only while active (the view is visible); requests wait until then.
  void setActive(bool active);
  void resetCamera();
  // Draws the scene again once active (e.g. after the view was uncovered).
  void requestRender();
  void rotate(double azimuth_deg, double elevation_deg);
  // A mouse or wheel event for the trackball interactor, in the view's device pixels (y down).
  void mouseEvent(unsigned long vtk_event, QPointF device_pos, Qt::KeyboardModifiers modifiers,
                  bool repeat);
  // Renders now (visible or not) and answers with a frame tagged `serial` (grabs, tests).
  void renderNow(quint64 serial);
  // Releases the OpenGL resources; call on the worker's thread before it ends.
  void shutdown();

 signals:
  // A finished frame: the picture, its render time, how it was drawn, and the serial of the last
  // renderNow() it answers (0 for ordinary frames).
  void frameReady(const QImage& frame, double ms, const QString& method, const QString& gl_renderer,
                  const QString& error, quint64 serial);
  // A mouse event was handled (the view sends the next drag position only then).
  void mouseHandled();

 private:
  bool ensureContext();
  void scheduleRender();
  void renderIfDirty();
  void renderFrame(quint64 serial);
  void emitFrame(double ms, quint64 serial);
  QSize renderSize() const;

  QOffscreenSurface* surface_;
  // A frame the interactor rendered (a drag or a wheel step) is sent as it is.
  OffscreenVtkWindow window_{[this] {
    dirty_ = false;
    emitFrame(0.0, 0);
  }};
  VolumeScene scene_;
  QString error_;
  QSize device_size_{320, 240};
  double scale_ = 1.0;
  bool active_ = false;
  bool dirty_ = true;
  bool render_posted_ = false;
  bool shut_down_ = false;
};

}  // namespace apertura::gui
