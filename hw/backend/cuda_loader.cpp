#include <dlfcn.h>
#include <fmt/format.h>

#include "hw/backend/cuda_api.hpp"

namespace placesim::backend {

namespace {

struct Loaded {
  const CudaApi* api = nullptr;
  std::string why;
};

Loaded load() {
#ifdef PLACESIM_CUDA_MODULE
  // RTLD_NOW: a symbol the module cannot resolve is an error here, not a crash mid-run.
  void* module = dlopen(PLACESIM_CUDA_MODULE, RTLD_NOW | RTLD_LOCAL);
  if (!module) return {nullptr, fmt::format("cannot load the CUDA module: {}", dlerror())};
  auto* entry = reinterpret_cast<const CudaApi* (*)()>(dlsym(module, "placesim_cuda_api"));
  if (!entry) return {nullptr, fmt::format("the CUDA module {} has no placesim_cuda_api", PLACESIM_CUDA_MODULE)};
  return {entry(), ""};
#else
  return {nullptr, "this placesim was built without CUDA (PLACESIM_WITH_CUDA=OFF)"};
#endif
}

}  // namespace

const CudaApi* load_cuda(std::string& why) {
  static const Loaded loaded = load();  // once: dlopen is not free, and its answer does not change
  why = loaded.why;
  return loaded.api;
}

}  // namespace placesim::backend
