#pragma once

#include <QImage>
#include <QPointF>
#include <QString>
#include <QWidget>

#include <array>
#include <memory>
#include <optional>

#include "gui/view/image_scaling.h"

class QOffscreenSurface;
class QThread;

namespace apertura::gui {

class IterationStack;
class VolumeRenderWorker;

// The iteration stack of a run as a rotatable volume: x and y are image pixels, z the snapshots
// in iteration order (first at the bottom, the stack half as tall as the image is wide), each
// slice normalised on its own and drawn by ray casting with an inferno colour ramp (VolumeScene).
//
// Nothing VTK or OpenGL happens on the GUI thread: a render thread owns the scene, its own OpenGL
// context and the VTK render window (VolumeRenderWorker) and hands back finished frames, which
// this widget only paints. Mouse drags are forwarded there, one position at a time, so a slow
// frame delays the picture, never the event loop. Where Qt cannot use OpenGL from another thread
// the worker stays on the GUI thread (the old behaviour), still driven by queued calls.
class VolumeView : public QWidget {
  Q_OBJECT

 public:
  explicit VolumeView(QWidget* parent = nullptr);
  ~VolumeView() override;

  // Copies the stack (at most IterationStack's bounds) and hands it to the render thread. The
  // camera is kept while the stack's image size is unchanged, so the user's rotation survives.
  // `caption` replaces the iteration caption (a spectral cube's planes are stacked the same way).
  void setStack(const IterationStack& stack, const QString& caption = {});
  void clear();

  int slices() const { return slices_; }
  // nx, ny, nz of the volume (0 when empty).
  std::array<int, 3> dimensions() const { return dims_; }
  ValueRange valueRange() const { return range_; }
  // The caption drawn in the corner ("Model: iterations 0 (bottom) to 20 (top), ..."); empty
  // without a stack.
  QString caption() const { return label_; }
  // Oblique view of the whole stack.
  void resetCamera();
  // Turns the camera about the stack (degrees), as a drag would.
  void rotate(double azimuth_deg, double elevation_deg = 0.0);
  void requestRender();

  // Renders the current scene on the render thread and waits for that frame, running the event
  // loop meanwhile (screenshots and tests only); a null image after `timeout_ms` or without
  // OpenGL (errorText() says why).
  QImage grabRendered(int timeout_ms = 20000);
  QImage lastFrame() const { return frame_; }

  // "GPU ray casting" or "CPU ray casting", once the first frame chose; empty before.
  QString method() const { return method_; }
  QString glRenderer() const { return gl_renderer_; }
  bool softwareGl() const;
  QString errorText() const { return error_; }
  int framesRendered() const { return frames_; }
  double lastFrameMs() const { return last_frame_ms_; }
  // Whether frames are rendered on a thread of their own (false: Qt lacks threaded OpenGL here).
  bool threaded() const { return thread_ != nullptr; }
  static QColor backgroundColor();

 signals:
  void frameArrived();

 protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void showEvent(QShowEvent* event) override;
  void hideEvent(QHideEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;

 private:
  struct MouseInput {
    unsigned long vtk_event = 0;
    QPointF pos;
    Qt::KeyboardModifiers modifiers;
    bool repeat = false;
  };
  void onFrame(const QImage& frame, double ms, const QString& method, const QString& renderer,
               const QString& error, quint64 serial);
  void sendMouse(const MouseInput& input);
  void onMouseHandled();
  QSize deviceSize() const;
  template <typename F>
  void post(F&& call);

  std::unique_ptr<QOffscreenSurface> surface_;
  VolumeRenderWorker* worker_ = nullptr;
  QThread* thread_ = nullptr;
  QImage frame_;
  QString method_;
  QString gl_renderer_;
  QString error_;
  QString label_;
  ValueRange range_;
  std::array<int, 3> dims_{0, 0, 0};
  int slices_ = 0;
  int frames_ = 0;
  double last_frame_ms_ = 0.0;
  quint64 grab_serial_ = 0;
  quint64 answered_serial_ = 0;
  int mouse_in_flight_ = 0;
  std::optional<MouseInput> pending_move_;
};

}  // namespace apertura::gui
