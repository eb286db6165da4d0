#pragma once

#include <memory>
#include <string>

#include "core/io/read_options.h"
#include "core/io/visibility_source.h"
#include "core/plugin/plugin_registry.h"

namespace apertura::plugin {

// Reads a whole file through a plugin reader (in the constructor) and serves it as resident
// chunks. The plugin's uvw (Measurement Set sign) is negated into the imaging convention, as the
// built-in readers do. Rows of a chunk must share their channel frequencies: where consecutive
// rows differ, the chunk holds one sample per row with uvw rescaled by f / f_ref to the chunk's
// first frequency, which leaves every sample's (u, v, w) in wavelengths, all the operator uses,
// unchanged. Non-finite values or weights flag the sample (weight 0) with a warning. The data
// carry one product, imaged as Stokes I; asking for another throws InputError.
class PluginVisibilitySource final : public VisibilitySource {
 public:
  PluginVisibilitySource(const ReaderEntry& reader, const std::string& path,
                         const ReadOptions& options);

  const SourceInfo& info() const override { return info_; }
  void rewind() override { next_ = 0; }
  bool next(VisibilityChunk& chunk) override;
  std::vector<std::string> warnings() const override { return warnings_; }
  bool resident() const override { return true; }

 private:
  SourceInfo info_;
  std::vector<std::string> warnings_;
  std::vector<VisibilityChunk> chunks_;
  std::size_t next_ = 0;
};

// The source for `path` when a loaded plugin's reader accepts it, else nullptr.
std::unique_ptr<VisibilitySource> openWithPluginReader(const PluginRegistry& registry,
                                                       const std::string& path,
                                                       const ReadOptions& options);

}  // namespace apertura::plugin
