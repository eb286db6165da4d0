// The penalties of a VectorSpace (core/compute/penalty_math.h through HostVectorSpace) against the
// regularizer classes they reproduce: values and gradients (scaled, added onto a nonzero
// gradient) on odd and degenerate image shapes, with random masks that have zeros, and the
// classes' resident evaluation (evaluateIn) against their evaluate(). The pixel proxes are in
// test_space_proxes.cpp.
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
#include "tests/rml/space_test_support.h"

using namespace apertura;
using namespace apertura::rml;
using namespace apertura::rml::test;
using compute::DifferencePenalty;
using compute::PixelPenalty;

namespace {

constexpr double kScale = 0.7;

enum class ImageKind { Signed, Positive };

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
      const std::vector<double> prior = priorImage(c.prior, n, rng);
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
    const std::vector<double> prior = priorImage(c.prior, n, rng);
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

  void l1RestrictedToNonNegativeAtZero() {
    // Exact zeros in a non-negative image: the class and the space both give the right
    // derivative +scale * m there (and sign(I) elsewhere); unrestricted, 0 at the zeros.
    constexpr int nx = 5, ny = 4;
    const std::size_t n = std::size_t(nx) * ny;
    std::vector<double> image(n), mask(n);
    for (std::size_t p = 0; p < n; ++p) {
      image[p] = p % 3 == 0 ? 0.0 : 0.1 * double(p);
      mask[p] = 0.5 + 0.05 * double(p);
    }
    L1Regularizer l1(nx, ny);
    l1.setMask(mask);
    l1.restrictToNonNegative();
    std::vector<double> gradient(n, 0.0);
    l1.evaluate(image.data(), gradient.data(), kScale);
    HostVectorSpace space;
    auto image_v = uploaded(space, image);
    auto gradient_v = space.create(n);
    space.fill(0.0, *gradient_v);
    l1.evaluateIn(space, *image_v, gradient_v.get(), kScale);
    std::vector<double> resident(n);
    space.download(*gradient_v, resident.data());
    for (std::size_t p = 0; p < n; ++p) {
      QCOMPARE(gradient[p], kScale * mask[p]);
      QCOMPARE(resident[p], gradient[p]);
    }
    L1Regularizer two_sided(nx, ny);
    std::vector<double> g2(n, 0.0);
    two_sided.evaluate(image.data(), g2.data(), 1.0);
    QCOMPARE(g2[0], 0.0);
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
