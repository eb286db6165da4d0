#include "gui/view/volume_scene.h"

#include <QColor>

#include <algorithm>
#include <cmath>

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkColorTransferFunction.h>
#include <vtkFloatArray.h>
#include <vtkImageData.h>
#include <vtkOutlineSource.h>
#include <vtkPiecewiseFunction.h>
#include <vtkPointData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkSmartVolumeMapper.h>
#include <vtkVolume.h>
#include <vtkVolumeProperty.h>

#include "gui/colormap/colormap.h"

namespace apertura::gui {

VolumeScene::VolumeScene() {
  mapper_->SetInputData(data_);
  // Lower resolution while the user drags, full resolution when the drag ends.
  mapper_->SetInteractiveUpdateRate(10.0);
  mapper_->SetAutoAdjustSampleDistances(1);
  property_->SetColor(colors_);
  property_->SetScalarOpacity(opacity_);
  property_->SetInterpolationTypeToLinear();
  property_->ShadeOff();
  volume_->SetMapper(mapper_);
  volume_->SetProperty(property_);
  outline_mapper_->SetInputConnection(outline_->GetOutputPort());
  outline_actor_->SetMapper(outline_mapper_);
  outline_actor_->GetProperty()->SetColor(0.45, 0.5, 0.6);
  outline_actor_->GetProperty()->LightingOff();
  updateTransferFunctions();
  clear();
}

VolumeScene::~VolumeScene() = default;

void VolumeScene::attach(vtkRenderer* renderer) {
  renderer->AddVolume(volume_);
  renderer->AddActor(outline_actor_);
}

void VolumeScene::useCpuRayCasting(bool cpu) {
  if (cpu)
    mapper_->SetRequestedRenderModeToRayCast();
  else
    mapper_->SetRequestedRenderModeToDefault();
}

const char* VolumeScene::method() const {
  switch (mapper_->GetLastUsedRenderMode()) {
    case vtkSmartVolumeMapper::GPURenderMode:
      return "GPU ray casting";
    case vtkSmartVolumeMapper::RayCastRenderMode:
      return "CPU ray casting";
    default:
      return "";
  }
}

void VolumeScene::normaliseSlice(float* values, std::size_t count) {
  std::vector<float> finite;
  finite.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    if (std::isfinite(values[i]))
      finite.push_back(values[i]);
  }
  const auto quantile = [&finite](double q) {
    const auto k = static_cast<std::size_t>(q * double(finite.size() - 1));
    std::nth_element(finite.begin(), finite.begin() + std::ptrdiff_t(k), finite.end());
    return static_cast<double>(finite[k]);
  };
  double floor = 0.0, clip = 0.0;
  if (!finite.empty()) {
    // The sky's level and spread (median and median absolute deviation): an RML model is rarely
    // exactly zero off the sources, and its low positive ripple must stay transparent.
    const double median = quantile(0.5);
    clip = quantile(kClipPercentile);
    for (float& v : finite)
      v = std::fabs(v - static_cast<float>(median));
    const double mad = quantile(0.5);
    floor = std::max(0.0, median + kFloorMads * mad);
  }
  if (!(clip > floor)) {  // an empty (flat, zero or negative) slice stays transparent
    std::fill(values, values + count, 0.0f);
    return;
  }
  const double soft = kAsinhSoftening;
  const double norm = 1.0 / std::asinh(1.0 / soft);
  const double span = clip - floor;
  for (std::size_t i = 0; i < count; ++i) {
    const double v =
        std::isfinite(values[i]) ? std::clamp((values[i] - floor) / span, 0.0, 1.0) : 0.0;
    values[i] = static_cast<float>(std::asinh(v / soft) * norm);
  }
}

bool VolumeScene::setInput(const VolumeInput& in) {
  const std::size_t plane = static_cast<std::size_t>(in.nx) * in.ny;
  if (in.nx <= 0 || in.ny <= 0 || in.nz <= 0 || in.values.size() != plane * in.nz) {
    clear();
    return false;
  }
  // x and y in pixels of the run's image, so the stack lines up with the 2D views' coordinates.
  const double xy = in.pixel;
  // The stack's height is kStackHeight of the volume's side (first to last pixel centre).
  const double side = std::max(1, std::max(in.nx, in.ny) - 1) * xy;
  const double z = in.nz > 1 ? kStackHeight * side / (in.nz - 1) : 1.0;
  data_->Initialize();
  data_->SetDimensions(in.nx, in.ny, in.nz);
  data_->SetSpacing(xy, xy, z);
  data_->SetOrigin(0.0, 0.0, 0.0);
  vtkNew<vtkFloatArray> values;
  values->SetName("value");
  values->SetNumberOfTuples(static_cast<vtkIdType>(plane * in.nz));
  float* out = values->GetPointer(0);
  std::copy(in.values.begin(), in.values.end(), out);
  for (int k = 0; k < in.nz; ++k)
    normaliseSlice(out + plane * k, plane);
  data_->GetPointData()->SetScalars(values);
  data_->Modified();
  slices_ = in.nz;
  // The step through the volume that contributes the full opacity: about one stack pixel.
  property_->SetScalarOpacityUnitDistance(std::max(xy, 1e-6));
  double bounds[6];
  data_->GetBounds(bounds);
  outline_->SetBounds(bounds);
  volume_->SetVisibility(1);
  outline_actor_->SetVisibility(1);
  const bool resized = in.nx != last_nx_ || in.ny != last_ny_;
  last_nx_ = in.nx;
  last_ny_ = in.ny;
  return resized;
}

std::array<double, 6> VolumeScene::bounds() const {
  std::array<double, 6> b{};
  data_->GetBounds(b.data());
  return b;
}

const float* VolumeScene::normalisedValues() const {
  auto* values = vtkFloatArray::SafeDownCast(data_->GetPointData()->GetScalars());
  return slices_ > 0 && values ? values->GetPointer(0) : nullptr;
}

void VolumeScene::clear() {
  data_->Initialize();
  slices_ = 0;
  last_nx_ = last_ny_ = 0;
  volume_->SetVisibility(0);
  outline_actor_->SetVisibility(0);
}

void VolumeScene::updateTransferFunctions() {
  // Values are normalised per slice to [0, 1] (asinh): the sky's noise floor stays transparent,
  // faint emission is a haze and the peaks are nearly opaque.
  opacity_->RemoveAllPoints();
  opacity_->AddPoint(0.0, 0.0);
  opacity_->AddPoint(0.12, 0.0);
  opacity_->AddPoint(0.35, 0.06);
  opacity_->AddPoint(0.7, 0.25);
  opacity_->AddPoint(1.0, 0.8);
  const ColorTable table = colormapTable(ColormapKind::Inferno);
  colors_->RemoveAllPoints();
  constexpr int kStops = 16;
  for (int i = 0; i <= kStops; ++i) {
    // Start a quarter up the map: its darkest colours would vanish against the background.
    const double t = static_cast<double>(i) / kStops;
    const QRgb c = table[static_cast<std::size_t>(std::lround(64 + t * 191))];
    colors_->AddRGBPoint(0.12 + t * 0.88, qRed(c) / 255.0, qGreen(c) / 255.0, qBlue(c) / 255.0);
  }
}

void VolumeScene::resetCamera(vtkRenderer* ren) const {
  if (slices_ == 0) {
    ren->ResetCamera();
    return;
  }
  // Frame the stack at its full height even while it holds one slice, so the view does not
  // jump as the stack grows (its height is kStackHeight of the side from two slices on).
  double b[6];
  data_->GetBounds(b);
  b[5] = b[4] + kStackHeight * std::max(b[1] - b[0], b[3] - b[2]);
  const double cx = 0.5 * (b[0] + b[1]);
  const double cy = 0.5 * (b[2] + b[3]);
  const double cz = 0.5 * (b[4] + b[5]);
  const double size = std::max({b[1] - b[0], b[3] - b[2], b[5] - b[4]});
  vtkCamera* camera = ren->GetActiveCamera();
  camera->SetFocalPoint(cx, cy, cz);
  camera->SetPosition(cx - 1.2 * size, cy - 1.6 * size, cz + 0.9 * size);
  camera->SetViewUp(0.0, 0.0, 1.0);
  // Fits the bounding sphere: every corner of the box stays in view, whatever the rotation.
  ren->ResetCamera(b);
  ren->ResetCameraClippingRange();
}

}  // namespace apertura::gui
