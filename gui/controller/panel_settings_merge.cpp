#include "gui/controller/panel_settings_merge.h"

#include <algorithm>
#include <string>
#include <vector>

namespace apertura::gui {
namespace {

using project::ProjectSettings;
using project::RegularizerSettings;

// The regularizer types the run settings panel has a lambda field for.
const std::vector<std::string>& panelTypes() {
  static const std::vector<std::string> types = {"l1",      "tsv",         "tv",
                                                 "entropy", "tv-spectral", "tsv-spectral"};
  return types;
}

bool panelEdits(const std::string& type) {
  const auto& t = panelTypes();
  return std::find(t.begin(), t.end(), type) != t.end();
}

bool sameTerms(const std::vector<RegularizerSettings>& a,
               const std::vector<RegularizerSettings>& b) {
  if (a.size() != b.size())
    return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].type != b[i].type || a[i].lambda != b[i].lambda || a[i].planes != b[i].planes)
      return false;
  }
  return true;
}

// Base order and base options; lambdas, plane lists (and presence) of the panel's types from
// `edited`.
std::vector<RegularizerSettings> mergeTerms(const std::vector<RegularizerSettings>& base,
                                            const std::vector<RegularizerSettings>& edited) {
  std::vector<bool> used(edited.size(), false);
  std::vector<RegularizerSettings> out;
  for (const RegularizerSettings& r : base) {
    if (!panelEdits(r.type)) {
      out.push_back(r);
      continue;
    }
    for (std::size_t i = 0; i < edited.size(); ++i) {
      if (!used[i] && edited[i].type == r.type) {
        used[i] = true;
        RegularizerSettings kept = r;
        kept.lambda = edited[i].lambda;
        kept.planes = edited[i].planes;  // the panel shows and edits the plane lists too
        out.push_back(kept);
        break;
      }
    }  // not found: the user set its lambda to 0, which removes the term
  }
  for (std::size_t i = 0; i < edited.size(); ++i) {
    if (!used[i])
      out.push_back(edited[i]);
  }
  return out;
}

template <typename T>
void takeIfEdited(T& out, const T& shown, const T& edited) {
  if (!(shown == edited))
    out = edited;
}

}  // namespace

ProjectSettings mergePanelEdits(const ProjectSettings& base, const ProjectSettings& shown,
                                const ProjectSettings& edited) {
  ProjectSettings s = base;
  if (shown.imaging.nx != edited.imaging.nx || shown.imaging.ny != edited.imaging.ny) {
    s.imaging.nx = edited.imaging.nx;
    s.imaging.ny = edited.imaging.ny;
  }
  takeIfEdited(s.imaging.cell_arcsec, shown.imaging.cell_arcsec, edited.imaging.cell_arcsec);
  takeIfEdited(s.imaging.precision, shown.imaging.precision, edited.imaging.precision);
  takeIfEdited(s.imaging.grid_accumulation, shown.imaging.grid_accumulation,
               edited.imaging.grid_accumulation);
  takeIfEdited(s.imaging.data_operator, shown.imaging.data_operator, edited.imaging.data_operator);
  takeIfEdited(s.imaging.spectral_mode, shown.imaging.spectral_mode, edited.imaging.spectral_mode);
  takeIfEdited(s.imaging.channels_per_plane, shown.imaging.channels_per_plane,
               edited.imaging.channels_per_plane);
  takeIfEdited(s.imaging.mfs_spectrum, shown.imaging.mfs_spectrum, edited.imaging.mfs_spectrum);
  takeIfEdited(s.data.mode, shown.data.mode, edited.data.mode);
  takeIfEdited(s.weighting.scheme, shown.weighting.scheme, edited.weighting.scheme);
  takeIfEdited(s.weighting.robust, shown.weighting.robust, edited.weighting.robust);
  takeIfEdited(s.weighting.taper_arcsec, shown.weighting.taper_arcsec,
               edited.weighting.taper_arcsec);
  takeIfEdited(s.optimizer.method, shown.optimizer.method, edited.optimizer.method);
  takeIfEdited(s.optimizer.plugin_method, shown.optimizer.plugin_method,
               edited.optimizer.plugin_method);
  takeIfEdited(s.optimizer.max_iterations, shown.optimizer.max_iterations,
               edited.optimizer.max_iterations);
  takeIfEdited(s.optimizer.positivity, shown.optimizer.positivity, edited.optimizer.positivity);
  takeIfEdited(s.regularization.scaling, shown.regularization.scaling,
               edited.regularization.scaling);
  takeIfEdited(s.optimizer.history, shown.optimizer.history, edited.optimizer.history);
  takeIfEdited(s.optimizer.in_memory_limit, shown.optimizer.in_memory_limit,
               edited.optimizer.in_memory_limit);
  if (!sameTerms(shown.regularizers, edited.regularizers))
    s.regularizers = mergeTerms(base.regularizers, edited.regularizers);
  return s;
}

}  // namespace apertura::gui
