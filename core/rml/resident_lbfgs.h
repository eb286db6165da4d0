#pragma once

#include <cstddef>

#include "core/rml/lbfgs.h"

namespace apertura::rml {

// L-BFGS with the iterate, the gradient, the direction, the trial point and all m correction
// pairs in f.residentSpace() (an accelerator's memory): only x0 goes there and the result comes
// back; every iteration's vector work runs where the vectors are. The same iteration as
// minimizeLbfgs with its pairs (double, or float with float_history) held in memory: the same
// two-loop recursion, scaling, line searches and projection, so on the host space it gives the
// same bits. Spilling pairs to disk is a host feature; minimizeLbfgs chooses this path when it
// is not asked for.
OptimizerResult minimizeLbfgsResident(DifferentiableFunction& f, Vector x0,
                                      const LbfgsSettings& settings);

// Whether minimizeLbfgs runs f with these settings in f's resident space: no spilling asked for,
// and the state (residentLbfgsBytes) fits in the space's free memory (else the state stays on
// the host, and only f's evaluations use the space).
bool lbfgsRunsResident(DifferentiableFunction& f, const LbfgsSettings& settings);
// The resident L-BFGS state of n variables and `history` pairs (double, or float with
// float_pairs), the iterate, its gradient, the direction, the trial point and its gradient (all
// double), plus room for four image-sized work vectors of the objective's own.
std::size_t residentLbfgsBytes(std::size_t n, int history, bool float_pairs = false);

}  // namespace apertura::rml
