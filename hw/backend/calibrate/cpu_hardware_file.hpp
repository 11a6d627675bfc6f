// The hardware file `placesim calibrate --backend cpu` writes (hw/topology_yaml.hpp schema):
// this machine as a host memory and ONE CPU device with its cores, joined by a memory link.
//
//   cpu    cores       the cores calibrated
//          fp32        cores / gemm.beta (all cores together, as the schema counts a CPU)
//          memory_bw   1 / stream_dram.beta (DRAM, one core streaming: what an op on one core
//                      gets; models::on_cores leaves it to the socket, unscaled)
//          cache       one core's private cache; cache_bw = cores / stream_cache.beta
//          overlap     1 - gemm.beta2 * memory_bw, within [0, 1]: the GEMM fit's seconds per
//                      byte over the roofline's (0: a GEMM's memory time adds in full)
//          contention  the measured curve, contention[0] = 1
//          launch      the backend's per-task cost
//   host   memory      this machine's; memory_bw = every core copying at once
//   link   host <-> cpu at the one-core copy rate, latency = max(0, copy.alpha) + handoff
// The fits, their r^2 and the contention curve are also written as comments in the form of
// ScheInfer's Table I, and under `calibration:` (Topology::calibration_text). `command` is
// recorded in the header.
#pragma once

#include <string>

#include "hw/backend/calibrate/cpu_calibrate.hpp"

namespace placesim::backend {

std::string cpu_hardware_yaml(const CpuCalibration& c, const std::string& name, const std::string& command);

}  // namespace placesim::backend
