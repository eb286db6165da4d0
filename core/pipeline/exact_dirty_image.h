#pragma once

#include "core/data/chunk_sequence.h"
#include "core/imaging/dirty_mapper.h"

namespace apertura::pipeline {

// makeDirtyImage for the deterministic reduction: the weight density, the dirty image, the PSF
// and the weight sum are sums of per-chunk partials (a density grid, an image gridded and
// transformed on its own: one FFT per chunk) added exactly (ExactSum) over all chunks of all
// processes (settings.sum_over_processes). The result depends only on the chunks: bit for bit the
// same for any number of processes holding them. Each sum takes two passes (the first agrees on
// the range of the partials), so this costs about six passes over the data instead of three.
imaging::DirtyImageResult makeExactDirtyImage(ChunkSequence& chunks,
                                              const imaging::DirtyImageSettings& settings);

}  // namespace apertura::pipeline
