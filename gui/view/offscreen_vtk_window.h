#pragma once

#include <QImage>
#include <QPointF>
#include <QSize>
#include <QString>
#include <QSurfaceFormat>

#include <functional>
#include <memory>

#include <vtkNew.h>

class QOffscreenSurface;
class QOpenGLContext;
class QOpenGLFramebufferObject;
class vtkGenericOpenGLRenderWindow;
class vtkGenericRenderWindowInteractor;
class vtkInteractorStyleTrackballCamera;
class vtkObject;
class vtkRenderer;

namespace apertura::gui {

// A VTK render window (renderer, trackball interactor) that draws into our own OpenGL context on
// a QOffscreenSurface and hands each frame back as a QImage, without VTK's Qt module (Debian
// builds it against Qt 5). The context is Qt's: VTK neither creates, swaps nor destroys it, and
// asks for it through the WindowMakeCurrent/IsCurrent events, answered here. Shared by the 3D
// widget on the GUI thread (VtkHostWidget) and the volume view's render thread
// (VolumeRenderWorker); all calls belong to the thread that opens it.
class OffscreenVtkWindow {
 public:
  // `on_interactor_frame` runs after a frame rendered outside render() (the interactor during a
  // drag or a wheel step) was read back into frame().
  explicit OffscreenVtkWindow(std::function<void()> on_interactor_frame);
  ~OffscreenVtkWindow();

  // VTK observers hold this object's address.
  OffscreenVtkWindow(const OffscreenVtkWindow&) = delete;
  OffscreenVtkWindow& operator=(const OffscreenVtkWindow&) = delete;

  // What VTK's OpenGL2 backend needs: a 3.2 core context with 8-bit RGBA and a depth buffer.
  static QSurfaceFormat contextFormat();
  // Mesa llvmpipe and the like: per-pixel and shader work is slow, so heavy scenes pick CPU
  // algorithms or fewer pixels.
  static bool isSoftwareRenderer(const QString& gl_renderer);

  vtkRenderer* renderer() const;
  vtkGenericOpenGLRenderWindow* renderWindow() const;
  vtkGenericRenderWindowInteractor* interactor() const;

  // Creates the context, makes it current on `surface` (created on the GUI thread; not owned, it
  // must outlive release()) and lets VTK render. False when there is no OpenGL 3.2 context.
  bool open(QOffscreenSurface* surface);
  bool isOpen() const { return context_ != nullptr; }
  // True while render() runs (VTK may call back into the host meanwhile).
  bool rendering() const { return in_render_; }
  // GL_RENDERER once open, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)".
  QString glRenderer() const { return gl_renderer_; }
  bool softwareGl() const { return isSoftwareRenderer(gl_renderer_); }

  // Sizes the window and the interactor (which keeps its own size to flip mouse y).
  void resize(QSize device_size);
  // Renders the scene at `device_size` and reads the frame back; false when the window is not
  // open or the context was lost.
  bool render(QSize device_size);
  // The last frame read back (null before the first).
  const QImage& frame() const { return frame_; }

  // The interactor's press (or release) event for a Qt mouse button; 0 for other buttons.
  static unsigned long buttonEvent(Qt::MouseButton button, bool press);
  // A mouse or wheel event for the interactor at `pos` (frame pixels, y down).
  void sendMouse(unsigned long vtk_event, QPointF pos, Qt::KeyboardModifiers modifiers,
                 bool repeat);

  // Frees the OpenGL resources (with the context current) and the context; VTK stops rendering.
  void release();

 private:
  void readBack();
  void onRenderWindowEvent(vtkObject* caller, unsigned long event_id, void* call_data);

  std::function<void()> on_interactor_frame_;
  QOffscreenSurface* surface_ = nullptr;
  std::unique_ptr<QOpenGLContext> context_;
  std::unique_ptr<QOpenGLFramebufferObject> target_;  // what the frame is read back from
  vtkNew<vtkGenericOpenGLRenderWindow> render_window_;
  vtkNew<vtkRenderer> renderer_;
  vtkNew<vtkGenericRenderWindowInteractor> interactor_;
  vtkNew<vtkInteractorStyleTrackballCamera> style_;
  QImage frame_;
  QString gl_renderer_;
  bool in_render_ = false;
};

}  // namespace apertura::gui
