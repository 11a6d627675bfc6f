// The GPUs the CUDA runtime sees, with the figures `placesim discover` estimates from their
// attributes. cuda_gpus() is built into the CUDA module (backend/cuda_api.hpp: reached
// through CudaApi::gpus); no GPUs, or no driver, is an empty list.
#pragma once

#include <string>
#include <vector>

namespace placesim::hw {

struct CudaGpu {
  std::string name;
  std::string pci_bus_id;   // "0000:3b:00.0", for hwloc
  double memory = 0;        // bytes
  double fp32_flops = 0;    // SMs x FP32 lanes per SM x 2 FLOP x clock (estimate)
  double memory_bw = 0;     // 2 (double data rate) x memory clock x bus width (estimate)
  std::string working;      // how the two estimates were computed, for the file's comment
};

std::vector<CudaGpu> cuda_gpus();

}  // namespace placesim::hw
