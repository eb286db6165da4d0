#include "core/rml/builtin_regularizers.h"

#include <cmath>
#include <cstdio>
#include <limits>

#include "core/rml/gradient_regularizers.h"
#include "core/rml/pixel_regularizers.h"
#include "core/rml/spectral_difference.h"
#include "core/util/input_error.h"

namespace apertura::rml {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::string number(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", v);
  return buffer;
}

std::vector<RegularizerDescriptor> makeTable() {
  std::vector<RegularizerDescriptor> t;
  t.push_back({"l1",
               "sum of abs(I): sparsity (compact sources)",
               TermKind::NonSmooth,
               {{"epsilon", 0.0, 0.0, kInf, false,
                 "smoothing, Jy/pixel: sqrt(I^2 + epsilon^2) - epsilon; 0: exact"}},
               0,
               [](int nx, int ny, int, const std::vector<double>& v) {
                 return std::make_shared<L1Regularizer>(nx, ny, v[0]);
               },
               {1, 0.0}});
  t.push_back({"l2",
               "sum of I^2: small total power",
               TermKind::Smooth,
               {},
               0,
               [](int nx, int ny, int, const std::vector<double>&) {
                 return std::make_shared<L2Regularizer>(nx, ny);
               },
               {2, 1.0}});
  t.push_back({"entropy",
               "maximum entropy relative to a flat prior: positive, smooth images",
               TermKind::Smooth,
               {{"prior", 1e-6, 0.0, kInf, true, "prior image level, Jy/pixel"}},
               0,
               [](int nx, int ny, int, const std::vector<double>& v) {
                 return std::make_shared<EntropyRegularizer>(nx, ny, std::vector<double>{v[0]});
               },
               {1, 0.0}});
  for (const bool isotropic : {true, false}) {
    t.push_back({isotropic ? "tv" : "tv-aniso",
                 isotropic ? "total variation (isotropic): piecewise-flat extended emission"
                           : "total variation (anisotropic, abs(dx) + abs(dy))",
                 TermKind::NonSmooth,
                 {{"epsilon", 1e-8, 0.0, kInf, false, "smoothing, Jy/pixel"}},
                 7,  // the prox's two pairs of dual fields, its iterate, input and output copies
                 [isotropic](int nx, int ny, int, const std::vector<double>& v) {
                   return std::make_shared<TotalVariation>(
                       nx, ny, isotropic ? TvKind::Isotropic : TvKind::Anisotropic, v[0]);
                 },
                 {1, 0.5}});
  }
  t.push_back({"tsv",
               "total squared variation: smooth extended emission",
               TermKind::Smooth,
               {},
               0,
               [](int nx, int ny, int, const std::vector<double>&) {
                 return std::make_shared<TotalSquaredVariation>(nx, ny);
               },
               {2, 2.0}});
  t.push_back({"laplacian",
               "squared Laplacian: smooth curvature",
               TermKind::Smooth,
               {},
               0,
               [](int nx, int ny, int, const std::vector<double>&) {
                 return std::make_shared<LaplacianRegularizer>(nx, ny);
               },
               {2, 3.0}});
  t.push_back({"huber",
               "Huber penalty of the gradient: TV-like for large steps, TSV-like for small ones",
               TermKind::Smooth,
               {{"delta", 1e-3, 0.0, kInf, true, "step, Jy/pixel, where it turns from quadratic"}},
               0,
               [](int nx, int ny, int, const std::vector<double>& v) {
                 return std::make_shared<HuberRegularizer>(nx, ny, v[0]);
               },
               {1, 0.5}});
  t.push_back({"tv-spectral",
               "total variation across adjacent cube planes",
               TermKind::Spectral,
               {{"epsilon", 1e-8, 0.0, kInf, false, "smoothing, Jy/pixel"}},
               0,
               [](int nx, int ny, int planes, const std::vector<double>& v) {
                 return std::make_shared<SpectralDifference>(nx, ny, planes,
                                                             SpectralKind::TotalVariation, v[0]);
               },
               {1, 0.0}});
  t.push_back({"tsv-spectral",
               "squared differences across adjacent cube planes",
               TermKind::Spectral,
               {},
               0,
               [](int nx, int ny, int planes, const std::vector<double>&) {
                 return std::make_shared<SpectralDifference>(nx, ny, planes,
                                                             SpectralKind::TotalSquaredVariation);
               },
               {2, 1.0}});
  return t;
}

std::string rangeProblem(const ParameterSpec& p) {
  if (std::isinf(p.max_value))
    return (p.min_open ? "must be > " : "must be >= ") + number(p.min_value);
  return std::string("must lie in ") + (p.min_open ? "(" : "[") + number(p.min_value) + ", " +
         number(p.max_value) + "]";
}

}  // namespace

const std::vector<RegularizerDescriptor>& builtinRegularizers() {
  static const std::vector<RegularizerDescriptor> table = makeTable();
  return table;
}

const RegularizerDescriptor* findBuiltinRegularizer(const std::string& type) {
  for (const auto& d : builtinRegularizers())
    if (d.name == type)
      return &d;
  return nullptr;
}

std::vector<double> builtinParameterValues(const RegularizerDescriptor& descriptor,
                                           const std::map<std::string, double>& given,
                                           const std::string& at) {
  std::vector<double> values;
  for (const auto& p : descriptor.parameters)
    values.push_back(p.default_value);
  for (const auto& [key, value] : given) {
    std::size_t k = 0;
    while (k < descriptor.parameters.size() && descriptor.parameters[k].name != key)
      ++k;
    if (k == descriptor.parameters.size())
      throw InputError(at + ".parameters." + key,
                       "is not a parameter of '" + descriptor.name + "'");
    const ParameterSpec& p = descriptor.parameters[k];
    const bool low_ok = p.min_open ? value > p.min_value : value >= p.min_value;
    if (!(std::isfinite(value) && low_ok && value <= p.max_value))
      throw InputError(at + ".parameters." + key, rangeProblem(p) + ", got " + number(value));
    values[k] = value;
  }
  return values;
}

}  // namespace apertura::rml
