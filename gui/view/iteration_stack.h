#pragma once

#include <cstddef>
#include <vector>

namespace apertura::gui {

// The model images of a run stacked along the iteration axis, for the 3D volume view. Memory is
// bounded whatever the run's length or image size: each image is block-averaged down to at most
// maxSide() pixels per axis, and at most maxSlices() images are kept. When the stack is full every
// other kept image is dropped and from then on only every second snapshot is kept, so the stack
// always spans the whole run evenly; the newest snapshot is always shown as the top slice.
class IterationStack {
 public:
  static constexpr int kDefaultMaxSlices = 64;
  static constexpr int kDefaultMaxSide = 128;

  struct Slice {
    int iteration = 0;
    std::vector<float> pixels;  // nx() * ny(), x fastest, row 0 south
  };

  explicit IterationStack(int max_slices = kDefaultMaxSlices, int max_side = kDefaultMaxSide);

  void clear();
  // Adds one snapshot (nx * ny pixels, x fastest). A snapshot of another size than the stack's, or
  // with an iteration before the newest one (a new run), starts a new stack; the newest iteration
  // again replaces that slice. Returns false (and changes nothing) for an empty or inconsistent
  // image.
  bool add(int iteration, int nx, int ny, const std::vector<float>& pixels);

  // The slices in iteration order, the newest last.
  std::vector<const Slice*> slices() const;
  int sliceCount() const;
  bool empty() const { return sliceCount() == 0; }
  int nx() const { return nx_; }  // after downsampling
  int ny() const { return ny_; }
  int factor() const { return factor_; }  // input pixels per stack pixel along each axis
  int keepEvery() const { return keep_every_; }
  int maxSlices() const { return max_slices_; }
  int maxSide() const { return max_side_; }
  // Bytes of pixel data held (the bound: (maxSlices() + 1) * maxSide()^2 floats).
  std::size_t bytes() const;

 private:
  std::vector<float> downsample(int nx, int ny, const std::vector<float>& pixels) const;

  int max_slices_;
  int max_side_;
  int input_nx_ = 0;
  int input_ny_ = 0;
  int nx_ = 0;
  int ny_ = 0;
  int factor_ = 1;
  int keep_every_ = 1;  // keep snapshot number k (counted from 0) when k % keep_every_ == 0
  int received_ = 0;    // snapshots added since the stack (re)started
  int last_iteration_ = -1;
  std::vector<Slice> kept_;
  Slice newest_;  // the newest snapshot when it was not kept (else empty pixels)
};

}  // namespace apertura::gui
