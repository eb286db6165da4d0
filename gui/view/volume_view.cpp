#include "gui/view/volume_view.h"

#include <QPainter>

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
#include "gui/view/iteration_stack.h"

namespace apertura::gui {

namespace {

// Height of the stack as a fraction of the larger image side (z is iterations, not space).
constexpr double kStackHeight = 0.8;

}  // namespace

VolumeView::VolumeView(QWidget* parent) : VtkHostWidget(parent) {
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

  vtkRenderer* ren = renderer();
  ren->SetBackground(0.06, 0.07, 0.1);
  ren->AddVolume(volume_);
  ren->AddActor(outline_actor_);
  showPlaceholder(true);
}

VolumeView::~VolumeView() = default;

vtkImageData* VolumeView::volumeData() const {
  return data_.GetPointer();
}

void VolumeView::contextReady() {
  // The GPU ray caster runs as a fragment shader, which a software renderer executes on the CPU
  // far more slowly than VTK's own (multi-threaded, fixed-point) CPU ray caster.
  if (softwareGl()) {
    mapper_->SetRequestedRenderModeToRayCast();
    // Ray casting costs per pixel: half the resolution is a quarter of the time.
    setRenderScale(0.5);
  } else {
    mapper_->SetRequestedRenderModeToDefault();
  }
}

QString VolumeView::method() const {
  switch (mapper_->GetLastUsedRenderMode()) {
    case vtkSmartVolumeMapper::GPURenderMode:
      return tr("GPU ray casting");
    case vtkSmartVolumeMapper::RayCastRenderMode:
      return tr("CPU ray casting");
    default:
      return {};
  }
}

void VolumeView::setStack(const IterationStack& stack) {
  const auto slices = stack.slices();
  if (slices.empty()) {
    clear();
    return;
  }
  const int nx = stack.nx();
  const int ny = stack.ny();
  const int nz = static_cast<int>(slices.size());
  // x and y in pixels of the run's image, so the stack lines up with the 2D views' coordinates.
  const double xy = stack.factor();
  const double z = nz > 1 ? kStackHeight * std::max(nx, ny) * xy / (nz - 1) : 1.0;
  data_->Initialize();
  data_->SetDimensions(nx, ny, nz);
  data_->SetSpacing(xy, xy, z);
  data_->SetOrigin(0.0, 0.0, 0.0);
  vtkNew<vtkFloatArray> values;
  values->SetName("value");
  values->SetNumberOfTuples(static_cast<vtkIdType>(nx) * ny * nz);
  float* out = values->GetPointer(0);
  for (const auto* slice : slices)
    out = std::copy(slice->pixels.begin(), slice->pixels.end(), out);
  data_->GetPointData()->SetScalars(values);
  data_->Modified();
  range_ = finiteRange(values->GetPointer(0), static_cast<std::size_t>(nx) * ny * nz);
  slices_ = nz;
  updateTransferFunctions();

  double bounds[6];
  data_->GetBounds(bounds);
  outline_->SetBounds(bounds);
  label_ = tr("Model: iterations %1 (bottom) to %2 (top), %3 snapshots")
               .arg(slices.front()->iteration)
               .arg(slices.back()->iteration)
               .arg(nz);
  showPlaceholder(false);
  if (nx != last_nx_ || ny != last_ny_) {
    last_nx_ = nx;
    last_ny_ = ny;
    resetCamera();
  } else {
    renderer()->ResetCameraClippingRange();
  }
  requestRender();
}

void VolumeView::clear() {
  data_->Initialize();
  slices_ = 0;
  range_ = {};
  last_nx_ = last_ny_ = 0;
  showPlaceholder(true);
  requestRender();
}

void VolumeView::updateTransferFunctions() {
  const double lo = range_.valid() ? range_.min : 0.0;
  const double hi = range_.valid() && range_.max > lo ? range_.max : lo + 1.0;
  const double span = hi - lo;
  // Sky images are mostly empty: the lowest few percent of the range stay transparent, and the
  // opacity grows with value so faint emission is a haze around the bright sources.
  opacity_->RemoveAllPoints();
  opacity_->AddPoint(lo, 0.0);
  opacity_->AddPoint(lo + 0.03 * span, 0.0);
  opacity_->AddPoint(lo + 0.25 * span, 0.12);
  opacity_->AddPoint(hi, 0.7);
  const ColorTable table = colormapTable(ColormapKind::Inferno);
  colors_->RemoveAllPoints();
  constexpr int kStops = 16;
  for (int i = 0; i <= kStops; ++i) {
    // Start a quarter up the map: its darkest colours would vanish against the background.
    const double t = static_cast<double>(i) / kStops;
    const QRgb c = table[static_cast<std::size_t>(std::lround(64 + t * 191))];
    colors_->AddRGBPoint(lo + 0.03 * span + t * 0.97 * span, qRed(c) / 255.0, qGreen(c) / 255.0,
                         qBlue(c) / 255.0);
  }
  // The step through the volume that contributes the full opacity: about one stack pixel.
  double spacing[3];
  data_->GetSpacing(spacing);
  property_->SetScalarOpacityUnitDistance(std::max(spacing[0], 1e-6));
}

void VolumeView::resetCamera() {
  vtkRenderer* ren = renderer();
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

void VolumeView::paintOverlay(QPainter& painter) {
  painter.setPen(QColor(190, 195, 215));
  QFont font = painter.font();
  font.setPointSizeF(font.pointSizeF() * 1.1);
  painter.setFont(font);
  const QRect area = rect().adjusted(12, 8, -12, -8);
  if (slices_ == 0) {
    painter.drawText(area, Qt::AlignLeft | Qt::AlignBottom | Qt::TextWordWrap,
                     tr("No iterations yet: run the imaging to stack its model images"));
    return;
  }
  painter.drawText(area, Qt::AlignLeft | Qt::AlignBottom, label_);
}

void VolumeView::showPlaceholder(bool on) {
  if (on)
    label_.clear();
  volume_->SetVisibility(on ? 0 : 1);
  outline_actor_->SetVisibility(on ? 0 : 1);
}

}  // namespace apertura::gui
