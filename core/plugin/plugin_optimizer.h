#pragma once

#include "core/plugin/plugin_registry.h"
#include "core/rml/optimizer.h"

namespace apertura::plugin {

// Runs a plugin optimizer on `f` from x0 under Apertura's stop criteria (the plugin calls back
// after each iteration; the criteria, the observer and cancellation are applied there, as for the
// built-in solvers). Exceptions thrown by f or the observer (OperationCancelled, errors) never
// cross the plugin: they are held, the plugin is told to stop, and they are rethrown here.
// `positivity` asks the plugin to keep x >= 0. Plugin failures throw std::runtime_error naming the
// plugin and the optimizer.
rml::OptimizerResult minimizeWithPlugin(const OptimizerEntry& entry, rml::DifferentiableFunction& f,
                                        rml::Vector x0, const rml::StopCriteria& stop,
                                        bool positivity);

}  // namespace apertura::plugin
