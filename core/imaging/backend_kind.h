#pragma once

namespace apertura::imaging {

// Where the gridding operator runs (imaging.backend in a project file).
enum class Backend { Auto, Cpu, Cuda };

}  // namespace apertura::imaging
