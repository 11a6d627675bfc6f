// The CUDA parts of placesim (the backend, its calibration, the GPUs `placesim discover`
// lists) are built, with PLACESIM_WITH_CUDA, into a module, libplacesim_cuda.so
// (sim/core/module.hpp), loaded the first time one of them is used. Every other command starts
// without the CUDA runtime and cuBLAS, whose loading alone took 0.15 s and 220 MB of every run,
// `placesim --help` included.
#pragma once

#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "backend/calibrate/cpu_calibrate.hpp"
#include "backend/calibrate/cuda_hardware_file.hpp"
#include "hw/discover/cuda_gpus.hpp"

namespace placesim::backend {

// What the module offers (cuda/cuda_api.cpp fills it).
struct CudaApi {
  std::string (*unavailable_reason)();  // "" when a GPU is usable, else why not
  Measurement (*run)(const engine::TaskGraph& g, const Workload& w, const BackendOptions& opts);
  CudaCalibration (*calibrate)(const CalibrateOptions& opts);
  std::vector<hw::CudaGpu> (*gpus)();
};

// The module's functions, loaded once; nullptr when this placesim was built without CUDA or the
// module cannot be loaded, and then `why` says which.
const CudaApi* load_cuda(std::string& why);

}  // namespace placesim::backend
