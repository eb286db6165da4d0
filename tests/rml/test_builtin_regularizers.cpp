// The built-in regularizers describe themselves in one table (rml/builtin_regularizers.h): each
// entry's factory builds the term its name says, with the parameters it declares, and what the
// table says of a term (smooth or not) is what the term itself reports.
#include <QtTest>

#include "core/rml/builtin_regularizers.h"
#include "core/rml/gradient_regularizers.h"
#include "core/rml/pixel_regularizers.h"
#include "core/rml/spectral_difference.h"
#include "core/util/input_error.h"
#include "core/util/random.h"
#include "tests/support/input_error_text.h"

using namespace apertura;
using namespace apertura::rml;
using apertura::testing::inputErrorOf;

namespace {

constexpr int kNx = 12, kNy = 10;

std::vector<double> randomImage(int planes) {
  std::vector<double> x(std::size_t(kNx) * kNy * planes);
  for (std::size_t k = 0; k < x.size(); ++k)
    x[k] = 2.0 * counterUniform(7, k) - 0.5;
  return x;
}

double valueOf(Regularizer& r, int planes) {
  std::vector<double> x = randomImage(planes);
  return r.evaluate(x.data(), nullptr, 1.0);
}

const RegularizerDescriptor& find(const char* name) {
  const RegularizerDescriptor* d = findBuiltinRegularizer(name);
  if (d == nullptr)
    throw std::runtime_error(std::string("no built-in ") + name);
  return *d;
}

}  // namespace

class TestBuiltinRegularizers : public QObject {
  Q_OBJECT
 private slots:
  void namesAreUniqueAndKnown() {
    QStringList names;
    for (const auto& d : builtinRegularizers()) {
      QVERIFY2(!names.contains(QString::fromStdString(d.name)), d.name.c_str());
      names << QString::fromStdString(d.name);
      QVERIFY(!d.description.empty());
      QVERIFY(d.make != nullptr);
    }
    QCOMPARE(names, QStringList({"l1", "l2", "entropy", "tv", "tv-aniso", "tsv", "laplacian",
                                 "huber", "tv-spectral", "tsv-spectral"}));
    QVERIFY(findBuiltinRegularizer("wavelet") == nullptr);
  }

  // Each factory, with its default and with given parameters, equals the class built by hand.
  void factoriesBuildTheNamedTerm() {
    const auto same = [](const char* name, const std::map<std::string, double>& given,
                         Regularizer& expected, int planes) {
      const RegularizerDescriptor& d = find(name);
      auto built = d.make(kNx, kNy, planes, builtinParameterValues(d, given, "r"));
      const double a = valueOf(*built, planes), b = valueOf(expected, planes);
      QVERIFY2(a == b, qPrintable(QString("%1: %2 vs %3").arg(name).arg(a).arg(b)));
    };
    L1Regularizer l1(kNx, kNy, 0.0), l1_eps(kNx, kNy, 0.3);
    same("l1", {}, l1, 1);
    same("l1", {{"epsilon", 0.3}}, l1_eps, 1);
    L2Regularizer l2(kNx, kNy);
    same("l2", {}, l2, 1);
    EntropyRegularizer entropy(kNx, kNy, {1e-6}), entropy_prior(kNx, kNy, {0.2});
    same("entropy", {}, entropy, 1);
    same("entropy", {{"prior", 0.2}}, entropy_prior, 1);
    TotalVariation tv(kNx, kNy, TvKind::Isotropic, 1e-8), tva(kNx, kNy, TvKind::Anisotropic, 0.1);
    same("tv", {}, tv, 1);
    same("tv-aniso", {{"epsilon", 0.1}}, tva, 1);
    TotalSquaredVariation tsv(kNx, kNy);
    same("tsv", {}, tsv, 1);
    LaplacianRegularizer laplacian(kNx, kNy);
    same("laplacian", {}, laplacian, 1);
    HuberRegularizer huber(kNx, kNy, 1e-3), huber_delta(kNx, kNy, 0.05);
    same("huber", {}, huber, 1);
    same("huber", {{"delta", 0.05}}, huber_delta, 1);
    SpectralDifference tvs(kNx, kNy, 3, SpectralKind::TotalVariation, 1e-8);
    same("tv-spectral", {}, tvs, 3);
    SpectralDifference tsvs(kNx, kNy, 3, SpectralKind::TotalSquaredVariation);
    same("tsv-spectral", {}, tsvs, 3);
  }

  // The kind the table gives is what the solvers see of the term.
  void kindsAgreeWithTheTerms() {
    for (const auto& d : builtinRegularizers()) {
      const int planes = d.kind == TermKind::Spectral ? 2 : 1;
      auto term = d.make(kNx, kNy, planes, builtinParameterValues(d, {}, "r"));
      if (d.kind == TermKind::NonSmooth)
        QVERIFY2(term->hasProx(), d.name.c_str());
      QVERIFY2((d.prox_vectors > 0) == (d.name == "tv" || d.name == "tv-aniso"), d.name.c_str());
    }
  }

  void parametersAreChecked() {
    const RegularizerDescriptor& entropy = find("entropy");
    QCOMPARE(builtinParameterValues(entropy, {}, "r")[0], 1e-6);
    QCOMPARE(builtinParameterValues(entropy, {{"prior", 2.0}}, "r")[0], 2.0);
    QCOMPARE(inputErrorOf([&] {
               builtinParameterValues(entropy, {{"prior", 0.0}}, "regularizers[2]");
             }),
             QString("regularizers[2].parameters.prior: must be > 0, got 0"));
    QCOMPARE(inputErrorOf([&] {
               builtinParameterValues(entropy, {{"epsilon", 1.0}}, "r");
             }),
             QString("r.parameters.epsilon: is not a parameter of 'entropy'"));
    QCOMPARE(inputErrorOf([&] {
               builtinParameterValues(find("tv"), {{"epsilon", -1.0}}, "r");
             }),
             QString("r.parameters.epsilon: must be >= 0, got -1"));
    QCOMPARE(inputErrorOf([&] {
               builtinParameterValues(find("tsv"), {{"epsilon", 1.0}}, "r");
             }),
             QString("r.parameters.epsilon: is not a parameter of 'tsv'"));
  }
};

QTEST_GUILESS_MAIN(TestBuiltinRegularizers)
#include "test_builtin_regularizers.moc"
