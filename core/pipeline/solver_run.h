#pragma once

// Internal to core/pipeline: the project's optimizer run on an RML objective, shared by the MFS
// and cube stages (they differ only in the objective's shape and the initial image).
#include <vector>

#include "core/engine/run_context.h"
#include "core/pipeline/imaging_products.h"
#include "core/rml/image_mapping.h"
#include "core/rml/lbfgs.h"
#include "core/rml/objective_function.h"

namespace apertura::pipeline {

struct RunData;

// How optimizer.method and optimizer.positivity shape the solve.
struct SolverChoice {
  bool proximal = false;  // fista / sdmm: non-smooth terms go through their prox
  // Proximal solvers keep the identity mapping: a prox is defined on the image itself.
  rml::ImageMapping mapping = rml::ImageMapping::Identity;
  bool project_positive = false;  // clip at zero after each step
};
SolverChoice solverChoice(const project::OptimizerSettings& o);

// One run of the optimizer within a stage: the project's own, or a step of a lambda path.
struct SolverPass {
  int max_iterations = -1;   // -1: optimizer.max_iterations
  int iteration_offset = 0;  // added to reported iterations (steps of a path follow each other)
  // The L-BFGS buffers the steps of a path share (rml::LbfgsWorkspace); null: each run its own.
  rml::LbfgsWorkspace* lbfgs_workspace = nullptr;
};

// Runs the project's optimizer on `objective` from `initial_image` (all parameters, image
// values), reporting every iteration (chi2 per degree of freedom from `dof`) and model snapshots;
// fills out.model, out.iterations, out.stop_reason and out.metrics. `mask` (per value of the
// parameter vector, empty: none) holds masked pixels at zero through the mapping, for proximal
// solvers too. Distributed runs stop on the iteration all ranks agree on.
void runSolver(engine::RunContext& ctx, const RunData& data, rml::ObjectiveFunction& objective,
               const std::vector<double>& mask, std::vector<double> initial_image, double dof,
               ImagingProducts& out, const SolverPass& pass = {});

}  // namespace apertura::pipeline
