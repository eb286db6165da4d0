// w-stacking's data term (HeldChi2Term): its resident evaluation, through a backend that forms
// the held samples' residuals (the CPU operator standing in for the CUDA one, images in a host
// space), against its host evaluation; the host evaluation against Chi2Term through the
// operator's whole calls; when it is resident and when not; and a whole resident L-BFGS run
// against the host run.
#include <QtTest>

#include <cmath>
#include <cstring>
#include <memory>
#include <random>

#include "core/rml/gradient_regularizers.h"
#include "core/rml/held_chi2_term.h"
#include "core/rml/host_vector_space.h"
#include "core/rml/image_mapping.h"
#include "core/rml/imaging_operator_adapter.h"
#include "core/rml/lbfgs.h"
#include "core/rml/objective_function.h"
#include "core/rml/resident_lbfgs.h"
#include "core/util/input_error.h"
#include "tests/rml/host_resident_operator.h"
#include "tests/support/chunk_fixtures.h"
#include "tests/support/relative_difference.h"

using namespace apertura;
using namespace apertura::rml;
using apertura::test::maxRelativeDifference;

namespace {

const double kArcsec = M_PI / 180.0 / 3600.0;

// A field of 0.8 x 0.67 degrees and |w| up to 3 km: the w-term turns phases by a good part of a
// turn at the edges, so w-stacking matters.
struct WideField {
  imaging::ImageGeometry g = imaging::ImageGeometry::fromCell(48, 40, 60.0 * kArcsec);
  std::vector<VisibilityChunk> chunks;

  WideField() {
    std::mt19937 rng(23);
    chunks.push_back(apertura::test::randomChunk(rng, g, 600, {1.4e9}));
    chunks.push_back(apertura::test::randomChunk(rng, g, 200, {1.0e9, 1.2e9}));
    std::uniform_real_distribution<double> w(-3000.0, 3000.0);
    for (auto& c : chunks)
      for (std::size_t r = 0; r < c.num_rows(); ++r)
        c.uvw_m[3 * r + 2] = w(rng);
  }

  template <typename T>
  std::unique_ptr<rml::test::HostResidentOperator<T>> op(bool resident, bool w_stacking = true) {
    imaging::OperatorSettings s;
    s.epsilon = std::is_same_v<T, float> ? 1e-5 : 1e-9;
    s.threads = 2;
    s.w_stacking = w_stacking;
    return std::make_unique<rml::test::HostResidentOperator<T>>(imaging::makeCpuOperator<T>(g, s),
                                                                resident);
  }

  std::vector<double> image() const {
    std::vector<double> x(g.numPixels());
    for (std::size_t p = 0; p < x.size(); ++p)
      x[p] = 0.01 + 0.5 * std::exp(-0.5 * std::pow((double(p % 48) - 30.0) / 4.0, 2.0)) *
                        std::cos(0.05 * double(p / 48));
    return x;
  }
};

}  // namespace

class TestHeldChi2Term : public QObject {
  Q_OBJECT

  // With `summed`, a distributed run of two processes holding the same chunks: the sum doubles
  // chi2 and the partial gradients, and the resident pass calls it as the host pass does.
  template <typename T>
  void residentEqualsHost(double tolerance, bool summed = false) {
    WideField f;
    auto op = f.op<T>(true);
    std::vector<std::size_t> host_calls, resident_calls;
    std::vector<std::size_t>* calls = &host_calls;
    Chi2Options options;
    if (summed) {
      options.sum = [&calls](double* d, std::size_t n) {
        calls->push_back(n);
        for (std::size_t k = 0; k < n; ++k)
          d[k] *= 2.0;
      };
    }
    auto term = makeHeldChi2Term(*op, f.chunks, options);
    compute::VectorSpace* space = term->dataSpace();
    QVERIFY(space != nullptr);
    QVERIFY(term->residentIn(*space));
    const std::vector<double> x = f.image();
    const std::size_t n = x.size();
    // Both add 0.7 * grad to a gradient that already holds something.
    std::vector<double> host_gradient(n, 0.25);
    const double host = term->evaluate(x.data(), host_gradient.data(), 0.7);
    auto rx = space->create(n), rg = space->create(n);
    space->upload(x.data(), *rx);
    space->fill(0.25, *rg);
    calls = &resident_calls;
    const double resident = term->evaluateIn(*space, *rx, rg.get(), 0.7);
    QCOMPARE(op->resident_calls, 1);
    std::vector<double> resident_gradient(n);
    space->download(*rg, resident_gradient.data());
    QVERIFY2(std::abs(resident - host) <= tolerance * host,
             qPrintable(QString("chi2 %1 vs %2").arg(resident, 0, 'g', 17).arg(host, 0, 'g', 17)));
    const double grad_diff = maxRelativeDifference(resident_gradient, host_gradient);
    QVERIFY2(grad_diff <= tolerance, qPrintable(QString("gradient differs by %1").arg(grad_diff)));
    // The value alone, and the same again (the measured data are kept between calls).
    QCOMPARE(term->evaluateIn(*space, *rx, nullptr, 0.7), resident);
    QCOMPARE(term->evaluateIn(*space, *rx, rg.get(), 0.0), resident);
    if (summed) {
      // chi2, then the gradient image; the value alone sums chi2 only.
      const std::size_t pixels = n;
      QCOMPARE(host_calls, (std::vector<std::size_t>{1, pixels}));
      QCOMPARE(resident_calls, (std::vector<std::size_t>{1, pixels, 1, 1, pixels}));
      auto single = f.op<T>(true);
      const double one = makeHeldChi2Term(*single, f.chunks)->evaluate(x.data(), nullptr, 1.0);
      QVERIFY(std::abs(host - 2.0 * one) <= 1e-12 * host);
    }
    // The w-term is not negligible here: without w-stacking chi2 is another number.
    auto flat = f.op<T>(false, false);
    const double without_w = makeHeldChi2Term(*flat, f.chunks)->evaluate(x.data(), nullptr, 1.0);
    QVERIFY2(std::abs(without_w - host) > 1e-3 * host,
             qPrintable(QString("%1 vs %2").arg(without_w).arg(host)));
    // Stage times: the host pass's and the resident passes'.
    bool saw_resident = false;
    for (const auto& t : term->takeStageTimes())
      saw_resident = saw_resident || t.stage == "residual";
    QVERIFY(saw_resident);
  }

  // The host evaluation reads the chunks' float data in place; it must give Chi2Term's bits
  // through ImagingOperatorAdapter (which holds a double copy of the data): value, gradient,
  // summed over two stand-in processes, and the residuals.
  template <typename T>
  void hostEvaluationIsChi2TermsToTheBit() {
    WideField f;
    auto op = f.op<T>(false), reference_op = f.op<T>(false);
    Chi2Options options;
    options.sum = [](double* d, std::size_t n) {
      for (std::size_t k = 0; k < n; ++k)
        d[k] *= 2.0;
    };
    options.totals = DataTotals{12345, 678.5};
    auto term = makeHeldChi2Term(*op, f.chunks, options);
    std::vector<imaging::UvwBlock> blocks;
    std::vector<VisibilityBlock> measured;
    for (const auto& c : f.chunks) {
      blocks.push_back(imaging::UvwBlock::of(c));
      measured.push_back(VisibilityBlock::of(c));
    }
    reference_op->setSamples(blocks);
    Chi2Term reference(std::make_shared<ImagingOperatorAdapter<T>>(*reference_op, blocks),
                       std::move(measured), options);
    QCOMPARE(term->numSamples(), std::size_t(12345));
    QCOMPARE(term->sumWeights(), 678.5);
    const std::vector<double> x = f.image();
    std::vector<double> gradient(x.size(), 0.25), expected(x.size(), 0.25);
    const double value = term->evaluate(x.data(), gradient.data(), 0.7);
    QCOMPARE(value, reference.evaluate(x.data(), expected.data(), 0.7));
    QVERIFY(value > 0.0);
    QVERIFY(std::memcmp(gradient.data(), expected.data(), x.size() * sizeof(double)) == 0);
    QCOMPARE(term->evaluate(x.data(), nullptr, 1.0), reference.evaluate(x.data(), nullptr, 1.0));
    std::vector<DataTerm::Residual> residuals, models;
    term->forEachResidual(
        x.data(), [&](std::size_t b, const DataTerm::Residual& r, const DataTerm::Residual& m) {
          QCOMPARE(b, residuals.size());
          residuals.push_back(r);
          models.push_back(m);
        });
    std::size_t visited = 0;
    reference.forEachResidual(
        x.data(), [&](std::size_t b, const DataTerm::Residual& r, const DataTerm::Residual& m) {
          ++visited;
          QVERIFY(residuals.at(b) == r);
          QVERIFY(models.at(b) == m);
        });
    QCOMPARE(visited, f.chunks.size());
    QCOMPARE(residuals.size(), f.chunks.size());
  }

 private slots:
  void hostEvaluationIsChi2TermsToTheBitInFloat() { hostEvaluationIsChi2TermsToTheBit<float>(); }
  void hostEvaluationIsChi2TermsToTheBitInDouble() { hostEvaluationIsChi2TermsToTheBit<double>(); }

  void badChunksAreRefusedByName() {
    WideField f;
    auto op = f.op<float>(false);
    // As every data term refuses them (countDataTotals): the input error names the chunk.
    f.chunks[1].weights[3] = -1.0f;
    try {
      makeHeldChi2Term(*op, f.chunks);
      QFAIL("a negative weight was accepted");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("chunk 1"), e.what());
    }
    f.chunks[1].weights[3] = 1.0f;
    f.chunks[0].weights.pop_back();
    try {
      makeHeldChi2Term(*op, f.chunks);
      QFAIL("a chunk with a weight missing was accepted");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(QString(e.what()).contains("chunk 0"), e.what());
    }
  }

  void residentEvaluationEqualsTheHostsInFloat() { residentEqualsHost<float>(1e-6); }
  void residentEvaluationEqualsTheHostsInDouble() { residentEqualsHost<double>(1e-12); }
  void residentEvaluationSummedOverProcessesEqualsTheHosts() {
    residentEqualsHost<float>(1e-6, true);
    residentEqualsHost<double>(1e-12, true);
  }

  void residentOnlyWhereTheBackendFormsHeldResiduals() {
    WideField f;
    // The CPU operator keeps no resident images.
    imaging::OperatorSettings s;
    s.w_stacking = true;
    s.threads = 2;
    auto cpu = imaging::makeCpuOperator<float>(f.g, s);
    QVERIFY(!cpu->formsHeldResiduals());
    QVERIFY(makeHeldChi2Term(*cpu, f.chunks)->dataSpace() == nullptr);
    // A backend that does not form them (resident images, residuals on the host).
    auto host = f.op<float>(false);
    QVERIFY(makeHeldChi2Term(*host, f.chunks)->dataSpace() == nullptr);
    // A distributed run is resident too (its partial gradients summed through the host).
    auto resident = f.op<float>(true);
    Chi2Options summed;
    summed.sum = [](double*, std::size_t) {};
    QVERIFY(makeHeldChi2Term(*resident, f.chunks, summed)->dataSpace() != nullptr);
    QVERIFY(makeHeldChi2Term(*resident, f.chunks)->dataSpace() != nullptr);
  }

  void residentLbfgsFollowsTheHostRun() {
    WideField f;
    auto host_op = f.op<double>(false), resident_op = f.op<double>(true);
    const int nx = f.g.nx, ny = f.g.ny;
    ObjectiveFunction host(f.g.numPixels()), resident(f.g.numPixels());
    host.add(makeHeldChi2Term(*host_op, f.chunks));
    resident.add(makeHeldChi2Term(*resident_op, f.chunks));
    host.add(std::make_shared<TotalSquaredVariation>(nx, ny), {50.0});
    resident.add(std::make_shared<TotalSquaredVariation>(nx, ny), {50.0});
    QVERIFY(host.residentSpace() == nullptr);
    QVERIFY(resident.residentSpace() != nullptr);
    MappedObjective host_mapped(host, ImageMapping::Identity);
    MappedObjective resident_mapped(resident, ImageMapping::Identity);
    LbfgsSettings s;
    s.history = 5;
    s.stop.max_iterations = 15;
    s.stop.relative_tolerance = 0.0;
    QVERIFY(lbfgsRunsResident(resident_mapped, s));
    const std::vector<double> x0(f.g.numPixels(), 0.0);
    const OptimizerResult a = minimizeLbfgs(host_mapped, x0, s);
    const OptimizerResult b = minimizeLbfgs(resident_mapped, x0, s);
    QCOMPARE(host_op->resident_calls, 0);
    QCOMPARE(resident_op->resident_calls, b.evaluations);  // every evaluation on the "device"
    QCOMPARE(b.iterations, a.iterations);
    QVERIFY(a.iterations >= 10);
    QVERIFY2(
        std::abs(b.objective - a.objective) <= 1e-10 * a.objective,
        qPrintable(QString("%1 vs %2").arg(b.objective, 0, 'g', 17).arg(a.objective, 0, 'g', 17)));
    QVERIFY(maxRelativeDifference(b.x, a.x) <= 1e-8);
    QVERIFY(a.objective < 0.5 * host.evaluate(x0.data(), nullptr));
  }
};

QTEST_GUILESS_MAIN(TestHeldChi2Term)
#include "test_held_chi2_term.moc"
