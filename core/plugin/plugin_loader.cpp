#include "core/plugin/plugin_loader.h"

#include <dlfcn.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <exception>
#include <set>

namespace apertura::plugin {
namespace {

// Names are short: a name without a terminator within this many bytes is a damaged table.
constexpr std::size_t kMaxNameBytes = 256;

// Descriptions are one line or a few: anything longer has no terminator where it should be.
constexpr std::size_t kMaxTextBytes = 4096;

bool hasText(const char* s) {
  return s != nullptr && s[0] != '\0' && ::strnlen(s, kMaxNameBytes) < kMaxNameBytes;
}

// An optional text (NULL allowed) that ends within kMaxTextBytes.
bool textEnds(const char* s) {
  return s == nullptr || ::strnlen(s, kMaxTextBytes) < kMaxTextBytes;
}

std::string unterminated(const std::string& what, const std::string& field) {
  return what + ": its " + field + " has no terminator within " + std::to_string(kMaxTextBytes) +
         " bytes";
}

std::string checkRegularizer(const AperturaRegularizerV1& r, std::size_t index) {
  const std::string at = "regularizer #" + std::to_string(index);
  if (!hasText(r.name))
    return at + " has no name, or one of 256 bytes or more";
  const std::string named = "regularizer '" + std::string(r.name) + "'";
  if (!textEnds(r.description))
    return unterminated(named, "description");
  if (!r.create || !r.destroy || !r.evaluate)
    return named + " lacks create(), destroy() or evaluate()";
  if (r.num_parameters > 0 && !r.parameters)
    return named + " declares parameters but gives no table";
  std::set<std::string> names;
  for (std::size_t k = 0; k < r.num_parameters; ++k) {
    const AperturaParameterV1& p = r.parameters[k];
    if (!hasText(p.name))
      return named + ": parameter #" + std::to_string(k) +
             " has no name, or one of 256 bytes or more";
    if (!textEnds(p.description))
      return unterminated(named + ": parameter '" + std::string(p.name) + "'", "description");
    if (!names.insert(p.name).second)
      return named + ": parameter '" + std::string(p.name) + "' appears twice";
    if (!(p.min_value <= p.default_value && p.default_value <= p.max_value))
      return named + ": default of parameter '" + std::string(p.name) + "' is outside its range";
  }
  return {};
}

std::string checkReader(const AperturaReaderV1& r, std::size_t index) {
  if (!hasText(r.name))
    return "reader #" + std::to_string(index) + " has no name, or one of 256 bytes or more";
  if (!textEnds(r.description) || !textEnds(r.file_patterns))
    return unterminated("reader '" + std::string(r.name) + "'", "description or file patterns");
  if (!r.probe || !r.open || !r.close)
    return "reader '" + std::string(r.name) + "' lacks probe(), open() or close()";
  return {};
}

std::string checkOptimizer(const AperturaOptimizerV1& o, std::size_t index) {
  if (!hasText(o.name))
    return "optimizer #" + std::to_string(index) + " has no name, or one of 256 bytes or more";
  const std::string named = "optimizer '" + std::string(o.name) + "'";
  if (!textEnds(o.description))
    return unterminated(named, "description");
  if (!o.minimize)
    return named + " lacks minimize()";
  if (o.num_parameters > 0 && !o.parameters)
    return named + " declares parameters but gives no table";
  for (std::size_t k = 0; k < o.num_parameters; ++k) {
    const AperturaParameterV1& p = o.parameters[k];
    if (!hasText(p.name) || !textEnds(p.description) ||
        !(p.min_value <= p.default_value && p.default_value <= p.max_value))
      return named + ": parameter #" + std::to_string(k) +
             " has no name (or one of 256 bytes or more), an unterminated description or a "
             "default outside its range";
  }
  return {};
}

}  // namespace

std::string validatePluginDescription(const AperturaPluginV2& api) {
  if (api.abi_version != APERTURA_PLUGIN_ABI_VERSION) {
    return "plugin interface version " + std::to_string(api.abi_version) + ", Apertura supports " +
           std::to_string(APERTURA_PLUGIN_ABI_VERSION) +
           " (rebuild the plugin against this Apertura's plugin_api.h)";
  }
  // Only the version has been read so far: the rest must prove it is a description of this
  // layout before any of its pointers is followed.
  if (api.descriptor_size != sizeof(AperturaPluginV2) &&
      api.descriptor_size != APERTURA_PLUGIN_V2_BASE_SIZE) {
    return "its description is " + std::to_string(api.descriptor_size) + " bytes, expected " +
           std::to_string(sizeof(AperturaPluginV2)) + " (or " +
           std::to_string(APERTURA_PLUGIN_V2_BASE_SIZE) +
           " without regularizer_scales; built against another plugin_api.h, or damaged)";
  }
  if (api.magic != APERTURA_PLUGIN_MAGIC)
    return "its description lacks Apertura's magic number (damaged, or not a plugin description)";
  if (!hasText(api.name))
    return "the plugin has no name, or one of 256 bytes or more";
  if (!textEnds(api.version) || !textEnds(api.description))
    return unterminated("plugin '" + std::string(api.name) + "'", "version or description");
  // A real plugin offers a handful of each; a count beyond this is a damaged table.
  constexpr std::size_t kMaxEntries = 1024;
  if (api.num_regularizers > kMaxEntries || api.num_readers > kMaxEntries ||
      api.num_optimizers > kMaxEntries)
    return "declares more than " + std::to_string(kMaxEntries) +
           " regularizers, readers or optimizers (a damaged description)";
  if (api.num_regularizers > 0 && !api.regularizers)
    return "declares regularizers but gives no table";
  if (api.num_readers > 0 && !api.readers)
    return "declares readers but gives no table";
  if (api.num_optimizers > 0 && !api.optimizers)
    return "declares optimizers but gives no table";
  if (api.num_regularizers == 0 && api.num_readers == 0 && api.num_optimizers == 0)
    return "provides no regularizers, readers or optimizers";
  for (std::size_t i = 0; i < api.num_regularizers; ++i) {
    if (auto e = checkRegularizer(api.regularizers[i], i); !e.empty())
      return e;
  }
  for (std::size_t i = 0; i < api.num_regularizers; ++i) {
    const AperturaTermScaleV1 scale = regularizerScale(api, i);
    if ((scale.flux_power != 1 && scale.flux_power != 2) ||
        !(scale.beam_power >= 0.0 && scale.beam_power <= 4.0))
      return "regularizer '" + std::string(api.regularizers[i].name) +
             "': regularizer_scales gives flux_power " + std::to_string(scale.flux_power) +
             " and beam_power " + std::to_string(scale.beam_power) +
             " (expected 1 or 2, and 0 to 4)";
  }
  for (std::size_t i = 0; i < api.num_readers; ++i) {
    if (auto e = checkReader(api.readers[i], i); !e.empty())
      return e;
  }
  for (std::size_t i = 0; i < api.num_optimizers; ++i) {
    if (auto e = checkOptimizer(api.optimizers[i], i); !e.empty())
      return e;
  }
  return {};
}

AperturaTermScaleV1 regularizerScale(const AperturaPluginV2& api, std::size_t index) {
  // A description of the earlier size ends before the member: reading it would read past it.
  const bool has_member = api.descriptor_size >= sizeof(AperturaPluginV2);
  if (has_member && api.regularizer_scales != nullptr && index < api.num_regularizers)
    return api.regularizer_scales[index];
  return AperturaTermScaleV1{1, 0.0};
}

namespace {

std::string probePluginInChild(const std::string& path) {
  // A damaged library can crash the dynamic loader or its own initialisers: try it in a child
  // process first, so that only a library which loads and describes itself can reach ours.
  const pid_t pid = ::fork();
  if (pid < 0)
    return {};  // no process to spare: load directly, as before
  if (pid == 0) {
    void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    void* symbol = library ? dlsym(library, APERTURA_PLUGIN_ENTRY_SYMBOL) : nullptr;
    if (symbol) {
      AperturaPluginEntryFn entry = nullptr;
      std::memcpy(&entry, &symbol, sizeof(entry));
      const AperturaPluginV2* api = entry();
      if (api)
        validatePluginDescription(*api);
    }
    ::_exit(0);  // the parent repeats the checks and reports their findings
  }
  int status = 0;
  for (int waited_ms = 0;; waited_ms += 10) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid)
      break;
    if (done < 0)
      return {};
    if (waited_ms >= 10000) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return path + ": loading it did not finish within 10 s in a test process; not loaded";
    }
    ::usleep(10000);
  }
  if (WIFSIGNALED(status)) {
    return path + ": crashed while loading in a test process (signal " +
           std::to_string(WTERMSIG(status)) + ", " + strsignal(WTERMSIG(status)) +
           "); a damaged or incompatible library, not loaded";
  }
  return {};
}

}  // namespace

PluginLoadResult loadPlugin(const std::string& path) {
  PluginLoadResult result;
  result.plugin.path = path;
  if (std::string crash = probePluginInChild(path); !crash.empty()) {
    result.error = std::move(crash);
    return result;
  }
  // Clear any stale error so dlerror() below describes this call.
  dlerror();
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char* why = dlerror();
    result.error = path + ": cannot be loaded (" + std::string(why ? why : "unknown error") + ")";
    return result;
  }
  void* symbol = dlsym(library, APERTURA_PLUGIN_ENTRY_SYMBOL);
  if (!symbol) {
    dlclose(library);
    result.error = path + ": not an Apertura plugin (no symbol " APERTURA_PLUGIN_ENTRY_SYMBOL ")";
    return result;
  }
  // POSIX guarantees object and function pointers convert through dlsym's void*.
  AperturaPluginEntryFn entry = nullptr;
  static_assert(sizeof(entry) == sizeof(symbol), "function and object pointers differ in size");
  std::memcpy(&entry, &symbol, sizeof(entry));
  const AperturaPluginV2* api = nullptr;
  try {
    api = entry();
  } catch (const std::exception& e) {
    // A C++ plugin that broke the no-exceptions rule at its entry point.
    dlclose(library);
    result.error = path + ": " APERTURA_PLUGIN_ENTRY_SYMBOL "() threw: " + e.what();
    return result;
  } catch (...) {
    dlclose(library);
    result.error = path + ": " APERTURA_PLUGIN_ENTRY_SYMBOL "() threw an exception";
    return result;
  }
  if (!api) {
    dlclose(library);
    result.error = path + ": " APERTURA_PLUGIN_ENTRY_SYMBOL "() returned no description";
    return result;
  }
  if (const std::string problem = validatePluginDescription(*api); !problem.empty()) {
    dlclose(library);
    result.error = path + ": " + problem;
    return result;
  }
  result.plugin.api = api;
  return result;
}

}  // namespace apertura::plugin
