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
//   devices:                     # required; a device takes every field of its template and may
//                                # override any of them
//     - {id: host, type: host_memory, memory: 256GiB, memory_bw: 76.8GB/s}
//     - {id: cpu0, type: cpu, cores: 20, fp32: 1.4TFLOPS, memory_bw: 76.8GB/s}
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
// Device fields by `type` (model: a product name for reports, defaults to the template name):
//   gpu          memory*, memory_bw*, fp32*, tensor, int8, launch, concurrent_kernels (true)
//   cpu          cores*, memory_bw*, fp32* (all cores together), tensor, int8, launch
//   host_memory  memory*, memory_bw (bandwidth of that memory, per NUMA node)
//   switch, nic  no fields
// (* required). Units: sizes `32GiB`/`32GB`, rates `16GB/s`/`100Gb/s`, compute `15.7TFLOPS`
// (`TOPS` for int8), durations `5us`; a bare number is in base units. Links: `a`, `b` (device
// ids), `bw` or both `bw_ab` and `bw_ba` (> 0), `latency` (>= 0, default 0), `count` (>= 1,
// default 1; the bandwidth is multiplied by it), `kind` (free text: pcie, nvlink, memory, ...),
// `id` (default `a-b`, then `a-b#2`, ...).
//
// Checks beyond units: duplicate device or link ids, links to missing devices or from a device
// to itself, an explicit route through devices that no link joins, and, unless the network is
// ideal, a GPU with no route to any host memory when the topology has one.
#pragma once

#include <string>
#include <vector>

#include "hw/topology.hpp"
#include "sim/core/yaml_doc.hpp"

namespace placesim::hw {

// `spec` is a preset name, a path to a YAML file, or an inline map (in a scenario). A path is
// tried as given, then relative to the directory of the file `spec` comes from. A preset's
// errors are located in "preset:<name>".
Topology load_topology(const Yaml& spec);
Topology load_topology_file(const std::string& path);
Topology load_topology_text(const std::string& text, const std::string& name);
// A topology from an already-read map; `default_name` names it when it has no `name:` key.
Topology parse_topology(const Yaml& root, const std::string& default_name);

struct PresetInfo {
  std::string name;
  std::string description;
};
std::vector<PresetInfo> list_presets();  // sorted by name
bool is_preset(const std::string& name);
const std::string& preset_text(const std::string& name);  // InputError when unknown

}  // namespace placesim::hw
