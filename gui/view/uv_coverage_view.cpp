#include "gui/view/uv_coverage_view.h"

#include <algorithm>
#include <cmath>

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkMath.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRegularPolygonSource.h>
#include <vtkRenderer.h>

namespace apertura::gui {

UvCoverageView::UvCoverageView(QWidget* parent) : VtkHostWidget(parent) {
  // Floats would round ~1e7 m baselines to about a metre; VTK shift-scales doubles for the GPU.
  points_->SetDataTypeToDouble();
  cloud_->SetPoints(points_);
  cloud_->SetVerts(vtkNew<vtkCellArray>());
  cloud_mapper_->SetInputData(cloud_);
  cloud_mapper_->ScalarVisibilityOff();
  cloud_actor_->SetMapper(cloud_mapper_);
  vtkProperty* cloud_prop = cloud_actor_->GetProperty();
  cloud_prop->SetColor(0.35, 0.9, 1.0);
  cloud_prop->SetPointSize(2.0f);
  cloud_prop->LightingOff();

  placeholder_source_->SetNumberOfSides(128);
  placeholder_source_->SetRadius(1.0);
  placeholder_source_->SetCenter(0.0, 0.0, 0.0);
  placeholder_source_->GeneratePolygonOff();
  placeholder_source_->GeneratePolylineOn();
  placeholder_mapper_->SetInputConnection(placeholder_source_->GetOutputPort());
  placeholder_actor_->SetMapper(placeholder_mapper_);
  vtkProperty* placeholder_prop = placeholder_actor_->GetProperty();
  placeholder_prop->SetColor(0.45, 0.5, 0.6);
  placeholder_prop->SetLineWidth(1.0f);
  placeholder_prop->LightingOff();

  vtkRenderer* ren = renderer();
  ren->SetBackground(0.06, 0.07, 0.1);
  ren->AddActor(cloud_actor_);
  ren->AddActor(placeholder_actor_);

  vtkCamera* camera = ren->GetActiveCamera();
  camera->ParallelProjectionOn();
  camera->SetPosition(0.0, 0.0, 1.0);
  camera->SetFocalPoint(0.0, 0.0, 0.0);
  camera->SetViewUp(0.0, 1.0, 0.0);

  showPlaceholder(true);
  fitCamera();
}

UvCoverageView::~UvCoverageView() = default;

void UvCoverageView::setUvw(const std::vector<double>& u, const std::vector<double>& v) {
  const size_t n = std::min(u.size(), v.size());
  points_->SetNumberOfPoints(static_cast<vtkIdType>(2 * n));
  for (size_t i = 0; i < n; ++i) {
    const auto id = static_cast<vtkIdType>(2 * i);
    points_->SetPoint(id, u[i], v[i], 0.0);
    points_->SetPoint(id + 1, -u[i], -v[i], 0.0);
  }
  points_->Modified();

  vtkNew<vtkCellArray> verts;
  verts->AllocateExact(static_cast<vtkIdType>(2 * n), static_cast<vtkIdType>(2 * n));
  for (vtkIdType id = 0; id < static_cast<vtkIdType>(2 * n); ++id) {
    verts->InsertNextCell(1, &id);
  }
  cloud_->SetVerts(verts);
  cloud_->Modified();

  showPlaceholder(n == 0);
  fitCamera();
  requestRender();
}

int UvCoverageView::pointCount() const {
  return static_cast<int>(points_->GetNumberOfPoints());
}

void UvCoverageView::showPlaceholder(bool on) {
  placeholder_actor_->SetVisibility(on ? 1 : 0);
  cloud_actor_->SetVisibility(on ? 0 : 1);
}

void UvCoverageView::fitCamera() {
  vtkRenderer* ren = renderer();
  vtkCamera* camera = ren->GetActiveCamera();
  // Interaction may have rotated the camera; the plot is only meaningful looking down -z.
  camera->SetPosition(0.0, 0.0, 1.0);
  camera->SetFocalPoint(0.0, 0.0, 0.0);
  camera->SetViewUp(0.0, 1.0, 0.0);
  ren->ResetCamera();
  // ResetCamera frames the bounding sphere, which leaves a wide margin around a disk; fit the
  // actual extent instead so the coverage fills the view.
  double b[6];
  ren->ComputeVisiblePropBounds(b);
  if (!vtkMath::AreBoundsInitialized(b)) {
    return;
  }
  const double half_x = std::max(std::abs(b[0]), std::abs(b[1]));
  const double half_y = std::max(std::abs(b[2]), std::abs(b[3]));
  const double aspect = height() > 0 ? static_cast<double>(width()) / height() : 1.0;
  const double half_height = std::max(half_y, half_x / aspect);
  if (half_height > 0.0) {
    camera->SetParallelScale(1.05 * half_height);
  }
}

}  // namespace apertura::gui
