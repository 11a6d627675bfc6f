// The CUDA module's export (cuda_api.hpp): its functions, for the program that loads it.
#include "backend/cuda_api.hpp"
#include "sim/core/module.hpp"

#include "backend/cuda/cuda_backend.hpp"
#include "backend/cuda/cuda_calibrate.hpp"

PLACESIM_MODULE_ENTRY const void* placesim_module_cuda() {
  static const placesim::backend::CudaApi api{&placesim::backend::cuda_unavailable_reason, &placesim::backend::run_cuda,
                                              &placesim::backend::calibrate_cuda, &placesim::hw::cuda_gpus};
  return &api;
}
