#pragma once

#include <QImage>
#include <QString>
#include <QSurfaceFormat>
#include <QWidget>

#include <memory>

#include "gui/view/offscreen_vtk_window.h"

class QMouseEvent;
class QOffscreenSurface;
class QPainter;
class QWheelEvent;
class vtkGenericOpenGLRenderWindow;
class vtkRenderer;

namespace apertura::gui {

// Hosts a VTK scene in a plain (raster) QWidget without VTK's Qt module (Debian builds that
// module against Qt 5). VTK renders into a framebuffer of the widget's own offscreen OpenGL
// context; the frame is read back into a QImage and painted with QPainter.
//
// Why not a QOpenGLWidget: one such child switches its whole top-level window to OpenGL
// composition, so every repaint of any widget (a chart, a progress bar) uploads and redraws the
// entire window through OpenGL. With a software renderer (Mesa llvmpipe, as under Xvfb or on a
// remote desktop) that alone blocked the event loop 50-100 ms per repaint during a run, even with
// the 3D views hidden. Here only a visible view whose scene changed renders, once per paint.
class VtkHostWidget : public QWidget {
  Q_OBJECT

 public:
  explicit VtkHostWidget(QWidget* parent = nullptr);
  ~VtkHostWidget() override;

  VtkHostWidget(const VtkHostWidget&) = delete;
  VtkHostWidget& operator=(const VtkHostWidget&) = delete;

  vtkRenderer* renderer() const;
  vtkGenericOpenGLRenderWindow* renderWindow() const;

  // Must run before QApplication is constructed: VTK's OpenGL2 backend needs a 3.2 core
  // context, and Qt only honours the default format for contexts created afterwards.
  static void setDefaultSurfaceFormat();
  // The format of the offscreen contexts VTK renders into (also the volume view's render thread).
  static QSurfaceFormat contextFormat();

  // Call after changing the scene: the next paint renders it. Hidden views never render, and
  // several requests before a paint cost one frame.
  void requestRender();

  // Renders the current scene if it changed (also when hidden) and returns the frame; a null
  // image when OpenGL is unavailable (errorText() says why).
  QImage grabRendered();

  // Renders at this fraction of the widget's device pixels (0.25-1) and scales the frame up
  // when painting: software renderers spend time per pixel, so heavy scenes (volumes) trade
  // sharpness for a responsive window.
  void setRenderScale(double scale);
  double renderScale() const { return render_scale_; }

  // Frames rendered so far and the wall time of the last one (VTK render plus read-back), for
  // diagnostics and tests.
  int framesRendered() const { return frames_; }
  double lastFrameMs() const { return last_frame_ms_; }
  // Empty unless the OpenGL context could not be created; then the widget shows this text.
  QString errorText() const { return error_; }
  // GL_RENDERER of the context once it exists (after the first frame), e.g. "llvmpipe (...)";
  // software renderers make heavy scenes (volumes) pick CPU algorithms.
  QString glRenderer() const { return window_.glRenderer(); }
  bool softwareGl() const { return window_.softwareGl(); }

 protected:
  // Called once the context exists and is current, before the first frame.
  virtual void contextReady() {}
  // Draws on top of the frame in widget coordinates: text stays sharp at any render scale.
  virtual void paintOverlay(QPainter& /*painter*/) {}

  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;

 private:
  bool ensureContext();

  void renderFrame();
  void onInteractorFrame();
  void forwardMouse(QMouseEvent* event, unsigned long vtk_event);
  QSize deviceSize() const;  // of the rendered frame: widget size x device pixel ratio x scale

  // Declared before the window: its OpenGL resources are released while the surface exists.
  std::unique_ptr<QOffscreenSurface> surface_;
  OffscreenVtkWindow window_{[this] { onInteractorFrame(); }};
  QString error_;
  bool dirty_ = true;
  int frames_ = 0;
  double last_frame_ms_ = 0.0;
  double render_scale_ = 1.0;
};

}  // namespace apertura::gui
