#include "sim/core/module.hpp"

#include "sim/core/error.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <mutex>
#include <stdexcept>
#include <system_error>
#include <vector>

namespace placesim {

namespace {

struct Loaded {
  const void* api = nullptr;
  std::string why;
};

// The places load_module looks, in order (module.hpp).
std::vector<std::filesystem::path> module_dirs() {
  std::vector<std::filesystem::path> dirs;
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    dirs.push_back(exe.parent_path());
    dirs.push_back(exe.parent_path().parent_path() / "lib" / "placesim");
  }
#ifdef PLACESIM_MODULE_DIR
  dirs.emplace_back(PLACESIM_MODULE_DIR);
#endif
  return dirs;
}

Loaded load(const std::string& name) {
  const std::string file = "libplacesim_" + name + ".so";
  std::string tried;
  for (const std::filesystem::path& dir : module_dirs()) {
    const std::filesystem::path path = dir / file;
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
      tried += (tried.empty() ? "" : ", ") + dir.string();
      continue;
    }
    // RTLD_NOW: a symbol the module cannot resolve is an error here, not a crash mid-run.
    void* module = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!module) return {nullptr, fmt::format("cannot load {}: {}", path.string(), dlerror())};
    const std::string entry = "placesim_module_" + name;
    auto* get = reinterpret_cast<const void* (*)()>(dlsym(module, entry.c_str()));
    if (!get) return {nullptr, fmt::format("{} has no {}", path.string(), entry)};
    return {get(), ""};
  }
  return {nullptr, fmt::format("{} is in none of: {}", file, tried)};
}

}  // namespace

const void* load_module(const std::string& name, std::string& why) {
  // Once per module: dlopen is not free, and its answer does not change. Several sweep workers
  // may ask at once.
  static std::mutex mutex;
  static std::map<std::string, Loaded> loaded;
  const std::lock_guard<std::mutex> lock(mutex);
  auto it = loaded.find(name);
  if (it == loaded.end()) it = loaded.emplace(name, load(name)).first;
  why = it->second.why;
  return it->second.api;
}

void throw_module_error(const std::string& name, const std::string& why) {
  // Under a low `ulimit -v` the loader cannot map the library: memory, not a broken install.
  if (why.find("failed to map segment") != std::string::npos || why.find("allocate memory") != std::string::npos)
    throw OutOfMemory(fmt::format("cannot load placesim's {} module ({})", name, why));
  throw std::runtime_error(fmt::format("placesim cannot load its {} module ({}): rebuild or reinstall placesim", name, why));
}

}  // namespace placesim
