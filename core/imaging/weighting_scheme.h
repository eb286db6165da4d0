#pragma once

namespace apertura::imaging {

// Imaging weights (weighting.scheme in a project file).
enum class WeightingScheme { Natural, Uniform, Briggs, Radial };

}  // namespace apertura::imaging
