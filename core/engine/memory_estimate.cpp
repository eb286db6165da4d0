#include "core/engine/memory_estimate.h"
#include "core/util/thread_count.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/plugin/plugin_registry.h"
#include "core/rml/builtin_regularizers.h"
#include "core/rml/lbfgs_history.h"
#include "core/rml/space_sdmm.h"

namespace apertura::engine {
namespace {

// Image-sized double buffers a run keeps: model, gradient, dirty, PSF, residual, restored, mask,
// and two scratch images for the regularizers and line search.
constexpr std::uint64_t kImageBuffers = 9;

std::string size(std::uint64_t bytes) {
  char buf[32];
  if (bytes >= (1ull << 30)) {
    std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / double(1ull << 30));
  } else {
    std::snprintf(buf, sizeof buf, "%.1f MiB", bytes / double(1ull << 20));
  }
  return buf;
}

}  // namespace

std::uint64_t historyMemoryBytes(const project::OptimizerSettings& o) {
  return o.history_memory_gb ? static_cast<std::uint64_t>(*o.history_memory_gb * double(1ull << 30))
                             : 0;
}

OptimizerMemory optimizerMemory(const project::ProjectSettings& s, std::uint64_t pixels) {
  const auto& o = s.optimizer;
  // L-BFGS working vectors besides the model and the gradient, all double: the direction (the
  // projected gradient is formed in it, and s and y straight in the history's slots), the line
  // search's trial point and its gradient.
  constexpr std::uint64_t kLbfgsDoubleWork = 3;
  // The history's pairs (and the mapped spilled pair) are in double or float.
  const auto lbfgs = [&](std::uint64_t m, std::uint64_t resident, std::uint64_t element) {
    OptimizerMemory mem;
    resident = std::min(m, std::max<std::uint64_t>(1, resident));
    // Streaming maps one spilled (s, y) pair at a time: resident while it is read.
    const std::uint64_t history_vectors = 2 * resident + (resident < m ? 2 : 0);
    mem.ram_vectors = history_vectors + kLbfgsDoubleWork;
    mem.ram_bytes = (history_vectors * element + kLbfgsDoubleWork * sizeof(double)) * pixels;
    mem.spill_bytes = 2 * (m - resident) * pixels * element;
    return mem;
  };
  OptimizerMemory mem;
  if (o.method == project::OptimizerMethod::Lbfgs) {
    // The pairs in RAM as the history itself decides them (limit, or memory threshold).
    rml::LbfgsHistoryOptions history;
    history.max_corrections = o.history;
    history.in_memory_limit = o.in_memory_limit.value_or(0);
    history.memory_threshold_bytes = historyMemoryBytes(o);
    history.float_storage = o.history_precision == project::Precision::Float;
    const auto m = static_cast<std::uint64_t>(std::max(1, o.history));
    const auto resident =
        static_cast<std::uint64_t>(rml::LbfgsHistory::residentPairs(pixels, history));
    return lbfgs(m, resident, history.float_storage ? sizeof(float) : sizeof(double));
  }
  if (o.method == project::OptimizerMethod::Fista) {
    // Extrapolated point, its gradient, prox input and output; per TV prox its dual fields (two
    // pairs), its primal iterate and the copies of its input and output. Several non-smooth terms
    // (plugins' counted too: an upper bound) share an inner SDMM with the quadratic and
    // positivity.
    std::uint64_t prox_vectors = 0, nonsmooth = 0;
    for (const auto& r : s.regularizers) {
      if (r.lambda == 0.0)
        continue;
      const rml::RegularizerDescriptor* builtin = rml::findBuiltinRegularizer(r.type);
      prox_vectors += builtin != nullptr ? std::uint64_t(builtin->prox_vectors) : 0;
      nonsmooth +=
          plugin::isBuiltinNonSmoothRegularizer(r.type) || !plugin::isBuiltinRegularizer(r.type)
              ? 1
              : 0;
    }
    const std::uint64_t joint = nonsmooth + (o.positivity != project::Positivity::None ? 1 : 0);
    mem.ram_vectors = 4 + prox_vectors + (nonsmooth > 1 ? rml::proxOfSumVectors(joint) : 0);
  } else if (o.method == project::OptimizerMethod::Sdmm) {
    // Per function (the smooth part, each regularizer, positivity): y_i and z_i; plus the prox
    // input, the warm start, and the inner L-BFGS (default history 10, all in RAM) of the smooth
    // part's prox. Every regularizer is counted, smooth ones too: an upper bound.
    std::uint64_t functions = 1 + (o.positivity != project::Positivity::None ? 1 : 0);
    for (const auto& r : s.regularizers)
      functions += r.lambda != 0.0 ? 1 : 0;
    mem.ram_vectors = 2 * functions + 2 + lbfgs(10, 10, sizeof(double)).ram_vectors;
  } else {
    mem.ram_vectors = 3;  // nonlinear CG: direction, trial point and its gradient
  }
  mem.ram_bytes = mem.ram_vectors * pixels * sizeof(double);
  return mem;
}

bool optimizerOnDevice(const project::ProjectSettings& s, bool deterministic_reduction) {
  if (s.imaging.backend != imaging::Backend::Cuda)
    return false;
  if (deterministic_reduction && !s.imaging.w_stacking)
    return false;
  for (const auto& r : s.regularizers) {
    if (r.lambda != 0.0 && !plugin::isBuiltinRegularizer(r.type))
      return false;  // a plugin's term is evaluated on the host
  }
  const auto& o = s.optimizer;
  if (o.method == project::OptimizerMethod::Lbfgs) {
    rml::LbfgsHistoryOptions history;
    history.max_corrections = o.history;
    history.in_memory_limit = o.in_memory_limit.value_or(0);
    history.memory_threshold_bytes = historyMemoryBytes(o);
    history.float_storage = o.history_precision == project::Precision::Float;
    return rml::LbfgsHistory::residentPairs(std::uint64_t(s.imaging.nx) * s.imaging.ny, history) ==
           std::max(1, o.history);
  }
  if (project::isConjugateGradient(o.method))
    return true;
  // FISTA: one term's prox, or several by an inner SDMM, all resident.
  return o.method == project::OptimizerMethod::Fista;
}

bool linearSpectrumModel(const project::ProjectSettings& s, const DataVolume& data) {
  return project::wantsLinearSpectrum(s.imaging, data.fractional_band) &&
         project::linearSpectrumUnavailable(s.imaging, data.deterministic_reduction).empty();
}

std::uint64_t imagePlanes(const project::ProjectSettings& s, const DataVolume& data) {
  if (s.imaging.spectral_mode != project::SpectralMode::Cube)
    return 1;
  const auto chans = static_cast<std::uint64_t>(std::max(1, data.channels_per_row));
  const auto per_plane = static_cast<std::uint64_t>(std::max(1, s.imaging.channels_per_plane));
  return (chans + per_plane - 1) / per_plane *
         static_cast<std::uint64_t>(std::max(1, data.spectral_windows));
}

std::uint64_t bytesPerSample(const DataVolume& data) {
  // Per row: uvw (3 doubles), time, the two antennas and the source row number.
  const std::uint64_t per_row = 3 * sizeof(double) + sizeof(double) + 2 * sizeof(int) + 8;
  const std::uint64_t chans = static_cast<std::uint64_t>(std::max(1, data.channels_per_row));
  // complex<float> data + float weight + the gridder's plan of the sample (its index in tile
  // order and its tap position: 4 + 12), and the row's share. Model visibilities exist for one
  // chunk at a time only.
  return 8 + 4 + 16 + (per_row + chans - 1) / chans;
}

namespace {

// Whether the optimizer's chi2 can go through the PSF (pipeline: optimizerPsfTerm): an MFS run
// without w-stacking, the deterministic reduction or a CUDA operator, with operator psf or auto.
bool psfModeApplies(const project::ProjectSettings& s, const DataVolume& data) {
  const auto& im = s.imaging;
  return im.data_operator != project::OperatorMode::Visibilities &&
         im.spectral_mode == project::SpectralMode::Mfs && !im.w_stacking &&
         !data.deterministic_reduction && im.backend != imaging::Backend::Cuda;
}

MemoryEstimate estimateWith(const project::ProjectSettings& s, const DataVolume& data,
                            std::uint64_t machine_bytes, bool run_psf);

}  // namespace

MemoryEstimate estimateMemory(const project::ProjectSettings& s, const DataVolume& data,
                              std::uint64_t machine_bytes) {
  const bool psf = psfModeApplies(s, data);
  MemoryEstimate e = estimateWith(s, data, machine_bytes, psf);
  if (psf && s.imaging.data_operator == project::OperatorMode::Auto && !e.fitsBudget()) {
    MemoryEstimate without = estimateWith(s, data, machine_bytes, false);
    if (without.fitsBudget())
      return without;
  }
  return e;
}

namespace {

MemoryEstimate estimateWith(const project::ProjectSettings& s, const DataVolume& data,
                            std::uint64_t machine_bytes, bool run_psf) {
  MemoryEstimate e;
  e.psf_mode = run_psf;
  const auto& im = s.imaging;
  const std::uint64_t pixels =
      static_cast<std::uint64_t>(im.nx) * static_cast<std::uint64_t>(im.ny);
  const auto padded = [&](int n) {
    return static_cast<std::uint64_t>(std::ceil(n * im.oversampling / 2.0) * 2.0);
  };
  const std::uint64_t complex_size = im.precision == project::Precision::Double ? 16 : 8;
  const int threads = threadCount(im.threads);
  // Two grids (the model's transform, and the one the data term's residuals are gridded into,
  // tiles combined: double with float precision and grid_accumulation double), a real weight
  // grid for uniform/Briggs, and a 64x64 tile buffer per thread.
  const std::uint64_t accumulator_size =
      im.grid_accumulation == project::Precision::Double ? 16 : complex_size;
  const std::uint64_t grid_cell_bytes = complex_size + accumulator_size + 4;
  e.grid_bytes = padded(im.nx) * padded(im.ny) * grid_cell_bytes +
                 static_cast<std::uint64_t>(threads) * 64 * 64 * complex_size;
  // Cross-validated lambdas (pipeline/cross_validation.h) may train on PSF-mode terms (no w-term):
  // a fold's PSF is gridded by an operator on the doubled image (four times the grids, for a
  // moment), then its convolutions use the doubled image's real array, half spectrum and kernel.
  const bool cross_validates =
      project::hasAutomaticLambda(s) && s.regularization.method == project::LambdaMethod::Cv;
  if (cross_validates && !im.w_stacking)
    e.grid_bytes += std::max<std::uint64_t>(4 * padded(im.nx) * padded(im.ny) * grid_cell_bytes,
                                            4 * pixels * (8 + 8 + 4));
  // The run's own PSF-mode term (imaging.operator) keeps, while the optimizer runs, the doubled
  // image's real array, half spectrum and kernel and four image-sized vectors (the step from the
  // anchor, its convolution, the anchor and its gradient): 128 bytes a pixel, 107-135 measured
  // over four solvers and sizes (test_memory_estimate_rss). Its PSF is gridded before the
  // optimizer allocates, and never raised the peak there.
  if (run_psf)
    e.grid_bytes += 128 * pixels;
  const std::uint64_t psf_terms = im.w_stacking ? 0 : (cross_validates ? 1 : 0) + (run_psf ? 1 : 0);
  // Every image buffer and the optimizer's vectors hold all planes of a cube.
  const std::uint64_t planes = imagePlanes(s, data);
  e.image_bytes = kImageBuffers * planes * pixels * sizeof(double);
  // A linear spectrum's model has two planes, and a second operator (its grids) for the second.
  const std::uint64_t parameters =
      linearSpectrumModel(s, data) ? 2 * planes * pixels : planes * pixels;
  if (parameters > planes * pixels) {
    e.grid_bytes += padded(im.nx) * padded(im.ny) * grid_cell_bytes;
    e.image_bytes += kImageBuffers * pixels * sizeof(double);
    // Its PSF mode holds three kernels (real half spectra of the doubled image) and the two
    // planes' complex spectra instead of one kernel.
    e.grid_bytes += psf_terms * (2 * 2 * pixels * 8 + 2 * 2 * pixels * 16);
  }
  const OptimizerMemory optimizer = optimizerMemory(s, parameters);
  e.optimizer_on_device = optimizerOnDevice(s, data.deterministic_reduction);
  // A distributed run on the device forms each process's partial gradient there and sums it over
  // processes through a copy on the host (rml::ResidentProcessSum).
  if (e.optimizer_on_device && data.processes > 1)
    e.image_bytes += pixels * sizeof(double);
  e.optimizer_bytes = e.optimizer_on_device ? 0 : optimizer.ram_bytes;
  e.optimizer_spill_bytes = optimizer.spill_bytes;

  e.budget_bytes = s.data.memory_budget_gb
                       ? static_cast<std::uint64_t>(*s.data.memory_budget_gb * double(1ull << 30))
                       : machine_bytes / 2;
  const std::uint64_t per_sample = bytesPerSample(data);
  const std::uint64_t fixed = e.grid_bytes + e.image_bytes + e.optimizer_bytes;
  // w-stacking grids and degrids every sample in one call: the dirty image's imaging weights and
  // visibilities in the operator's precision, then the data term's model of every sample (the
  // larger of the two; they never coexist).
  const std::uint64_t held_call_bytes = im.w_stacking ? sizeof(float) + complex_size : 0;
  const std::uint64_t all_data = data.samples * (per_sample + held_call_bytes);
  const std::uint64_t chans = static_cast<std::uint64_t>(std::max(1, data.channels_per_row));

  e.concurrent_chunks = threads;
  if (s.data.chunk_rows) {
    e.chunk_rows = *s.data.chunk_rows;
  } else {
    // Aim for chunks of about 64 MiB.
    e.chunk_rows = std::max<std::uint64_t>(1024, (64ull << 20) / (per_sample * chans));
  }
  // Cross-validated lambdas copy a fold's training part of resident data once (one fold at a
  // time): the visibilities twice.
  const std::uint64_t held_data = cross_validates ? 2 * all_data : all_data;
  // data.mode forces a choice; w-stacking needs every visibility at once.
  const bool fits = fixed + held_data <= e.budget_bytes;
  e.resident = s.data.mode == ReadMode::kResident ||
               (s.data.mode != ReadMode::kStreaming && (fits || s.imaging.w_stacking));
  if (e.resident) {
    e.visibility_bytes = held_data;
  } else {
    // Streaming holds the chunks queued by the I/O thread (2), the one it reads and the one in
    // use, plus that one's model visibilities.
    const std::uint64_t chunk_bytes = e.chunk_rows * chans * per_sample;
    e.visibility_bytes = 4 * chunk_bytes + e.chunk_rows * chans * complex_size;
  }
  if (im.backend == imaging::Backend::Cuda) {
    // As core/cuda/cuda_operator.cu allocates: grid, accumulator and cuFFT's work area (about a
    // grid: counted as one), the complex image and the correction vectors; uvw of every row and
    // the per-channel scales; one block's visibilities (complex) and weights (float). w-stacking
    // holds every block's visibilities and weights, each sample's index in w-plane order, and
    // two per-pixel screens in double.
    const std::uint64_t cells = padded(im.nx) * padded(im.ny);
    const std::uint64_t real_size = complex_size / 2;
    const std::uint64_t block_samples =
        std::min<std::uint64_t>(std::max<std::uint64_t>(data.samples, 1), e.chunk_rows * chans);
    e.device_bytes = 3 * cells * complex_size + pixels * complex_size +
                     static_cast<std::uint64_t>(im.nx + im.ny) * real_size +
                     data.rows * 3 * sizeof(double) +
                     block_samples * (complex_size + sizeof(float));
    if (im.w_stacking)
      e.device_bytes += data.samples * (complex_size + sizeof(float) + sizeof(std::uint32_t)) +
                        2 * pixels * sizeof(double);
    if (e.optimizer_on_device) {
      // The optimizer's vectors (float L-BFGS pairs at 4 bytes), the iterate and its gradient,
      // and four images of the objective's (the mapped image and its gradient, the support, the
      // regularizers' masks), as rml::residentLbfgsBytes allows for. w-stacking's resident chi2
      // also keeps the measured visibilities (complex float) on the device.
      e.device_bytes += optimizer.ram_bytes + (2 + 4) * planes * pixels * sizeof(double);
      if (planes > 1) {
        // A cube: every plane-wise term's two plane vectors (the data term's and each
        // regularizer's), each plane's regularizers' masks and work images (one per plane and
        // regularizer, an estimate), and the across-channel terms' four.
        std::uint64_t regularizers = 0;
        for (const auto& r : s.regularizers)
          regularizers += r.lambda != 0.0 ? 1 : 0;
        e.device_bytes += (2 * (1 + regularizers) + planes * regularizers + 4 * regularizers) *
                          pixels * sizeof(double);
      }
      if (im.w_stacking)
        e.device_bytes += data.samples * 2 * sizeof(float);
      if (data.processes > 1)
        e.device_bytes += pixels * sizeof(double);  // the partial gradient (see above)
    }
  }
  return e;
}

}  // namespace

std::string MemoryEstimate::describe() const {
  std::string out;
  out +=
      "grids " + size(grid_bytes) + ", images " + size(image_bytes) + ", optimizer " +
      size(optimizer_bytes) +
      (optimizer_spill_bytes > 0 ? " (+ " + size(optimizer_spill_bytes) + " L-BFGS spill on disk)"
                                 : std::string()) +
      ", visibilities " + size(visibility_bytes) +
      (resident ? " (resident)" : " (streaming, " + std::to_string(chunk_rows) + " rows/chunk)") +
      "; total " + size(totalBytes()) + " of a " + size(budget_bytes) + " budget";
  if (device_bytes > 0)
    out += "; GPU " + size(device_bytes) +
           (optimizer_on_device ? " (optimizer state on the GPU)" : std::string());
  return out;
}

BudgetFit fitWithinBudget(const project::ProjectSettings& settings, const DataVolume& data,
                          std::uint64_t machine_bytes) {
  BudgetFit fit;
  project::ProjectSettings s = settings;
  if (s.data.mode == ReadMode::kResident && !s.imaging.w_stacking) {
    s.data.mode = ReadMode::kStreaming;
    fit.streaming_fits = estimateMemory(s, data, machine_bytes).fitsBudget();
    s.data.mode = settings.data.mode;
  }
  const int largest = std::min(settings.imaging.nx, settings.imaging.ny);
  for (int n = (largest - 1) / 32 * 32; n >= 64; n -= 32) {
    s.imaging.nx = s.imaging.ny = n;
    if (estimateMemory(s, data, machine_bytes).fitsBudget()) {
      fit.image_size = n;
      break;
    }
  }
  return fit;
}

}  // namespace apertura::engine
