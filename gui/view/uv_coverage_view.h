#pragma once

#include <vector>

#include "gui/view/vtk_host_widget.h"

class vtkActor;
class vtkPoints;
class vtkPolyData;
class vtkPolyDataMapper;
class vtkRegularPolygonSource;

namespace apertura::gui {

// Plots the uv plane sampling of an observation as a 2D point cloud (metres).
class UvCoverageView : public VtkHostWidget {
  Q_OBJECT

 public:
  explicit UvCoverageView(QWidget* parent = nullptr);
  ~UvCoverageView() override;

  // Each baseline also samples (-u, -v) because the sky is real-valued, so both are drawn.
  // Mismatched lengths are truncated to the shorter one. Empty input restores the placeholder.
  void setUvw(const std::vector<double>& u, const std::vector<double>& v);

  // Number of points currently drawn (including conjugates).
  int pointCount() const;

 private:
  void showPlaceholder(bool on);
  void fitCamera();

  vtkNew<vtkPoints> points_;
  vtkNew<vtkPolyData> cloud_;
  vtkNew<vtkPolyDataMapper> cloud_mapper_;
  vtkNew<vtkActor> cloud_actor_;
  vtkNew<vtkRegularPolygonSource> placeholder_source_;
  vtkNew<vtkPolyDataMapper> placeholder_mapper_;
  vtkNew<vtkActor> placeholder_actor_;
};

}  // namespace apertura::gui
