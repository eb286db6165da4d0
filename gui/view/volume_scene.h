#pragma once

#include <array>
#include <memory>
#include <vector>

#include <vtkNew.h>

class vtkActor;
class vtkColorTransferFunction;
class vtkImageData;
class vtkOutlineSource;
class vtkPiecewiseFunction;
class vtkPolyDataMapper;
class vtkRenderer;
class vtkSmartVolumeMapper;
class vtkVolume;
class vtkVolumeProperty;

namespace apertura::gui {

// What the volume view draws: the iteration stack's slices, copied (x fastest, then y, then z =
// slice in iteration order), with the block size of a stack pixel in image pixels.
struct VolumeInput {
  int nx = 0;
  int ny = 0;
  int nz = 0;
  double pixel = 1.0;         // image pixels per stack pixel (x and y)
  std::vector<float> values;  // nx * ny * nz
};

// The VTK pipeline of the iteration-stack volume, used from one thread only (the view's render
// thread). Each slice is normalised on its own before ray casting: early models are far fainter
// than late ones, and a single colour range over the whole stack showed only the bright central
// source of the last iterations as a thin column. A slice's sky level (median plus a few median
// absolute deviations) maps to 0, a high percentile of its values to 1, and asinh stretches what
// lies between, so faint emission stays visible beside a bright peak.
class VolumeScene {
 public:
  // Stack height as a fraction of the image width: tall enough to follow the iterations, short
  // enough that the image plane is not a sliver.
  static constexpr double kStackHeight = 0.5;
  // Percentile of a slice's positive values that maps to full brightness (the rest saturates).
  static constexpr double kClipPercentile = 0.999;
  // Values up to this many median absolute deviations above a slice's median are its sky
  // (transparent).
  static constexpr double kFloorMads = 3.0;
  // asinh softening: values below about this fraction of the clip level are stretched linearly.
  static constexpr double kAsinhSoftening = 0.02;

  VolumeScene();
  ~VolumeScene();
  VolumeScene(const VolumeScene&) = delete;
  VolumeScene& operator=(const VolumeScene&) = delete;

  // Adds the volume and its outline to `renderer` (once).
  void attach(vtkRenderer* renderer);
  // Replaces the data; true when the stack's x/y size changed (the camera should be reset).
  bool setInput(const VolumeInput& input);
  void clear();
  bool empty() const { return slices_ == 0; }
  // xmin, xmax, ymin, ymax, zmin, zmax of the volume in image pixels.
  std::array<double, 6> bounds() const;
  // The normalised values (for tests); nullptr when empty.
  const float* normalisedValues() const;
  // Oblique view of the whole stack, framed at its full height.
  void resetCamera(vtkRenderer* renderer) const;
  // Software OpenGL: VTK's CPU ray caster instead of the shader (far faster on llvmpipe).
  void useCpuRayCasting(bool cpu);
  // "GPU ray casting" / "CPU ray casting" once a frame chose; empty before.
  const char* method() const;

  // Normalises one slice in place to [0, 1] as described above (exposed for tests).
  static void normaliseSlice(float* values, std::size_t count);

 private:
  void updateTransferFunctions();

  int slices_ = 0;
  int last_nx_ = 0;
  int last_ny_ = 0;
  vtkNew<vtkImageData> data_;
  vtkNew<vtkSmartVolumeMapper> mapper_;
  vtkNew<vtkVolumeProperty> property_;
  vtkNew<vtkColorTransferFunction> colors_;
  vtkNew<vtkPiecewiseFunction> opacity_;
  vtkNew<vtkVolume> volume_;
  vtkNew<vtkOutlineSource> outline_;
  vtkNew<vtkPolyDataMapper> outline_mapper_;
  vtkNew<vtkActor> outline_actor_;
};

}  // namespace apertura::gui
