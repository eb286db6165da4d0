#pragma once

#include <cstdint>
#include <string>

#include "core/project/project_settings.h"

namespace apertura::engine {

// How much data a run will touch, known from the data set summary and the selection.
struct DataVolume {
  std::uint64_t rows = 0;
  std::uint64_t samples = 0;  // rows x selected channels (one imaged product)
  int channels_per_row = 1;
  int spectral_windows = 1;  // selected windows (a cube has planes in each)
  // A distributed run: the volume is one process's share; the run's processes and whether they
  // sum with the deterministic reduction (--deterministic-reduction) change what it holds.
  int processes = 1;
  bool deterministic_reduction = false;
  // The selected channels' span over their mean frequency (fractionalBandwidth; 0: unknown), for
  // imaging.mfs_spectrum auto.
  double fractional_band = 0.0;
};

// Whether an MFS run's model has a linear spectrum (two planes and two operators): the same rule
// as the pipeline's (pipeline/linear_spectrum.h), from the volume's band.
bool linearSpectrumModel(const project::ProjectSettings& settings, const DataVolume& data);

// Image planes of a run: 1 for MFS; for imaging.spectral_mode cube, channels_per_plane groups of
// each window's channels (an upper bound when windows differ in width).
std::uint64_t imagePlanes(const project::ProjectSettings& settings, const DataVolume& data);

// A run's memory, by part, before it starts: shown by the GUI while settings are edited and used
// by the engine to choose resident vs streaming data and how many chunks to work on at once.
struct MemoryEstimate {
  std::uint64_t grid_bytes = 0;             // padded uv grids and FFT work space
  std::uint64_t image_bytes = 0;            // image-sized working buffers
  std::uint64_t optimizer_bytes = 0;        // optimizer state (L-BFGS history, CG directions, ...)
  std::uint64_t optimizer_spill_bytes = 0;  // L-BFGS pairs spilled to the scratch dir (disk)
  std::uint64_t visibility_bytes = 0;       // data held in RAM (all of it, or the chunks in flight)
  std::uint64_t budget_bytes = 0;
  bool resident = true;          // false: visibilities stream from disk every pass
  std::uint64_t chunk_rows = 0;  // rows per chunk chosen (or the user's)
  int concurrent_chunks = 1;
  // GPU memory when imaging.backend is "cuda" (0 otherwise): the CUDA operator's two grids, FFT
  // work area, image, the uvw of every row (kept on the device between iterations) and one
  // chunk's visibilities and weights in flight; and, when optimizer_on_device, the optimizer's
  // vectors and the objective's work images (optimizer_bytes is then 0). Not part of
  // totalBytes(), which is host memory.
  std::uint64_t device_bytes = 0;
  bool optimizer_on_device = false;
  // The optimizer's chi2 goes through the PSF (imaging.operator): psf, or auto where the PSF
  // mode applies and its memory fits the budget (else auto counts, and the run takes, the
  // visibilities).
  bool psf_mode = false;

  std::uint64_t totalBytes() const {
    return grid_bytes + image_bytes + optimizer_bytes + visibility_bytes;
  }
  bool fitsBudget() const { return totalBytes() <= budget_bytes; }
  std::string describe() const;  // one line per part, in MiB/GiB
};

// What a run over its memory budget can change to fit (the GUI asks before starting such a
// run): the visibilities streamed from disk instead of held (when data.mode resident forces
// them and streaming alone fits; never with w-stacking), and the largest square image, a
// multiple of 32 px below the run's, that fits with the run's own data.mode (0: none from
// 64 px up).
struct BudgetFit {
  bool streaming_fits = false;
  int image_size = 0;
};
BudgetFit fitWithinBudget(const project::ProjectSettings& settings, const DataVolume& data,
                          std::uint64_t machine_bytes);

// The optimizer's image-sized vectors beyond the run's image buffers (model and gradient), in RAM
// and spilled to disk (L-BFGS pairs beyond optimizer.in_memory_limit).
struct OptimizerMemory {
  std::uint64_t ram_vectors = 0;
  std::uint64_t ram_bytes = 0;
  std::uint64_t spill_bytes = 0;
};
OptimizerMemory optimizerMemory(const project::ProjectSettings& settings, std::uint64_t pixels);
// Whether a run keeps the optimizer's vectors in the GPU's memory (the resident RML iteration;
// solver_run decides it at run time on the same conditions, for one process): the CUDA backend
// (an image, or a cube: its planes are copied to plane vectors there), built-in regularizers only,
// and L-BFGS with its pairs (double or float) all in memory, nonlinear CG, or FISTA with any of
// them (l1, tv and tv-aniso each have a resident prox, over x >= 0 too, several joined by an inner
// SDMM); not with the deterministic reduction's exact per-chunk sums, which are formed on the host
// (w-stacking has none). The device's free memory is checked at run time only.
bool optimizerOnDevice(const project::ProjectSettings& settings,
                       bool deterministic_reduction = false);
// optimizer.history_memory_gb in bytes (0: no limit), as the L-BFGS history takes it.
std::uint64_t historyMemoryBytes(const project::OptimizerSettings& optimizer);

// `machine_bytes` is the physical memory, used when the budget is "auto" (half of it).
MemoryEstimate estimateMemory(const project::ProjectSettings& settings, const DataVolume& data,
                              std::uint64_t machine_bytes);

// Bytes per visibility sample held by the engine: complex data, weight, the gridder's plan, plus
// its share of the row's uvw and metadata.
std::uint64_t bytesPerSample(const DataVolume& data);

}  // namespace apertura::engine
