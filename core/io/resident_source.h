#pragma once

#include <memory>

#include "core/io/visibility_source.h"

namespace apertura {

// Reads every chunk of `inner` once (in the constructor) and keeps them in RAM; later passes copy
// from memory. Gives exactly the chunks `inner` gives, so resident and streaming reads agree bit
// for bit. The inner source is released after the read.
class ResidentSource final : public VisibilitySource {
 public:
  explicit ResidentSource(std::unique_ptr<VisibilitySource> inner);

  const SourceInfo& info() const override { return info_; }
  void rewind() override { next_ = 0; }
  bool next(VisibilityChunk& chunk) override;
  std::vector<std::string> warnings() const override { return warnings_; }
  bool resident() const override { return true; }

  std::size_t bytes() const;  // memory the cached chunks take

 private:
  SourceInfo info_;
  std::vector<std::string> warnings_;
  std::vector<VisibilityChunk> chunks_;
  std::size_t next_ = 0;
};

}  // namespace apertura
