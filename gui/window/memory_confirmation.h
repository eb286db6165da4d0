#pragma once

#include "core/engine/memory_estimate.h"

class QWidget;

namespace apertura::gui {

// What to do with a run whose memory estimate exceeds the budget.
enum class MemoryChoice { Cancel, RunAnyway, Stream, SmallerImage };

// Asks (a modal dialog, objectName "memory-confirmation") with the estimate, the budget and what
// would fit (`fit`, for an image of `image_size` px): only fitting changes are offered, then
// "Run anyway" and Cancel (the default and Escape).
MemoryChoice confirmMemory(QWidget* parent, const apertura::engine::MemoryEstimate& estimate,
                           const apertura::engine::BudgetFit& fit, int image_size);

}  // namespace apertura::gui
