// Cluster files: node templates replicated into nodes, the fabric, the routing rules
// (destination-mod-k spines, GPUDirect off), include/override layering, the asymgroup generator
// and the calibration map. Expected counts, ids and hop counts are worked out by hand below.
#include <gtest/gtest.h>

#include "tests/support/run_cli.hpp"
#include "hw/topology_yaml.hpp"

using namespace placesim;
using namespace placesim::hw;

namespace {

// A node: host memory, PCIe switch, one GPU and one NIC on it.
const std::string kBox = R"(
node_templates:
  box:
    devices:
      - {id: host, type: host_memory, memory: 64GiB}
      - {id: pcie0, type: switch}
      - {id: gpu0, type: gpu, memory: 16GiB, memory_bw: 900GB/s, fp32: 10TFLOPS}
      - {id: nic0, type: nic}
    links:
      - {a: host, b: pcie0, bw: 10GB/s, latency: 0.5us}
      - {a: pcie0, b: gpu0, bw: 10GB/s, latency: 0.5us}
      - {a: pcie0, b: nic0, bw: 10GB/s, latency: 0.5us}
)";

std::vector<std::string> devices_along(const Topology& t, const std::string& src, const std::string& dst) {
  int at = t.index(src);
  std::vector<std::string> out{t.devices[at].id};
  for (const RouteRef route = t.route(at, t.index(dst)); const Hop& h : route->hops) {
    at = h.forward ? t.links[h.link].b : t.links[h.link].a;
    out.push_back(t.devices[at].id);
  }
  return out;
}

TEST(HwCluster, NodesAreReplicatedWithPrefixedIds) {
  const Topology t = load_topology_text(kBox + R"(
templates:
  big: {type: gpu, memory: 80GiB, memory_bw: 2TB/s, fp32: 50TFLOPS}
nodes:
  - {template: box, count: 3}
  - {template: box}
fabric: {type: switch, link: {bw: 25GB/s, latency: 1us}}
devices:
  - {id: storage, type: host_memory, memory: 1TiB}
links:
  - {a: storage, b: fabric, bw: 25GB/s}
)",
                                            "t.yaml");
  // 1 top-level device + 4 nodes x 4 devices + the fabric switch = 18.
  EXPECT_EQ(t.devices.size(), 18u);
  EXPECT_EQ(t.gpus().size(), 4u);
  for (int k = 0; k < 4; ++k) {
    const std::string n = "n" + std::to_string(k);
    const int g = t.find(n + ".gpu0");
    ASSERT_GE(g, 0) << n;
    EXPECT_EQ(t.devices[g].node, n);
    EXPECT_EQ(t.devices[t.host_memory_for(g)].id, n + ".host");  // its own node's memory
    // Each node's copy of the node template's gpu0 (read once, hw/cluster_yaml.cpp) has its figures.
    EXPECT_EQ(t.devices[g].memory, 16.0 * (1 << 30)) << n;
    EXPECT_EQ(t.devices[g].memory_bw, 900e9) << n;
    EXPECT_EQ(t.devices[g].fp32_flops, 10e12) << n;
  }
  EXPECT_EQ(t.devices[t.index("storage")].node, "");
  // 4 nodes x 3 links + 4 NIC links + the storage link = 17.
  EXPECT_EQ(t.links.size(), 17u);
  // n0.gpu0 -> n3.gpu0: gpu, pcie0, nic0, fabric, nic0, pcie0, gpu: 6 hops.
  EXPECT_EQ(devices_along(t, "n0.gpu0", "n3.gpu0"),
            (std::vector<std::string>{"n0.gpu0", "n0.pcie0", "n0.nic0", "fabric", "n3.nic0", "n3.pcie0", "n3.gpu0"}));
}

TEST(HwCluster, LeafSpineRoutesAndSpineChoice) {
  // 6 nodes, one NIC each, 2 NICs per leaf: leaves 0 (n0, n1), 1 (n2, n3), 2 (n4, n5); 2 spines.
  const Topology t = load_topology_text(kBox + R"(
nodes: [{template: box, count: 6}]
fabric:
  type: leaf-spine
  leaf_size: 2
  spines: 2
  link: {bw: 25GB/s, latency: 1us}
  uplink: {bw: 50GB/s, latency: 1us}
)",
                                            "t.yaml");
  // 6 x 4 node devices + 3 leaves + 2 spines = 29; links 6 x 3 + 6 NIC links + 3 x 2 uplinks = 30.
  EXPECT_EQ(t.devices.size(), 29u);
  EXPECT_EQ(t.links.size(), 30u);
  // Same leaf: gpu -> pcie0 -> nic0 (2 hops), nic0 -> leaf -> nic0 (2), nic0 -> pcie0 -> gpu (2): 6.
  EXPECT_EQ(t.route(t.index("n0.gpu0"), t.index("n1.gpu0"))->hops.size(), 6u);
  EXPECT_EQ(devices_along(t, "n0.nic0", "n1.nic0"), (std::vector<std::string>{"n0.nic0", "leaf0", "n1.nic0"}));
  // Across leaves: nic, leaf, spine, leaf, nic: 4 fabric hops, 8 GPU to GPU. The spine is the
  // destination leaf's index mod 2: to leaf1 through spine1, to leaf2 through spine0.
  EXPECT_EQ(t.route(t.index("n0.gpu0"), t.index("n2.gpu0"))->hops.size(), 8u);
  EXPECT_EQ(devices_along(t, "n0.nic0", "n2.nic0"),
            (std::vector<std::string>{"n0.nic0", "leaf0", "spine1", "leaf1", "n2.nic0"}));
  EXPECT_EQ(devices_along(t, "n0.nic0", "n4.nic0"),
            (std::vector<std::string>{"n0.nic0", "leaf0", "spine0", "leaf2", "n4.nic0"}));
  EXPECT_EQ(devices_along(t, "n4.gpu0", "n0.gpu0"),
            (std::vector<std::string>{"n4.gpu0", "n4.pcie0", "n4.nic0", "leaf2", "spine0", "leaf0", "n0.nic0",
                                      "n0.pcie0", "n0.gpu0"}));
  // Latency: gpu-pcie0 and pcie0-nic0 at both ends (4 x 0.5 us) + 4 fabric hops of 1 us.
  EXPECT_NEAR(t.route(t.index("n0.gpu0"), t.index("n2.gpu0"))->latency_s, 4 * 0.5e-6 + 4 * 1e-6, 1e-15);
}

TEST(HwCluster, WithoutGpuDirectNetworkTrafficIsStagedThroughHostMemory) {
  const std::string cluster = kBox + "nodes: [{template: box, count: 2}]\n"
                                     "fabric: {type: switch, link: {bw: 25GB/s, latency: 1us}}\n";
  const Topology direct = load_topology_text(cluster, "t.yaml");
  EXPECT_EQ(devices_along(direct, "n0.gpu0", "n0.nic0"), (std::vector<std::string>{"n0.gpu0", "n0.pcie0", "n0.nic0"}));
  const Topology staged = load_topology_text(cluster + "gpudirect: false\n", "t.yaml");
  EXPECT_FALSE(staged.gpudirect);
  // GPU to its NIC: down to host memory and back up through the same switch.
  EXPECT_EQ(devices_along(staged, "n0.gpu0", "n0.nic0"),
            (std::vector<std::string>{"n0.gpu0", "n0.pcie0", "n0.host", "n0.pcie0", "n0.nic0"}));
  // GPU to GPU across nodes: staged at both ends.
  EXPECT_EQ(devices_along(staged, "n0.gpu0", "n1.gpu0"),
            (std::vector<std::string>{"n0.gpu0", "n0.pcie0", "n0.host", "n0.pcie0", "n0.nic0", "fabric", "n1.nic0",
                                      "n1.pcie0", "n1.host", "n1.pcie0", "n1.gpu0"}));
  // Inside a node nothing crosses a NIC, so nothing changes.
  EXPECT_EQ(devices_along(staged, "n0.host", "n0.gpu0"), devices_along(direct, "n0.host", "n0.gpu0"));
}

TEST(HwCluster, AWholePresetAsANodeTemplate) {
  const Topology t = load_topology_text(R"(
node_templates:
  dgx: {include: dgx-a100}
nodes: [{template: dgx, count: 2}]
fabric: {type: switch, link: {bw: 25GB/s, latency: 1us, kind: ib}}
)",
                                        "t.yaml");
  EXPECT_EQ(t.gpus().size(), 16u);
  EXPECT_GE(t.find("n1.nvswitch"), 0);
  // Eight NICs per DGX A100, each joined to the fabric: a GPU reaches a GPU of the other node.
  EXPECT_TRUE(t.connected(t.index("n0.gpu0"), t.index("n1.gpu7")));
}

TEST(HwCluster, IncludeAddsAndOverrides) {
  const Topology t = load_topology_text(R"(
include: sortinghat-v100
description: one slow GPU
devices:
  - {id: gpu1, fp32: 1TFLOPS, streams: 4, h2d_engines: 2, copy_engine_bw: 11GB/s}
  - {id: nic0, type: nic}
links:
  - {a: nic0, b: bus0, bw: 12GB/s}
)",
                                        "mine.yaml");
  EXPECT_EQ(t.name, "mine");  // the name is not inherited
  EXPECT_EQ(t.description, "one slow GPU");
  EXPECT_FALSE(t.source.empty());  // the source is
  const Device& g1 = t.devices[t.index("gpu1")];
  EXPECT_EQ(g1.fp32_flops, 1e12);
  EXPECT_EQ(g1.tensor_flops, 125e12);  // from the template, untouched
  EXPECT_EQ(g1.streams, 4);
  EXPECT_EQ(g1.h2d_engines, 2);
  EXPECT_EQ(g1.d2h_engines, 1);
  EXPECT_EQ(g1.copy_engine_bw, 11e9);
  EXPECT_EQ(t.devices[t.index("gpu0")].fp32_flops, 15.7e12);
  EXPECT_EQ(t.gpus().size(), 4u);
  EXPECT_GE(t.link_between(t.index("nic0"), t.index("bus0")), 0);
}

TEST(HwCluster, NewDeviceFieldsAndCalibration) {
  const Topology t = load_topology_text(R"(
gpudirect: false
calibration: {launch: 4.4e-5, pcie: {alpha: 3.0e-6, beta: 2.6e-11}}
devices:
  - {id: host, type: host_memory, memory: 64GiB, numa_node: 1, pageable_bw: 6GB/s}
  - {id: cpu0, type: cpu, cores: 4, sockets: 2, fp32: 1TFLOPS, memory_bw: 50GB/s, numa_node: 1,
     contention: [1, 1.1, 1.25]}
)",
                                        "t.yaml");
  EXPECT_FALSE(t.gpudirect);
  // The map is kept with its positions in the file.
  ASSERT_TRUE(t.calibration);
  EXPECT_EQ(t.calibration->at("pcie").at("beta").number(), 2.6e-11);
  EXPECT_EQ(t.calibration->at("pcie").loc().str(), "t.yaml:3:37");
  const Device& h = t.devices[t.index("host")];
  EXPECT_EQ(h.numa_node, 1);
  EXPECT_EQ(h.pageable_bw, 6e9);
  const Device& c = t.devices[t.index("cpu0")];
  EXPECT_EQ(c.sockets, 2);
  EXPECT_EQ(c.contention, (std::vector<double>{1, 1.1, 1.25}));
}

TEST(HwCluster, AsymGroupGenerator) {
  // [2, 1, 1, 2]: n0 and n3 with two GPUs, n1 and n2 with one: 6 GPUs, 4 hosts, 4 NICs.
  const Yaml spec = Yaml::load_string("hardware: {generator: asymgroup, nodes: [2, 1, 1, 2]}\n", "s.yaml");
  const Topology t = load_topology(spec.at("hardware"));
  EXPECT_EQ(t.gpus().size(), 6u);
  EXPECT_GE(t.find("n0.gpu1"), 0);
  EXPECT_LT(t.find("n1.gpu1"), 0);
  EXPECT_GE(t.find("n3.gpu1"), 0);
  // Inside a two-GPU node: one NVLink hop of 50 ns; across nodes: 2 fabric links of 100 ns.
  EXPECT_NEAR(t.route(t.index("n0.gpu0"), t.index("n0.gpu1"))->latency_s, 50e-9, 1e-18);
  EXPECT_NEAR(t.route(t.index("n0.gpu0"), t.index("n1.gpu0"))->latency_s, 200e-9, 1e-18);
}

TEST(HwCluster, AsymGroupGeneratorByCount) {
  // {count: 5, gpus: 1}: five one-GPU nodes n0 .. n4, as [1, 1, 1, 1, 1].
  const Yaml spec = Yaml::load_string("hardware: {generator: asymgroup, nodes: {count: 5, gpus: 1}}\n", "s.yaml");
  const Topology t = load_topology(spec.at("hardware"));
  EXPECT_EQ(t.gpus().size(), 5u);
  EXPECT_GE(t.find("n4.gpu0"), 0);
  EXPECT_LT(t.find("n5.gpu0"), 0);
}

// docs/scenarios.md "Paths": an include is taken from the including file's directory only, never
// from the working directory (the tests run in the repository root, where hw/presets/ is).
TEST(HwCluster, IncludeIsRelativeToTheIncludingFileOnly) {
  const std::string dir = placesim::testing::temp_dir("include-paths");
  std::filesystem::create_directories(dir + "/sub");
  placesim::testing::write_file(dir + "/sub", "base.yaml", "include: sortinghat-v100\ndescription: base\n");
  const std::string top = placesim::testing::write_file(dir, "top.yaml", "include: sub/base.yaml\n");
  const Topology t = load_topology_file(top);
  EXPECT_EQ(t.description, "base");

  const std::string cwd_only = placesim::testing::write_file(dir, "cwd.yaml", "include: hw/presets/sortinghat-v100.yaml\n");
  ASSERT_TRUE(std::filesystem::is_regular_file("hw/presets/sortinghat-v100.yaml"));
  try {
    load_topology_file(cwd_only);
    ADD_FAILURE() << "an include found from the working directory";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cwd.yaml:1:10"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("unknown preset or file 'hw/presets/sortinghat-v100.yaml'"), std::string::npos)
        << e.what();
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
