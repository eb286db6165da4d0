#include "core/pipeline/regularizer_factory.h"

#include "core/plugin/plugin_registry.h"
#include "core/plugin/plugin_regularizer.h"
#include "core/rml/builtin_regularizers.h"
#include "core/rml/plane_indices.h"
#include "core/rml/plane_wise_term.h"
#include "core/rml/spectral_difference.h"
#include "core/util/input_error.h"

namespace apertura::pipeline {
namespace {

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
  const rml::RegularizerDescriptor* d = rml::findBuiltinRegularizer(type);
  return d != nullptr && d->kind == rml::TermKind::Spectral;
}

std::shared_ptr<rml::Regularizer> makeSpectralRegularizer(const project::RegularizerSettings& s,
                                                          int nx, int ny, int planes,
                                                          const std::vector<double>& mask,
                                                          std::size_t index) {
  const std::string at = "regularizers[" + std::to_string(index) + "]";
  if (!isSpectralType(s.type))
    throw InputError(at + ".type", "'" + s.type + "' is not an across-channel regularizer");
  const rml::RegularizerDescriptor& d = *rml::findBuiltinRegularizer(s.type);
  std::shared_ptr<rml::Regularizer> r =
      d.make(nx, ny, planes, rml::builtinParameterValues(d, s.parameters, at));
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
  if (const rml::RegularizerDescriptor* d = rml::findBuiltinRegularizer(type))
    return d->kind == rml::TermKind::NonSmooth;
  // A plugin term with a prox is treated like the built-in non-smooth ones.
  const plugin::RegularizerEntry entry = plugin::PluginRegistry::global().findRegularizer(type);
  return entry.api != nullptr && entry.api->prox != nullptr;
}

std::shared_ptr<rml::Regularizer> makeRegularizer(const project::RegularizerSettings& s, int nx,
                                                  int ny, const std::vector<double>& mask,
                                                  std::size_t index) {
  const std::string at = "regularizers[" + std::to_string(index) + "]";
  const rml::RegularizerDescriptor* d = rml::findBuiltinRegularizer(s.type);
  if (d == nullptr)
    return makePluginRegularizer(s, nx, ny, mask, at);
  // A spectral term on one plane is zero: an MFS image has no adjacent planes.
  std::shared_ptr<rml::Regularizer> r =
      d->make(nx, ny, 1, rml::builtinParameterValues(*d, s.parameters, at));
  if (s.use_mask && !mask.empty())
    r->setMask(mask);
  return r;
}

}  // namespace apertura::pipeline
