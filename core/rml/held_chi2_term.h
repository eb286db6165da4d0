#pragma once

#include <memory>
#include <vector>

#include "core/data/visibility_chunk.h"
#include "core/imaging/imaging_operator.h"
#include "core/rml/chi2_term.h"

namespace apertura::rml {

// The data term over chunks held in memory through the gridder's whole calls, as w-stacking
// needs them (one pass per w plane over every sample): sets the operator's samples to the
// chunks' and evaluates chi2 on the host as Chi2Term does through ImagingOperatorAdapter, to the
// bit, but reading the chunks' float data in place (no double copy of every sample). With a backend
// that forms the held samples' residuals where it keeps its images
// (ImagingOperator::formsHeldResiduals: the CUDA backend with w-stacking), the term is resident
// there too (a distributed run sums its partial gradients through the host), so an optimizer that
// keeps its vectors on the device never brings the image back. The operator and the chunks must
// outlive the term; the chunks must not change.
std::shared_ptr<DataTerm> makeHeldChi2Term(imaging::ImagingOperator<float>& op,
                                           const std::vector<VisibilityChunk>& chunks,
                                           Chi2Options options = {});
std::shared_ptr<DataTerm> makeHeldChi2Term(imaging::ImagingOperator<double>& op,
                                           const std::vector<VisibilityChunk>& chunks,
                                           Chi2Options options = {});

}  // namespace apertura::rml
