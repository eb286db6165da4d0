#include "core/pipeline/solver_run.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>

#include "core/engine/memory_estimate.h"
#include "core/engine/rank_agreement.h"
#include "core/pipeline/pipeline_stages.h"
#include "core/pipeline/point_recorder.h"
#include "core/plugin/plugin_optimizer.h"
#include "core/rml/conjugate_gradient.h"
#include "core/rml/lbfgs.h"
#include "core/rml/proximal_solvers.h"
#include "core/rml/resident_lbfgs.h"
#include "core/util/input_error.h"

namespace apertura::pipeline {
namespace {

using namespace std::chrono_literals;

using project::OptimizerMethod;

rml::LineSearchSettings lineSearch(rml::LineSearchKind kind, rml::LineSearchSettings base) {
  base.kind = kind;
  return base;
}

rml::CgBeta betaOf(OptimizerMethod method) {
  switch (method) {
    case OptimizerMethod::CgFr:
      return rml::CgBeta::FletcherReeves;
    case OptimizerMethod::CgHs:
      return rml::CgBeta::HestenesStiefel;
    case OptimizerMethod::CgDy:
      return rml::CgBeta::DaiYuan;
    case OptimizerMethod::CgHz:
      return rml::CgBeta::HagerZhang;
    default:
      return rml::CgBeta::PolakRibierePlus;
  }
}

// Where spilled L-BFGS pairs go: the user's directory, else $TMPDIR, else beside the outputs.
std::string scratchDirectory(const project::ProjectSettings& s) {
  if (!s.optimizer.scratch_dir.empty())
    return s.optimizer.scratch_dir;
  if (const char* tmp = std::getenv("TMPDIR"); tmp != nullptr && *tmp != '\0')
    return tmp;
  if (!s.output.prefix.empty()) {
    const std::filesystem::path dir = std::filesystem::path(s.output.prefix).parent_path();
    return dir.empty() ? std::string(".") : dir.string();
  }
  return {};  // the history's own default (/tmp)
}

rml::LbfgsSettings lbfgsSettings(const project::ProjectSettings& s, bool clip_parameters,
                                 const rml::StopCriteria& stop) {
  rml::LbfgsSettings ls;
  ls.history = s.optimizer.history;
  ls.in_memory_limit = s.optimizer.in_memory_limit.value_or(0);
  ls.memory_threshold_bytes = engine::historyMemoryBytes(s.optimizer);
  ls.scratch_dir = scratchDirectory(s);
  ls.float_history = s.optimizer.history_precision == project::Precision::Float;
  ls.line_search = lineSearch(s.optimizer.line_search, ls.line_search);
  ls.positivity = clip_parameters;
  ls.stop = stop;
  return ls;
}

rml::FistaSettings fistaSettings(const SolverChoice& choice, const rml::StopCriteria& stop) {
  rml::FistaSettings fs;
  fs.positivity = choice.project_positive;
  fs.stop = stop;
  return fs;
}

// Where the optimizer keeps its vectors: in the accelerator's memory when the method's whole
// iteration runs there (images stay on the device; only snapshots come to the host), else null
// (host memory).
compute::VectorSpace* optimizerStateSpace(const project::ProjectSettings& s,
                                          const SolverChoice& choice,
                                          rml::DifferentiableFunction& f,
                                          rml::ObjectiveFunction& objective,
                                          const rml::StopCriteria& stop) {
  compute::VectorSpace* space = f.residentSpace();
  if (space == nullptr)
    return nullptr;
  const OptimizerMethod method = s.optimizer.method;
  const bool clip_parameters =
      choice.project_positive && choice.mapping == rml::ImageMapping::Identity;
  bool resident = false;
  if (method == OptimizerMethod::Lbfgs)
    resident = rml::lbfgsRunsResident(f, lbfgsSettings(s, clip_parameters, stop));
  else if (project::isConjugateGradient(method))
    resident = true;
  else if (method == OptimizerMethod::Fista)
    resident = rml::fistaRunsResident(f, objective.proximalTerms(), fistaSettings(choice, stop));
  return resident ? space : nullptr;
}

rml::OptimizerResult minimize(const project::ProjectSettings& s, const SolverChoice& choice,
                              rml::DifferentiableFunction& f, rml::ObjectiveFunction& objective,
                              const rml::Vector& x0, const rml::StopCriteria& stop,
                              rml::LbfgsWorkspace* workspace) {
  const OptimizerMethod method = s.optimizer.method;
  const bool clip_parameters =
      choice.project_positive && choice.mapping == rml::ImageMapping::Identity;
  if (method == OptimizerMethod::Lbfgs) {
    rml::LbfgsSettings ls = lbfgsSettings(s, clip_parameters, stop);
    ls.workspace = workspace;
    return rml::minimizeLbfgs(f, x0, ls);
  }
  if (project::isConjugateGradient(method)) {
    rml::CgSettings cs;
    cs.beta = betaOf(method);
    cs.line_search = lineSearch(s.optimizer.line_search, cs.line_search);
    cs.stop = stop;
    return rml::minimizeConjugateGradient(f, x0, cs);
  }
  if (method == OptimizerMethod::Fista)
    return rml::minimizeFista(f, objective.proximalTerms(), x0, fistaSettings(choice, stop));
  if (method == OptimizerMethod::Sdmm) {
    rml::SdmmSettings ss;
    ss.positivity = choice.project_positive;
    ss.stop = stop;
    return rml::minimizeSdmm(&f, objective.proximalTerms(), x0, ss);
  }
  // Validation let it through: a loaded plugin provides it (plugin_api.h).
  const std::string& name = s.optimizer.plugin_method;
  const plugin::OptimizerEntry entry = plugin::PluginRegistry::global().findOptimizer(name);
  if (!entry.api)
    throw InputError("optimizer.method", "no loaded plugin provides '" + name + "'");
  return plugin::minimizeWithPlugin(entry, f, x0, stop, clip_parameters);
}

}  // namespace

SolverChoice solverChoice(const project::OptimizerSettings& o) {
  SolverChoice c;
  using project::Positivity;
  c.proximal = project::isProximal(o.method);
  c.mapping = c.proximal                             ? rml::ImageMapping::Identity
              : o.positivity == Positivity::Log      ? rml::ImageMapping::Exp
              : o.positivity == Positivity::Softplus ? rml::ImageMapping::Softplus
                                                     : rml::ImageMapping::Identity;
  c.project_positive =
      o.positivity == Positivity::Projection || (c.proximal && o.positivity != Positivity::None);
  return c;
}

void runSolver(engine::RunContext& ctx, const RunData& data, rml::ObjectiveFunction& objective,
               const std::vector<double>& mask, std::vector<double> image, double dof,
               ImagingProducts& out, const SolverPass& pass) {
  const auto& s = ctx.settings();
  const SolverChoice choice = solverChoice(s.optimizer);
  const std::size_t n = image.size();
  // The mapping also holds pixels outside the user mask at zero (zero image, zero gradient),
  // for proximal solvers too: their smooth part sees the masked image, and the model below is
  // taken through toImage(), so it is zero outside the mask whatever a prox does there.
  rml::DifferentiableFunction& image_objective =
      choice.proximal ? objective.smoothPart()
                      : static_cast<rml::DifferentiableFunction&>(objective);
  rml::MappedObjective mapped(image_objective, choice.mapping, mask);
  PointRecorder recorder(mapped);

  rml::Vector x0(image.begin(), image.end());
  if (choice.mapping != rml::ImageMapping::Identity)
    mapped.fromImage(image.data(), x0.data(), 1e-8);

  engine::SnapshotThrottle throttle(s.optimizer.snapshot_every, 100ms);
  rml::StopCriteria stop;
  stop.max_iterations = pass.max_iterations >= 0 ? pass.max_iterations : s.optimizer.max_iterations;
  stop.relative_tolerance = s.optimizer.relative_tolerance;
  stop.patience = s.optimizer.patience;
  stop.gradient_tolerance = s.optimizer.gradient_tolerance;
  stop.wall_time_seconds = s.optimizer.time_limit_s.value_or(0.0);
  // Distributed: every rank must stop at the same iteration, so only the agreement in the
  // observer below ends the run (a rank's own token could stop it one iteration early).
  stop.cancel = data.distributed() ? nullptr : &ctx.cancellation();
  stop.observer = [&](const rml::IterationReport& r) {
    engine::IterationMetrics m;
    m.iteration = r.iteration + pass.iteration_offset;
    m.objective = r.objective;
    for (const auto& t : r.terms) {
      m.terms.emplace_back(t.name, t.value);
      if (t.name == "chi2")
        m.chi2_per_dof = t.value / dof;
    }
    m.gradient_norm = r.gradient_norm;
    m.step = r.step;
    m.seconds = r.iteration_seconds;
    ctx.observer().iteration(m);
    out.metrics.push_back(m);
    if (throttle.due(r.iteration) && recorder.lastPoint().size() == n) {
      mapped.toImage(recorder.lastPoint().data(), image.data());
      publishModel(ctx, m.iteration, out, image);
    }
    if (data.distributed()) {
      // Every rank agrees here, so all stop at the same iteration (no pausing: the ranks
      // cannot be paused one by one).
      if (engine::cancelRequestedOnAnyRank(*data.comm, &ctx.cancellation()))
        throw OperationCancelled();
    } else {
      ctx.checkpoint();  // pause between iterations; cancellation ends the solver here
    }
  };

  // The optimizer's state as the engine's estimate counts it: RAM (spill is on disk), or, when
  // it lives on the device, nothing here (the device's vectors count with the operator's memory).
  compute::VectorSpace* state_space = optimizerStateSpace(s, choice, recorder, objective, stop);
  engine::TrackedBytes optimizer_bytes;
  optimizer_bytes.reset(engine::MemoryCategory::Optimizer,
                        state_space != nullptr ? 0 : engine::optimizerMemory(s, n).ram_bytes);
  if (pass.iteration_offset == 0)  // once per run, not per step of a lambda path
    ctx.observer().progress(
        1.0, "optimizer state: " +
                 (state_space != nullptr ? state_space->describe() : std::string("host memory")));
  const rml::OptimizerResult result =
      minimize(s, choice, recorder, objective, x0, stop, pass.lbfgs_workspace);
  out.model.assign(n, 0.0);
  mapped.toImage(result.x.data(), out.model.data());
  out.iterations = result.iterations + pass.iteration_offset;
  out.stop_reason = rml::toString(result.reason);
  publishModel(ctx, out.iterations, out, out.model);
}

}  // namespace apertura::pipeline
