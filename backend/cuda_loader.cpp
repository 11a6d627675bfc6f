#include "backend/cuda_api.hpp"
#include "sim/core/module.hpp"

namespace placesim::backend {

const CudaApi* load_cuda(std::string& why) {
#ifdef PLACESIM_WITH_CUDA_MODULE
  return static_cast<const CudaApi*>(load_module("cuda", why));
#else
  why = "this placesim was built without CUDA (PLACESIM_WITH_CUDA=OFF)";
  return nullptr;
#endif
}

}  // namespace placesim::backend
