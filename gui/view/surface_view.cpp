#include "gui/view/surface_view.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkFloatArray.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkPolyDataNormals.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkUnsignedCharArray.h>

namespace apertura::gui {

namespace {

// Sample positions along one axis: every `stride`-th index plus the last one, so the surface
// always spans the whole image.
std::vector<int> samplePositions(int n, int stride) {
  std::vector<int> at;
  for (int i = 0; i < n; i += stride)
    at.push_back(i);
  if (!at.empty() && at.back() != n - 1)
    at.push_back(n - 1);
  return at;
}

}  // namespace

SurfaceView::SurfaceView(QWidget* parent) : VtkHostWidget(parent) {
  normals_->SetInputData(surface_);
  normals_->SplittingOff();  // keep one normal per pixel: smooth shading, no duplicated points
  normals_->ConsistencyOff();
  normals_->ComputePointNormalsOn();
  mapper_->SetInputConnection(normals_->GetOutputPort());
  mapper_->SetScalarModeToUsePointFieldData();
  mapper_->SelectColorArray("colors");
  mapper_->SetColorModeToDirectScalars();
  mapper_->ScalarVisibilityOn();
  actor_->SetMapper(mapper_);
  vtkProperty* prop = actor_->GetProperty();
  prop->SetAmbient(0.35);
  prop->SetDiffuse(0.75);
  prop->SetSpecular(0.1);
  prop->SetInterpolationToGouraud();

  placeholder_->SetInput("No image yet: run the imaging to see it as a surface");
  placeholder_->GetTextProperty()->SetFontSize(16);
  placeholder_->GetTextProperty()->SetColor(0.7, 0.72, 0.8);
  placeholder_->SetPosition(20, 20);

  vtkRenderer* ren = renderer();
  ren->SetBackground(0.06, 0.07, 0.1);
  ren->AddActor(actor_);
  ren->AddActor2D(placeholder_);
  showPlaceholder(true);
}

SurfaceView::~SurfaceView() = default;

vtkPolyData* SurfaceView::surface() const {
  return surface_.GetPointer();
}

void SurfaceView::setImage(std::shared_ptr<const ImageData> image, const QImage& colors) {
  if (!image || image->empty() || !image->consistent()) {
    clear();
    return;
  }
  image_ = std::move(image);
  rebuild(colors);
  if (image_->nx != last_nx_ || image_->ny != last_ny_) {
    last_nx_ = image_->nx;
    last_ny_ = image_->ny;
    resetCamera();
  }
  requestRender();
}

void SurfaceView::clear() {
  image_.reset();
  range_ = {};
  surface_->Initialize();
  last_nx_ = last_ny_ = 0;
  showPlaceholder(true);
  requestRender();
}

void SurfaceView::setHeightScale(double fraction) {
  if (!(fraction > 0.0) || fraction == height_scale_)
    return;
  height_scale_ = fraction;
  if (image_) {
    // The colours are already in the point data; only the heights change.
    vtkPoints* points = surface_->GetPoints();
    auto* values = vtkFloatArray::SafeDownCast(surface_->GetPointData()->GetArray("value"));
    if (points && values) {
      const double span = range_.valid() ? range_.max - range_.min : 1.0;
      const double height = height_scale_ * std::max(image_->nx, image_->ny);
      for (vtkIdType id = 0; id < points->GetNumberOfPoints(); ++id) {
        double p[3];
        points->GetPoint(id, p);
        const float v = values->GetValue(id);
        p[2] = std::isfinite(v) ? (v - range_.min) / span * height : 0.0;
        points->SetPoint(id, p);
      }
      points->Modified();
      surface_->Modified();
    }
    requestRender();
  }
}

void SurfaceView::rebuild(const QImage& colors) {
  const ImageData& img = *image_;
  range_ = finiteRange(img.pixels.data(), img.pixels.size());
  stride_ = std::max(
      1, static_cast<int>(std::ceil(std::max(img.nx, img.ny) / static_cast<double>(kMaxSide))));
  const std::vector<int> xs = samplePositions(img.nx, stride_);
  const std::vector<int> ys = samplePositions(img.ny, stride_);
  const auto cols = static_cast<vtkIdType>(xs.size());
  const auto rows = static_cast<vtkIdType>(ys.size());

  const QImage picture = colors.size() == QSize(img.nx, img.ny)
                             ? colors.convertToFormat(QImage::Format_RGB32)
                             : QImage();
  const double span = range_.valid() ? range_.max - range_.min : 1.0;
  const double height = height_scale_ * std::max(img.nx, img.ny);

  vtkNew<vtkPoints> points;
  points->SetNumberOfPoints(cols * rows);
  vtkNew<vtkFloatArray> values;
  values->SetName("value");
  values->SetNumberOfTuples(cols * rows);
  vtkNew<vtkUnsignedCharArray> rgb;
  rgb->SetName("colors");
  rgb->SetNumberOfComponents(3);
  rgb->SetNumberOfTuples(cols * rows);
  vtkIdType id = 0;
  for (const int y : ys) {
    // The picture has north up: data row y is picture row ny - 1 - y.
    const auto* line = picture.isNull()
                           ? nullptr
                           : reinterpret_cast<const QRgb*>(picture.constScanLine(img.ny - 1 - y));
    for (const int x : xs) {
      const float v = img.at(x, y);
      const double z = std::isfinite(v) && range_.valid() ? (v - range_.min) / span * height : 0.0;
      points->SetPoint(id, x, y, z);
      values->SetValue(id, v);
      const QRgb c = line ? line[x] : qRgb(180, 180, 190);
      const unsigned char tuple[3] = {static_cast<unsigned char>(qRed(c)),
                                      static_cast<unsigned char>(qGreen(c)),
                                      static_cast<unsigned char>(qBlue(c))};
      rgb->SetTypedTuple(id, tuple);
      ++id;
    }
  }

  // One triangle strip per pair of sampled rows.
  vtkNew<vtkCellArray> strips;
  if (rows >= 2 && cols >= 2) {
    strips->AllocateExact(rows - 1, (rows - 1) * 2 * cols);
    std::vector<vtkIdType> strip(static_cast<std::size_t>(2 * cols));
    for (vtkIdType r = 0; r + 1 < rows; ++r) {
      for (vtkIdType c = 0; c < cols; ++c) {
        strip[static_cast<std::size_t>(2 * c)] = (r + 1) * cols + c;
        strip[static_cast<std::size_t>(2 * c + 1)] = r * cols + c;
      }
      strips->InsertNextCell(2 * cols, strip.data());
    }
  }
  surface_->Initialize();
  surface_->SetPoints(points);
  surface_->SetStrips(strips);
  surface_->GetPointData()->AddArray(values);
  surface_->GetPointData()->AddArray(rgb);
  surface_->Modified();
  showPlaceholder(false);
}

void SurfaceView::resetCamera() {
  vtkRenderer* ren = renderer();
  vtkCamera* camera = ren->GetActiveCamera();
  if (!image_) {
    ren->ResetCamera();
    return;
  }
  const double nx = image_->nx - 1;
  const double ny = image_->ny - 1;
  const double size = std::max(image_->nx, image_->ny);
  camera->SetFocalPoint(0.5 * nx, 0.5 * ny, 0.0);
  camera->SetPosition(0.5 * nx - 0.9 * size, 0.5 * ny - 1.5 * size, 1.3 * size);
  camera->SetViewUp(0.0, 0.0, 1.0);
  // Frame the floor and the lower part of the value range: most of a sky image lies near the
  // floor with a few tall peaks, and framing the peaks would leave the floor small.
  double frame[6] = {0.0, nx, 0.0, ny, 0.0, 0.3 * height_scale_ * size};
  ren->ResetCamera(frame);
  camera->Zoom(1.3);
  ren->ResetCameraClippingRange();
}

void SurfaceView::showPlaceholder(bool on) {
  placeholder_->SetVisibility(on ? 1 : 0);
  actor_->SetVisibility(on ? 0 : 1);
}

}  // namespace apertura::gui
