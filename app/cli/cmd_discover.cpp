// placesim discover -o FILE.yaml: a topology file of this machine (hw/discover/discover.hpp),
// written atomically; `placesim run` accepts it as `hardware: FILE.yaml`.
#include <algorithm>
#include <cstdio>
#include <fmt/format.h>

#include "backend/cuda_api.hpp"
#include "hw/discover/discover.hpp"
#include "hw/topology_yaml.hpp"
#include "app/cli/command.hpp"
#include "sim/core/file_io.hpp"

namespace placesim::cli {

int cmd_discover(const std::vector<std::string>& args) {
  po::options_description opts("options");
  opts.add_options()("output,o", po::value<std::string>()->required(), "topology YAML file to write");
  Parsed a;
  if (!parse_args(command_named("discover"), args, opts, {}, a)) return 0;
  const std::string path = a.vm["output"].as<std::string>();
  std::string no_cuda;  // without the CUDA module there are no GPUs to list
  const backend::CudaApi* cuda = backend::load_cuda(no_cuda);
  const hw::Discovered d = hw::discover_machine(cuda ? cuda->gpus() : std::vector<hw::CudaGpu>{});
  // Checked before it is written: a file `run` would refuse is a bug here, not the user's.
  const hw::Topology t = hw::load_topology_text(d.yaml, path);
  write_file_atomic(path, d.yaml);
  if (a.json) {
    print_json({{"file", path}, {"sockets", d.sockets}, {"numa_nodes", d.numa_nodes}, {"cores", d.cores},
                {"gpus", d.gpus}, {"devices", t.devices.size()}, {"links", t.links.size()}});
  } else {
    std::printf("%s", fmt::format("wrote {}: {} socket(s), {} NUMA node(s), {} cores, {} GPU(s); figures marked "
                                  "ESTIMATE in the file are to be replaced by `placesim calibrate`\n",
                                  path, d.sockets, d.numa_nodes, d.cores, d.gpus)
                          .c_str());
  }
  return 0;
}

}  // namespace placesim::cli
