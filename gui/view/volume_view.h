#pragma once

#include "gui/view/image_scaling.h"
#include "gui/view/vtk_host_widget.h"

class vtkActor;
class vtkColorTransferFunction;
class vtkImageData;
class vtkOutlineSource;
class vtkPiecewiseFunction;
class vtkPolyDataMapper;
class vtkSmartVolumeMapper;
class vtkVolume;
class vtkVolumeProperty;

namespace apertura::gui {

class IterationStack;

// The iteration stack of a run as a rotatable volume: x and y are image pixels, z the snapshots
// in iteration order (first at the bottom), drawn by ray casting with an inferno colour ramp and
// an opacity that hides the empty sky. The mapper (vtkSmartVolumeMapper) casts rays on the GPU
// with a hardware renderer and with the CPU's fixed-point ray caster under software OpenGL
// (Mesa llvmpipe), where it is several times faster than emulating the GPU shader.
class VolumeView : public VtkHostWidget {
  Q_OBJECT

 public:
  explicit VolumeView(QWidget* parent = nullptr);
  ~VolumeView() override;

  // Copies the stack into the volume (at most IterationStack's bounds). The camera is kept while
  // the stack's image size is unchanged, so the user's rotation survives new snapshots.
  void setStack(const IterationStack& stack);
  void clear();

  vtkImageData* volumeData() const;
  int slices() const { return slices_; }
  ValueRange valueRange() const { return range_; }
  // "GPU ray casting" or "CPU ray casting", once the first frame chose; empty before.
  QString method() const;
  // The caption drawn in the corner ("Model: iterations 0 (bottom) to 20 (top), ..."); empty
  // without a stack.
  QString caption() const { return label_; }
  // Oblique view of the whole stack.
  void resetCamera();

 private:
  void contextReady() override;
  void paintOverlay(QPainter& painter) override;
  void updateTransferFunctions();
  void showPlaceholder(bool on);

  int slices_ = 0;
  int last_nx_ = 0;
  int last_ny_ = 0;
  ValueRange range_;
  vtkNew<vtkImageData> data_;
  vtkNew<vtkSmartVolumeMapper> mapper_;
  vtkNew<vtkVolumeProperty> property_;
  vtkNew<vtkColorTransferFunction> colors_;
  vtkNew<vtkPiecewiseFunction> opacity_;
  vtkNew<vtkVolume> volume_;
  vtkNew<vtkOutlineSource> outline_;
  vtkNew<vtkPolyDataMapper> outline_mapper_;
  vtkNew<vtkActor> outline_actor_;
  QString label_;  // which iterations the stack shows, drawn over the frame
};

}  // namespace apertura::gui
