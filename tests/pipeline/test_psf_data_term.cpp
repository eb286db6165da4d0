// The PSF-mode data term (chi2 through a convolution with the PSF of the doubled image, anchored
// at an exact pass) against the direct sums, and its PSF gridded once against the direct DFT.
#include <QtTest>
#include <cmath>
#include <random>

#include "core/data/chunk_sequence.h"
#include "core/pipeline/psf_data_term.h"
#include "core/rml/chi2_term.h"
#include "core/rml/chunk_chi2_term.h"
#include "core/rml/direct_dft_operator.h"
#include "core/rml/linear_spectrum_chi2_term.h"
#include "core/rml/psf_chi2_term.h"
#include "tests/support/chunk_fixtures.h"
#include "tests/support/relative_difference.h"

using namespace apertura;
using namespace apertura::rml;

namespace {

const double kArcsec = M_PI / 180.0 / 3600.0;

struct Fixture {
  imaging::ImageGeometry g = imaging::ImageGeometry::fromCell(24, 20, 1.0 * kArcsec);
  std::vector<VisibilityChunk> chunks;
  std::vector<double> image, other;

  Fixture() {
    std::mt19937 rng(3);
    chunks.push_back(test::randomChunk(rng, g, 300, {1.4e9}));
    chunks.push_back(test::randomChunk(rng, g, 120, {1.0e9, 1.2e9}));
    std::uniform_real_distribution<double> d(0.0, 1.0);
    for (std::size_t p = 0; p < g.numPixels(); ++p) {
      image.push_back(d(rng));
      other.push_back(d(rng) * 0.5);
    }
  }

  static imaging::OperatorSettings settings(double epsilon) {
    imaging::OperatorSettings s;
    s.epsilon = epsilon;
    s.threads = 2;
    return s;
  }

  // P(d) = sum_k w_k cos(2 pi (u_k l_d + v_k m_d)) on the doubled image, by direct sums.
  std::vector<double> directPsf() const {
    const imaging::ImageGeometry g2{2 * g.nx, 2 * g.ny, g.cell_l, g.cell_m};
    std::vector<double> psf(g2.numPixels(), 0.0);
    for (const auto& c : chunks) {
      for (std::size_t r = 0; r < c.num_rows(); ++r) {
        for (std::size_t ch = 0; ch < c.num_channels(); ++ch) {
          const double w = c.weights[r * c.num_channels() + ch];
          const double scale = c.frequencies_hz[ch] / imaging::kSpeedOfLight;
          const double u = c.uvw_m[3 * r] * scale, v = c.uvw_m[3 * r + 1] * scale;
          for (int iy = 0; iy < g2.ny; ++iy)
            for (int ix = 0; ix < g2.nx; ++ix)
              psf[std::size_t(iy) * std::size_t(g2.nx) + std::size_t(ix)] +=
                  w * std::cos(2.0 * M_PI * (u * g2.l(ix) + v * g2.m(iy)));
        }
      }
    }
    return psf;
  }

  std::shared_ptr<Chi2Term> directTerm() const {
    std::vector<imaging::UvwBlock> blocks;
    std::vector<VisibilityBlock> measured;
    for (const auto& c : chunks) {
      blocks.push_back(imaging::UvwBlock::of(c));
      measured.push_back(VisibilityBlock::of(c));
    }
    return std::make_shared<Chi2Term>(std::make_shared<DirectDftOperator>(g, blocks), measured);
  }
};

double evaluate(DataTerm& term, const std::vector<double>& image, std::vector<double>& gradient) {
  gradient.assign(image.size(), 0.0);
  return term.evaluate(image.data(), gradient.data(), 1.0);
}

}  // namespace

class TestPsfDataTerm : public QObject {
  Q_OBJECT
 private slots:
  // With the exact PSF, the quadratic expansion is chi2 itself, wherever it is anchored.
  void psfModeEqualsTheDirectSums() {
    Fixture f;
    auto exact = f.directTerm();
    PsfChi2Term psf(exact, f.g.nx, f.g.ny, f.directPsf(), 2);
    std::vector<double> g_psf, g_exact;
    const std::vector<const std::vector<double>*> anchors = {nullptr, &f.other};
    for (const auto* anchor : anchors) {
      if (anchor != nullptr)
        psf.anchor(anchor->data());
      const double a = evaluate(psf, f.image, g_psf);
      const double b = evaluate(*exact, f.image, g_exact);
      QVERIFY(b > 0.0);
      QVERIFY2(std::abs(a - b) <= 1e-9 * b, qPrintable(QString("%1 vs %2").arg(a).arg(b)));
      QVERIFY2(test::maxRelativeDifference(g_psf, g_exact) < 1e-9,
               qPrintable(QString::number(test::maxRelativeDifference(g_psf, g_exact))));
    }
    // The gradient's scale argument, and the convolution alone (P * x = (grad(x) - grad(0)) / 2).
    std::vector<double> half(f.image.size(), 0.0), conv(f.image.size());
    psf.evaluate(f.image.data(), half.data(), 0.5);
    for (double& h : half)
      h *= 2.0;
    QVERIFY(test::maxRelativeDifference(half, g_psf) < 1e-14);
    std::vector<double> g0;
    const std::vector<double> zero(f.image.size(), 0.0);
    evaluate(*exact, zero, g0);
    psf.convolve(f.image.data(), conv.data());
    for (std::size_t p = 0; p < conv.size(); ++p)
      g0[p] = 0.5 * (g_exact[p] - g0[p]);
    QVERIFY(test::maxRelativeDifference(conv, g0) < 1e-9);
    QCOMPARE(psf.numSamples(), exact->numSamples());
  }

  // The PSF gridded once (doubled image, same cell) equals the direct sums to the accuracy asked.
  void griddedPsfMatchesTheDirectSums() {
    Fixture f;
    HeldChunks held(f.chunks);
    imaging::OperatorSettings s = Fixture::settings(1e-10);
    const auto reference = f.directPsf();
    const auto d = pipeline::doubledPsf<double>(f.g, s, {imaging::Backend::Cpu, 0}, held, nullptr);
    QVERIFY2(test::maxRelativeDifference(d, reference) < 1e-8,
             qPrintable(QString::number(test::maxRelativeDifference(d, reference))));
    s.epsilon = 1e-5;
    const auto fl = pipeline::doubledPsf<float>(f.g, s, {imaging::Backend::Cpu, 0}, held, nullptr);
    QVERIFY2(test::maxRelativeDifference(fl, reference) < 1e-4,
             qPrintable(QString::number(test::maxRelativeDifference(fl, reference))));
    // Zero lag (pixel (nx, ny)) holds the sum of the weights.
    double sum_w = 0.0;
    for (const auto& c : f.chunks)
      for (float w : c.weights)
        sum_w += w;
    const std::size_t centre = std::size_t(f.g.ny) * std::size_t(2 * f.g.nx) + std::size_t(f.g.nx);
    QVERIFY(std::abs(d[centre] - sum_w) < 1e-8 * sum_w);
  }

  // On the gridding operator: the PSF mode follows the visibility-domain term it is built on.
  void followsTheGriddedTerm() {
    Fixture f;
    HeldChunks held(f.chunks);
    const imaging::OperatorSettings s = Fixture::settings(1e-10);
    auto op = imaging::makeCpuOperator<double>(f.g, s);
    std::shared_ptr<DataTerm> exact = makeChunkChi2Term(*op, held);
    PsfChi2Term psf(exact, f.g.nx, f.g.ny,
                    pipeline::doubledPsf<double>(f.g, s, {imaging::Backend::Cpu, 0}, held, nullptr),
                    2);
    psf.anchor(f.other.data());
    std::vector<double> g_psf, g_exact;
    const double a = evaluate(psf, f.image, g_psf);
    const double b = evaluate(*exact, f.image, g_exact);
    QVERIFY2(std::abs(a - b) <= 1e-8 * b, qPrintable(QString("%1 vs %2").arg(a).arg(b)));
    QVERIFY(test::maxRelativeDifference(g_psf, g_exact) < 1e-8);
    const auto times = psf.takeStageTimes();
    QVERIFY(!times.empty());
    QCOMPARE(QString::fromStdString(times.back().stage), QString("psf convolution"));
  }

  // A linear spectrum's PSF mode (three PSFs of the weights times (1 - t)^2, t (1 - t), t^2, a
  // block Hessian) follows the linear-spectrum term, anchored anywhere; psfTerm builds it.
  void linearSpectrumFollowsItsTerm() {
    Fixture f;
    HeldChunks held(f.chunks);
    const imaging::OperatorSettings s = Fixture::settings(1e-10);
    auto low = imaging::makeCpuOperator<double>(f.g, s);
    auto high = imaging::makeCpuOperator<double>(f.g, s);
    const SpectrumBand band{1.0e9, 1.4e9};
    std::shared_ptr<DataTerm> exact =
        makeLinearSpectrumChi2Term(*low, *high, held, band, countDataTotals(held));
    const auto psf = [&](int low_power, int high_power) {
      return pipeline::doubledPsf<double>(
          f.g, s, {imaging::Backend::Cpu, 0}, held, nullptr, [&](double hz) {
            const double t = band.position(hz);
            return std::pow(1.0 - t, low_power) * std::pow(t, high_power);
          });
    };
    PsfChi2Term term(exact, f.g.nx, f.g.ny, {psf(2, 0), psf(1, 1), psf(0, 2)}, 2);
    std::vector<double> planes = f.image, anchor = f.other;
    planes.insert(planes.end(), f.other.begin(), f.other.end());  // a spectrum, not flat
    anchor.insert(anchor.end(), f.image.begin(), f.image.end());
    std::vector<double> g_psf, g_exact;
    const std::vector<const std::vector<double>*> anchors = {nullptr, &anchor};
    for (const auto* at : anchors) {
      if (at != nullptr)
        term.anchor(at->data());
      const double a = evaluate(term, planes, g_psf);
      const double b = evaluate(*exact, planes, g_exact);
      QVERIFY2(std::abs(a - b) <= 1e-8 * b, qPrintable(QString("%1 vs %2").arg(a).arg(b)));
      QVERIFY2(test::maxRelativeDifference(g_psf, g_exact) < 1e-8,
               qPrintable(QString::number(test::maxRelativeDifference(g_psf, g_exact))));
    }
    // The pipeline builds the same three PSFs, and measures both terms' costs.
    pipeline::PsfCost cost;
    auto built = pipeline::psfTerm<double>(exact, f.g, s, {imaging::Backend::Cpu, 0}, held, nullptr,
                                           pipeline::PsfUse::Always, &cost, &band);
    QVERIFY(built != nullptr);
    QVERIFY(cost.exact_seconds > 0.0 && cost.psf_seconds > 0.0);
    const double a = evaluate(*built, planes, g_psf);
    const double b = evaluate(*exact, planes, g_exact);
    QVERIFY(std::abs(a - b) <= 1e-8 * b);
    QVERIFY(pipeline::psfTerm<double>(exact, f.g, s, {imaging::Backend::Cpu, 0}, held, nullptr,
                                      pipeline::PsfUse::Never) == nullptr);
    // Three blocks need two planes of parameters.
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             PsfChi2Term(makeChunkChi2Term(*low, held), f.g.nx, f.g.ny,
                                         {psf(2, 0), psf(1, 1), psf(0, 2)}, 2));
  }
};

QTEST_APPLESS_MAIN(TestPsfDataTerm)
#include "test_psf_data_term.moc"
