#pragma once

#include "core/util/choice_names.h"

namespace apertura::imaging {

// Imaging weights (weighting.scheme in a project file).
enum class WeightingScheme { Natural, Uniform, Briggs, Radial };

}  // namespace apertura::imaging

namespace apertura {
template <>
const std::vector<ChoiceName<imaging::WeightingScheme>>& choiceTable<imaging::WeightingScheme>();
}  // namespace apertura
