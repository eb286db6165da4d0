#pragma once

#include <cstddef>
#include <functional>

namespace apertura {

// Sums an array element-wise over the processes of a distributed run, in place, every process
// getting the result (an MPI allreduce behind engine::Communicator). Null in a single process:
// layers below the engine (imaging, rml) take one of these instead of depending on the engine.
using SumOverProcesses = std::function<void(double* data, std::size_t n)>;

}  // namespace apertura
