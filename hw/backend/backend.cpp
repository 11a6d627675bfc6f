#include "hw/backend/backend.hpp"

#include <fmt/format.h>

#include "hw/backend/cpu/cpu_backend.hpp"
#include "sim/core/error.hpp"
#ifdef PLACESIM_HAVE_CUDA
#include "hw/backend/cuda/cuda_backend.hpp"
#endif

namespace placesim::backend {

void require_backend(const std::string& name) {
  if (name == "cpu") return;
  if (name != "cuda") throw InputError(fmt::format("unknown backend '{}' (expected cpu or cuda)", name));
#ifdef PLACESIM_HAVE_CUDA
  const std::string why = cuda_unavailable_reason();
  if (!why.empty()) throw InputError(fmt::format("backend cuda: {}", why));
#else
  throw InputError("backend cuda: this placesim was built without CUDA (PLACESIM_WITH_CUDA=OFF)");
#endif
}

Measurement run_backend(const std::string& name, const engine::TaskGraph& g, const Workload& w,
                        const BackendOptions& opts) {
  require_backend(name);
#ifdef PLACESIM_HAVE_CUDA
  if (name == "cuda") return run_cuda(g, w, opts);
#endif
  return run_cpu(g, w, opts);
}

}  // namespace placesim::backend
