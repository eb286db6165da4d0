#include "gui/plots/metrics_csv.h"

#include <algorithm>
#include <sstream>

namespace apertura::gui {

std::string metricsToCsv(const std::vector<engine::IterationMetrics>& metrics) {
  std::vector<std::string> terms;
  for (const auto& m : metrics) {
    for (const auto& t : m.terms) {
      if (std::find(terms.begin(), terms.end(), t.first) == terms.end())
        terms.push_back(t.first);
    }
  }
  std::ostringstream o;
  o.precision(12);
  o << "iteration,objective";
  for (const auto& name : terms)
    o << "," << name;
  o << ",chi2_per_dof,gradient_norm,step,seconds,elapsed_s\n";
  double elapsed = 0.0;
  for (const auto& m : metrics) {
    elapsed += m.seconds;
    o << m.iteration << "," << m.objective;
    for (const auto& name : terms) {
      o << ",";
      const auto it = std::find_if(m.terms.begin(), m.terms.end(),
                                   [&](const auto& t) { return t.first == name; });
      if (it != m.terms.end())
        o << it->second;
    }
    o << "," << m.chi2_per_dof << "," << m.gradient_norm << "," << m.step << "," << m.seconds << ","
      << elapsed << "\n";
  }
  return o.str();
}

}  // namespace apertura::gui
