// `placesim discover`: a topology file (hw/topology_yaml.hpp) of the machine it runs on, read
// with hwloc: one host_memory per NUMA node with its size, one cpu per socket (package) with its
// cores and NUMA node, and, when built with the CUDA runtime, each GPU behind the PCIe bridges
// hwloc finds between it and its NUMA node.
//
// hwloc knows the structure, not the speeds. The figures it cannot know are estimated, and the
// file says so next to each: CPU FLOPS = cores x clock x FLOP/cycle from the ISA the CPU
// supports; memory bandwidth from a short single-threaded copy (a lower bound: one core
// rarely saturates a socket); GPU FLOPS and memory bandwidth from the CUDA device attributes;
// PCIe bandwidth from hwloc's link speed. `placesim calibrate` replaces them with fits.
#pragma once

#include <string>
#include <vector>

#include "hw/discover/cuda_gpus.hpp"

namespace placesim::hw {

struct Discovered {
  std::string yaml;   // the topology file's text
  int sockets = 0, numa_nodes = 0, cores = 0, gpus = 0;
};

// `gpus`: the GPUs the CUDA module lists (backend/cuda_api.hpp), none without it.
Discovered discover_machine(const std::vector<CudaGpu>& gpus);

}  // namespace placesim::hw
