// The pixel proxes of a VectorSpace (core/compute/penalty_math.h through HostVectorSpace:
// pixelProx, and the regularizers' proxIn and proxValueIn) against the classes' prox() and
// proxValue(), bit for bit, on odd and degenerate shapes with masks that have zeros; their known
// solutions; and the errors for bad arguments.
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
using compute::PixelPenalty;

namespace {

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

class TestSpaceProxes : public QObject {
  Q_OBJECT

 private slots:
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
      const std::vector<double> prior = priorImage(c.prior, n, rng);
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
    const std::vector<double> prior = priorImage(c.prior, n, rng);
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
};

QTEST_GUILESS_MAIN(TestSpaceProxes)
#include "test_space_proxes.moc"
