#include "hw/discover/cuda_gpus.hpp"

#include <cuda_runtime_api.h>
#include <fmt/format.h>

namespace placesim::hw {
namespace {

// FP32 lanes per SM by compute capability (CUDA C Programming Guide, "Arithmetic
// Instructions" throughput table): 64 on 6.0, 7.x and 8.0, 128 on the others since 6.1.
int fp32_lanes_per_sm(int major, int minor) {
  if ((major == 6 && minor == 0) || major == 7 || (major == 8 && minor == 0)) return 64;
  return 128;
}

int attribute(cudaDeviceAttr a, int dev) {
  int v = 0;
  return cudaDeviceGetAttribute(&v, a, dev) == cudaSuccess ? v : 0;
}

}  // namespace

std::vector<CudaGpu> cuda_gpus() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) return {};
  std::vector<CudaGpu> out;
  for (int d = 0; d < n; ++d) {
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, d) != cudaSuccess) continue;
    char bus[32] = {};
    cudaDeviceGetPCIBusId(bus, sizeof bus, d);
    const int sms = attribute(cudaDevAttrMultiProcessorCount, d);
    const int lanes = fp32_lanes_per_sm(p.major, p.minor);
    const double clock_hz = attribute(cudaDevAttrClockRate, d) * 1e3;          // kHz
    const double mem_clock_hz = attribute(cudaDevAttrMemoryClockRate, d) * 1e3;  // kHz
    const int bus_bits = attribute(cudaDevAttrGlobalMemoryBusWidth, d);
    CudaGpu g;
    g.name = p.name;
    g.pci_bus_id = bus;
    g.memory = static_cast<double>(p.totalGlobalMem);
    g.fp32_flops = sms * lanes * 2.0 * clock_hz;
    g.memory_bw = 2.0 * mem_clock_hz * bus_bits / 8.0;
    g.working = fmt::format("fp32 = {} SMs x {} lanes x 2 FLOP x {:.0f} MHz; memory_bw = 2 x {:.0f} MHz x {} bits / 8",
                            sms, lanes, clock_hz / 1e6, mem_clock_hz / 1e6, bus_bits);
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace placesim::hw
