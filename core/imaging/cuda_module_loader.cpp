// Finds and loads libapertura_cuda.so with dlopen. The search is relative to the running program
// (build tree: build/lib/apertura beside build/app and build/tests/<area>; installed or bundled:
// <prefix>/lib/apertura beside <prefix>/bin), never a path compiled in, so installed binaries hold
// no build-tree paths.
#include "core/imaging/cuda_module_loader.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <vector>

namespace apertura::imaging {

namespace {

struct Loaded {
  CudaModule module;
  bool ok = false;
  std::string problem;
};

#if APERTURA_HAVE_CUDA
std::vector<std::filesystem::path> candidates() {
  std::vector<std::filesystem::path> out;
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec)
    return out;
  const std::filesystem::path dir = exe.parent_path();
  for (const std::filesystem::path& base :
       {dir, dir.parent_path(), dir.parent_path().parent_path()}) {
    const std::filesystem::path p = base / "lib" / "apertura" / cuda::kCudaModuleFile;
    if (out.empty() || out.back() != p)  // "/" is its own parent
      out.push_back(p);
  }
  return out;
}

template <typename F>
F symbol(void* handle, const char* name, std::string& problem) {
  void* s = dlsym(handle, name);
  if (!s)
    problem = std::string("the CUDA module lacks ") + name;
  return reinterpret_cast<F>(s);
}

#endif

Loaded load() {
  Loaded l;
#if APERTURA_HAVE_CUDA
  std::vector<std::filesystem::path> paths;
  if (const char* env = std::getenv("APERTURA_CUDA_MODULE"); env && *env)
    paths.emplace_back(env);
  else
    paths = candidates();
  std::string tried;
  for (const auto& p : paths) {
    std::error_code ec;
    if (!std::filesystem::exists(p, ec)) {
      tried += (tried.empty() ? "" : ", ") + p.string();
      continue;
    }
    void* handle = dlopen(p.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char* e = dlerror();
      l.problem = "the CUDA module " + p.string() + " does not load: " + (e ? e : "?");
      return l;
    }
    const auto abi = symbol<cuda::AbiFn>(handle, "apertura_cuda_abi", l.problem);
    if (!abi)
      return l;
    if (abi() != cuda::kCudaModuleAbi) {
      l.problem = "the CUDA module " + p.string() + " is from another build (ABI " +
                  std::to_string(abi()) + ", expected " + std::to_string(cuda::kCudaModuleAbi) +
                  ")";
      return l;
    }
    l.module.query = symbol<cuda::QueryFn>(handle, "apertura_cuda_query_devices", l.problem);
    l.module.make_float =
        symbol<cuda::MakeFloatFn>(handle, "apertura_cuda_make_operator_float", l.problem);
    l.module.make_double =
        symbol<cuda::MakeDoubleFn>(handle, "apertura_cuda_make_operator_double", l.problem);
    l.module.path = p.string();
    l.ok = l.module.query && l.module.make_float && l.module.make_double;
    return l;
  }
  l.problem = std::string("the CUDA module ") + cuda::kCudaModuleFile + " was not found (" + tried +
              "; APERTURA_CUDA_MODULE names it)";
#else
  l.problem = "this build has no CUDA backend";
#endif
  return l;
}

}  // namespace

const CudaModule* loadCudaModule(std::string& problem) {
  static std::once_flag once;
  static Loaded loaded;
  std::call_once(once, [] { loaded = load(); });
  if (!loaded.ok) {
    problem = loaded.problem;
    return nullptr;
  }
  return &loaded.module;
}

}  // namespace apertura::imaging
