// `placesim discover` on the machine the tests run on: the file it writes loads through the
// topology loader, with one host memory per NUMA node, one cpu per socket and the cores hwloc
// counts, and its estimates marked as such.
#include <gtest/gtest.h>

#include "hw/discover/discover.hpp"
#include "hw/topology_yaml.hpp"

using namespace placesim;
using namespace placesim::hw;

TEST(HwDiscover, OutputRoundTripsThroughTheLoader) {
  const Discovered d = discover_machine({});
  ASSERT_GE(d.sockets, 1);
  ASSERT_GE(d.numa_nodes, 1);
  ASSERT_GE(d.cores, 1);
  const Topology t = load_topology_text(d.yaml, "discovered.yaml");
  EXPECT_EQ(t.name, "discovered");
  EXPECT_EQ(static_cast<int>(t.host_memories().size()), d.numa_nodes);
  EXPECT_EQ(static_cast<int>(t.gpus().size()), d.gpus);
  int cpus = 0, cores = 0;
  for (const Device& dev : t.devices) {
    if (dev.kind != DeviceKind::Cpu) continue;
    ++cpus;
    cores += dev.cores;
    EXPECT_GT(dev.fp32_flops, 0);
    EXPECT_GT(dev.memory_bw, 0);
    EXPECT_GE(t.host_memory_for(t.index(dev.id)), 0);  // each socket reaches its memory
  }
  EXPECT_EQ(cpus, d.sockets);
  EXPECT_EQ(cores, d.cores);
  for (int h : t.host_memories()) EXPECT_GT(t.devices[h].memory, 0);
  EXPECT_NE(d.yaml.find("ESTIMATE"), std::string::npos);
}

TEST(HwDiscover, AGpuTheCudaModuleListsIsInTheFile) {
  // A GPU hwloc does not find on the PCIe tree (no such bus here) hangs off its first NUMA
  // node at the fallback PCIe rate, with the figures it came with.
  CudaGpu gpu;
  gpu.name = "Test GPU";
  gpu.pci_bus_id = "0000:ff:1f.7";
  gpu.memory = 16e9;
  gpu.fp32_flops = 20e12;
  gpu.memory_bw = 900e9;
  gpu.working = "test";
  const Discovered d = discover_machine({gpu});
  EXPECT_EQ(d.gpus, 1);
  const Topology t = load_topology_text(d.yaml, "discovered.yaml");
  ASSERT_EQ(t.gpus().size(), 1u);
  const Device& g = t.devices[t.gpus()[0]];
  EXPECT_EQ(g.memory, 16e9);
  EXPECT_EQ(g.fp32_flops, 20e12);
  EXPECT_EQ(g.memory_bw, 900e9);
}
