#include "backend/backend.hpp"

#include <fmt/format.h>

#include "backend/cpu/cpu_backend.hpp"
#include "backend/cuda_api.hpp"
#include "sim/core/error.hpp"

namespace placesim::backend {

void require_backend(const std::string& name) {
  if (name == "cpu") return;
  if (name != "cuda") throw InputError(fmt::format("unknown backend '{}' (expected cpu or cuda)", name));
  std::string why;
  const CudaApi* cuda = load_cuda(why);
  if (cuda) why = cuda->unavailable_reason();
  if (!why.empty()) throw InputError(fmt::format("backend cuda: {}", why));
}

Measurement run_backend(const std::string& name, const engine::TaskGraph& g, const Workload& w,
                        const BackendOptions& opts) {
  require_backend(name);
  if (name == "cuda") {
    std::string why;
    return load_cuda(why)->run(g, w, opts);
  }
  return run_cpu(g, w, opts);
}

}  // namespace placesim::backend
