#pragma once

namespace apertura {

// Whether visibilities stay in memory between passes (data.mode in a project file).
enum class ReadMode {
  kAuto,       // resident when the selected data fit memory_budget_bytes, else streaming
  kResident,   // read once, keep every chunk in RAM
  kStreaming,  // re-read from disk on every pass; memory bounded by the chunk size
};

}  // namespace apertura
