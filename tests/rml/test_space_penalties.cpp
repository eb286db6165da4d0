// The penalties of a VectorSpace (core/compute/penalty_math.h through HostVectorSpace) against the
// regularizer classes they reproduce: values and gradients (scaled, added onto a nonzero
// gradient) on odd and degenerate image shapes, with random masks that have zeros, and the
// classes' resident evaluation (evaluateIn) against their evaluate(); the pixel proxes
// (pixelProx, proxIn, proxValueIn) against the classes' prox() and proxValue(), bit for bit.
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/rml/detail/parallel_sum.h"
#include "core/rml/gradient_regularizers.h"
#include "core/rml/host_vector_space.h"
#include "core/rml/pixel_regularizers.h"
#include "tests/rml/rml_test_support.h"

using namespace apertura;
using namespace apertura::rml;
using compute::DifferencePenalty;
using compute::PixelPenalty;

namespace {

constexpr double kScale = 0.7;
constexpr double kTolerance = 1e-12;

enum class ImageKind { Signed, Positive };
enum class PriorKind { None, PerPixel, Flat };

struct Case {
  std::string label;
  bool pixel = true;
  PixelPenalty pixel_kind = PixelPenalty::L1;
  DifferencePenalty difference_kind = DifferencePenalty::Tsv;
  double parameter = 0.0;
  ImageKind image = ImageKind::Signed;
  PriorKind prior = PriorKind::None;
};

std::vector<Case> cases() {
  auto pixel = [](std::string label, PixelPenalty k, double parameter, ImageKind image,
                  PriorKind prior) {
    return Case{std::move(label), true, k, DifferencePenalty::Tsv, parameter, image, prior};
  };
  auto difference = [](std::string label, DifferencePenalty k, double parameter) {
    return Case{std::move(label),  false,          PixelPenalty::L1, k, parameter,
                ImageKind::Signed, PriorKind::None};
  };
  return {
      pixel("l1 eps", PixelPenalty::L1, 0.05, ImageKind::Signed, PriorKind::None),
      pixel("l1 exact", PixelPenalty::L1, 0.0, ImageKind::Signed, PriorKind::None),
      pixel("l2", PixelPenalty::L2, 0.0, ImageKind::Signed, PriorKind::None),
      pixel("l2 prior", PixelPenalty::L2, 0.0, ImageKind::Signed, PriorKind::PerPixel),
      pixel("entropy", PixelPenalty::Entropy, 0.0, ImageKind::Positive, PriorKind::PerPixel),
      pixel("entropy flat", PixelPenalty::Entropy, 0.0, ImageKind::Positive, PriorKind::Flat),
      difference("tsv", DifferencePenalty::Tsv, 0.0),
      difference("tv eps", DifferencePenalty::TvIsotropic, 0.05),
      difference("tv exact", DifferencePenalty::TvIsotropic, 0.0),
      difference("tv aniso eps", DifferencePenalty::TvAnisotropic, 0.05),
      difference("tv aniso exact", DifferencePenalty::TvAnisotropic, 0.0),
      difference("huber", DifferencePenalty::Huber, 0.5),
      difference("laplacian", DifferencePenalty::Laplacian, 0.0),
  };
}

// The class a case reproduces; `prior` as the class takes it (one value when flat).
std::unique_ptr<Regularizer> makeRegularizer(const Case& c, int nx, int ny,
                                             const std::vector<double>& prior) {
  if (c.pixel) {
    switch (c.pixel_kind) {
      case PixelPenalty::L1:
        return std::make_unique<L1Regularizer>(nx, ny, c.parameter);
      case PixelPenalty::L2:
        return std::make_unique<L2Regularizer>(nx, ny, prior);
      case PixelPenalty::Entropy:
        return std::make_unique<EntropyRegularizer>(nx, ny, prior);
    }
  }
  switch (c.difference_kind) {
    case DifferencePenalty::Tsv:
      return std::make_unique<TotalSquaredVariation>(nx, ny);
    case DifferencePenalty::TvIsotropic:
      return std::make_unique<TotalVariation>(nx, ny, TvKind::Isotropic, c.parameter);
    case DifferencePenalty::TvAnisotropic:
      return std::make_unique<TotalVariation>(nx, ny, TvKind::Anisotropic, c.parameter);
    case DifferencePenalty::Huber:
      return std::make_unique<HuberRegularizer>(nx, ny, c.parameter);
    case DifferencePenalty::Laplacian:
      return std::make_unique<LaplacianRegularizer>(nx, ny);
  }
  return nullptr;
}

// Random values with exact zeros and plateaus (zero differences), where the exact forms take
// their subgradient branches.
std::vector<double> randomImage(std::size_t n, ImageKind kind, test::Random& rng) {
  std::vector<double> image =
      kind == ImageKind::Signed ? rng.vector(n, -1.0, 1.0) : rng.vector(n, 0.05, 2.0);
  for (std::size_t p = 0; p < n; ++p) {
    if (p % 7 == 3)
      image[p] = 0.0;
    else if (p % 5 == 1)
      image[p] = image[p - 1];
  }
  return image;
}

std::vector<double> randomMask(std::size_t n, test::Random& rng) {
  std::vector<double> mask(n);
  for (double& m : mask)
    m = rng.uniform() < 0.25 ? 0.0 : rng.uniform(0.2, 1.5);
  return mask;
}

compute::SpaceVectorPtr uploaded(HostVectorSpace& space, const std::vector<double>& host) {
  auto v = space.create(host.size());
  HostVectorSpace::of(*v) = host;
  return v;
}

// The case's penalty as HostVectorSpace evaluates it; `prior` one value per pixel or empty.
double spaceEvaluate(const Case& c, int nx, int ny, const std::vector<double>& mask,
                     const std::vector<double>& prior, const std::vector<double>& image,
                     std::vector<double>* gradient, double scale) {
  HostVectorSpace space;
  auto image_v = uploaded(space, image);
  auto mask_v = uploaded(space, mask);
  auto prior_v = uploaded(space, prior);
  compute::SpaceVectorPtr gradient_v;
  if (gradient != nullptr)
    gradient_v = uploaded(space, *gradient);
  compute::PenaltyArgs args;
  args.nx = nx;
  args.ny = ny;
  args.parameter = c.parameter;
  args.mask = mask.empty() ? nullptr : mask_v.get();
  args.prior = prior.empty() ? nullptr : prior_v.get();
  const double value =
      c.pixel ? space.pixelPenalty(c.pixel_kind, args, *image_v, gradient_v.get(), scale)
              : space.differencePenalty(c.difference_kind, args, *image_v, gradient_v.get(), scale);
  if (gradient != nullptr)
    *gradient = HostVectorSpace::of(*gradient_v);
  return value;
}

bool close(double a, double b, double reference) {
  if (std::isinf(a) || std::isinf(b))
    return a == b;
  return std::abs(a - b) <= kTolerance * std::max({std::abs(a), std::abs(b), reference});
}

// Value and gradient of `evaluate` (which adds scale * gradient) against `reference`, starting
// from the same nonzero gradient; the gradient only where the value is finite.
void compareEvaluations(const std::function<double(std::vector<double>*)>& evaluate,
                        const std::function<double(std::vector<double>*)>& reference, std::size_t n,
                        const QString& what) {
  test::Random rng(99);
  const std::vector<double> start = rng.vector(n, -1.0, 1.0);
  std::vector<double> g = start, g_ref = start;
  const double value = evaluate(&g);
  const double value_ref = reference(&g_ref);
  QVERIFY2(
      close(value, value_ref, 0.0),
      qPrintable(
          what +
          QString(": value %1, expected %2").arg(value, 0, 'g', 17).arg(value_ref, 0, 'g', 17)));
  QVERIFY2(close(evaluate(nullptr), value_ref, 0.0), qPrintable(what + ": value without gradient"));
  if (std::isinf(value_ref))
    return;
  for (std::size_t p = 0; p < n; ++p) {
    QVERIFY2(close(g[p], g_ref[p], std::abs(start[p])),
             qPrintable(what + QString(": gradient[%1] %2, expected %3")
                                   .arg(p)
                                   .arg(g[p], 0, 'g', 17)
                                   .arg(g_ref[p], 0, 'g', 17)));
  }
}

// The case on one image: HostVectorSpace against the class's evaluate(), and the class's
// evaluateIn() (twice: the second from its cached mask and prior) against its evaluate().
void checkCase(const Case& c, int nx, int ny, const std::vector<double>& mask,
               const std::vector<double>& image, const std::vector<double>& class_prior,
               const QString& what) {
  const std::size_t n = image.size();
  std::vector<double> prior = class_prior;
  if (c.prior == PriorKind::Flat)
    prior.assign(n, class_prior[0]);
  auto reg = makeRegularizer(c, nx, ny, class_prior);
  reg->setMask(mask);
  auto classEvaluate = [&](std::vector<double>* g) {
    return reg->evaluate(image.data(), g != nullptr ? g->data() : nullptr, kScale);
  };
  compareEvaluations(
      [&](std::vector<double>* g) {
        return spaceEvaluate(c, nx, ny, mask, prior, image, g, kScale);
      },
      classEvaluate, n, what + " (space)");

  HostVectorSpace space;
  QVERIFY(reg->residentIn(space));
  auto image_v = uploaded(space, image);
  auto resident = [&](std::vector<double>* g) {
    if (g == nullptr)
      return reg->evaluateIn(space, *image_v, nullptr, kScale);
    auto g_v = uploaded(space, *g);
    const double value = reg->evaluateIn(space, *image_v, g_v.get(), kScale);
    *g = HostVectorSpace::of(*g_v);
    return value;
  };
  for (int pass = 0; pass < 2; ++pass)
    compareEvaluations(resident, classEvaluate, n, what + " (evaluateIn)");
}

struct Shape {
  int nx;
  int ny;
};
const Shape kShapes[] = {{13, 9}, {1, 11}, {11, 1}, {2, 3}, {1, 1}};

// ---- Pixel proxes ----

struct ProxCase {
  std::string label;
  PixelPenalty kind;
  double parameter;  // L1's smoothing: the prox and its value ignore it
  PriorKind prior;
};

std::vector<ProxCase> proxCases() {
  return {
      {"l1", PixelPenalty::L1, 0.0, PriorKind::None},
      {"l1 eps", PixelPenalty::L1, 0.05, PriorKind::None},
      {"l2", PixelPenalty::L2, 0.0, PriorKind::None},
      {"l2 prior", PixelPenalty::L2, 0.0, PriorKind::PerPixel},
      {"entropy", PixelPenalty::Entropy, 0.0, PriorKind::PerPixel},
      {"entropy flat", PixelPenalty::Entropy, 0.0, PriorKind::Flat},
  };
}

std::unique_ptr<Regularizer> makeProxRegularizer(const ProxCase& c, int nx, int ny,
                                                 const std::vector<double>& prior) {
  switch (c.kind) {
    case PixelPenalty::L1:
      return std::make_unique<L1Regularizer>(nx, ny, c.parameter);
    case PixelPenalty::L2:
      return std::make_unique<L2Regularizer>(nx, ny, prior);
    case PixelPenalty::Entropy:
      return std::make_unique<EntropyRegularizer>(nx, ny, prior);
  }
  return nullptr;
}

// Points of the prox: signed values with exact zeros (both signs), values at and near the L1
// thresholds, and large and tiny magnitudes.
std::vector<double> proxInput(std::size_t n, test::Random& rng) {
  const double special[] = {0.0,   -0.0, 1e6,  -1e6, 1e-300, -1e-300, 50.0,
                            -50.0, 0.3,  -0.3, 2.0,  -2.0,   1e15,    -1e15};
  std::vector<double> v = rng.vector(n, -3.0, 3.0);
  for (std::size_t p = 0; p < n; ++p) {
    if (p % 3 == 1)
      v[p] = special[(p / 3) % (sizeof(special) / sizeof(special[0]))];
    else if (p % 7 == 5)
      v[p] *= 1e-9;
  }
  return v;
}

bool sameBits(double a, double b) {
  std::uint64_t ua = 0, ub = 0;
  std::memcpy(&ua, &a, sizeof a);
  std::memcpy(&ub, &b, sizeof b);
  return ua == ub;
}

// `got` against `expected` bit for bit (QVERIFY: the caller checks QTest::currentTestFailed()).
void compareBits(const std::vector<double>& got, const std::vector<double>& expected,
                 const std::vector<double>& v, const QString& what) {
  QCOMPARE(got.size(), expected.size());
  for (std::size_t p = 0; p < got.size(); ++p) {
    QVERIFY2(sameBits(got[p], expected[p]),
             qPrintable(what + QString(": out[%1] %2, expected %3 (v %4)")
                                   .arg(p)
                                   .arg(got[p], 0, 'g', 17)
                                   .arg(expected[p], 0, 'g', 17)
                                   .arg(v[p], 0, 'g', 17)));
  }
}

void compareValue(double got, double expected, bool bitwise, const QString& what) {
  const QString message =
      what + QString(": %1, expected %2").arg(got, 0, 'g', 17).arg(expected, 0, 'g', 17);
  if (bitwise)
    QVERIFY2(sameBits(got, expected), qPrintable(message));
  else
    QVERIFY2(close(got, expected, 0.0), qPrintable(message));
}

// One case on one image and step: HostVectorSpace::pixelProx (into another vector and in place)
// and the class's proxIn() (likewise, twice: the second from the cached mask and prior) against
// its prox(); proxValueIn() against proxValue() at v and at the prox.
void checkProx(const ProxCase& c, int nx, int ny, const std::vector<double>& mask,
               const std::vector<double>& class_prior, const std::vector<double>& v, double step,
               const QString& what) {
  const std::size_t n = v.size();
  std::vector<double> prior = class_prior;
  if (c.prior == PriorKind::Flat)
    prior.assign(n, class_prior[0]);
  auto reg = makeProxRegularizer(c, nx, ny, class_prior);
  reg->setMask(mask);
  std::vector<double> expected(n, 7.0);
  reg->prox(v.data(), step, expected.data());

  HostVectorSpace space;
  auto v_v = uploaded(space, v);
  auto mask_v = uploaded(space, mask);
  auto prior_v = uploaded(space, prior);
  compute::PenaltyArgs args;
  args.nx = nx;
  args.ny = ny;
  args.parameter = c.parameter;
  args.mask = mask.empty() ? nullptr : mask_v.get();
  args.prior = prior.empty() ? nullptr : prior_v.get();
  auto out_v = uploaded(space, std::vector<double>(n, 7.0));
  space.pixelProx(c.kind, args, *v_v, step, *out_v);
  compareBits(HostVectorSpace::of(*out_v), expected, v, what + " (pixelProx)");
  if (QTest::currentTestFailed())
    return;
  auto in_place = uploaded(space, v);
  space.pixelProx(c.kind, args, *in_place, step, *in_place);
  compareBits(HostVectorSpace::of(*in_place), expected, v, what + " (pixelProx in place)");
  if (QTest::currentTestFailed())
    return;

  QVERIFY(reg->residentProx(space));
  for (int pass = 0; pass < 2; ++pass) {
    auto out = uploaded(space, std::vector<double>(n, 7.0));
    reg->proxIn(space, *v_v, step, *out);
    compareBits(HostVectorSpace::of(*out), expected, v, what + " (proxIn)");
    if (QTest::currentTestFailed())
      return;
    auto same = uploaded(space, v);
    reg->proxIn(space, *same, step, *same);
    compareBits(HostVectorSpace::of(*same), expected, v, what + " (proxIn in place)");
    if (QTest::currentTestFailed())
      return;
  }

  // Entropy's class sums its value serially; the space, block by block: the same bits within one
  // block. L1 and L2 sum block by block in both.
  const bool bitwise = c.kind != PixelPenalty::Entropy || n <= detail::kParallelBlock;
  auto out = uploaded(space, expected);
  compareValue(reg->proxValueIn(space, *out), reg->proxValue(expected.data()), bitwise,
               what + " (proxValueIn at the prox)");
  compareValue(reg->proxValueIn(space, *v_v), reg->proxValue(v.data()), bitwise,
               what + " (proxValueIn at v)");
}

const double kProxSteps[] = {0.3, 2.0, 1e-3};

}  // namespace

class TestSpacePenalties : public QObject {
  Q_OBJECT

 private slots:
  void matchesRegularizers_data() {
    QTest::addColumn<int>("index");
    const auto all = cases();
    for (std::size_t i = 0; i < all.size(); ++i)
      QTest::newRow(all[i].label.c_str()) << int(i);
  }
  // Every case on every shape, without a mask and with a random one.
  void matchesRegularizers() {
    QFETCH(int, index);
    const Case c = cases()[std::size_t(index)];
    test::Random rng(7 + std::uint64_t(index));
    for (const Shape& s : kShapes) {
      const std::size_t n = std::size_t(s.nx) * std::size_t(s.ny);
      const std::vector<double> image = randomImage(n, c.image, rng);
      std::vector<double> prior;
      if (c.prior == PriorKind::PerPixel)
        prior = rng.vector(n, 0.1, 1.5);
      else if (c.prior == PriorKind::Flat)
        prior = {0.3};
      for (bool masked : {false, true}) {
        const std::vector<double> mask = masked ? randomMask(n, rng) : std::vector<double>{};
        const QString what = QString("%1x%2%3").arg(s.nx).arg(s.ny).arg(masked ? " masked" : "");
        checkCase(c, s.nx, s.ny, mask, image, prior, what);
        if (QTest::currentTestFailed())
          return;
      }
    }
  }

  // Images of more than one parallel block (the values are summed block by block).
  void largeImages_data() { matchesRegularizers_data(); }
  void largeImages() {
    QFETCH(int, index);
    const Case c = cases()[std::size_t(index)];
    const int nx = 301;
    const int ny = 257;
    const std::size_t n = std::size_t(nx) * std::size_t(ny);
    test::Random rng(3);
    std::vector<double> prior;
    if (c.prior == PriorKind::PerPixel)
      prior = rng.vector(n, 0.1, 1.5);
    else if (c.prior == PriorKind::Flat)
      prior = {0.3};
    checkCase(c, nx, ny, randomMask(n, rng), randomImage(n, c.image, rng), prior, "large");
  }

  // Entropy is +infinity with a negative pixel in the mask, and ignores one where the mask is 0.
  void entropyNegativePixels() {
    const Case c = cases()[4];
    QCOMPARE(c.label, std::string("entropy"));
    const int nx = 13;
    const int ny = 9;
    const std::size_t n = std::size_t(nx) * std::size_t(ny);
    test::Random rng(11);
    const std::vector<double> prior = rng.vector(n, 0.1, 1.5);
    std::vector<double> mask = randomMask(n, rng);
    mask[20] = 0.0;
    mask[40] = 0.8;
    std::vector<double> image = randomImage(n, ImageKind::Positive, rng);
    image[20] = -0.5;
    checkCase(c, nx, ny, mask, image, prior, "negative outside the mask");
    EntropyRegularizer reg(nx, ny, prior);
    reg.setMask(mask);
    QVERIFY(std::isfinite(reg.evaluate(image.data(), nullptr, 1.0)));

    image[40] = -1e-9;
    checkCase(c, nx, ny, mask, image, prior, "negative inside the mask");
    std::vector<double> g(n, 0.0);
    const double value = spaceEvaluate(c, nx, ny, mask, prior, image, &g, 1.0);
    QVERIFY(std::isinf(value) && value > 0.0);
  }

  // The cached mask follows setMask(), and a second space gets its own copies.
  void residentMaskFollowsSetMask() {
    const int nx = 13;
    const int ny = 9;
    const std::size_t n = std::size_t(nx) * std::size_t(ny);
    test::Random rng(5);
    const std::vector<double> image = randomImage(n, ImageKind::Signed, rng);
    TotalVariation tv(nx, ny, TvKind::Isotropic, 0.01);
    HostVectorSpace a, b;
    auto image_a = uploaded(a, image);
    auto image_b = uploaded(b, image);
    for (const auto& mask : {randomMask(n, rng), std::vector<double>{}, randomMask(n, rng)}) {
      tv.setMask(mask);
      const double expected = tv.evaluate(image.data(), nullptr, 1.0);
      QVERIFY(close(tv.evaluateIn(a, *image_a, nullptr, 1.0), expected, 0.0));
      QVERIFY(close(tv.evaluateIn(b, *image_b, nullptr, 1.0), expected, 0.0));
      QVERIFY(close(tv.evaluateIn(a, *image_a, nullptr, 1.0), expected, 0.0));
    }
  }

  void proxMatchesRegularizers_data() {
    QTest::addColumn<int>("index");
    const auto all = proxCases();
    for (std::size_t i = 0; i < all.size(); ++i)
      QTest::newRow(all[i].label.c_str()) << int(i);
  }
  // Every prox case on every shape and step, without a mask and with a random one (with zeros).
  void proxMatchesRegularizers() {
    QFETCH(int, index);
    const ProxCase c = proxCases()[std::size_t(index)];
    test::Random rng(21 + std::uint64_t(index));
    for (const Shape& s : kShapes) {
      const std::size_t n = std::size_t(s.nx) * std::size_t(s.ny);
      const std::vector<double> v = proxInput(n, rng);
      std::vector<double> prior;
      if (c.prior == PriorKind::PerPixel)
        prior = rng.vector(n, 0.1, 1.5);
      else if (c.prior == PriorKind::Flat)
        prior = {0.3};
      for (bool masked : {false, true}) {
        const std::vector<double> mask = masked ? randomMask(n, rng) : std::vector<double>{};
        for (double step : kProxSteps) {
          const QString what =
              QString("%1x%2%3 step %4").arg(s.nx).arg(s.ny).arg(masked ? " masked" : "").arg(step);
          checkProx(c, s.nx, s.ny, mask, prior, v, step, what);
          if (QTest::currentTestFailed())
            return;
        }
      }
    }
  }

  // Images of more than one parallel block.
  void proxLargeImages_data() { proxMatchesRegularizers_data(); }
  void proxLargeImages() {
    QFETCH(int, index);
    const ProxCase c = proxCases()[std::size_t(index)];
    const int nx = 301;
    const int ny = 257;
    const std::size_t n = std::size_t(nx) * std::size_t(ny);
    test::Random rng(13);
    std::vector<double> prior;
    if (c.prior == PriorKind::PerPixel)
      prior = rng.vector(n, 0.1, 1.5);
    else if (c.prior == PriorKind::Flat)
      prior = {0.3};
    checkProx(c, nx, ny, randomMask(n, rng), prior, proxInput(n, rng), 0.3, "large");
  }

  // The proxes' known solutions: soft thresholding, the L2 closed form, and entropy's fixed
  // point x + t m ln(x / M) = v.
  void proxSolvesItsProblem() {
    HostVectorSpace space;
    const std::vector<double> v = {-2.0, -0.5, 0.0, 0.2, 0.5, 3.0};
    const std::vector<double> mask = {1.0, 1.0, 1.0, 0.0, 1.0, 2.0};
    const std::vector<double> prior = {0.5, 0.5, 0.5, 0.5, 1.0, 0.25};
    auto v_v = uploaded(space, v);
    auto mask_v = uploaded(space, mask);
    auto prior_v = uploaded(space, prior);
    auto out_v = space.create(v.size());
    compute::PenaltyArgs args;
    args.nx = 3;
    args.ny = 2;
    args.mask = mask_v.get();
    const double step = 0.5;
    space.pixelProx(PixelPenalty::L1, args, *v_v, step, *out_v);
    const std::vector<double> l1 = {-1.5, 0.0, 0.0, 0.2, 0.0, 2.0};
    QCOMPARE(HostVectorSpace::of(*out_v), l1);
    args.prior = prior_v.get();
    space.pixelProx(PixelPenalty::L2, args, *v_v, step, *out_v);
    for (std::size_t p = 0; p < v.size(); ++p) {
      const double a = 2.0 * step * mask[p];
      QVERIFY(std::abs(HostVectorSpace::of(*out_v)[p] - (v[p] + a * prior[p]) / (1.0 + a)) < 1e-15);
    }
    space.pixelProx(PixelPenalty::Entropy, args, *v_v, step, *out_v);
    for (std::size_t p = 0; p < v.size(); ++p) {
      const double x = HostVectorSpace::of(*out_v)[p];
      if (mask[p] == 0.0) {
        QCOMPARE(x, v[p]);
        continue;
      }
      QVERIFY(x > 0.0);
      QVERIFY(std::abs(x + step * mask[p] * std::log(x / prior[p]) - v[p]) < 1e-12);
    }
  }

  void proxRejectsInvalidArguments() {
    HostVectorSpace space;
    auto v = space.create(12);
    auto out = space.create(12);
    auto short_v = space.create(11);
    compute::PenaltyArgs args;
    args.nx = 4;
    args.ny = 3;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             space.pixelProx(PixelPenalty::Entropy, args, *v, 1.0, *out));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             space.pixelProx(PixelPenalty::L1, args, *v, 1.0, *short_v));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             space.pixelProx(PixelPenalty::L1, args, *short_v, 1.0, *out));
    args.prior = short_v.get();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             space.pixelProx(PixelPenalty::L2, args, *v, 1.0, *out));
    args.prior = nullptr;
    args.mask = short_v.get();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             space.pixelProx(PixelPenalty::L1, args, *v, 1.0, *out));
    args.mask = nullptr;
    args.ny = 0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             space.pixelProx(PixelPenalty::L2, args, *v, 1.0, *out));
  }

  void rejectsInvalidArguments() {
    HostVectorSpace space;
    auto image = space.create(12);
    auto short_v = space.create(11);
    compute::PenaltyArgs args;
    args.nx = 4;
    args.ny = 3;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             space.pixelPenalty(PixelPenalty::Entropy, args, *image, nullptr, 1.0));
    args.mask = short_v.get();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             space.pixelPenalty(PixelPenalty::L1, args, *image, nullptr, 1.0));
    args.mask = nullptr;
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        space.differencePenalty(DifferencePenalty::Tsv, args, *image, short_v.get(), 1.0));
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        space.differencePenalty(DifferencePenalty::Tsv, args, *short_v, nullptr, 1.0));
    args.nx = 0;
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        space.differencePenalty(DifferencePenalty::Huber, args, *image, nullptr, 1.0));
  }
};

QTEST_GUILESS_MAIN(TestSpacePenalties)
#include "test_space_penalties.moc"
