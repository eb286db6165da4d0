#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/plugin/plugin_registry.h"
#include "core/rml/objective_term.h"

namespace apertura::plugin {

// A regularizer provided by a plugin, as an ordinary RML term. Errors the plugin reports come
// back as std::runtime_error naming the plugin and the term; the plugin's handle is destroyed with
// this object. The plugin library must stay loaded (registries never unload a plugin).
class PluginRegularizer final : public rml::Regularizer {
 public:
  // `values`: one per parameter of the plugin's table, in its order (see parameterValues()).
  PluginRegularizer(const RegularizerEntry& entry, int nx, int ny,
                    const std::vector<double>& values);
  ~PluginRegularizer() override;
  PluginRegularizer(const PluginRegularizer&) = delete;
  PluginRegularizer& operator=(const PluginRegularizer&) = delete;

  std::string name() const override { return name_; }
  double evaluate(const double* image, double* gradient, double scale) override;
  bool isSmooth() const override;
  bool hasProx() const override { return api_->prox != nullptr; }
  double proxValue(const double* image) override;
  void prox(const double* v, double step, double* out) override;

  // Sets the base class mask and hands it to the plugin. Throws when the plugin has no masks.
  void setPluginMask(std::vector<double> mask);

 private:
  [[noreturn]] void fail(const char* what, const char* error) const;
  const AperturaRegularizerV1* api_;
  std::string name_;
  std::string plugin_name_;
  void* handle_ = nullptr;
};

// The full parameter vector of a plugin regularizer from a project's {name: value} map: defaults
// for absent keys. Throws InputError (naming `at` + ".parameters.<key>") for unknown keys and
// values outside a parameter's range.
std::vector<double> parameterValues(const AperturaRegularizerV1& api,
                                    const std::map<std::string, double>& given,
                                    const std::string& at);

}  // namespace apertura::plugin
