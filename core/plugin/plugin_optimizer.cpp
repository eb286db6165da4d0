#include "core/plugin/plugin_optimizer.h"

#include <cmath>
#include <exception>
#include <optional>
#include <stdexcept>

#include "core/rml/iteration_monitor.h"

namespace apertura::plugin {
namespace {

// What the C callbacks reach through AperturaObjectiveV1::context.
struct Context {
  rml::DifferentiableFunction* f = nullptr;
  rml::IterationMonitor* monitor = nullptr;
  rml::OptimizerResult* result = nullptr;
  std::size_t n = 0;
  double previous = 0.0;
  std::optional<rml::StopReason> stop;
  std::exception_ptr error;
};

int evaluate(void* context, const double* x, double* value, double* gradient) {
  auto* c = static_cast<Context*>(context);
  if (c->error)
    return APERTURA_ERROR;
  try {
    *value = c->f->evaluate(x, gradient);
    ++c->result->evaluations;
    return APERTURA_OK;
  } catch (...) {
    c->error = std::current_exception();
    return APERTURA_ERROR;
  }
}

int iteration(void* context, const double* x, double value, double gradient_norm, double step,
              int evaluations) {
  auto* c = static_cast<Context*>(context);
  if (c->error || c->stop)
    return 1;
  try {
    rml::OptimizerResult& r = *c->result;
    r.x.assign(x, x + c->n);
    r.objective = value;
    ++r.iterations;
    c->stop = c->monitor->finishIteration(r.iterations, c->previous, value, step, gradient_norm,
                                          evaluations, c->f->lastTermValues());
    c->previous = value;
    if (!c->stop)
      c->stop = c->monitor->checkBefore();
    return c->stop ? 1 : 0;
  } catch (...) {
    c->error = std::current_exception();
    return 1;
  }
}

}  // namespace

rml::OptimizerResult minimizeWithPlugin(const OptimizerEntry& entry, rml::DifferentiableFunction& f,
                                        rml::Vector x0, const rml::StopCriteria& stop,
                                        bool positivity) {
  const AperturaOptimizerV1& api = *entry.api;
  const std::size_t n = f.dimension();
  if (x0.size() != n)
    throw std::invalid_argument(std::string(api.name) + ": x0 has the wrong size");
  if (positivity)
    rml::projectNonNegative(x0);
  rml::OptimizerResult result;
  result.x = x0;
  rml::IterationMonitor monitor(stop, &f);
  Context c;
  c.f = &f;
  c.monitor = &monitor;
  c.result = &result;
  c.n = n;
  c.previous = f.evaluate(x0.data(), nullptr);
  result.objective = c.previous;
  result.evaluations = 1;
  if (auto s = monitor.checkBefore()) {
    result.reason = *s;
    return result;
  }
  std::vector<double> params(api.num_parameters);
  for (std::size_t k = 0; k < api.num_parameters; ++k)
    params[k] = api.parameters[k].default_value;
  const AperturaObjectiveV1 objective{n, &c, evaluate, iteration, positivity ? 1 : 0};
  std::vector<double> x = x0;
  char error[1024] = {0};
  const int status = api.minimize(&objective, params.empty() ? nullptr : params.data(), x.data(),
                                  error, sizeof error);
  if (c.error)
    std::rethrow_exception(c.error);
  if (status != APERTURA_OK) {
    throw std::runtime_error(
        "plugin '" + std::string(entry.plugin ? entry.plugin->api->name : "?") + "', optimizer '" +
        api.name + "': " + (error[0] ? error : "failed without a reason"));
  }
  // The plugin's final x is its answer (it may differ from the last reported iterate).
  result.x = std::move(x);
  result.objective = f.evaluate(result.x.data(), nullptr);
  ++result.evaluations;
  result.reason = c.stop.value_or(rml::StopReason::ObjectiveChange);
  return result;
}

}  // namespace apertura::plugin
