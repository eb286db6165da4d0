#include "gui/view/iteration_stack.h"

#include <algorithm>
#include <cmath>

namespace apertura::gui {

IterationStack::IterationStack(int max_slices, int max_side)
    : max_slices_(std::max(2, max_slices)), max_side_(std::max(1, max_side)) {}

void IterationStack::clear() {
  input_nx_ = input_ny_ = nx_ = ny_ = 0;
  factor_ = 1;
  keep_every_ = 1;
  received_ = 0;
  last_iteration_ = -1;
  kept_.clear();
  newest_ = {};
}

std::vector<float> IterationStack::downsample(int nx, int ny,
                                              const std::vector<float>& pixels) const {
  std::vector<float> out(static_cast<std::size_t>(nx_) * ny_, 0.0f);
  // Mean of the finite pixels of each factor x factor block (blocks at the edges may be partial);
  // a block without any finite pixel stays NaN-free at 0.
  for (int by = 0; by < ny_; ++by) {
    for (int bx = 0; bx < nx_; ++bx) {
      double sum = 0.0;
      int count = 0;
      for (int y = by * factor_; y < std::min(ny, (by + 1) * factor_); ++y) {
        const float* row = pixels.data() + static_cast<std::size_t>(y) * nx;
        for (int x = bx * factor_; x < std::min(nx, (bx + 1) * factor_); ++x) {
          if (std::isfinite(row[x])) {
            sum += row[x];
            ++count;
          }
        }
      }
      out[static_cast<std::size_t>(by) * nx_ + bx] = count ? static_cast<float>(sum / count) : 0.0f;
    }
  }
  return out;
}

bool IterationStack::add(int iteration, int nx, int ny, const std::vector<float>& pixels) {
  if (nx <= 0 || ny <= 0 || pixels.size() != static_cast<std::size_t>(nx) * ny)
    return false;
  if (nx == input_nx_ && ny == input_ny_ && iteration == last_iteration_ && sliceCount() > 0) {
    // The same iteration again (the final model after the last live snapshot): update it.
    Slice& newest = newest_.pixels.empty() ? kept_.back() : newest_;
    newest.pixels = downsample(nx, ny, pixels);
    return true;
  }
  if (nx != input_nx_ || ny != input_ny_ || iteration < last_iteration_) {
    clear();
    input_nx_ = nx;
    input_ny_ = ny;
    factor_ = (std::max(nx, ny) + max_side_ - 1) / max_side_;
    nx_ = (nx + factor_ - 1) / factor_;
    ny_ = (ny + factor_ - 1) / factor_;
  }
  last_iteration_ = iteration;
  Slice slice{iteration, downsample(nx, ny, pixels)};
  const bool keep = received_ % keep_every_ == 0;
  ++received_;
  if (!keep) {
    newest_ = std::move(slice);
    return true;
  }
  newest_ = {};
  if (static_cast<int>(kept_.size()) == max_slices_) {
    // Thin out: keep slices 0, 2, 4, ... and from now on every second of the snapshots kept so far.
    std::vector<Slice> thinned;
    thinned.reserve(kept_.size() / 2 + 1);
    for (std::size_t i = 0; i < kept_.size(); i += 2)
      thinned.push_back(std::move(kept_[i]));
    kept_ = std::move(thinned);
    keep_every_ *= 2;
    // Snapshot number received_ - 1 was kept under the old rule; keep it only under the new one.
    if ((received_ - 1) % keep_every_ != 0) {
      newest_ = std::move(slice);
      return true;
    }
  }
  kept_.push_back(std::move(slice));
  return true;
}

std::vector<const IterationStack::Slice*> IterationStack::slices() const {
  std::vector<const Slice*> out;
  out.reserve(kept_.size() + 1);
  for (const Slice& s : kept_)
    out.push_back(&s);
  if (!newest_.pixels.empty())
    out.push_back(&newest_);
  return out;
}

int IterationStack::sliceCount() const {
  return static_cast<int>(kept_.size()) + (newest_.pixels.empty() ? 0 : 1);
}

std::size_t IterationStack::bytes() const {
  std::size_t n = newest_.pixels.size();
  for (const Slice& s : kept_)
    n += s.pixels.size();
  return n * sizeof(float);
}

}  // namespace apertura::gui
