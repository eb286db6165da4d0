#pragma once

#include <functional>
#include <memory>

#include "core/data/chunk_sequence.h"
#include "core/data/process_sum.h"
#include "core/imaging/image_geometry.h"
#include "core/imaging/imaging_operator.h"
#include "core/imaging/operator_factory.h"
#include "core/rml/linear_spectrum_chi2_term.h"
#include "core/rml/psf_chi2_term.h"

namespace apertura::pipeline {

// The PSF on an image twice the size of `g` in each axis (same cell, zero lag at pixel (nx, ny)):
// Re A^H W 1 over `chunks`, gridded once by an operator made like the run's (no w-term), summed
// over processes by `sum`. With `factor`, each sample's weight is multiplied by factor(its
// channel's frequency).
template <typename T>
std::vector<double> doubledPsf(const imaging::ImageGeometry& g,
                               const imaging::OperatorSettings& settings,
                               const imaging::BackendRequest& backend, ChunkSequence& chunks,
                               const SumOverProcesses& sum,
                               const std::function<double(double)>& factor = nullptr);

// When a data term takes the PSF mode: never, when one of its evaluations is measured to cost
// less than one of the exact term's, or always.
enum class PsfUse { Never, IfFaster, Always };

// What the choice measured: one pass of the exact term and one PSF-mode evaluation (seconds,
// summed over ranks, so that every rank decides alike).
struct PsfCost {
  double exact_seconds = 0.0;
  double psf_seconds = 0.0;
};

// The PSF-mode term (rml/psf_chi2_term.h) over the chunks `exact` reads, as `use` says (null:
// the exact term is kept); `cost` receives the measured times. `exact` must not include a
// w-term and must keep its images on the host. With `band`, `exact` is the linear-spectrum term
// of that band (its three PSFs are gridded).
template <typename T>
std::shared_ptr<rml::PsfChi2Term> psfTerm(const std::shared_ptr<rml::DataTerm>& exact,
                                          const imaging::ImageGeometry& g,
                                          const imaging::OperatorSettings& settings,
                                          const imaging::BackendRequest& backend,
                                          ChunkSequence& chunks, const SumOverProcesses& sum,
                                          PsfUse use, PsfCost* cost = nullptr,
                                          const rml::SpectrumBand* band = nullptr);

}  // namespace apertura::pipeline
