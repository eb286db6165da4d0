#pragma once

#include <QImage>

#include <memory>

#include "gui/view/image_data.h"
#include "gui/view/image_scaling.h"
#include "gui/view/vtk_host_widget.h"

class vtkActor;
class vtkPolyData;
class vtkPolyDataMapper;
class vtkPolyDataNormals;
class vtkTextActor;

namespace apertura::gui {

// An image as a rotatable 3D surface: x and y are pixel indices (row 0 south, as in FITS), the
// height is the pixel value, and the colours are those of the 2D view (same colormap, stretch and
// clip), so a feature is found at a glance in both. Blank (NaN) pixels lie flat at the floor.
// Images larger than kMaxSide per axis are drawn from every n-th pixel (the last row and column
// always included) so software OpenGL stays interactive.
class SurfaceView : public VtkHostWidget {
  Q_OBJECT

 public:
  static constexpr int kMaxSide = 256;

  explicit SurfaceView(QWidget* parent = nullptr);
  ~SurfaceView() override;

  // `colors` is the 2D view's picture of `image` (nx x ny, north up); without one the surface is
  // grey. The camera is kept when the grid size is unchanged, so the user's rotation survives a
  // new iteration.
  void setImage(std::shared_ptr<const ImageData> image, const QImage& colors);
  void clear();
  std::shared_ptr<const ImageData> image() const { return image_; }

  // Height of the full value range as a fraction of the larger image side (default 0.4).
  void setHeightScale(double fraction);
  double heightScale() const { return height_scale_; }
  // Oblique view from the south-west, the whole surface in frame.
  void resetCamera();

  // The drawn surface: points (x, y, scaled height), point arrays "value" (pixel values) and
  // "colors" (RGB); empty without an image.
  vtkPolyData* surface() const;
  ValueRange valueRange() const { return range_; }
  int stride() const { return stride_; }

 private:
  void rebuild(const QImage& colors);
  void showPlaceholder(bool on);

  std::shared_ptr<const ImageData> image_;
  ValueRange range_;
  double height_scale_ = 0.4;
  int stride_ = 1;
  int last_nx_ = 0;
  int last_ny_ = 0;
  vtkNew<vtkPolyData> surface_;
  vtkNew<vtkPolyDataNormals> normals_;
  vtkNew<vtkPolyDataMapper> mapper_;
  vtkNew<vtkActor> actor_;
  vtkNew<vtkTextActor> placeholder_;
};

}  // namespace apertura::gui
