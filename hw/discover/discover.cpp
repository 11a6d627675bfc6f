#include "hw/discover/discover.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <hwloc.h>
#include <map>
#include <memory>
#include <vector>

#include "hw/yaml_text.hpp"
#include "sim/core/error.hpp"

#ifdef PLACESIM_ASAN
#include <sanitizer/lsan_interface.h>
#endif

namespace placesim::hw {
namespace {

using TopoPtr = std::unique_ptr<hwloc_topology, decltype(&hwloc_topology_destroy)>;

TopoPtr load_hwloc() {
#ifdef PLACESIM_ASAN
  // hwloc's PCI plugin loads libpciaccess, whose device list only that library's globals reach,
  // and unloads it when the topology goes: LeakSanitizer (build-asan/) would then report that
  // list as a leak of ours. What hwloc allocates here is left out of its count.
  const __lsan::ScopedDisabler hwlocs_own;
#endif
  // Of hwloc's plugins, discover uses the PCI one (GPUs' bus ids and bridges); the GPUs come from
  // CUDA. The XML, OpenCL and GL plugins would load libxml2 and ICU, OpenCL and X11 libraries
  // only to unload them with the topology, leaving their thread-local blocks behind
  // (LeakSanitizer faults on those at exit). A user's own HWLOC_PLUGINS_BLACKLIST is kept.
  ::setenv("HWLOC_PLUGINS_BLACKLIST", "hwloc_xml_libxml,hwloc_opencl,hwloc_gl", 0);
  hwloc_topology_t t = nullptr;
  if (hwloc_topology_init(&t) != 0) throw InputError("hwloc could not start (hwloc_topology_init failed)");
  TopoPtr topo(t, &hwloc_topology_destroy);
  hwloc_topology_set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
  if (hwloc_topology_load(t) != 0) throw InputError("hwloc could not read this machine's topology");
  return topo;
}

std::string read_first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// The CPU clock in Hz: cpufreq's maximum when the kernel exposes it, else /proc/cpuinfo's
// current "cpu MHz" (virtual machines often have only that); 0 when neither is readable.
double cpu_clock_hz(std::string& from) {
  const std::string khz = read_first_line("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
  if (!khz.empty()) {
    from = "cpufreq cpuinfo_max_freq";
    return std::stod(khz) * 1e3;
  }
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("cpu MHz", 0) == 0 && line.find(':') != std::string::npos) {
      from = "/proc/cpuinfo cpu MHz";
      return std::stod(line.substr(line.find(':') + 1)) * 1e6;
    }
  from = "unknown";
  return 0;
}

// FP32 FLOP per cycle per core from the widest vector ISA the CPU supports.
int flop_per_cycle(std::string& isa) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) {
    isa = "AVX-512, two FMA units assumed: 2 x 16 lanes x 2 FLOP";
    return 64;
  }
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    isa = "AVX2 + FMA, two FMA units assumed: 2 x 8 lanes x 2 FLOP";
    return 32;
  }
  if (__builtin_cpu_supports("avx")) {
    isa = "AVX, one add and one multiply per cycle: 8 lanes x 2 FLOP";
    return 16;
  }
#endif
  isa = "128-bit vectors, one multiply-add per cycle: 4 lanes x 2 FLOP";
  return 8;
}

// Bytes/s of a single-threaded 64 MiB memcpy (read + write), best of five.
double copy_bandwidth() {
  const size_t n = size_t{64} << 20;
  std::vector<char> a(n, 1), b(n, 0);
  double best = 0;
  for (int i = 0; i < 5; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    std::memcpy(b.data(), a.data(), n);
    const auto t1 = std::chrono::steady_clock::now();
    volatile char sink = b[n / 2 + static_cast<size_t>(i)];
    (void)sink;
    best = std::max(best, 2.0 * static_cast<double>(n) / std::chrono::duration<double>(t1 - t0).count());
  }
  return best;
}

std::vector<hwloc_obj_t> objects(hwloc_topology_t t, hwloc_obj_type_t type) {
  std::vector<hwloc_obj_t> out;
  for (hwloc_obj_t o = nullptr; (o = hwloc_get_next_obj_by_type(t, type, o));) out.push_back(o);
  return out;
}

// Index (in `numas`) of the first NUMA node whose CPUs overlap `cpuset`; 0 when none does.
int numa_of(const std::vector<hwloc_obj_t>& numas, hwloc_const_cpuset_t cpuset) {
  for (size_t i = 0; i < numas.size(); ++i)
    if (hwloc_bitmap_intersects(numas[i]->cpuset, cpuset)) return static_cast<int>(i);
  return 0;
}

struct Writer {
  std::string devices, links;
  void device(const std::string& line) { devices += "  - " + line + "\n"; }
  void link(const std::string& line) { links += "  - " + line + "\n"; }
  void device_note(const std::string& note) { devices += "  # " + note + "\n"; }
  void link_note(const std::string& note) { links += "  # " + note + "\n"; }
};

// hw/presets/FIGURES.md: pinned copies reach 12 of 15.75, 25 of 31.5 and 50 of 63 GB/s on PCIe
// 3.0, 4.0 and 5.0 x16, about 0.79 of the link's theoretical rate.
constexpr double kPcieAchieved = 0.79;
// PCIe 3.0 x16 achieved (hw/presets/FIGURES.md), for a link whose speed hwloc does not report.
constexpr double kPcieFallbackGBs = 12;

double achieved_gbs(float theoretical_gbs) {
  return theoretical_gbs > 0 ? theoretical_gbs * kPcieAchieved : kPcieFallbackGBs;
}

// Each GPU, and the PCIe bridges between it and its NUMA node's memory.
int add_gpus(hwloc_topology_t t, const std::vector<hwloc_obj_t>& numas, Writer& w, const std::vector<CudaGpu>& gpus) {
  std::map<hwloc_obj_t, std::string> bridges;
  for (size_t g = 0; g < gpus.size(); ++g) {
    const CudaGpu& gpu = gpus[g];
    const std::string id = fmt::format("gpu{}", g);
    w.device_note(fmt::format("{}: estimates from CUDA attributes, {}", gpu.name, gpu.working));
    w.device(fmt::format("{{id: {}, type: gpu, model: {}, memory: {:.0f}, memory_bw: {:.4g}GB/s, fp32: {:.4g}TFLOPS}}",
                         id, yaml_quoted(gpu.name), gpu.memory, gpu.memory_bw / 1e9, gpu.fp32_flops / 1e12));
    hwloc_obj_t obj = hwloc_get_pcidev_by_busidstring(t, gpu.pci_bus_id.c_str());
    std::string below = id;
    float speed = obj ? obj->attr->pcidev.linkspeed : 0;
    for (hwloc_obj_t up = obj ? obj->parent : nullptr; up && hwloc_obj_type_is_io(up->type); up = up->parent) {
      if (up->type != HWLOC_OBJ_BRIDGE) continue;
      auto [it, fresh] = bridges.emplace(up, fmt::format("pcie{}", bridges.size()));
      if (fresh) w.device(fmt::format("{{id: {}, type: switch, model: PCIe bridge}}", it->second));
      w.link(fmt::format("{{a: {}, b: {}, bw: {:.4g}GB/s, latency: 0.5us, kind: pcie}}", it->second, below,
                         achieved_gbs(speed)));
      if (!fresh) {
        below.clear();
        break;
      }
      below = it->second;
      speed = up->attr->bridge.upstream_type == HWLOC_OBJ_BRIDGE_PCI ? up->attr->bridge.upstream.pci.linkspeed : 0;
    }
    if (!below.empty()) {
      const hwloc_obj_t cpu_side = obj ? hwloc_get_non_io_ancestor_obj(t, obj) : nullptr;
      const int numa = cpu_side ? numa_of(numas, cpu_side->cpuset) : 0;
      w.link(fmt::format("{{a: host{}, b: {}, bw: {:.4g}GB/s, latency: 0.5us, kind: pcie}}", numa, below,
                         achieved_gbs(speed)));
    }
  }
  if (!gpus.empty())
    w.link_note(fmt::format("PCIe: hwloc's link speed x {} (achieved / theoretical for pinned copies, "
                            "hw/presets/FIGURES.md), or {} GB/s (PCIe 3.0 x16 achieved) where hwloc has none",
                            kPcieAchieved, kPcieFallbackGBs));
  return static_cast<int>(gpus.size());
}

}  // namespace

Discovered discover_machine(const std::vector<CudaGpu>& gpus) {
  const TopoPtr topo = load_hwloc();
  hwloc_topology_t t = topo.get();
  const std::vector<hwloc_obj_t> numas = objects(t, HWLOC_OBJ_NUMANODE);
  std::vector<hwloc_obj_t> packages = objects(t, HWLOC_OBJ_PACKAGE);
  if (packages.empty()) packages.push_back(hwloc_get_root_obj(t));  // some VMs expose no package
  Discovered out;
  Writer w;

  const double mem_bw = copy_bandwidth();
  w.device_note(fmt::format("memory_bw: ESTIMATE, a single-threaded 64 MiB memcpy reached {:.4g} GB/s (read + "
                            "write); a lower bound for the socket",
                            mem_bw / 1e9));
  for (size_t i = 0; i < numas.size(); ++i)
    w.device(fmt::format("{{id: host{}, type: host_memory, memory: {}, memory_bw: {:.4g}GB/s, numa_node: {}}}", i,
                         numas[i]->attr->numanode.local_memory, mem_bw / 1e9, i));
  if (numas.empty())
    throw InputError("hwloc reports no NUMA node (no memory) on this machine; write the topology by hand");

  std::string clock_from, isa;
  const double clock = cpu_clock_hz(clock_from);
  const int fpc = flop_per_cycle(isa);
  w.device_note(fmt::format("fp32: ESTIMATE = cores x {:.4g} GHz ({}) x {} FLOP/cycle ({})", clock / 1e9, clock_from,
                            fpc, isa));
  for (size_t p = 0; p < packages.size(); ++p) {
    const int cores = std::max(1, hwloc_get_nbobjs_inside_cpuset_by_type(t, packages[p]->cpuset, HWLOC_OBJ_CORE));
    const char* model = hwloc_obj_get_info_by_name(packages[p], "CPUModel");
    const int numa = numa_of(numas, packages[p]->cpuset);
    const double fp32 = cores * clock * fpc;
    if (!(fp32 > 0)) throw InputError("could not read this CPU's clock; write the topology by hand");
    w.device(fmt::format("{{id: cpu{}, type: cpu, model: {}, cores: {}, fp32: {:.4g}GFLOPS, memory_bw: {:.4g}GB/s, "
                         "numa_node: {}}}",
                         p, yaml_quoted(model ? model : "unknown CPU"), cores, fp32 / 1e9, mem_bw / 1e9, numa));
    for (size_t i = 0; i < numas.size(); ++i)
      if (static_cast<int>(i) == numa || hwloc_bitmap_intersects(numas[i]->cpuset, packages[p]->cpuset))
        w.link(fmt::format("{{a: cpu{}, b: host{}, bw: {:.4g}GB/s, latency: 0.1us, kind: memory}}", p, i,
                           mem_bw / 1e9));
    out.cores += cores;
  }
  if (numas.size() > 1)
    w.link_note("between NUMA nodes: ESTIMATE, the measured copy rate (the socket interconnect's real rate is "
                "unknown to hwloc)");
  for (size_t i = 1; i < numas.size(); ++i)
    w.link(fmt::format("{{a: host0, b: host{}, bw: {:.4g}GB/s, latency: 0.1us, kind: socket}}", i, mem_bw / 1e9));
  out.gpus = add_gpus(t, numas, w, gpus);
  out.sockets = static_cast<int>(packages.size());
  out.numa_nodes = static_cast<int>(numas.size());

  const char* host = hwloc_obj_get_info_by_name(hwloc_get_root_obj(t), "HostName");
  out.yaml = fmt::format(
      "# Written by `placesim discover` with hwloc {}. The structure is hwloc's; every figure marked\n"
      "# ESTIMATE is a guess to be replaced by `placesim calibrate` (or by hand).\n"
      "name: discovered\n"
      "description: this machine as hwloc sees it - {} socket(s), {} NUMA node(s), {} cores, {} GPU(s)\n"
      "source: {}\n"
      "devices:\n{}links:\n{}",
      HWLOC_VERSION, out.sockets, out.numa_nodes, out.cores, out.gpus,
      yaml_quoted(fmt::format("hwloc topology of {}; estimated figures as commented", host ? host : "this machine")),
      w.devices, w.links);
  return out;
}

}  // namespace placesim::hw
