// Every solver against known minima: a convex quadratic (closed form by a direct solve) and small
// L1-regularised least-squares problems (exact solution by coordinate descent).
#include <Eigen/Dense>
#include <QtTest>
#include <cmath>
#include <memory>

#include "core/rml/conjugate_gradient.h"
#include "core/rml/lbfgs.h"
#include "core/rml/objective_function.h"
#include "core/rml/pixel_regularizers.h"
#include "core/rml/proximal_solvers.h"
#include "tests/rml/rml_test_support.h"

using namespace apertura::rml;
using namespace apertura::rml::test;

namespace {

// 1/2 x^T Q x - b^T x (as an objective term on a "1 x n image").
class Quadratic final : public ObjectiveTerm {
 public:
  Quadratic(Eigen::MatrixXd q, Eigen::VectorXd b) : q_(std::move(q)), b_(std::move(b)) {}
  std::string name() const override { return "quadratic"; }
  double evaluate(const double* x, double* gradient, double scale) override {
    const Eigen::Map<const Eigen::VectorXd> xv(x, b_.size());
    const Eigen::VectorXd qx = q_ * xv;
    if (gradient != nullptr)
      Eigen::Map<Eigen::VectorXd>(gradient, b_.size()) += scale * (qx - b_);
    return 0.5 * xv.dot(qx) - b_.dot(xv);
  }

 private:
  Eigen::MatrixXd q_;
  Eigen::VectorXd b_;
};

// |A x - b|^2 + c sum(x) (c: the L1 weight on the nonnegative orthant).
class LeastSquares final : public ObjectiveTerm {
 public:
  LeastSquares(Eigen::MatrixXd a, Eigen::VectorXd b, double linear = 0.0)
      : a_(std::move(a)), b_(std::move(b)), linear_(linear) {}
  std::string name() const override { return "chi2"; }
  double evaluate(const double* x, double* gradient, double scale) override {
    const Eigen::Map<const Eigen::VectorXd> xv(x, a_.cols());
    const Eigen::VectorXd r = a_ * xv - b_;
    if (gradient != nullptr) {
      Eigen::Map<Eigen::VectorXd>(gradient, a_.cols()) +=
          scale * (2.0 * a_.transpose() * r + Eigen::VectorXd::Constant(a_.cols(), linear_));
    }
    return r.squaredNorm() + linear_ * xv.sum();
  }

 private:
  Eigen::MatrixXd a_;
  Eigen::VectorXd b_;
  double linear_;
};

Eigen::MatrixXd randomMatrix(int rows, int cols, Random& rng) {
  Eigen::MatrixXd m(rows, cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      m(i, j) = rng.normal();
  return m;
}

// Exact minimiser of |A x - b|^2 + lambda |x|_1 (optionally x >= 0) by cyclic coordinate descent.
std::vector<double> coordinateDescent(const Eigen::MatrixXd& a, const Eigen::VectorXd& b,
                                      double lambda, bool nonnegative) {
  Eigen::VectorXd x = Eigen::VectorXd::Zero(a.cols());
  Eigen::VectorXd r = b;  // b - A x
  for (int sweep = 0; sweep < 100000; ++sweep) {
    double change = 0.0;
    for (int j = 0; j < a.cols(); ++j) {
      const double norm2 = a.col(j).squaredNorm();
      const double rho = a.col(j).dot(r) + norm2 * x(j);
      double z = std::max(std::abs(rho) - 0.5 * lambda, 0.0) * (rho < 0 ? -1.0 : 1.0) / norm2;
      if (nonnegative)
        z = std::max(z, 0.0);
      r -= a.col(j) * (z - x(j));
      change = std::max(change, std::abs(z - x(j)));
      x(j) = z;
    }
    if (change < 1e-15)
      break;
  }
  return {x.data(), x.data() + x.size()};
}

struct QuadraticProblem {
  ObjectiveFunction objective{30};
  std::vector<double> minimiser;
};

std::unique_ptr<QuadraticProblem> quadraticProblem() {
  Random rng(20);
  const int n = 30;
  const Eigen::MatrixXd m = randomMatrix(n, n, rng);
  Eigen::MatrixXd q = m.transpose() * m / n + 0.05 * Eigen::MatrixXd::Identity(n, n);
  Eigen::VectorXd b(n);
  for (int i = 0; i < n; ++i)
    b(i) = rng.normal();
  const Eigen::VectorXd x = q.ldlt().solve(b);
  auto p = std::make_unique<QuadraticProblem>();
  p->minimiser.assign(x.data(), x.data() + n);
  p->objective.add(std::make_shared<Quadratic>(q, b));
  return p;
}

struct L1Problem {
  Eigen::MatrixXd a;
  Eigen::VectorXd b;
  double lambda = 0.0;
  std::vector<double> solution;
  std::vector<double> nonnegative_solution;
};

L1Problem l1Problem() {
  Random rng(21);
  L1Problem p;
  p.a = randomMatrix(40, 25, rng);
  Eigen::VectorXd truth = Eigen::VectorXd::Zero(25);
  truth(3) = 2.0, truth(7) = -1.5, truth(12) = 1.0, truth(20) = 0.5;
  p.b = p.a * truth;
  for (int i = 0; i < 40; ++i)
    p.b(i) += 0.3 * rng.normal();
  p.lambda = 8.0;
  p.solution = coordinateDescent(p.a, p.b, p.lambda, false);
  p.nonnegative_solution = coordinateDescent(p.a, p.b, p.lambda, true);
  return p;
}

StopCriteria tight(int iterations) {
  StopCriteria s;
  s.max_iterations = iterations;
  s.relative_tolerance = 0.0;
  s.gradient_tolerance = 1e-11;
  return s;
}

double relativeError(const std::vector<double>& x, const std::vector<double>& ref) {
  return distance(x, ref) / norm(ref);
}

}  // namespace

class TestRmlOptimizers : public QObject {
  Q_OBJECT
 private slots:
  void lbfgsQuadratic() {
    auto p = quadraticProblem();
    for (LineSearchKind kind :
         {LineSearchKind::StrongWolfe, LineSearchKind::Armijo, LineSearchKind::Brent}) {
      for (int history : {3, 10}) {
        LbfgsSettings s;
        s.history = history;
        s.line_search.kind = kind;
        s.stop = tight(2000);
        const OptimizerResult r = minimizeLbfgs(p->objective, std::vector<double>(30, 0.0), s);
        const double err = relativeError(r.x, p->minimiser);
        qInfo("L-BFGS m=%d line search %d: %d iterations, error %.2g (%s)", history, int(kind),
              r.iterations, err, toString(r.reason).c_str());
        QVERIFY(err < 1e-6);
      }
    }
  }

  void conjugateGradientQuadratic() {
    auto p = quadraticProblem();
    for (CgBeta beta : {CgBeta::FletcherReeves, CgBeta::PolakRibiere, CgBeta::PolakRibierePlus,
                        CgBeta::HestenesStiefel, CgBeta::DaiYuan, CgBeta::HagerZhang}) {
      for (LineSearchKind kind : {LineSearchKind::StrongWolfe, LineSearchKind::Brent}) {
        CgSettings s;
        s.beta = beta;
        s.line_search.kind = kind;
        s.stop = tight(5000);
        const OptimizerResult r =
            minimizeConjugateGradient(p->objective, std::vector<double>(30, 0.0), s);
        const double err = relativeError(r.x, p->minimiser);
        qInfo("CG %-17s line search %d: %4d iterations, error %.2g (%s)", toString(beta).c_str(),
              int(kind), r.iterations, err, toString(r.reason).c_str());
        QVERIFY2(err < 1e-6, toString(beta).c_str());
      }
    }
  }

  void proximalSolversQuadratic() {
    auto p = quadraticProblem();
    FistaSettings f;
    f.stop = tight(20000);
    const OptimizerResult rf =
        minimizeFista(p->objective.smoothPart(), {}, std::vector<double>(30), f);
    const double err_f = relativeError(rf.x, p->minimiser);
    qInfo("FISTA: %d iterations, error %.2g", rf.iterations, err_f);
    QVERIFY(err_f < 1e-6);
    SdmmSettings s;
    s.gamma = 10.0;
    s.stop = tight(2000);
    s.stop.gradient_tolerance = 1e-12;
    const OptimizerResult rs =
        minimizeSdmm(&p->objective.smoothPart(), {}, std::vector<double>(30), s);
    const double err_s = relativeError(rs.x, p->minimiser);
    qInfo("SDMM: %d iterations, error %.2g (%s)", rs.iterations, err_s,
          toString(rs.reason).c_str());
    QVERIFY(err_s < 1e-6);
  }

  void l1LeastSquares() {
    const L1Problem p = l1Problem();
    int zeros = 0;
    for (double v : p.solution)
      zeros += v == 0.0;
    QVERIFY(zeros > 5 && zeros < 24);  // a sparse but non-trivial solution
    const std::size_t n = 25;

    // FISTA, the L1 term through its prox (soft thresholding).
    ObjectiveFunction one(n);
    one.add(std::make_shared<LeastSquares>(p.a, p.b));
    one.add(std::make_shared<L1Regularizer>(int(n), 1), {p.lambda, 0, true});
    FistaSettings f;
    f.stop = tight(20000);
    OptimizerResult r =
        minimizeFista(one.smoothPart(), one.proximalTerms(), std::vector<double>(n), f);
    qInfo("FISTA L1: %d iterations, error %.2g", r.iterations, relativeError(r.x, p.solution));
    QVERIFY(relativeError(r.x, p.solution) < 1e-6);

    // FISTA with the L1 weight split over two terms: the joint prox by inner SDMM.
    ObjectiveFunction two(n);
    two.add(std::make_shared<LeastSquares>(p.a, p.b));
    two.add(std::make_shared<L1Regularizer>(int(n), 1), {0.25 * p.lambda, 0, true});
    two.add(std::make_shared<L1Regularizer>(int(n), 1), {0.75 * p.lambda, 0, true});
    f.stop = tight(3000);
    r = minimizeFista(two.smoothPart(), two.proximalTerms(), std::vector<double>(n), f);
    qInfo("FISTA 2 terms: %d iterations, error %.2g", r.iterations, relativeError(r.x, p.solution));
    QVERIFY(relativeError(r.x, p.solution) < 1e-5);

    // SDMM: least squares through its (inner L-BFGS) prox, L1 through soft thresholding.
    SdmmSettings s;
    s.gamma = 0.01;
    s.stop = tight(5000);
    s.stop.gradient_tolerance = 1e-12;
    r = minimizeSdmm(&one.smoothPart(), one.proximalTerms(), std::vector<double>(n), s);
    qInfo("SDMM L1: %d iterations, error %.2g", r.iterations, relativeError(r.x, p.solution));
    QVERIFY(relativeError(r.x, p.solution) < 1e-5);

    // Gradient solvers on the smoothed L1 (eps = 1e-7): close to the exact minimiser.
    ObjectiveFunction smoothed(n);
    smoothed.add(std::make_shared<LeastSquares>(p.a, p.b));
    smoothed.add(std::make_shared<L1Regularizer>(int(n), 1, 1e-7), {p.lambda});
    LbfgsSettings l;
    l.stop = tight(5000);
    r = minimizeLbfgs(smoothed, std::vector<double>(n), l);
    qInfo("L-BFGS smoothed L1: %d iterations, error %.2g", r.iterations,
          relativeError(r.x, p.solution));
    QVERIFY(relativeError(r.x, p.solution) < 1e-5);
    for (CgBeta beta : {CgBeta::FletcherReeves, CgBeta::PolakRibiere, CgBeta::PolakRibierePlus,
                        CgBeta::HestenesStiefel, CgBeta::DaiYuan, CgBeta::HagerZhang}) {
      CgSettings c;
      c.beta = beta;
      c.stop = tight(20000);
      r = minimizeConjugateGradient(smoothed, std::vector<double>(n), c);
      const double err = relativeError(r.x, p.solution);
      qInfo("CG %-17s smoothed L1: %5d iterations, error %.2g (%s)", toString(beta).c_str(),
            r.iterations, err, toString(r.reason).c_str());
      QVERIFY2(err < 1e-4, toString(beta).c_str());
    }
  }

  void nonnegativeL1() {
    const L1Problem p = l1Problem();
    const std::size_t n = 25;
    // On x >= 0, lambda |x|_1 = lambda sum(x): smooth, solved exactly by projected L-BFGS.
    ObjectiveFunction linear(n);
    linear.add(std::make_shared<LeastSquares>(p.a, p.b, p.lambda));
    LbfgsSettings l;
    l.positivity = true;
    l.stop = tight(5000);
    OptimizerResult r = minimizeLbfgs(linear, std::vector<double>(n, 1.0), l);
    qInfo("projected L-BFGS: %d iterations, error %.2g", r.iterations,
          relativeError(r.x, p.nonnegative_solution));
    QVERIFY(relativeError(r.x, p.nonnegative_solution) < 1e-7);
    // FISTA with positivity (clipping composed with the separable L1 prox).
    ObjectiveFunction one(n);
    one.add(std::make_shared<LeastSquares>(p.a, p.b));
    one.add(std::make_shared<L1Regularizer>(int(n), 1), {p.lambda, 0, true});
    FistaSettings f;
    f.positivity = true;
    f.stop = tight(20000);
    r = minimizeFista(one.smoothPart(), one.proximalTerms(), std::vector<double>(n), f);
    QVERIFY(relativeError(r.x, p.nonnegative_solution) < 1e-6);
    SdmmSettings s;
    s.gamma = 0.01;
    s.positivity = true;
    s.stop = tight(5000);
    s.stop.gradient_tolerance = 1e-12;
    r = minimizeSdmm(&one.smoothPart(), one.proximalTerms(), std::vector<double>(n), s);
    qInfo("SDMM nonnegative L1: %d iterations, error %.2g", r.iterations,
          relativeError(r.x, p.nonnegative_solution));
    QVERIFY(relativeError(r.x, p.nonnegative_solution) < 1e-5);
  }

  void l1RestrictedToNonNegativeFromZero() {
    // The pipeline's L1 under positivity: the class itself (not a linear stand-in), restricted to
    // x >= 0 so that its derivative at an exactly zero pixel is +lambda. From the empty image,
    // projected L-BFGS then frees only the pixels whose data gradient beats lambda.
    const L1Problem p = l1Problem();
    const std::size_t n = 25;
    ObjectiveFunction f(n);
    f.add(std::make_shared<LeastSquares>(p.a, p.b));
    auto l1 = std::make_shared<L1Regularizer>(int(n), 1);
    l1->restrictToNonNegative();
    f.add(l1, {p.lambda});
    LbfgsSettings l;
    l.positivity = true;
    l.stop = tight(5000);
    OptimizerResult r = minimizeLbfgs(f, std::vector<double>(n, 0.0), l);
    qInfo("restricted L1 from zero: %d iterations, %d evaluations, error %.2g", r.iterations,
          r.evaluations, relativeError(r.x, p.nonnegative_solution));
    QVERIFY(relativeError(r.x, p.nonnegative_solution) < 1e-7);

    // A lambda above every pixel's data gradient at zero: zero is the minimum, and the solver
    // sees it at once (every pixel held: one evaluation). With the two-sided subgradient (0 at
    // 0) every pixel was free and the line search spent its 50 evaluations finding no decrease.
    const Eigen::VectorXd g0 = -2.0 * p.a.transpose() * p.b;
    ObjectiveFunction strong(n);
    strong.add(std::make_shared<LeastSquares>(p.a, p.b));
    strong.add(l1, {1.5 * g0.cwiseAbs().maxCoeff()});
    r = minimizeLbfgs(strong, std::vector<double>(n, 0.0), l);
    QCOMPARE(r.iterations, 0);
    QVERIFY2(r.evaluations <= 2, qPrintable(QString::number(r.evaluations)));
    QCOMPARE(r.x, std::vector<double>(n, 0.0));
  }

  void stoppingAndReports() {
    auto p = quadraticProblem();
    std::vector<IterationReport> reports;
    apertura::CancellationToken token;
    LbfgsSettings s;
    s.stop.max_iterations = 1000;
    s.stop.relative_tolerance = 0.0;
    s.stop.cancel = &token;
    s.stop.observer = [&](const IterationReport& r) {
      reports.push_back(r);
      if (r.iteration == 4)
        token.cancel();
    };
    OptimizerResult r = minimizeLbfgs(p->objective, std::vector<double>(30), s);
    QCOMPARE(int(r.reason), int(StopReason::Cancelled));
    QCOMPARE(r.iterations, 4);
    QCOMPARE(int(reports.size()), 4);
    for (std::size_t k = 1; k < reports.size(); ++k) {
      QVERIFY(reports[k].objective < reports[k - 1].objective);
      QCOMPARE(reports[k].terms.size(), std::size_t(1));
      QCOMPARE(reports[k].terms[0].value, reports[k].objective);
      QVERIFY(reports[k].step > 0.0 && reports[k].gradient_norm > 0.0);
      QVERIFY(!reports[k].stages.empty());
    }
    // Objective-change criterion and the iteration limit.
    s.stop.cancel = nullptr;
    s.stop.observer = nullptr;
    s.stop.relative_tolerance = 1e-6;
    r = minimizeLbfgs(p->objective, std::vector<double>(30), s);
    QCOMPARE(int(r.reason), int(StopReason::ObjectiveChange));
    s.stop.relative_tolerance = 0.0;
    s.stop.max_iterations = 7;
    r = minimizeLbfgs(p->objective, std::vector<double>(30), s);
    QCOMPARE(int(r.reason), int(StopReason::MaxIterations));
    QCOMPARE(r.iterations, 7);
    s.stop.max_iterations = 100000;
    s.stop.wall_time_seconds = 1e-9;
    r = minimizeLbfgs(p->objective, std::vector<double>(30), s);
    QCOMPARE(int(r.reason), int(StopReason::WallTime));
  }
};

QTEST_GUILESS_MAIN(TestRmlOptimizers)
#include "test_rml_optimizers.moc"
