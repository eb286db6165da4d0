#pragma once

#include "core/util/choice_names.h"

namespace apertura::imaging {

// Where the gridding operator runs (imaging.backend in a project file).
enum class Backend { Auto, Cpu, Cuda };

}  // namespace apertura::imaging

namespace apertura {
template <>
const std::vector<ChoiceName<imaging::Backend>>& choiceTable<imaging::Backend>();
}  // namespace apertura
