// Proximal operators: closed forms, optimality conditions, non-expansiveness, the TV prox (also
// over non-negative images) against the exact solution of a step edge, and the proxes over
// non-negative images against independent solvers.
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <memory>

#include "core/rml/chi2_term.h"
#include "core/rml/gradient_regularizers.h"
#include "core/rml/host_vector_space.h"
#include "core/rml/objective_function.h"
#include "core/rml/pixel_regularizers.h"
#include "core/rml/proximal_solvers.h"
#include "core/rml/space_sdmm.h"
#include "tests/rml/rml_test_support.h"

using namespace apertura::rml;
using namespace apertura::rml::test;

namespace {

constexpr int kN = 12;
constexpr std::size_t kPixels = kN * kN;

// |x - v + t grad R(x)| / |v|: zero at the prox of a differentiable R.
double smoothOptimality(ObjectiveTerm& term, const std::vector<double>& v, double t,
                        const std::vector<double>& x) {
  std::vector<double> g(x.size(), 0.0);
  term.evaluate(x.data(), g.data(), t);
  for (std::size_t k = 0; k < x.size(); ++k)
    g[k] += x[k] - v[k];
  return norm(g) / norm(v);
}

double proxObjective(ObjectiveTerm& term, const std::vector<double>& v, double t,
                     const std::vector<double>& x) {
  return t * term.proxValue(x.data()) + 0.5 * distance(x, v) * distance(x, v);
}

std::vector<double> applyProx(ObjectiveTerm& term, const std::vector<double>& v, double t) {
  std::vector<double> x(v.size());
  term.prox(v.data(), t, x.data());
  return x;
}

std::vector<double> binaryMask(Random& rng) {
  std::vector<double> m(kPixels);
  for (double& w : m)
    w = rng.uniform() < 0.7 ? 1.0 : 0.0;
  return m;
}

}  // namespace

class TestRmlProx : public QObject {
  Q_OBJECT
 private slots:
  void l1IsSoftThresholding() {
    Random rng(10);
    L1Regularizer l1(kN, kN);
    const std::vector<double> mask = rng.vector(kPixels, 0.0, 2.0);
    l1.setMask(mask);
    const std::vector<double> v = rng.vector(kPixels, -2.0, 2.0);
    const double t = 0.4;
    const std::vector<double> x = applyProx(l1, v, t);
    int zeros = 0;
    for (std::size_t k = 0; k < kPixels; ++k) {
      const double thr = t * mask[k];
      const double expected = v[k] > thr ? v[k] - thr : (v[k] < -thr ? v[k] + thr : 0.0);
      QCOMPARE(x[k], expected);
      // Subgradient optimality: v - x in t m d|x|.
      if (x[k] == 0.0) {
        ++zeros;
        QVERIFY(std::abs(v[k]) <= thr);
      } else {
        QVERIFY(std::abs(v[k] - x[k] - thr * (x[k] > 0 ? 1.0 : -1.0)) < 1e-15);
      }
    }
    QVERIFY(zeros > 10 && zeros < int(kPixels) - 10);  // both branches exercised
  }

  void smoothTermsSatisfyOptimality() {
    Random rng(11);
    std::vector<std::unique_ptr<Regularizer>> terms;
    terms.push_back(std::make_unique<L2Regularizer>(kN, kN, rng.vector(kPixels, 0.0, 1.0)));
    terms.push_back(std::make_unique<EntropyRegularizer>(kN, kN, rng.vector(kPixels, 0.1, 1.0)));
    terms.push_back(std::make_unique<TotalSquaredVariation>(kN, kN));
    terms.push_back(std::make_unique<LaplacianRegularizer>(kN, kN));
    terms.push_back(std::make_unique<HuberRegularizer>(kN, kN, 0.3));
    terms.push_back(std::make_unique<TotalFluxTerm>(kN, kN, 5.0));
    const std::vector<double> v = rng.vector(kPixels, -1.0, 2.0);
    for (auto& term : terms) {
      for (double t : {0.05, 0.7}) {
        term->setMask({});
        double err = smoothOptimality(*term, v, t, applyProx(*term, v, t));
        term->setMask(binaryMask(rng));
        const double err_masked = smoothOptimality(*term, v, t, applyProx(*term, v, t));
        qInfo("%-10s t=%.2f optimality residual %.2g (masked %.2g)", term->name().c_str(), t, err,
              err_masked);
        // Huber's prox runs an iterative dual solver; the others are exact or CG to 1e-12.
        const double tol = term->name() == "huber" ? 1e-6 : 1e-10;
        QVERIFY2(err < tol && err_masked < tol, term->name().c_str());
      }
    }
  }

  void entropyProxExtremes() {
    // x + t ln(x / M) = v solved for very negative and very large v without overflow.
    EntropyRegularizer entropy(2, 1, {1.0});
    const std::vector<double> v = {-50.0, 300.0};
    const double t = 0.5;
    const std::vector<double> x = applyProx(entropy, v, t);
    for (int k = 0; k < 2; ++k) {
      QVERIFY(x[k] > 0.0);
      QVERIFY(std::abs(x[k] + t * std::log(x[k]) - v[k]) < 1e-12 * std::max(1.0, std::abs(v[k])));
    }
  }

  void tvProxOfStepEdge() {
    // An image constant along y with a step of height h after column n1: the prox of isotropic
    // or anisotropic TV (Neumann) keeps two levels, moved towards each other by t / n1, t / n2.
    const int nx = 10, ny = 6, n1 = 4;
    const double h = 3.0, t = 1.5;
    std::vector<double> v(nx * ny);
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x)
        v[y * nx + x] = x < n1 ? 0.0 : h;
    for (TvKind kind : {TvKind::Isotropic, TvKind::Anisotropic}) {
      TotalVariation tv(nx, ny, kind);
      tv.setProxIterations(5000, 1e-14);
      std::vector<double> x(v.size());
      tv.prox(v.data(), t, x.data());
      double worst = 0.0;
      for (int y = 0; y < ny; ++y) {
        for (int xx = 0; xx < nx; ++xx) {
          const double expected = xx < n1 ? t / n1 : h - t / (nx - n1);
          worst = std::max(worst, std::abs(x[y * nx + xx] - expected));
        }
      }
      qInfo("TV prox of a step edge: max error %.2g", worst);
      QVERIFY(worst < 1e-6);
    }
  }

  void tvProxReducesTvAndIsNonExpansive() {
    Random rng(12);
    for (TvKind kind : {TvKind::Isotropic, TvKind::Anisotropic}) {
      TotalVariation tv(kN, kN, kind);
      for (int trial = 0; trial < 3; ++trial) {
        tv.setMask(trial == 0 ? std::vector<double>{} : binaryMask(rng));
        const std::vector<double> u = rng.vector(kPixels, -1.0, 1.0);
        std::vector<double> w = u;
        for (double& a : w)
          a += 0.3 * rng.normal();
        const double t = 0.2;
        const std::vector<double> pu = applyProx(tv, u, t);
        const std::vector<double> pw = applyProx(tv, w, t);
        QVERIFY(tv.proxValue(pu.data()) < tv.proxValue(u.data()));
        QVERIFY(distance(pu, pw) <= distance(u, w) * (1.0 + 1e-9));
        // The prox objective at the result beats small random perturbations of it.
        const double best = proxObjective(tv, u, t, pu);
        for (int k = 0; k < 20; ++k) {
          std::vector<double> q = pu;
          for (double& a : q)
            a += 1e-3 * rng.normal();
          QVERIFY(proxObjective(tv, u, t, q) >= best - 1e-9);
        }
      }
    }
  }

  void tvProxOverNonNegativeImagesOfStepEdge() {
    // A step from -1 (columns < n1) up to h: over x >= 0 the low side sits on the bound (t / n1 <
    // 1: the unconstrained level -1 + t / n1 is negative) and the high side moves down by t / n2,
    // with the unconstrained dual field (KKT: multiplier 1 - t / n1 > 0 on the low side).
    const int nx = 10, ny = 6, n1 = 4;
    const double h = 3.0, t = 1.5;
    std::vector<double> v(nx * ny);
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x)
        v[y * nx + x] = x < n1 ? -1.0 : h;
    for (TvKind kind : {TvKind::Isotropic, TvKind::Anisotropic}) {
      TotalVariation tv(nx, ny, kind);
      tv.setProxIterations(5000, 1e-14);
      QVERIFY(tv.hasNonNegativeProx());
      std::vector<double> x(v.size());
      tv.proxNonNegative(v.data(), t, x.data());
      double worst = 0.0;
      for (int y = 0; y < ny; ++y) {
        for (int xx = 0; xx < nx; ++xx) {
          const double expected = xx < n1 ? 0.0 : h - t / (nx - n1);
          worst = std::max(worst, std::abs(x[y * nx + xx] - expected));
        }
      }
      qInfo("TV prox over x >= 0 of a step edge: max error %.2g", worst);
      QVERIFY(worst < 1e-6);
    }
  }

  void proxesOverNonNegativeImagesAgainstIndependentSolutions() {
    // TV (masked) against the inner SDMM of {TV, positivity}; Huber (smooth) against projected
    // gradient descent on its prox objective. Both results are feasible and beat feasible
    // perturbations.
    Random rng(14);
    const std::vector<double> v = rng.vector(kPixels, -1.0, 1.5);
    const double t = 0.3;
    TotalVariation tv(kN, kN, TvKind::Isotropic);
    tv.setMask(binaryMask(rng));
    tv.setProxIterations(20000, 1e-15);
    HuberRegularizer huber(kN, kN, 0.05);
    for (ObjectiveTerm* term :
         {static_cast<ObjectiveTerm*>(&tv), static_cast<ObjectiveTerm*>(&huber)}) {
      std::vector<double> x(kPixels);
      term->proxNonNegative(v.data(), t, x.data());
      QVERIFY(*std::min_element(x.begin(), x.end()) >= 0.0);
      std::vector<double> reference(kPixels);
      if (term == &tv) {
        ObjectiveFunction objective(kPixels);
        objective.add(std::shared_ptr<ObjectiveTerm>(&tv, [](ObjectiveTerm*) {}), {1.0, 0, true});
        NonNegativity positivity(kPixels);
        std::vector<ProximableFunction*> terms = objective.proximalTerms();
        terms.push_back(&positivity);
        HostVectorSpace space;
        apertura::compute::SpaceVectorPtr in = space.create(kPixels), out = space.create(kPixels);
        space.upload(v.data(), *in);
        proxOfSumIn(space, terms, *in, t, *out, 20000, 1e-13);
        space.download(*out, reference.data());
      } else {
        // Projected gradient: the objective's gradient is Lipschitz with 1 + 8 t / delta.
        reference = v;
        const double step = 1.0 / (1.0 + 8.0 * t / 0.05);
        for (int it = 0; it < 20000; ++it) {
          std::vector<double> g(kPixels, 0.0);
          huber.evaluate(reference.data(), g.data(), t);
          for (std::size_t k = 0; k < kPixels; ++k)
            reference[k] = std::max(0.0, reference[k] - step * (g[k] + reference[k] - v[k]));
        }
      }
      const double gap = distance(x, reference) / norm(reference);
      qInfo("%s prox over x >= 0 against an independent solution: %.2g", term->name().c_str(), gap);
      QVERIFY(gap < 1e-5);
      const double best = proxObjective(*term, v, t, x);
      for (int k = 0; k < 20; ++k) {
        std::vector<double> q = x;
        for (double& a : q)
          a = std::max(0.0, a + 1e-3 * rng.normal());
        QVERIFY(proxObjective(*term, v, t, q) >= best - 1e-9);
      }
    }
  }

  void proxOfZeroStepIsIdentity() {
    Random rng(13);
    const std::vector<double> v = rng.vector(kPixels, 0.1, 1.0);
    TotalVariation tv(kN, kN, TvKind::Isotropic);
    L1Regularizer l1(kN, kN);
    QCOMPARE(applyProx(tv, v, 0.0), v);
    QCOMPARE(applyProx(l1, v, 0.0), v);
  }
};

QTEST_GUILESS_MAIN(TestRmlProx)
#include "test_rml_prox.moc"
