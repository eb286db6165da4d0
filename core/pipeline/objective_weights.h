#pragma once

// Internal to core/pipeline: how the project's regularization settings weight the terms of the
// objective (rml/objective_scales.h), and the run of the optimizer with automatic lambdas.
#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "core/data/chunk_sequence.h"
#include "core/imaging/image_geometry.h"
#include "core/pipeline/solver_run.h"
#include "core/rml/data_term.h"
#include "core/rml/objective_scales.h"

namespace apertura::pipeline {

struct ObjectiveWeights {
  bool normalised = true;
  rml::ObjectiveScales scales;  // of the normalised objective (also used by automatic lambdas)
  double weight_scale = 1.0;    // s
  double data = 1.0;            // multiplies the chi2 term
  // The chi2 term's value over this is the chi2 per degree of freedom the iterations report:
  // 1 when normalised (the term is the reduced chi2 already), 2 N as in schema 1 otherwise.
  double dof = 1.0;
  // The factor a fixed lambda of this type is multiplied by (1 unless normalised).
  double fixedScale(const std::string& type) const;
  // The factor a normalised lambda of this type is multiplied by in this objective (an automatic
  // lambda always means the normalised one).
  double normalisedScale(const std::string& type) const;
};

// samples: N with w > 0; image_weights: the sum of weights of one image (MFS) or plane (cube).
ObjectiveWeights objectiveWeights(const project::ProjectSettings& s, const RunData& data,
                                  std::size_t samples, double image_weights,
                                  double beam_area_pixels);

// The samples with w > 0 and the sum of their weights over every rank (one pass over `chunks`).
rml::DataTotals totalsOverRanks(ChunkSequence& chunks, const RunData& data);
// The image's uv cell (wavelengths): one over the narrower side of its field of view.
double uvCellWavelengths(const imaging::ImageGeometry& g);

// A term of the objective whose lambda is automatic: its index in the objective and the factor
// its normalised lambda is multiplied by.
struct AutoTerm {
  std::size_t entry = 0;
  double scale = 1.0;
};

// The reduced chi-squared after out's last iteration (rescaled by s in a schema-1 objective;
// infinite before any iteration).
double reducedChi2(const ImagingProducts& out, const ObjectiveWeights& w);
// Sets every automatic term's weight for the normalised `lambda`.
void setLambdas(rml::ObjectiveFunction& objective, const std::vector<AutoTerm>& terms,
                double lambda);

// Adds the project's regularizers to `objective`, leaving out those with lambda 0: make(i, options)
// builds regularizers[i] and sets its options (proximal, parameters); the weight is its fixed
// lambda times fixedScale, or, for an automatic lambda, set later by solveWithLambdas from the
// returned list.
using RegularizerMaker =
    std::function<std::shared_ptr<rml::ObjectiveTerm>(std::size_t index, rml::TermOptions&)>;
// `share` multiplies every regularizer's weight: a linear-spectrum model's two planes each carry
// half of a term (1/2), so that a flat spectrum is regularized as its one-plane image would be.
std::vector<AutoTerm> addRegularizers(rml::ObjectiveFunction& objective,
                                      const project::ProjectSettings& s,
                                      const ObjectiveWeights& weights, const RegularizerMaker& make,
                                      double share = 1.0);

// Chooses the chunks a data term reads from each of the run's chunk sequences (the MFS image's,
// or each cube plane's): the sequence itself, or a cross-validation fold's part of it. The
// selection must outlive the term.
using SelectChunks = std::function<ChunkSequence&(ChunkSequence& run_chunks)>;

// A data term of the run over selected chunks, with the totals (every rank's) of what it sees.
struct SelectedData {
  std::shared_ptr<rml::ObjectiveTerm> term;
  std::size_t samples = 0;     // with w > 0, over every plane
  double image_weights = 0.0;  // the sum of weights of the image (MFS) or of a mean plane (cube)
  std::shared_ptr<void> keep;  // what else the term reads (copied chunks, its own operator)
  // A term that approximates chi2 around a point (the PSF mode): moves that point to an image,
  // before each solve. Empty: the term is exact everywhere.
  std::function<void(const double* image)> anchor;
};

// How the stage builds its objective, for objectives over parts of the data (cross-validation):
// the data term over selected chunks, then the regularizers as addRegularizers makes them.
struct ObjectiveRecipe {
  int planes = 1;
  double regularizer_share = 1.0;  // addRegularizers' share
  double beam_area_pixels = 1.0;
  double uv_cell_wavelengths = 0.0;  // the image's uv cell, 1 / field of view
  std::function<SelectedData(const SelectChunks&)> data;
  // The data term of a training objective (many short solves: the PSF mode where it is faster).
  // Empty: `data`. Held-out errors always use `data`, exact over the visibilities.
  std::function<SelectedData(const SelectChunks&)> training_data;
  RegularizerMaker regularizer;
};

// Runs the optimizer from `image`. Without automatic terms, once (the project's run). With some,
// first the path of regularization.method from lambda_max (auto: the peak of out.dirty over the
// image noise): every automatic term gets the same normalised lambda, lowered by path_factor per
// step of path_iterations iterations (warm started). discrepancy: until the reduced chi-squared
// reaches target_chi2, the lambda where it crosses (interpolated in log lambda); cv: the lambda
// of least held-out error (cross_validation.h), from `recipe`'s objectives over the folds. The
// chosen lambda is then run to the end. Fills out.lambda_path and out.auto_lambda, and warns when
// no lambda could be judged, and when the project has no regularizer at all. `anchor` (the PSF
// mode of objective's data term, SelectedData::anchor) moves to the image each solve of
// `objective` starts from.
void solveWithLambdas(engine::RunContext& ctx, const RunData& data, const ObjectiveRecipe& recipe,
                      rml::ObjectiveFunction& objective, const std::vector<AutoTerm>& auto_terms,
                      const ObjectiveWeights& weights, const std::vector<double>& mask,
                      std::vector<double> image, ImagingProducts& out,
                      const std::function<void(const double* image)>& anchor = nullptr);

}  // namespace apertura::pipeline
