#pragma once

#include <string>
#include <vector>

#include "core/data/chunk_sequence.h"
#include "core/data/process_sum.h"
#include "core/data/visibility_chunk.h"
#include "core/imaging/beam_fit.h"
#include "core/imaging/image_geometry.h"
#include "core/imaging/imaging_operator.h"
#include "core/imaging/operator_factory.h"
#include "core/imaging/weighting.h"

namespace apertura::imaging {

struct DirtyImageSettings {
  ImageGeometry geometry;
  OperatorSettings op;  // double precision is used when op.epsilon < 1e-6
  WeightingSettings weighting;
  // Distributed runs: each process holds some of the chunks; weight densities, weight sums and
  // both images are summed over processes (null: one process).
  SumOverProcesses sum_over_processes;
  // The backend of the gridding operator (operator_factory.h). CPU unless the caller passes the
  // project's imaging.backend / imaging.gpu_device, as the pipeline's dirty stages do.
  BackendRequest backend{Backend::Cpu, 0};
};

struct DirtyImageResult {
  std::vector<float> dirty;  // Jy/beam: a 1 Jy point source at the phase centre peaks at 1
  std::vector<float> psf;    // dirty beam, peak 1
  CleanBeam beam;            // fitted to the PSF main lobe
  double sum_weights = 0.0;  // sum of imaging weights (the normalisation)
  std::size_t samples = 0;   // samples with non-zero imaging weight
  std::vector<double> frequencies_hz;  // min and max frequency imaged
  std::string operator_description;    // the factory's backend line, then the operator's describe()
};

// The dirty image and PSF of the given chunks (all of them together: pass one spectral window's
// chunks for a per-spw image, all chunks for multi-frequency synthesis):
//   dirty = Re(A^H (w V)) / sum w,   psf = Re(A^H w) / sum w, renormalised to peak 1,
// where w are the imaging weights. Each baseline appears once in the data; taking the real part
// adds its Hermitian partner (-u, -v, -w), V*.
DirtyImageResult makeDirtyImage(const std::vector<const VisibilityChunk*>& chunks,
                                const DirtyImageSettings& settings);
// The same over any chunk sequence. Streamed chunks are read in up to three passes (gridded
// weights for uniform/Briggs, dirty image, PSF) and only one chunk is held at a time; held chunks
// are planned once. Both give the same images bit for bit. w-stacking needs held chunks.
DirtyImageResult makeDirtyImage(ChunkSequence& chunks, const DirtyImageSettings& settings);

}  // namespace apertura::imaging
