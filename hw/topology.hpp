// A machine as plain data (docs/formats.md, "Hardware"): devices and full-duplex links between them,
// with routes between any two devices computed (Boost.Graph, fewest hops then lowest latency)
// or listed explicitly. A PCIe bus shared by two GPUs is one link both GPUs' routes cross, so
// contention follows from the network model, not from a flag.
//
// Routes are computed when first asked for (hw/route_table.hpp states the rules, ties included),
// and kept; after finalize() a Topology is read-only to its users, so sweeps may share one
// between threads. With `network_ideal` every pair is connected by an empty route (zero latency,
// infinite bandwidth) and links, if any, are not used. With `network_uncontended` routes are
// as usual, but each device pair's transfers move on a connection of their own (below).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/core/name_index.hpp"

namespace placesim {
class Yaml;
}

namespace placesim::hw {

namespace detail {
class RouteTable;
}

enum class DeviceKind { Gpu, Cpu, HostMemory, Switch, Nic };
const char* to_string(DeviceKind k);

struct Device {
  std::string id;
  DeviceKind kind = DeviceKind::Switch;
  std::string model;            // template or product name, for reports
  SourceLoc loc;
  // Compute devices (GPU, CPU). For a CPU the figures are for all its cores together.
  double fp32_flops = 0;        // FLOP/s
  double tensor_flops = 0;      // FP16/BF16 tensor-core FLOP/s; 0 = no tensor cores (use fp32)
  double int8_ops = 0;          // INT8 OP/s; 0 = use tensor_flops
  double memory_bw = 0;         // bytes/s of its own memory (roofline)
  double memory = 0;            // capacity in bytes (GPU memory, host memory)
  double launch_s = 0;          // kernel launch overhead per kernel (roofline constant)
  // The runtime's host-side work to dispatch one op onto this device (operator lookup, shape
  // checks, allocation, the launch call: tens of us in ONNX Runtime or PyTorch eager; 0 under
  // CUDA graphs). Paid on a host dispatch thread, not on the device (Topology::Runtime).
  double dispatch_s = 0;
  bool concurrent_kernels = true;
  int cores = 0;                // CPU
  // --- Added for hardware fidelity (issue 3); every default keeps the foundation's behaviour. ---
  // GPU copy engines: DMA queues for host-to-device and device-to-host copies, each a resource of
  // `copy_engine_bw` bytes/s (0: not a bottleneck) that its copies also use.
  int h2d_engines = 1;
  int d2h_engines = 1;
  double copy_engine_bw = 0;
  int streams = 1;              // compute queues a plan may use on this GPU
  // CPU: sockets, and the contention curve: contention[k-1] = per-core slowdown factor (>= 1)
  // when k cores are busy (Chrion's W matrix); empty: no slowdown.
  int sockets = 1;
  std::vector<double> contention;
  // CPU: DRAM bytes/s one core reaches alone; k busy cores reach k times that, slowed by the
  // contention curve, up to memory_bw (models::on_cores). 0: every core count gets memory_bw.
  double core_memory_bw = 0;
  // CPU as one op sees it (set by models::on_cores and on_one_core, never read from a file): the
  // cores the op runs on and the cores busy meanwhile, as the plan gives them; 0 where the plan
  // gives no count. The roofline reads the figures those views scale; the linear cost model,
  // whose fits are per thread count, reads these.
  int run_cores = 0;
  int busy_cores = 0;
  // Roofline refinements (models/cost/roofline.cpp); the defaults keep the plain roofline.
  // An op whose bytes fit in `cache_bytes` moves them at `cache_bw` instead of memory_bw (for a
  // CPU, all cores together like its peaks: each core has its own cache). `overlap`: the share
  // of the shorter of an op's compute and memory times hidden under the longer; 1 is the
  // roofline's max, 0 makes them add (a CPU core that streams a GEMM's operand in, then
  // multiplies it).
  double cache_bytes = 0;
  double cache_bw = 0;
  double overlap = 1;
  // NUMA node of a CPU socket or a host memory; copies from a host memory on another node than
  // the CPU that drives them cross the socket interconnect (a link in the file).
  int numa_node = 0;
  // Host memory: bytes/s a pageable (not pinned) copy reaches, staged through a bounce buffer;
  // 0: pageable copies run as fast as pinned ones.
  double pageable_bw = 0;
  std::string node;             // cluster node this device belongs to ("" outside clusters)
  bool is_compute() const { return kind == DeviceKind::Gpu || kind == DeviceKind::Cpu; }
};

struct Link {
  std::string id;
  int a = -1, b = -1;        // device indices
  double bw_ab = 0, bw_ba = 0;  // bytes/s per direction
  double latency_s = 0;
  std::string kind;          // pcie, nvlink, ib, ethernet, memory, ...
  int count = 1;             // parallel physical links it stands for (bw_ab/bw_ba already summed)
  SourceLoc loc;
};

struct Hop {
  int link;
  bool forward;  // true: a -> b
};

struct Route {
  std::vector<Hop> hops;
  double latency_s = 0;  // sum over hops
};
// A route as a topology hands it out: shared with its cache, which may drop it (the cache is
// bounded, hw/route_table.hpp) while the holder still reads it.
using RouteRef = std::shared_ptr<const Route>;

// The runtime that drives the machine (docs/execution.md, "The runtime"): host threads that
// dispatch ops one after another, each op's dispatch taking its device's dispatch_s. A GPU
// kernel then runs asynchronously; a CPU op runs on its dispatch thread's turn (the thread
// waits for it to end). In force when the file declares `runtime:` or any device has a
// dispatch cost; otherwise ops start as soon as their inputs and queue allow (no host model).
struct Runtime {
  int dispatch_threads = 1;  // threads a plan may assign ops to (>= 1)
  bool declared = false;     // the file has a `runtime:` block
  // `dispatch_on: device`: the assumption of models that profile each op's time on each
  // processor with the framework's overhead in it (Chrion's Eq. 2-3): an op's dispatch is added
  // to its device time, and no host thread dispatches. A switch for reproducing such a paper
  // (docs/execution.md, "The runtime"); the default is `host`.
  bool on_device = false;
};

class Topology {
 public:
  std::string name;
  std::string description;
  std::string source;        // citation for presets
  bool network_ideal = false;
  // `network: uncontended` (docs/execution.md, "Papers' assumptions"): a full mesh of stable
  // pairwise bandwidths, as MOIRAI's model has it. Each ordered device pair has a connection of
  // its own, after its route's latency at the rate the route reaches alone (narrowest hop, copy
  // engine, host memory bandwidth); no link, copy engine or memory channel is shared between
  // pairs. Collectives asked for as flows take their closed forms.
  bool network_uncontended = false;
  // `memory: unlimited`: every device's memory is unbounded (models that do not account memory,
  // as AsymGroup's simulation); peaks are still measured and reported.
  bool memory_unlimited = false;
  bool gpudirect = true;     // GPU <-> NIC traffic direct (true) or staged through host memory
  // The file's `calibration:` map, with the file and positions of its keys (null when absent):
  // fits such as ScheInfer's Table I or what `placesim calibrate` measured. The linear cost
  // model reads it (models/cost/calibration.hpp states its schema); the rest is a record.
  std::shared_ptr<const Yaml> calibration;
  Runtime runtime;
  std::vector<Device> devices;
  std::vector<Link> links;

  // -1 when absent. By an index once finalize() has run on this very device list (a plan of
  // 100k ops names a queue per delivery, each looked up by its device), else by a scan.
  int find(std::string_view id) const;
  int find_link(std::string_view id) const;  // the same for link ids
  // Loading: adds a device (a link) unless its id is taken, and returns -1; else the index that
  // holds the id already, adding nothing. Ids are looked up by hash, so a cluster of 10^5
  // devices loads in time linear in them.
  int add_device(Device d);
  int add_link(Link l);
  int index(const std::string& id, const SourceLoc& where = {}) const;  // InputError when absent
  std::vector<int> compute_devices() const;              // GPUs then CPUs, file order within each
  std::vector<int> gpus() const;
  std::vector<int> host_memories() const;
  // Whether ops are dispatched by host threads (Runtime): declared, or some device has a dispatch cost.
  bool dispatches() const;
  // The lowest-index link joining devices a and b directly (either way round); -1 when none.
  int link_between(int a, int b) const;
  // The host memory a device's weights come from: the nearest connected HostMemory by route
  // latency, ties to the lowest index (a host memory is its own); -1 when there is none.
  int host_memory_for(int device) const;
  bool reaches_host_memory(int device) const;  // host_memory_for(device) >= 0, without routing
  // Route from src to dst (devices). src == dst: empty. Throws InputError naming both devices,
  // located at src's definition, when no chain of links joins them.
  RouteRef route(int src, int dst) const;
  // route()'s route, computed now and not kept: for a caller that asks each pair once.
  Route route_once(int src, int dst) const;
  bool connected(int src, int dst) const;  // true when route() would not throw

  // Called by the loader once devices and links are final: routes may be asked for from then on.
  // An explicit route replaces the computed one for its (src, dst) pair only; `leaves` and
  // `spines`, a cluster's leaf-spine fabric, for its routing rule (with `gpudirect`: the two
  // rules of hw/route_table.hpp).
  void finalize(const std::map<std::pair<int, int>, Route>& explicit_routes = {}, const std::vector<int>& leaves = {},
                const std::vector<int>& spines = {});

 private:
  void check_device(int d) const;
  void check_connected(int src, int dst) const;  // InputError naming both when not connected

  std::shared_ptr<const detail::RouteTable> routes_;  // shared by copies: routes as finalize() left them
  NameIndex by_id_;               // device ids, first of each, bound to `devices` by finalize()
  NameIndex link_ids_;            // link ids, bound to `links` by add_link()
};

}  // namespace placesim::hw
