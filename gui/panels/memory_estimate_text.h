#pragma once

#include <QString>
#include <cstdint>

#include "core/engine/memory_estimate.h"

namespace apertura::gui {

// "812 KiB", "240 MiB", "1.2 GiB": three significant figures at most, binary units.
QString formatBytes(std::uint64_t bytes);

// The run settings panel's memory line: the RAM a run needs with the optimizer's share, what
// L-BFGS spills to its scratch directory, and the budget, e.g.
// "RAM 1.2 GiB (optimizer 240 MiB) + 800 MiB on disk (L-BFGS spill); budget 11.7 GiB".
// Streaming visibilities and an estimate over the budget are said too.
QString memoryEstimateText(const apertura::engine::MemoryEstimate& e);

}  // namespace apertura::gui
