// Backend selection: CPU, or the CUDA operator of apertura_cuda (core/cuda) when it was built.
#include "core/imaging/operator_factory.h"

#include <cstdlib>
#include <cstring>
#include <sstream>
#include <type_traits>

#include "core/imaging/device_kernel.h"
#include "core/imaging/operator_layout.h"
#include "core/imaging/w_stacking.h"
#include "core/util/input_error.h"

#include "core/imaging/cuda_module_loader.h"

namespace apertura::imaging {

BackendDecision decideBackend(const BackendRequest& request, const GpuInventory& inventory) {
  const Backend b = request.backend;
  if (b == Backend::Cpu)
    return {false, "cpu (requested)"};
  std::string why_not;
  if (!inventory.built_with_cuda)
    why_not = "this build has no CUDA backend";
  else if (inventory.devices.empty())
    why_not = "no CUDA device" + (inventory.problem.empty() ? "" : ": " + inventory.problem);
  else if (request.device < 0 || request.device >= int(inventory.devices.size()))
    why_not = "CUDA device " + std::to_string(request.device) + " does not exist (" +
              std::to_string(inventory.devices.size()) + " found)";
  if (b == Backend::Cuda && !why_not.empty()) {
    const bool device_problem = inventory.built_with_cuda && !inventory.devices.empty();
    throw InputError(device_problem ? "imaging.gpu_device" : "imaging.backend",
                     "cuda requested, but " + why_not);
  }
  if (!why_not.empty())
    return {false, "cpu (auto: " + why_not + ")"};
  return {true, "cuda device " + std::to_string(request.device) + ": " +
                    describeGpu(inventory.devices[std::size_t(request.device)]) +
                    (b == Backend::Auto ? " (auto)" : " (requested)")};
}

int cudaThreadsPerBlock(const char* value) {
  if (value == nullptr || *value == '\0')
    return 256;
  char* end = nullptr;
  const long n = std::strtol(value, &end, 10);
  if (*end != '\0' || n < 32 || n > 1024 || n % 32 != 0)
    throw InputError("APERTURA_CUDA_THREADS", std::string("'") + value +
                                                  "' is not a thread count per block (expected a "
                                                  "multiple of 32 from 32 to 1024)");
  return int(n);
}

bool cudaTiledGridding(const char* value) {
  if (value == nullptr || *value == '\0' || std::strcmp(value, "tiled") == 0)
    return true;
  if (std::strcmp(value, "simple") == 0)
    return false;
  throw InputError("APERTURA_CUDA_GRIDDER",
                   std::string("'") + value + "' is not a gridder (expected tiled or simple)");
}

namespace {

#if APERTURA_HAVE_CUDA
template <typename T>
std::unique_ptr<ImagingOperator<T>> makeCuda(const ImageGeometry& g, const OperatorSettings& s,
                                             int device) {
  const OperatorLayout layout = makeOperatorLayout(g, s, std::is_same_v<T, float>);
  cuda::CudaOperatorConfig c;
  c.geometry = g;
  c.settings = s;
  c.kernel = layout.kernel;
  c.packed = packDeviceKernel(layout.kernel, layout.grid_u, layout.grid_v);
  c.corr_x = layout.corr_x;
  c.corr_y = layout.corr_y;
  c.device = device;
  c.threads_per_block = cudaThreadsPerBlock(std::getenv("APERTURA_CUDA_THREADS"));
  c.tiled_gridding = cudaTiledGridding(std::getenv("APERTURA_CUDA_GRIDDER"));
  // The same fields as the CPU operator's describe().
  std::ostringstream o;
  o << "kernel=" << kernelTypeName(layout.kernel.type) << " W=" << layout.kernel.support
    << " beta=" << layout.kernel.beta << " sigma=" << s.oversampling << " epsilon=" << s.epsilon
    << " grid=" << layout.grid_u << "x" << layout.grid_v;
  c.description = o.str();
  c.description_tail =
      std::string("precision=") + (std::is_same_v<T, float> ? "float" : "double") +
      (std::is_same_v<T, float> && s.double_accumulation ? " accumulation=double" : "");
  if (s.w_stacking)
    c.plan_w_stack = [g, s, kernel = layout.kernel](const std::vector<UvwBlock>& blocks) {
      return planWStackFor(blocks, g, kernel, s);
    };
  std::string problem;
  const CudaModule* module = loadCudaModule(problem);
  if (!module)
    throw InputError("imaging.backend", problem);
  if constexpr (std::is_same_v<T, float>)
    return std::unique_ptr<ImagingOperator<T>>(module->make_float(c));
  else
    return std::unique_ptr<ImagingOperator<T>>(module->make_double(c));
}
#endif

}  // namespace

template <typename T>
std::unique_ptr<ImagingOperator<T>> makeOperator(const ImageGeometry& geometry,
                                                 const OperatorSettings& settings,
                                                 const BackendRequest& request,
                                                 std::string* report) {
  const GpuInventory inventory =
      request.backend == Backend::Cpu ? GpuInventory{} : queryGpuDevices();
  const BackendDecision d = decideBackend(request, inventory);
  std::string line = d.reason;
  std::unique_ptr<ImagingOperator<T>> op;
#if APERTURA_HAVE_CUDA
  if (d.use_cuda) {
    try {
      op = makeCuda<T>(geometry, settings, request.device);
    } catch (const std::exception& e) {
      if (request.backend != Backend::Auto)
        throw;
      line = std::string("cpu (auto: the CUDA operator could not be created: ") + e.what() + ")";
    }
  }
#endif
  if (!op)
    op = makeCpuOperator<T>(geometry, settings);
  if (report)
    *report = line;
  return op;
}

template std::unique_ptr<ImagingOperator<float>> makeOperator<float>(const ImageGeometry&,
                                                                     const OperatorSettings&,
                                                                     const BackendRequest&,
                                                                     std::string*);
template std::unique_ptr<ImagingOperator<double>> makeOperator<double>(const ImageGeometry&,
                                                                       const OperatorSettings&,
                                                                       const BackendRequest&,
                                                                       std::string*);

}  // namespace apertura::imaging

namespace apertura {

template <>
const std::vector<ChoiceName<imaging::Backend>>& choiceTable<imaging::Backend>() {
  using imaging::Backend;
  static const std::vector<ChoiceName<Backend>> t = {
      {Backend::Auto, "auto"}, {Backend::Cpu, "cpu"}, {Backend::Cuda, "cuda"}};
  return t;
}

}  // namespace apertura
