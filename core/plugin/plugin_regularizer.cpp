#include "core/plugin/plugin_regularizer.h"

#include <cstring>
#include <sstream>
#include <stdexcept>

#include "core/util/input_error.h"

namespace apertura::plugin {
namespace {

constexpr std::size_t kErrorSize = 1024;

std::string formatNumber(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

}  // namespace

std::vector<double> parameterValues(const AperturaRegularizerV1& api,
                                    const std::map<std::string, double>& given,
                                    const std::string& at) {
  std::vector<double> values(api.num_parameters);
  for (std::size_t k = 0; k < api.num_parameters; ++k)
    values[k] = api.parameters[k].default_value;
  for (const auto& [key, value] : given) {
    bool known = false;
    for (std::size_t k = 0; k < api.num_parameters; ++k) {
      const AperturaParameterV1& p = api.parameters[k];
      if (key != p.name)
        continue;
      known = true;
      if (!(value >= p.min_value && value <= p.max_value)) {
        throw InputError(at + ".parameters." + key, "must lie in [" + formatNumber(p.min_value) +
                                                        ", " + formatNumber(p.max_value) +
                                                        "], got " + formatNumber(value));
      }
      values[k] = value;
    }
    if (!known) {
      std::string names;
      for (std::size_t k = 0; k < api.num_parameters; ++k)
        names += (k ? ", " : "") + std::string(api.parameters[k].name);
      throw InputError(at + ".parameters." + key,
                       "is not a parameter of '" + std::string(api.name) + "' (" +
                           (names.empty() ? std::string("it has none") : names) + ")");
    }
  }
  return values;
}

PluginRegularizer::PluginRegularizer(const RegularizerEntry& entry, int nx, int ny,
                                     const std::vector<double>& values)
    : Regularizer(nx, ny),
      api_(entry.api),
      name_(entry.api->name),
      plugin_name_(entry.plugin ? entry.plugin->api->name : "?") {
  if (values.size() != api_->num_parameters)
    throw std::invalid_argument(name_ + ": wrong number of parameter values");
  char error[kErrorSize] = {0};
  handle_ = api_->create(nx, ny, values.empty() ? nullptr : values.data(), error, sizeof error);
  if (!handle_)
    fail("create", error);
}

PluginRegularizer::~PluginRegularizer() {
  if (handle_)
    api_->destroy(handle_);
}

void PluginRegularizer::fail(const char* what, const char* error) const {
  // The plugin may have filled the buffer without a terminating NUL.
  const std::string reason(error, strnlen(error, kErrorSize));
  throw std::runtime_error("plugin '" + plugin_name_ + "', regularizer '" + name_ + "': " + what +
                           " failed: " + (reason.empty() ? "no reason given" : reason));
}

double PluginRegularizer::evaluate(const double* image, double* gradient, double scale) {
  char error[kErrorSize] = {0};
  double value = 0.0;
  if (api_->evaluate(handle_, image, gradient, scale, &value, error, sizeof error) != APERTURA_OK)
    fail("evaluate", error);
  return value;
}

bool PluginRegularizer::isSmooth() const {
  return api_->is_smooth ? api_->is_smooth(handle_) == 1 : api_->prox == nullptr;
}

double PluginRegularizer::proxValue(const double* image) {
  if (!api_->prox_value)
    return evaluate(image, nullptr, 1.0);
  char error[kErrorSize] = {0};
  double value = 0.0;
  if (api_->prox_value(handle_, image, &value, error, sizeof error) != APERTURA_OK)
    fail("prox_value", error);
  return value;
}

void PluginRegularizer::prox(const double* v, double step, double* out) {
  if (!api_->prox)
    throw std::logic_error(name_ + " has no proximal operator");
  char error[kErrorSize] = {0};
  if (api_->prox(handle_, v, step, out, error, sizeof error) != APERTURA_OK)
    fail("prox", error);
}

void PluginRegularizer::setPluginMask(std::vector<double> mask) {
  if (!mask.empty() && !api_->set_mask) {
    throw std::invalid_argument("regularizer '" + name_ + "' (plugin '" + plugin_name_ +
                                "') does not support masks");
  }
  setMask(mask);
  if (!api_->set_mask)
    return;
  char error[kErrorSize] = {0};
  if (api_->set_mask(handle_, mask.empty() ? nullptr : mask.data(), error, sizeof error) !=
      APERTURA_OK)
    fail("set_mask", error);
}

}  // namespace apertura::plugin
