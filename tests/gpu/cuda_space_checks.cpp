// The CUDA VectorSpace (label gpu): every operation against the host space on the same vectors
// (element-wise results equal, or within an ulp where the device fuses a multiply-add; reductions
// to rounding and bitwise repeatable), the penalties of every regularizer and the pixel proxes
// with masks and priors on images of one and of many reduction blocks, the TV prox's dual passes
// and the difference regularizers' resident proxes, and device memory accounting. One program, one
// check per CTest entry; without a device it exits 77.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/imaging/operator_factory.h"
#include "core/rml/gradient_regularizers.h"
#include "core/rml/host_vector_space.h"
#include "tests/gpu/cuda_check_support.h"

using namespace apertura;
using namespace apertura::imaging;
using namespace apertura::imaging::test;
using compute::SpaceVector;
using compute::SpaceVectorPtr;
using compute::VectorSpace;

namespace {

struct Pair {
  SpaceVectorPtr host, device;
};

class Spaces {
 public:
  explicit Spaces(VectorSpace& device) : device_(device) {}
  Pair make(const std::vector<double>& values) {
    Pair p{host_.create(values.size()), device_.create(values.size())};
    host_.upload(values.data(), *p.host);
    device_.upload(values.data(), *p.device);
    return p;
  }
  std::vector<double> hostValues(const Pair& p) { return rml::HostVectorSpace::of(*p.host); }
  std::vector<double> deviceValues(const Pair& p) {
    std::vector<double> v(p.device->size());
    device_.download(*p.device, v.data());
    return v;
  }
  // Largest difference relative to the largest magnitude.
  double difference(const Pair& p) {
    const auto a = hostValues(p), b = deviceValues(p);
    double diff = 0.0, scale = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (std::isinf(a[i]) || std::isinf(b[i])) {
        if (a[i] != b[i])
          return INFINITY;
        continue;
      }
      diff = std::max(diff, std::abs(a[i] - b[i]));
      scale = std::max(scale, std::abs(a[i]));
    }
    return scale > 0.0 ? diff / scale : diff;
  }
  rml::HostVectorSpace& host() { return host_; }
  VectorSpace& device() { return device_; }

 private:
  rml::HostVectorSpace host_;
  VectorSpace& device_;
};

std::vector<double> randomValues(std::size_t n, unsigned seed, double lo, double hi) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<double> v(n);
  for (double& x : v)
    x = d(rng);
  return v;
}

bool close(double a, double b, double tolerance) {
  return std::abs(a - b) <= tolerance * std::max(std::abs(a), std::abs(b));
}

void vectorOperations(VectorSpace& device) {
  Spaces s(device);
  for (std::size_t n : {std::size_t(1), std::size_t(1000), std::size_t(3000017)}) {
    Pair x = s.make(randomValues(n, 1, -1.0, 1.0));
    Pair g = s.make(randomValues(n, 2, -1.0, 1.0));
    Pair d = s.make(std::vector<double>(n, 0.0));
    Pair y = s.make(randomValues(n, 3, -1.0, 1.0));
    const double dh = s.host().dot(*x.host, *g.host), dd = device.dot(*x.device, *g.device);
    const double dd2 = device.dot(*x.device, *g.device);
    expect(close(dh, dd, 1e-11) && std::memcmp(&dd, &dd2, sizeof dd) == 0,
           "n=%zu dot %.17g vs host %.17g, repeated call bitwise equal", n, dd, dh);
    for (bool positivity : {false, true}) {
      const double ph =
          s.host().projectedGradient(*x.host, *g.host, positivity, -1.0, d.host.get());
      const double pd =
          device.projectedGradient(*x.device, *g.device, positivity, -1.0, d.device.get());
      expect(close(ph, pd, 1e-12) && s.difference(d) == 0.0,
             "n=%zu projected gradient (positivity %d): |Pg|^2 %.17g vs %.17g, d equal", n,
             int(positivity), pd, ph);
    }
    s.host().holdAtBound(*x.host, *g.host, *y.host);
    device.holdAtBound(*x.device, *g.device, *y.device);
    s.host().axpy(0.37, *x.host, *y.host);
    device.axpy(0.37, *x.device, *y.device);
    s.host().scale(-1.5, *y.host);
    device.scale(-1.5, *y.device);
    // y + a x is one fused multiply-add on the device: within an ulp of the host's.
    expect(s.difference(y) < 1e-15, "n=%zu holdAtBound, axpy, scale: %.3g apart", n,
           s.difference(y));
    for (bool clip : {false, true}) {
      s.host().step(*x.host, 0.25, *g.host, clip, *d.host);
      device.step(*x.device, 0.25, *g.device, clip, *d.device);
      expect(s.difference(d) < 1e-15, "n=%zu step (clip %d): %.3g apart", n, int(clip),
             s.difference(d));
    }
    s.host().multiply(*x.host, *g.host, *d.host);
    device.multiply(*x.device, *g.device, *d.device);
    expect(s.difference(d) == 0.0, "n=%zu multiply: equal", n);
    const double ah = s.host().dotDifference(*g.host, *x.host, *y.host);
    const double ad = device.dotDifference(*g.device, *x.device, *y.device);
    expect(close(ah, ad, 1e-11), "n=%zu dotDifference %.17g vs %.17g", n, ad, ah);
    // The same inputs on both sides again (axpy and step left them an ulp apart).
    y = s.make(randomValues(n, 4, -1.0, 1.0));
    d = s.make(randomValues(n, 5, -1.0, 1.0));
    Pair sv = s.make(std::vector<double>(n, 0.0)), yv = s.make(std::vector<double>(n, 0.0));
    const auto ph =
        s.host().differences(*y.host, *x.host, *d.host, *g.host, sv.host.get(), yv.host.get());
    const auto pd = device.differences(*y.device, *x.device, *d.device, *g.device, sv.device.get(),
                                       yv.device.get());
    expect(close(ph.sy, pd.sy, 1e-11) && close(ph.ss, pd.ss, 1e-12) && close(ph.yy, pd.yy, 1e-12) &&
               s.difference(sv) == 0.0 && s.difference(yv) == 0.0,
           "n=%zu differences s.y %.17g vs %.17g, s.s %.17g vs %.17g, y.y %.17g vs %.17g", n, pd.sy,
           ph.sy, pd.ss, ph.ss, pd.yy, ph.yy);
    // Float pairs (optimizer.history_precision float): differences rounds s and y to float as it
    // stores them (the same floats on both sides: the double differences are exact), dot and
    // axpy widen them.
    {
      auto hs = s.host().createFloat(n), hy = s.host().createFloat(n);
      auto ds = device.createFloat(n), dy = device.createFloat(n);
      const auto fh = s.host().differences(*y.host, *x.host, *d.host, *g.host, hs.get(), hy.get());
      const auto fd =
          device.differences(*y.device, *x.device, *d.device, *g.device, ds.get(), dy.get());
      expect(close(fh.sy, fd.sy, 1e-11) && close(fh.float_sy, fd.float_sy, 1e-11),
             "n=%zu float differences: s.y %.17g vs %.17g, rounded %.17g vs %.17g", n, fd.sy, fh.sy,
             fd.float_sy, fh.float_sy);
      const double hss = s.host().dot(*hs, *hs), dss = device.dot(*ds, *ds);
      const double hsd = s.host().dot(*hs, *d.host), dsd = device.dot(*d.device, *ds);
      expect(close(hss, dss, 1e-12) && close(hsd, dsd, 1e-11),
             "n=%zu float dot: s.s %.17g vs %.17g, s.d %.17g vs %.17g", n, dss, hss, dsd, hsd);
      s.host().axpy(-0.75, *hy, *d.host);
      device.axpy(-0.75, *dy, *d.device);
      expect(s.difference(d) < 1e-15, "n=%zu float axpy: %.3g apart", n, s.difference(d));
      bool refused = false;
      try {
        device.scale(2.0, *ds);
      } catch (const std::invalid_argument&) {
        refused = true;
      }
      expect(refused, "n=%zu a float vector refused by scale", n);
    }
    // The positivity mappings (the device's exp and log1p: to rounding).
    for (auto m : {compute::PixelMapping::Exp, compute::PixelMapping::Softplus}) {
      Pair image = s.make(std::vector<double>(n, 0.0)), grad = s.make(std::vector<double>(n, 0.0));
      s.host().mapToImage(m, *x.host, nullptr, *image.host);
      device.mapToImage(m, *x.device, nullptr, *image.device);
      const double di = s.difference(image);
      s.host().mapGradient(m, *x.host, *image.host, nullptr, *g.host, *grad.host);
      device.mapGradient(m, *x.device, *image.device, nullptr, *g.device, *grad.device);
      expect(di < 1e-15 && s.difference(grad) < 1e-15,
             "n=%zu %s mapping: image %.3g, gradient %.3g", n,
             m == compute::PixelMapping::Exp ? "exp" : "softplus", di, s.difference(grad));
    }
    device.copy(*x.device, *d.device);
    s.host().copy(*x.host, *d.host);
    device.fill(2.5, *y.device);
    s.host().fill(2.5, *y.host);
    expect(s.difference(d) == 0.0 && s.difference(y) == 0.0, "n=%zu copy, fill: equal", n);
    // A cube's plane to a plane's vector and back (the second half onto the first).
    const std::size_t half = n / 2;
    device.copyRange(*x.device, n - half, *d.device, 0, half);
    s.host().copyRange(*x.host, n - half, *d.host, 0, half);
    device.copyRange(*d.device, 0, *y.device, n - half, half);
    s.host().copyRange(*d.host, 0, *y.host, n - half, half);
    bool refused = false;
    try {
      device.copyRange(*x.device, 1, *d.device, 0, n);
    } catch (const std::out_of_range&) {
      refused = true;
    }
    expect(s.difference(d) == 0.0 && s.difference(y) == 0.0 && refused,
           "n=%zu copyRange: equal, out of range refused", n);
  }
}

void penalties(VectorSpace& device) {
  Spaces s(device);
  // One reduction block's worth and many; masks with zeros, priors.
  for (auto [nx, ny] : {std::pair<int, int>{13, 9}, std::pair<int, int>{1031, 997}}) {
    const std::size_t n = std::size_t(nx) * ny;
    std::vector<double> mask = randomValues(n, 7, 0.0, 1.0);
    for (double& m : mask)
      m = m < 0.2 ? 0.0 : m;
    Pair image = s.make(randomValues(n, 8, -0.5, 1.0));
    Pair positive = s.make(randomValues(n, 9, 0.0, 1.0));
    Pair mask_v = s.make(mask);
    Pair prior = s.make(randomValues(n, 10, 0.1, 0.5));
    const std::vector<double> start = randomValues(n, 11, -1.0, 1.0);
    using compute::DifferencePenalty;
    using compute::PixelPenalty;
    struct Case {
      const char* name;
      bool pixel;
      int kind;
      double parameter;
      bool positive_image;
      bool with_prior;
    };
    const Case cases[] = {
        {"L1 eps", true, int(PixelPenalty::L1), 1e-3, false, false},
        {"L1 exact", true, int(PixelPenalty::L1), 0.0, false, false},
        {"L2 prior", true, int(PixelPenalty::L2), 0.0, false, true},
        {"entropy", true, int(PixelPenalty::Entropy), 0.0, true, true},
        {"TSV", false, int(DifferencePenalty::Tsv), 0.0, false, false},
        {"TV iso", false, int(DifferencePenalty::TvIsotropic), 1e-3, false, false},
        {"TV aniso", false, int(DifferencePenalty::TvAnisotropic), 1e-3, false, false},
        {"Huber", false, int(DifferencePenalty::Huber), 0.05, false, false},
        {"Laplacian", false, int(DifferencePenalty::Laplacian), 0.0, false, false},
    };
    for (const Case& c : cases) {
      for (bool masked : {false, true}) {
        Pair gradient = s.make(start);
        const Pair& x = c.positive_image ? positive : image;
        auto args = [&](bool host) {
          compute::PenaltyArgs a;
          a.nx = nx;
          a.ny = ny;
          a.parameter = c.parameter;
          a.mask = masked ? (host ? mask_v.host.get() : mask_v.device.get()) : nullptr;
          a.prior = c.with_prior ? (host ? prior.host.get() : prior.device.get()) : nullptr;
          return a;
        };
        double vh, vd;
        if (c.pixel) {
          vh = s.host().pixelPenalty(PixelPenalty(c.kind), args(true), *x.host, gradient.host.get(),
                                     0.7);
          vd = device.pixelPenalty(PixelPenalty(c.kind), args(false), *x.device,
                                   gradient.device.get(), 0.7);
        } else {
          vh = s.host().differencePenalty(DifferencePenalty(c.kind), args(true), *x.host,
                                          gradient.host.get(), 0.7);
          vd = device.differencePenalty(DifferencePenalty(c.kind), args(false), *x.device,
                                        gradient.device.get(), 0.7);
        }
        const double gd = s.difference(gradient);
        expect(close(vh, vd, 1e-12) && gd < 1e-13,
               "%dx%d %s%s: value %.17g vs %.17g, gradient %.3g", nx, ny, c.name,
               masked ? " masked" : "", vd, vh, gd);
      }
    }
    // The pixel proxes (entropy's Newton iteration with the device's exp and log: to rounding).
    for (const Case& c : cases) {
      if (!c.pixel)
        continue;
      for (double step : {0.3, 2.0}) {
        compute::PenaltyArgs host_args, device_args;
        host_args.nx = device_args.nx = nx;
        host_args.ny = device_args.ny = ny;
        host_args.mask = mask_v.host.get();
        device_args.mask = mask_v.device.get();
        if (c.with_prior) {
          host_args.prior = prior.host.get();
          device_args.prior = prior.device.get();
        }
        Pair out = s.make(start);
        s.host().pixelProx(PixelPenalty(c.kind), host_args, *image.host, step, *out.host);
        device.pixelProx(PixelPenalty(c.kind), device_args, *image.device, step, *out.device);
        const double d = s.difference(out);
        expect(d < 1e-14, "%dx%d %s prox (step %g, masked): %.3g apart", nx, ny, c.name, step, d);
      }
    }
    // Entropy of an image with a negative pixel inside the mask is +infinity on both.
    Pair gradient = s.make(start);
    compute::PenaltyArgs a;
    a.nx = nx;
    a.ny = ny;
    a.prior = prior.device.get();
    const double v = device.pixelPenalty(PixelPenalty::Entropy, a, *image.device, nullptr, 1.0);
    expect(std::isinf(v) && v > 0.0, "%dx%d entropy of a negative image: %g", nx, ny, v);
  }
}

// The TV prox's dual passes on the device against the host (the device may fuse a multiply-add:
// to rounding), and the difference regularizers' whole resident proxes (to the inner solvers'
// tolerance: an iteration count may differ by one where a stopping test is met by rounding).
void duals(VectorSpace& device) {
  Spaces s(device);
  for (auto [nx, ny] : {std::pair<int, int>{13, 9}, std::pair<int, int>{1031, 997}}) {
    const std::size_t n = std::size_t(nx) * ny;
    std::vector<double> mask = randomValues(n, 21, 0.0, 1.0);
    for (double& m : mask)
      m = m < 0.2 ? 0.0 : m;
    Pair mask_v = s.make(mask);
    Pair v = s.make(randomValues(n, 22, -1.0, 1.0));
    Pair qx = s.make(randomValues(n, 23, -1.0, 1.0)), qy = s.make(randomValues(n, 24, -1.0, 1.0));
    Pair rx = s.make(randomValues(n, 25, -1.5, 1.5)), ry = s.make(randomValues(n, 26, -1.5, 1.5));
    for (bool nonnegative : {false, true}) {
      Pair out = s.make(std::vector<double>(n, 7.0));
      s.host().primalFromDual(nx, ny, *v.host, *qx.host, *qy.host, 0.6, nonnegative, *out.host);
      device.primalFromDual(nx, ny, *v.device, *qx.device, *qy.device, 0.6, nonnegative,
                            *out.device);
      const double d = s.difference(out);
      expect(d < 1e-14, "%dx%d primalFromDual%s: %.3g apart", nx, ny,
             nonnegative ? " (x >= 0)" : "", d);
    }
    for (int variant = 0; variant < 3; ++variant) {  // isotropic, anisotropic, Huber
      VectorSpace::DualStepArgs a;
      a.nx = nx;
      a.ny = ny;
      a.isotropic = variant != 1;
      a.huber_delta = variant == 2 ? 0.3 : 0.0;
      a.step = 0.8;
      a.lipschitz = 8.0 * a.step * a.step + 0.2;
      a.momentum = 0.4;
      VectorSpace::DualStepArgs ha = a, da = a;
      ha.mask = mask_v.host.get();
      da.mask = mask_v.device.get();
      const auto hs = s.host().dualStep(ha, *v.host, *qx.host, *qy.host, *rx.host, *ry.host);
      const auto ds =
          device.dualStep(da, *v.device, *qx.device, *qy.device, *rx.device, *ry.device);
      const double d =
          std::max({s.difference(qx), s.difference(qy), s.difference(rx), s.difference(ry)});
      expect(d < 1e-14 && close(hs.change, ds.change, 1e-12) && close(hs.norm, ds.norm, 1e-12),
             "%dx%d dualStep (%s, masked): fields %.3g apart, sums %.17g/%.17g vs %.17g/%.17g", nx,
             ny,
             variant == 0   ? "isotropic"
             : variant == 1 ? "anisotropic"
                            : "Huber",
             d, ds.change, ds.norm, hs.change, hs.norm);
    }
  }
  // Whole proxes through the regularizers, masked, on 200 x 150.
  const int nx = 200, ny = 150;
  const std::size_t n = std::size_t(nx) * ny;
  std::vector<double> mask = randomValues(n, 27, 0.0, 1.0);
  for (double& m : mask)
    m = m < 0.2 ? 0.0 : m;
  Pair v = s.make(randomValues(n, 28, -0.5, 1.5));
  using rml::TvKind;
  struct Case {
    const char* name;
    std::shared_ptr<rml::Regularizer> term;
    bool nonnegative;
  };
  const Case cases[] = {
      {"TV iso", std::make_shared<rml::TotalVariation>(nx, ny, TvKind::Isotropic), false},
      {"TV iso >= 0", std::make_shared<rml::TotalVariation>(nx, ny, TvKind::Isotropic), true},
      {"TV aniso >= 0", std::make_shared<rml::TotalVariation>(nx, ny, TvKind::Anisotropic), true},
      {"Huber >= 0", std::make_shared<rml::HuberRegularizer>(nx, ny, 0.05), true},
      {"TSV", std::make_shared<rml::TotalSquaredVariation>(nx, ny), false},
      {"Laplacian", std::make_shared<rml::LaplacianRegularizer>(nx, ny), false},
  };
  for (const Case& c : cases) {
    c.term->setMask(mask);
    Pair out = s.make(std::vector<double>(n, 7.0));
    const double step = 0.2;
    for (VectorSpace* space : {static_cast<VectorSpace*>(&s.host()), &device}) {
      const bool on_device = space == &device;
      SpaceVector& o = on_device ? *out.device : *out.host;
      const SpaceVector& in = on_device ? *v.device : *v.host;
      if (c.nonnegative)
        c.term->proxNonNegativeIn(*space, in, step, o);
      else
        c.term->proxIn(*space, in, step, o);
      c.term->releaseResident();  // the mask is cached for one space at a time
    }
    const double d = s.difference(out);
    expect(d < 1e-8, "%dx%d %s prox (step %g, masked): %.3g apart", nx, ny, c.name, step, d);
  }
}

void memory(ImagingOperator<float>& op) {
  const std::uint64_t before = op.deviceBytes();
  VectorSpace& space = *op.vectorSpace();
  const std::uint64_t with_space = op.deviceBytes();
  SpaceVectorPtr v = space.create(1 << 20);
  const std::uint64_t with_vector = op.deviceBytes();
  v.reset();
  const std::uint64_t after = op.deviceBytes();
  expect(with_vector - with_space == (1u << 20) * sizeof(double) && after == with_space &&
             with_space >= before && space.bytesHeld() == op.deviceBytes(),
         "device bytes: operator %llu, with the space %llu, with an 8 MiB vector %llu, after %llu",
         (unsigned long long)before, (unsigned long long)with_space,
         (unsigned long long)with_vector, (unsigned long long)after);
}

}  // namespace

int main(int argc, char** argv) {
  const ImageGeometry g = ImageGeometry::fromCell(64, 64, 1.0 * kArcsec);
  return runChecks(argc, argv,
                   {{"operations",
                     [&] {
                       auto op = cudaOperator<float>(g, OperatorSettings{});
                       vectorOperations(*op->vectorSpace());
                     }},
                    {"penalties",
                     [&] {
                       auto op = cudaOperator<double>(g, OperatorSettings{});
                       penalties(*op->vectorSpace());
                     }},
                    {"duals",
                     [&] {
                       auto op = cudaOperator<double>(g, OperatorSettings{});
                       duals(*op->vectorSpace());
                     }},
                    {"memory", [&] {
                       auto op = cudaOperator<float>(g, OperatorSettings{});
                       memory(*op);
                     }}});
}
