#pragma once

#include <QImage>
#include <QMetaObject>
#include <QOpenGLWidget>

#include <vtkNew.h>

class QMouseEvent;
class QWheelEvent;
class vtkGenericOpenGLRenderWindow;
class vtkGenericRenderWindowInteractor;
class vtkInteractorStyleTrackballCamera;
class vtkObject;
class vtkRenderer;

namespace apertura::gui {

// Hosts a VTK scene inside a QOpenGLWidget without VTK's Qt module: Debian builds that
// module against Qt 5, so the adapter protocol (make-current / is-current / frame
// events, blit into Qt's FBO) is implemented here instead.
class VtkHostWidget : public QOpenGLWidget {
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

  // Use after changing the scene instead of a bare update(): a frame VTK already finished
  // outside paintGL would otherwise be shown as-is, without the change.
  void requestRender();

  // Renders the current scene (if needed) and returns what the widget shows.
  QImage grabRendered();

 protected:
  void initializeGL() override;
  void resizeGL(int w, int h) override;
  void paintGL() override;

  void mousePressEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;

 private:
  void onRenderWindowEvent(vtkObject* caller, unsigned long event_id, void* call_data);
  void releaseGraphics();
  void forwardMouse(QMouseEvent* event, unsigned long vtk_event);
  int deviceWidth() const;
  int deviceHeight() const;

  vtkNew<vtkGenericOpenGLRenderWindow> render_window_;
  vtkNew<vtkRenderer> renderer_;
  vtkNew<vtkGenericRenderWindowInteractor> interactor_;
  vtkNew<vtkInteractorStyleTrackballCamera> style_;
  QMetaObject::Connection context_destroyed_;
  bool in_paint_ = false;
  // Set when VTK finished a frame outside paintGL (e.g. driven by the interactor), so the
  // following paint only has to blit instead of rendering the same frame twice.
  bool frame_pending_ = false;
};

}  // namespace apertura::gui
