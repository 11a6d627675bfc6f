// The hardware file `placesim calibrate --backend cpu` writes (hw/topology_yaml.hpp schema):
// this machine as a host memory and ONE CPU device with its cores, joined by a memory link.
// The roofline (models/cost/roofline.cpp) with these figures gives back the fitted times: a
// GEMM takes FLOPs / peak + bytes / DRAM rate on one core, as the gemm fit measured.
//
//   cpu    cores           the cores calibrated
//          fp32            cores / gemm.beta (all cores together, as the schema counts a CPU)
//          core_memory_bw  1 / gemm.beta2: the DRAM rate of one core, as a GEMM reads its
//                          weights (models::on_cores gives k cores k times it / contention[k-1])
//          memory_bw       1 / gemm_all.beta2: what every core together reached, within
//                          [core_memory_bw, cores * core_memory_bw]
//          overlap         0: the gemm fit adds arithmetic and memory time
//          cache           one core's private cache; cache_bw = cores / stream_cache.beta
//          contention      the measured curve, contention[0] = 1
//          launch          the backend's per-task cost
//          dispatch        the backend's dispatch per op, on the file's one dispatch thread
//                          (`runtime: {dispatch_threads: 1}`)
//   host   memory          this machine's; memory_bw = every core copying at once
//   link   host <-> cpu at the one-core copy rate, latency = max(0, copy.alpha) + handoff
// The fits, their r^2 and the contention curve are also written as comments in the form of
// ScheInfer's Table I, and under `calibration:` (Topology::calibration), with the GEMM times
// against multiply-adds as `cpu_gemm` fp32 fits on 1 and on every core: what the linear cost
// model reads (models/cost/calibration.hpp). `command` is recorded in the header.
#pragma once

#include <string>

#include "backend/calibrate/cpu_calibrate.hpp"

namespace placesim::backend {

std::string cpu_hardware_yaml(const CpuCalibration& c, const std::string& name, const std::string& command);

}  // namespace placesim::backend
