#include "core/plugin/plugin_dataset_summary.h"

#include <algorithm>
#include <cmath>

#include "core/plugin/plugin_visibility_source.h"

namespace apertura::plugin {

std::string unknownFormatProblem(const PluginRegistry& registry) {
  return "unrecognised format: neither a Measurement Set (a directory with table.dat), UVFITS (a "
         "file starting with \"SIMPLE  =\"), nor a format of a loaded plugin (plugins searched "
         "in " +
         registry.searchPathText() + ")";
}

std::optional<DatasetSummary> summarizeWithPluginReader(const PluginRegistry& registry,
                                                        const std::string& path) {
  const ReaderEntry reader = registry.findReader(path);
  if (!reader.api)
    return std::nullopt;
  ReadOptions options;
  options.chunk_rows = std::size_t{1} << 20;
  PluginVisibilitySource source(reader, path, options);
  const SourceInfo& info = source.info();
  DatasetSummary s;
  s.path = path;
  s.format = info.format;
  s.telescope = info.telescope;
  s.fields = info.fields;
  s.spectral_windows = info.spectral_windows;
  s.polarizations.push_back({0, {"I"}});
  s.rows = info.rows;
  s.columns = {"u", "v", "w", "frequency", "re", "im", "weight"};
  double min_b = INFINITY, max_b = 0.0;
  const std::size_t stride = std::max<std::size_t>(1, info.rows / 20000);
  std::size_t row = 0;
  VisibilityChunk c;
  while (source.next(c)) {
    for (std::size_t r = 0; r < c.num_rows(); ++r, ++row) {
      bool any = false;
      for (std::size_t k = 0; k < c.num_channels(); ++k) {
        const bool ok = c.weights[r * c.num_channels() + k] > 0.0f;
        any = any || ok;
        s.flag_cells_total += 1;
        s.flag_cells_flagged += ok ? 0 : 1;
        s.unflagged_visibilities += ok ? 1 : 0;
      }
      // Baselines in metres at the chunk's reference frequency (rows may have been rescaled).
      const double b = std::hypot(c.uvw_m[3 * r], c.uvw_m[3 * r + 1]);
      if (any && b > 0.0) {
        min_b = std::min(min_b, b);
        max_b = std::max(max_b, b);
      }
      if (row % stride == 0) {
        s.uv_sample_m.push_back(float(-c.uvw_m[3 * r]));
        s.uv_sample_m.push_back(float(-c.uvw_m[3 * r + 1]));
      }
    }
  }
  s.min_baseline_m = std::isfinite(min_b) ? min_b : 0.0;
  s.max_baseline_m = max_b;
  deriveImagingSuggestions(s);
  return s;
}

}  // namespace apertura::plugin
