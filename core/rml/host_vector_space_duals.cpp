// HostVectorSpace's passes of the total-variation prox's dual iteration: compute/dual_math.h's
// per-pixel arithmetic over the fixed blocks of detail/parallel_sum.h (sums bitwise the same for
// any number of threads).
#include <array>
#include <stdexcept>
#include <string>

#include "core/compute/dual_math.h"
#include "core/rml/detail/parallel_sum.h"
#include "core/rml/host_vector_space.h"

namespace apertura::rml {

namespace {

using compute::SpaceVector;

// The vector's elements, checked to hold one value per pixel of an nx x ny image.
template <typename V>
auto* pixels(V& v, int nx, int ny, const char* op, const char* name) {
  if (nx <= 0 || ny <= 0)
    throw std::invalid_argument(std::string("host vector space: ") + op + ": empty image shape");
  auto& d = HostVectorSpace::of(v);
  if (d.size() != std::size_t(nx) * std::size_t(ny))
    throw std::invalid_argument(std::string("host vector space: ") + op + ": " + name +
                                " size differs from nx * ny");
  return d.data();
}

}  // namespace

void HostVectorSpace::primalFromDual(int nx, int ny, const SpaceVector& vv, const SpaceVector& vqx,
                                     const SpaceVector& vqy, double step, bool nonnegative,
                                     SpaceVector& vout) {
  if (&vout == &vqx || &vout == &vqy)
    throw std::invalid_argument("host vector space: primalFromDual: out is a dual vector");
  const double* v = pixels(vv, nx, ny, "primalFromDual", "v");
  const double* qx = pixels(vqx, nx, ny, "primalFromDual", "qx");
  const double* qy = pixels(vqy, nx, ny, "primalFromDual", "qy");
  double* out = pixels(vout, nx, ny, "primalFromDual", "out");
  detail::parallelFor(std::size_t(nx) * std::size_t(ny), [&](std::size_t begin, std::size_t end) {
    int x = int(begin % std::size_t(nx));
    int y = int(begin / std::size_t(nx));
    for (std::size_t p = begin; p < end; ++p) {
      out[p] = compute::dual::primalAt(
          v[p], step, compute::dual::differenceAdjointAt(qx, qy, nx, ny, x, y), nonnegative);
      if (++x == nx) {
        x = 0;
        ++y;
      }
    }
  });
}

compute::VectorSpace::DualSums HostVectorSpace::dualStep(const DualStepArgs& args,
                                                         const SpaceVector& vx, SpaceVector& vqx,
                                                         SpaceVector& vqy, SpaceVector& vrx,
                                                         SpaceVector& vry) {
  if (&vx == &vqx || &vx == &vqy || &vx == &vrx || &vx == &vry)
    throw std::invalid_argument("host vector space: dualStep: x is a dual vector");
  const int nx = args.nx, ny = args.ny;
  const double* image = pixels(vx, nx, ny, "dualStep", "x");
  const double* mask =
      args.mask != nullptr ? pixels(*args.mask, nx, ny, "dualStep", "mask") : nullptr;
  double* qx = pixels(vqx, nx, ny, "dualStep", "qx");
  double* qy = pixels(vqy, nx, ny, "dualStep", "qy");
  double* rx = pixels(vrx, nx, ny, "dualStep", "rx");
  double* ry = pixels(vry, nx, ny, "dualStep", "ry");
  const auto sums =
      detail::blockedSums<2>(std::size_t(nx) * std::size_t(ny),
                             [&](std::size_t begin, std::size_t end, std::array<double, 2>& acc) {
                               double change = 0.0, norm = 0.0;
                               int x = int(begin % std::size_t(nx));
                               int y = int(begin / std::size_t(nx));
                               for (std::size_t p = begin; p < end; ++p) {
                                 const compute::dual::DualPixel d = compute::dual::dualStepAt(
                                     args, image, mask, x, y, qx[p], qy[p], rx[p], ry[p]);
                                 qx[p] = d.qx;
                                 qy[p] = d.qy;
                                 change += d.change;
                                 norm += d.norm;
                                 if (++x == nx) {
                                   x = 0;
                                   ++y;
                                 }
                               }
                               acc = {change, norm};
                             });
  return {sums[0], sums[1]};
}

}  // namespace apertura::rml
