// Topology files (YAML, human units) and the built-in presets (hw/presets/*.yaml, embedded into
// the binary at build time so `placesim` works from any directory).
//
// Schema (every key not listed here is an error, reported at the key):
//
//   name: sortinghat-v100        # optional; default: the file's stem or the preset's name
//   description: one line        # shown by `placesim list presets`
//   source: citation             # where the figures come from
//   network: links               # or `ideal`: every pair connected, zero latency, infinite
//                                # bandwidth; links and routes are then read but not used
//   templates:                   # optional named device templates
//     v100: {type: gpu, memory: 32GiB, memory_bw: 900GB/s, fp32: 15.7TFLOPS, tensor: 125TFLOPS,
//            launch: 5us}
//   devices:                     # a device takes every field of its template and may override
//                                # any of them (a file needs devices, nodes or an include)
//     - {id: host, type: host_memory, memory: 256GiB, memory_bw: 76.8GB/s}
//     - {id: cpu0, type: cpu, cores: 20, fp32: 1.4TFLOPS, memory_bw: 76.8GB/s, dispatch: 20us}
//     - {id: bus0, type: switch}
//     - {id: gpu0, template: v100}
//   links:                       # full duplex
//     - {a: host, b: bus0, bw: 12GB/s, latency: 1us, kind: pcie}   # bw: each direction
//     - {a: gpu0, b: gpu3, bw: 22.5GB/s, count: 2, kind: nvlink}   # count: parallel links
//     - {a: x, b: y, bw_ab: 10GB/s, bw_ba: 5GB/s}                  # or one rate per direction
//   routes:                      # optional explicit routes, device ids along the path; each
//     - [gpu0, bus0, host]       # replaces the computed route both ways unless the reverse
//                                # is listed too
//
//   gpudirect: true              # optional (default true): GPU <-> NIC traffic goes direct;
//                                # false stages it through host memory (rule 2 below)
//   calibration: {...}           # optional map of fits (Topology::calibration; its schema,
//                                # and what reads it: models/cost/calibration.hpp)
//   include: sortinghat-v100     # optional: a preset or file (relative to this one) to start
//                                # from; this file then adds to it (see "Layering")
//   generator: asymgroup         # optional, instead of include: a generated cluster
//   nodes: [2, 1, 1, 2]          #   (its arguments; hw/generators.hpp lists generators)
//
// Clusters (optional): node templates replicated into nodes, and a fabric joining their NICs.
//   node_templates:              # each is a small topology: templates, devices, links, routes,
//     dgx:                       # or `include:` of a preset (a whole machine as a node)
//       devices: [{id: gpu0, template: a100}, {id: pcie0, type: switch}, {id: nic0, type: nic}, ...]
//       links: [{a: gpu0, b: pcie0, bw: 25GB/s}, {a: nic0, b: pcie0, bw: 25GB/s}, ...]
//   nodes:                       # node k (counting across entries from 0) is `n<k>`: its
//     - {template: dgx, count: 4}  # devices are `n<k>.<id>` with Device::node = `n<k>`; a
//     - {template: small}          # top-level link may join them (`n3.gpu0`); count >= 1
//   fabric:                      # required when there are two or more nodes
//     type: switch               # one switch `fabric`, every NIC linked to it by `link`
//     link: {bw: 25GB/s, latency: 0.5us, kind: ib}     # bw or bw_ab/bw_ba, latency, count, kind
//   # or
//   fabric:
//     type: leaf-spine           # switches leaf0.., spine0..; NICs fill leaves in node order
//     leaf_size: 8               # NICs per leaf
//     spines: 2                  # every leaf links to every spine by `uplink`
//     link: {bw: 25GB/s, latency: 0.5us}   # NIC to leaf
//     uplink: {bw: 50GB/s, latency: 0.5us} # leaf to spine (a = leaf, b = spine)
// A NIC is a device of its node template linked to a PCIe switch, so GPU <-> network traffic
// crosses the same PCIe links as that GPU's copies from host memory.
//
// Routing rules after the computed routes (hw/route_table.hpp), for pairs without an explicit
// route: (1) leaf-spine: a cross-leaf route goes through spine (destination leaf mod spines);
// (2) `gpudirect: false`: a route from or to a GPU that crosses a NIC is staged through that
// GPU's host memory (GPU -> host, then host -> destination).
//
// Layering (`include:`, `generator:`): the included file is read first. This file's
// description, source, network, gpudirect, calibration, nodes and fabric replace it; templates
// and node templates with the same name replace theirs; devices, links and routes are added,
// except that a device whose id names an included device overrides just the fields it lists
// (`- {id: gpu1, fp32: 1.4TFLOPS}`). `name` is never inherited.
//
// Device fields by `type` (model: a product name for reports, defaults to the template name):
//   gpu          memory*, memory_bw*, fp32*, tensor, int8, launch, dispatch,
//                concurrent_kernels (true),
//                h2d_engines (1), d2h_engines (1): copy engines, separate queues per direction;
//                copy_engine_bw (each engine's DMA rate; absent: not a bottleneck),
//                streams (1): compute queues a plan may use
//   cpu          cores*, memory_bw*, fp32* (all cores together), tensor, int8, launch,
//                dispatch, sockets (1, <= cores), numa_node (0),
//                contention: [f1, f2, ...]: per-core slowdown (each a number >= 1) when k
//                cores are busy is f_k; 1 to `cores` entries; absent: no slowdown;
//                core_memory_bw: DRAM rate of one core alone (k cores: k times it / f_k, at
//                most memory_bw); absent: memory_bw whatever the core count
//   gpu and cpu  also: cache + cache_bw (together): an op whose bytes fit in `cache` moves
//                them at cache_bw (a CPU's: all cores together); overlap (1): the share of the
//                shorter of compute and memory time hidden under the longer (0: they add)
//   host_memory  memory*, memory_bw (bandwidth of that memory, per NUMA node), numa_node (0),
//                pageable_bw (rate of pageable, not pinned, copies; absent: as pinned)
//   switch, nic  no fields
// (* required). launch (>= 0, default 0) is the kernel launch per op, added to every op's
// roofline time (on a CPU once per op whatever its cores); dispatch (>= 0, default 0) the
// runtime's host-side work to dispatch one op onto the device (tens of us in ONNX Runtime or
// PyTorch eager), paid on a host dispatch thread, not on the device. `runtime:
// {dispatch_threads: N}` (N >= 1, default 1) declares the host threads that dispatch ops
// (docs/execution.md, "The runtime"); a machine with no `runtime:` and no dispatch cost has
// no host model at all.
// Units: sizes `32GiB`/`32GB`, rates `16GB/s`/`100Gb/s`, compute `15.7TFLOPS` (`TOPS` for
// int8), durations `5us`; a bare number is in base units. Links: `a`, `b` (device
// ids), `bw` or both `bw_ab` and `bw_ba` (> 0), `latency` (>= 0, default 0), `count` (>= 1,
// default 1; the bandwidth is multiplied by it), `kind` (free text: pcie, nvlink, memory, ...),
// `id` (default `a-b`, then `a-b#2`, ...).
//
// Checks beyond units: duplicate device or link ids (also between nodes and top-level
// devices), links to missing devices or from a device to itself, an explicit route through
// devices that no link joins, unknown node templates, zero nodes or a zero count, a cluster of
// several nodes without a fabric or a node without a NIC, an include cycle, a contention curve
// that is empty or longer than the cores, and, unless the network is ideal, a GPU with no
// route to any host memory when the topology has one.
#pragma once

#include <string>
#include <vector>

#include "hw/topology.hpp"
#include "sim/core/yaml_doc.hpp"

namespace placesim::hw {

// `spec` is a preset name, a path to a YAML file, or an inline map (in a scenario). A path is
// tried as given, then relative to the directory of the file `spec` comes from. A preset's
// errors are located in "preset:<name>". `read`, if given, receives the document read: a caller
// whose process ends soon may leave it to the exit (freeing a 512-host file's nodes one by one
// was 6% of `placesim simulate` on a thousand flows).
Topology load_topology(const Yaml& spec, Yaml* read = nullptr);
Topology load_topology_file(const std::string& path);
Topology load_topology_text(const std::string& text, const std::string& name);
// A topology from an already-read map; `default_name` names it when it has no `name:` key.
Topology parse_topology(const Yaml& root, const std::string& default_name);

struct PresetInfo {
  std::string name;
  std::string description;
};
std::vector<PresetInfo> list_presets();  // in natural order of names (asymgroup-s2 before -s10)
bool is_preset(const std::string& name);
const std::string& preset_text(const std::string& name);  // InputError when unknown

}  // namespace placesim::hw
