#pragma once

#include <string>
#include <vector>

#include "core/data/dataset_summary.h"
#include "core/io/ms_data_rewrite.h"

namespace apertura {

// The UVFITS counterpart of rewriteMsData: writes a copy of a UVFITS file (AIPS Memo 117 random
// groups) in which every group's data hold the sky's visibilities plus noise drawn from its
// weights: parallel hands (RR LL, XX YY) and Stokes I the Stokes I value, other correlations
// zero. The random parameters, the header and every extension (AN, FQ, SU, ...) are the input's,
// byte for byte; a weight <= 0 (flagged) stays so and gets no noise. `field_id` passed to the sky
// is the field index the reader gives the group (its SU row, or SOURCE - 1 without an SU table).
// With weight_scale != 1 the weights are scaled too, which needs a weight on the COMPLEX axis.
// Integer data (BITPIX > 0) are refused: new values could overflow their scaling. Throws
// InputError naming the file, the keyword or the group and the problem.
DataRewriteSummary rewriteUvfitsData(const DataRewriteRequest& request);

// Sum of the Stokes I weights of the file's cross-correlation samples of field `field_id` (every
// field when negative), as stokesIWeightSum does for a Measurement Set.
double uvfitsStokesIWeightSum(const std::string& path, int field_id = -1);

// What `simulate --like` needs of a UVFITS observation, read in one pass over its groups: the
// fields as its reader reports them (one per SU row, else one per SOURCE value up to the highest
// in use, all at the header's position), the lowest field index of its cross-correlation groups
// (the field imaging picks first) and that field's Stokes I weight sum.
struct UvfitsObservation {
  std::vector<FieldInfo> fields;
  int first_field = 0;
  double weight_sum = 0.0;
};
UvfitsObservation readUvfitsObservation(const std::string& path);

}  // namespace apertura
