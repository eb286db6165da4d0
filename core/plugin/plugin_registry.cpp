#include "core/plugin/plugin_registry.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>

#include "core/project/setting_choices.h"
#include "core/rml/builtin_regularizers.h"

namespace apertura::plugin {
namespace fs = std::filesystem;

const std::vector<std::string>& builtinRegularizerNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& d : rml::builtinRegularizers())
      n.push_back(d.name);
    return n;
  }();
  return names;
}

const std::vector<std::string>& builtinOptimizerNames() {
  static const std::vector<std::string> names = project::choiceNames<project::OptimizerMethod>();
  return names;
}

bool isBuiltinRegularizer(const std::string& type) {
  return rml::findBuiltinRegularizer(type) != nullptr;
}

bool isBuiltinNonSmoothRegularizer(const std::string& type) {
  const rml::RegularizerDescriptor* d = rml::findBuiltinRegularizer(type);
  return d != nullptr && d->kind == rml::TermKind::NonSmooth;
}

std::string regularizerTypeProblem(const PluginRegistry& registry, const std::string& type) {
  if (isBuiltinRegularizer(type) || registry.findRegularizer(type).api)
    return {};
  const auto& builtins = builtinRegularizerNames();
  std::string list;
  for (const auto& b : builtins)
    list += (list.empty() ? "" : ", ") + b;
  return "unknown regularizer '" + type + "': not built in (" + list +
         ") and no loaded plugin provides it; if it comes from a plugin, that plugin is not "
         "loaded (searched: " +
         registry.searchPathText() + ")";
}

PluginRegistry::PluginRegistry(std::vector<std::string> search_path)
    : search_path_(std::move(search_path)) {
  std::set<std::string> seen;  // canonical paths: a directory listed twice loads once
  for (const std::string& entry : search_path_) {
    std::error_code ec;
    std::vector<std::string> files;
    if (fs::is_directory(entry, ec)) {
      for (const auto& f : fs::directory_iterator(entry, ec)) {
        std::error_code fec;
        if (f.path().extension() == ".so" && f.is_regular_file(fec))
          files.push_back(f.path().string());
      }
      std::sort(files.begin(), files.end());
    } else if (fs::is_regular_file(entry, ec)) {
      files.push_back(entry);
    }
    for (const std::string& file : files) {
      const std::string canonical = fs::weakly_canonical(file, ec).string();
      if (seen.insert(ec ? file : canonical).second)
        tryLoad(file);
    }
  }
}

namespace {

// Anyone could have put a library in a world-writable folder (or written over a world-writable
// file): running its code would run theirs. A sticky folder (like /tmp) is fine for files owned
// by this user or by root, as others cannot replace them there.
std::string unsafeLocation(const std::string& file) {
  struct stat f {
  }, d{};
  const std::string dir = fs::path(file).parent_path().empty()
                              ? std::string(".")
                              : fs::path(file).parent_path().string();
  if (::stat(file.c_str(), &f) != 0 || ::stat(dir.c_str(), &d) != 0)
    return {};
  if (f.st_mode & S_IWOTH)
    return file + ": the file is writable by every user; not loaded (chmod o-w it)";
  const bool own = f.st_uid == ::getuid() || f.st_uid == 0;
  if ((d.st_mode & S_IWOTH) && !((d.st_mode & S_ISVTX) && own)) {
    return file + ": the folder " + dir +
           " is writable by every user; not loaded (move the plugin, or chmod o-w the folder)";
  }
  return {};
}

}  // namespace

void PluginRegistry::tryLoad(const std::string& file) {
  if (std::string unsafe = unsafeLocation(file); !unsafe.empty()) {
    refused_.push_back({file, std::move(unsafe)});
    return;
  }
  PluginLoadResult r = loadPlugin(file);
  if (!r.ok()) {
    refused_.push_back({file, r.error});
    return;
  }
  const AperturaPluginV2& api = *r.plugin.api;
  // Name clashes: the library stays loaded (harmless) but none of its entries are used.
  auto clash = [&]() -> std::string {
    for (const auto& p : plugins_) {
      if (std::string(p.api->name) == api.name)
        return "a plugin named '" + std::string(api.name) + "' is already loaded from " + p.path;
    }
    const auto& builtins = builtinRegularizerNames();
    for (std::size_t i = 0; i < api.num_regularizers; ++i) {
      const std::string name = api.regularizers[i].name;
      if (std::find(builtins.begin(), builtins.end(), name) != builtins.end())
        return "regularizer '" + name + "' has the name of a built-in regularizer";
      if (findRegularizer(name).api)
        return "regularizer '" + name + "' is already provided by plugin '" +
               findRegularizer(name).plugin->api->name + "'";
    }
    const auto& methods = builtinOptimizerNames();
    for (std::size_t i = 0; i < api.num_optimizers; ++i) {
      const std::string name = api.optimizers[i].name;
      if (std::find(methods.begin(), methods.end(), name) != methods.end())
        return "optimizer '" + name + "' has the name of a built-in optimizer";
      if (findOptimizer(name).api)
        return "optimizer '" + name + "' is already provided by plugin '" +
               findOptimizer(name).plugin->api->name + "'";
    }
    return {};
  }();
  if (!clash.empty()) {
    refused_.push_back({file, file + ": " + clash});
    return;
  }
  plugins_.push_back(r.plugin);
}

const PluginRegistry& PluginRegistry::global() {
  static const PluginRegistry registry(defaultSearchPath());
  return registry;
}

std::vector<std::string> PluginRegistry::defaultSearchPath() {
  std::vector<std::string> path;
  if (const char* env = std::getenv("APERTURA_PLUGIN_PATH")) {
    std::stringstream ss(env);
    std::string item;
    while (std::getline(ss, item, ':')) {
      if (!item.empty())
        path.push_back(item);
    }
  }
  const char* xdg = std::getenv("XDG_DATA_HOME");
  const char* home = std::getenv("HOME");
  if (xdg && xdg[0] != '\0')
    path.push_back((fs::path(xdg) / "apertura" / "plugins").string());
  else if (home && home[0] != '\0')
    path.push_back((fs::path(home) / ".local" / "share" / "apertura" / "plugins").string());
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path prefix = exe.parent_path().parent_path();
    path.push_back((prefix / "lib" / "apertura" / "plugins").string());
    // The build tree: <build>/app/apertura next to <build>/plugins.
    path.push_back((prefix / "plugins").string());
  }
  return path;
}

std::string PluginRegistry::searchPathText() const {
  std::string text;
  for (const auto& p : search_path_)
    text += (text.empty() ? "" : ":") + p;
  return text.empty() ? "(no directories)" : text;
}

RegularizerEntry PluginRegistry::findRegularizer(const std::string& name) const {
  for (const auto& p : plugins_) {
    for (std::size_t i = 0; i < p.api->num_regularizers; ++i) {
      if (name == p.api->regularizers[i].name)
        return {&p, &p.api->regularizers[i]};
    }
  }
  return {};
}

OptimizerEntry PluginRegistry::findOptimizer(const std::string& name) const {
  for (const auto& p : plugins_) {
    for (std::size_t i = 0; i < p.api->num_optimizers; ++i) {
      if (name == p.api->optimizers[i].name)
        return {&p, &p.api->optimizers[i]};
    }
  }
  return {};
}

ReaderEntry PluginRegistry::findReader(const std::string& path) const {
  for (const auto& p : plugins_) {
    for (std::size_t i = 0; i < p.api->num_readers; ++i) {
      if (p.api->readers[i].probe(path.c_str()) == 1)
        return {&p, &p.api->readers[i]};
    }
  }
  return {};
}

}  // namespace apertura::plugin
