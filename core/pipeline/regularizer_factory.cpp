#include "core/pipeline/regularizer_factory.h"

#include <set>

#include "core/plugin/plugin_registry.h"
#include "core/plugin/plugin_regularizer.h"
#include "core/rml/gradient_regularizers.h"
#include "core/rml/pixel_regularizers.h"
#include "core/rml/plane_indices.h"
#include "core/rml/plane_wise_term.h"
#include "core/rml/spectral_difference.h"
#include "core/util/input_error.h"

namespace apertura::pipeline {
namespace {

double parameter(const project::RegularizerSettings& s, const std::string& key, double fallback) {
  auto it = s.parameters.find(key);
  return it == s.parameters.end() ? fallback : it->second;
}

void allowOnly(const project::RegularizerSettings& s, const std::set<std::string>& allowed,
               const std::string& at) {
  for (const auto& [key, value] : s.parameters) {
    if (!allowed.count(key)) {
      throw InputError(at + ".parameters." + key, "is not a parameter of '" + s.type + "'");
    }
  }
}

// Types that are not built in name plugin regularizers (plugin_api.h).
std::shared_ptr<rml::Regularizer> makePluginRegularizer(const project::RegularizerSettings& s,
                                                        int nx, int ny,
                                                        const std::vector<double>& mask,
                                                        const std::string& at) {
  const auto& registry = plugin::PluginRegistry::global();
  const plugin::RegularizerEntry entry = registry.findRegularizer(s.type);
  if (!entry.api)
    throw InputError(at + ".type", plugin::regularizerTypeProblem(registry, s.type));
  auto r = std::make_shared<plugin::PluginRegularizer>(
      entry, nx, ny, plugin::parameterValues(*entry.api, s.parameters, at));
  if (s.use_mask && !mask.empty()) {
    if (!entry.api->set_mask)
      throw InputError(at + ".use_mask", "regularizer '" + s.type + "' does not support masks");
    r->setPluginMask(mask);
  }
  return r;
}

void checkPlanes(const project::RegularizerSettings& s, int planes, std::size_t index) {
  for (int k : s.planes) {
    if (k < 0 || k >= planes) {
      throw InputError("regularizers[" + std::to_string(index) + "].planes",
                       "plane " + std::to_string(k) + " does not exist: the cube has " +
                           std::to_string(planes) + (planes == 1 ? " plane" : " planes") +
                           " (0 to " + std::to_string(planes - 1) + ")");
    }
  }
}

}  // namespace

bool isSpectralType(const std::string& type) {
  return type == "tv-spectral" || type == "tsv-spectral";
}

std::shared_ptr<rml::Regularizer> makeSpectralRegularizer(const project::RegularizerSettings& s,
                                                          int nx, int ny, int planes,
                                                          const std::vector<double>& mask,
                                                          std::size_t index) {
  const std::string at = "regularizers[" + std::to_string(index) + "]";
  std::shared_ptr<rml::Regularizer> r;
  if (s.type == "tv-spectral") {
    allowOnly(s, {"epsilon"}, at);
    const double eps = parameter(s, "epsilon", 1e-8);
    if (eps < 0.0)
      throw InputError(at + ".parameters.epsilon", "must be >= 0");
    r = std::make_shared<rml::SpectralDifference>(nx, ny, planes, rml::SpectralKind::TotalVariation,
                                                  eps);
  } else if (s.type == "tsv-spectral") {
    allowOnly(s, {}, at);
    r = std::make_shared<rml::SpectralDifference>(nx, ny, planes,
                                                  rml::SpectralKind::TotalSquaredVariation);
  } else {
    throw InputError(at + ".type", "'" + s.type + "' is not an across-channel regularizer");
  }
  if (s.use_mask && !mask.empty())
    r->setMask(mask);
  return r;
}

void checkRegularizerPlanes(const std::vector<project::RegularizerSettings>& regularizers,
                            int planes) {
  for (std::size_t i = 0; i < regularizers.size(); ++i)
    checkPlanes(regularizers[i], planes, i);
}

std::shared_ptr<rml::ObjectiveTerm> makeCubeRegularizer(const project::RegularizerSettings& s,
                                                        int nx, int ny, int planes,
                                                        const std::vector<double>& mask,
                                                        std::size_t index) {
  checkPlanes(s, planes, index);
  if (isSpectralType(s.type)) {
    auto r = makeSpectralRegularizer(s, nx, ny, planes, mask, index);
    std::static_pointer_cast<rml::SpectralDifference>(r)->setPlanes(s.planes);
    return r;
  }
  std::vector<int> listed = s.planes.empty() ? rml::allPlanes(planes) : s.planes;
  std::vector<std::shared_ptr<rml::ObjectiveTerm>> terms;
  for (std::size_t j = 0; j < listed.size(); ++j)
    terms.push_back(makeRegularizer(s, nx, ny, mask, index));
  return std::make_shared<rml::PlaneWiseTerm>(std::move(terms), std::size_t(nx) * std::size_t(ny),
                                              std::move(listed), planes);
}

bool isNonSmoothType(const std::string& type) {
  if (plugin::isBuiltinNonSmoothRegularizer(type))
    return true;
  if (plugin::isBuiltinRegularizer(type))
    return false;
  // A plugin term with a prox is treated like the built-in non-smooth ones.
  const plugin::RegularizerEntry entry = plugin::PluginRegistry::global().findRegularizer(type);
  return entry.api != nullptr && entry.api->prox != nullptr;
}

std::shared_ptr<rml::Regularizer> makeRegularizer(const project::RegularizerSettings& s, int nx,
                                                  int ny, const std::vector<double>& mask,
                                                  std::size_t index) {
  const std::string at = "regularizers[" + std::to_string(index) + "]";
  std::shared_ptr<rml::Regularizer> r;
  if (s.type == "l1") {
    allowOnly(s, {"epsilon"}, at);
    r = std::make_shared<rml::L1Regularizer>(nx, ny, parameter(s, "epsilon", 0.0));
  } else if (s.type == "l2") {
    allowOnly(s, {}, at);
    r = std::make_shared<rml::L2Regularizer>(nx, ny);
  } else if (s.type == "entropy") {
    allowOnly(s, {"prior"}, at);
    const double prior = parameter(s, "prior", 1e-6);
    if (prior <= 0.0)
      throw InputError(at + ".parameters.prior", "must be > 0 (Jy/pixel)");
    r = std::make_shared<rml::EntropyRegularizer>(nx, ny, std::vector<double>{prior});
  } else if (s.type == "tv" || s.type == "tv-aniso") {
    allowOnly(s, {"epsilon"}, at);
    r = std::make_shared<rml::TotalVariation>(
        nx, ny, s.type == "tv" ? rml::TvKind::Isotropic : rml::TvKind::Anisotropic,
        parameter(s, "epsilon", 1e-8));
  } else if (s.type == "tsv") {
    allowOnly(s, {}, at);
    r = std::make_shared<rml::TotalSquaredVariation>(nx, ny);
  } else if (s.type == "laplacian") {
    allowOnly(s, {}, at);
    r = std::make_shared<rml::LaplacianRegularizer>(nx, ny);
  } else if (s.type == "huber") {
    allowOnly(s, {"delta"}, at);
    r = std::make_shared<rml::HuberRegularizer>(nx, ny, parameter(s, "delta", 1e-3));
  } else if (isSpectralType(s.type)) {
    return makeSpectralRegularizer(s, nx, ny, 1, mask, index);
  } else {
    return makePluginRegularizer(s, nx, ny, mask, at);
  }
  if (s.use_mask && !mask.empty())
    r->setMask(mask);
  return r;
}

}  // namespace apertura::pipeline
