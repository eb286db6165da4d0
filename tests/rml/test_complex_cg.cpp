// Nonlinear CG over complex parameters (Q + iU style): the Hermitian inner product, the gradient
// convention df/dRe + i df/dIm, and convergence of every beta rule to the complex least-squares
// solution computed directly by Eigen.
#include <Eigen/Dense>
#include <QtTest>
#include <cmath>

#include "core/rml/complex_parameters.h"
#include "tests/rml/rml_test_support.h"

using namespace apertura::rml;
using Cd = std::complex<double>;

namespace {

// |A z - b|^2 with complex A and b; gradient 2 A^H (A z - b).
class ComplexLeastSquares final : public ComplexDifferentiableFunction {
 public:
  ComplexLeastSquares(Eigen::MatrixXcd a, Eigen::VectorXcd b)
      : a_(std::move(a)), b_(std::move(b)) {}
  std::size_t dimension() const override { return std::size_t(a_.cols()); }
  double evaluate(const Cd* z, Cd* gradient) override {
    const Eigen::Map<const Eigen::VectorXcd> zv(z, a_.cols());
    const Eigen::VectorXcd r = a_ * zv - b_;
    if (gradient != nullptr)
      Eigen::Map<Eigen::VectorXcd>(gradient, a_.cols()) = 2.0 * a_.adjoint() * r;
    return r.squaredNorm();
  }
  const Eigen::MatrixXcd& a() const { return a_; }
  const Eigen::VectorXcd& b() const { return b_; }

 private:
  Eigen::MatrixXcd a_;
  Eigen::VectorXcd b_;
};

ComplexLeastSquares makeProblem(int rows, int cols, std::uint64_t seed) {
  test::Random rng(seed);
  Eigen::MatrixXcd a(rows, cols);
  Eigen::VectorXcd b(rows);
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j)
      a(i, j) = Cd(rng.normal(), rng.normal());
    b(i) = Cd(rng.normal(), rng.normal());
  }
  return ComplexLeastSquares(a, b);
}

}  // namespace

class TestComplexCg : public QObject {
  Q_OBJECT
 private slots:
  void hermitianDotConjugatesTheFirstArgument() {
    const ComplexVector a = {{1, 2}, {3, -1}};
    const ComplexVector b = {{2, -1}, {0, 1}};
    QCOMPARE(hermitianDot(a, b), Cd(-1, -2));
    QCOMPARE(hermitianDot(b, a), Cd(-1, 2));
    QCOMPARE(hermitianDot(a, a), Cd(15, 0));  // |a|^2, real
    // i . i is -1 for the bilinear product but |i|^2 = 1 for the Hermitian one.
    QCOMPARE(hermitianDot({{0, 1}}, {{0, 1}}), Cd(1, 0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, hermitianDot(a, {{1, 0}}));
  }

  // The gradient is df/dRe + i df/dIm: check against central differences along both parts.
  void gradientConventionMatchesFiniteDifferences() {
    ComplexLeastSquares f = makeProblem(12, 7, 5);
    test::Random rng(9);
    ComplexVector z(7), g(7);
    for (auto& v : z)
      v = Cd(rng.normal(), rng.normal());
    f.evaluate(z.data(), g.data());
    const double h = 1e-6;
    for (std::size_t k = 0; k < z.size(); ++k) {
      for (const Cd dir : {Cd(1, 0), Cd(0, 1)}) {
        ComplexVector zp = z, zm = z;
        zp[k] += h * dir;
        zm[k] -= h * dir;
        const double fd =
            (f.evaluate(zp.data(), nullptr) - f.evaluate(zm.data(), nullptr)) / (2 * h);
        const double analytic = dir.real() != 0.0 ? g[k].real() : g[k].imag();
        QVERIFY2(std::abs(fd - analytic) <= 1e-6 * std::max(1.0, std::abs(analytic)),
                 qPrintable(QString("k %1: fd %2, gradient %3").arg(k).arg(fd).arg(analytic)));
      }
    }
  }

  void everyBetaReachesTheLeastSquaresSolution_data() {
    QTest::addColumn<int>("beta");
    QTest::newRow("fletcher-reeves") << int(CgBeta::FletcherReeves);
    QTest::newRow("polak-ribiere+") << int(CgBeta::PolakRibierePlus);
    QTest::newRow("hestenes-stiefel") << int(CgBeta::HestenesStiefel);
    QTest::newRow("dai-yuan") << int(CgBeta::DaiYuan);
    QTest::newRow("hager-zhang") << int(CgBeta::HagerZhang);
  }
  void everyBetaReachesTheLeastSquaresSolution() {
    QFETCH(int, beta);
    ComplexLeastSquares f = makeProblem(60, 30, 17);
    const Eigen::VectorXcd exact = f.a().colPivHouseholderQr().solve(f.b());
    CgSettings s;
    s.beta = CgBeta(beta);
    s.stop.max_iterations = 2000;
    s.stop.relative_tolerance = 0.0;
    s.stop.gradient_tolerance = 1e-10;
    const ComplexOptimizerResult r = minimizeConjugateGradient(f, ComplexVector(30, 0.0), s);
    double err = 0.0;
    for (int k = 0; k < 30; ++k)
      err += std::norm(r.z[std::size_t(k)] - exact(k));
    const double rel = std::sqrt(err) / exact.norm();
    QVERIFY2(rel < 1e-6, qPrintable(QString("relative error %1 after %2 iterations (%3)")
                                        .arg(rel)
                                        .arg(r.iterations)
                                        .arg(QString::fromStdString(toString(r.reason)))));
    const double exact_value = (f.a() * exact - f.b()).squaredNorm();
    QVERIFY(std::abs(r.objective - exact_value) <= 1e-9 * exact_value);
  }

  void wrongStartSizeIsAnError() {
    ComplexLeastSquares f = makeProblem(4, 3, 1);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             minimizeConjugateGradient(f, ComplexVector(2), CgSettings{}));
  }
};

QTEST_GUILESS_MAIN(TestComplexCg)
#include "test_complex_cg.moc"
