#pragma once

#include <string>
#include <vector>

#include "core/engine/communicator.h"

namespace apertura::engine {

// Collective: the reader warnings of every rank merged into those of the whole data set, the same
// list on every rank. A reader counts what it saw in its own rows ("PATH: 12 correlation samples
// with NaN ... were flagged"), so a warning of the form "PREFIX: N TEXT" appears once with N
// summed over the ranks; "PREFIX: all N selected visibilities are flagged" only when every rank
// says so (with the total); any other warning once, in order of first appearance by rank.
// One rank: `local` unchanged.
std::vector<std::string> mergeWarningsOverRanks(const std::vector<std::string>& local,
                                                Communicator& comm);

}  // namespace apertura::engine
