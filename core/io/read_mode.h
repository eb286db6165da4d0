#pragma once

#include "core/util/choice_names.h"

namespace apertura {

// Whether visibilities stay in memory between passes (data.mode in a project file).
enum class ReadMode {
  kAuto,       // resident when the selected data fit memory_budget_bytes, else streaming
  kResident,   // read once, keep every chunk in RAM
  kStreaming,  // re-read from disk on every pass; memory bounded by the chunk size
};

template <>
const std::vector<ChoiceName<ReadMode>>& choiceTable<ReadMode>();

}  // namespace apertura
