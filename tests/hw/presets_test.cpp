// The built-in presets: each loads, is described and cited, every GPU reaches host memory, and
// the derived figures match the working written in the preset's comments.
#include <algorithm>
#include <gtest/gtest.h>

#include "hw/route_cost.hpp"
#include "hw/topology_yaml.hpp"

using namespace placesim;
using namespace placesim::hw;

namespace {

Topology preset(const std::string& name) { return load_topology_text(preset_text(name), "preset:" + name); }

TEST(HwPresets, ListedInNaturalOrderAndDescribed) {
  const std::vector<PresetInfo> list = list_presets();
  std::vector<std::string> names;
  for (const PresetInfo& p : list) {
    names.push_back(p.name);
    EXPECT_FALSE(p.description.empty()) << p.name;
    EXPECT_TRUE(is_preset(p.name));
  }
  // Natural order: numbers inside names compare as numbers.
  const auto at = [&](const std::string& n) { return std::find(names.begin(), names.end(), n) - names.begin(); };
  EXPECT_LT(at("asymgroup-s2"), at("asymgroup-s10"));
  EXPECT_LT(at("asymgroup-s16"), at("chrion-1080ti"));
  EXPECT_LT(at("sortinghat-v100"), at("sortinghat-v100-hetero"));
  for (const char* want : {"pcie-4gpu-2bus", "sortinghat-v100", "sortinghat-v100-hetero", "sortinghat-a6000",
                           "moirai-interserver", "moirai-intraserver", "scheinfer-a", "scheinfer-b", "scheinfer-c",
                           "chrion-1080ti", "dgx-a100", "dgx-h100", "p4d-24xlarge", "h100-pcie", "h200",
                           "asymgroup-s0", "asymgroup-s16"})
    EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
  EXPECT_FALSE(is_preset("no-such-preset"));
  EXPECT_THROW(preset_text("no-such-preset"), InputError);
}

TEST(HwPresets, EveryPresetLoadsAndEveryGpuReachesHostMemory) {
  for (const PresetInfo& p : list_presets()) {
    SCOPED_TRACE(p.name);
    const Topology t = preset(p.name);
    EXPECT_EQ(t.name, p.name);
    EXPECT_FALSE(t.source.empty());
    ASSERT_FALSE(t.gpus().empty());
    // Located in this preset, or in the preset it includes.
    for (const Device& d : t.devices) EXPECT_EQ(d.loc.file.str().rfind("preset:", 0), 0u) << d.loc.file.str();
    for (int g : t.gpus()) {
      const int h = t.host_memory_for(g);
      ASSERT_GE(h, 0) << t.devices[g].id;
      EXPECT_EQ(t.devices[h].kind, DeviceKind::HostMemory);
      EXPECT_FALSE(t.route(h, g)->hops.empty());
      EXPECT_FALSE(t.route(g, h)->hops.empty());
    }
  }
}

TEST(HwPresets, LoadByNameThroughASpec) {
  const Yaml spec = Yaml::load_string("hardware: sortinghat-v100\n", "s.yaml").at("hardware");
  const Topology t = load_topology(spec);
  EXPECT_EQ(t.name, "sortinghat-v100");
  EXPECT_EQ(t.gpus().size(), 4u);
}

TEST(HwPresets, SortingHatFiguresFromTheirWorking) {
  const Topology t = preset("sortinghat-v100");
  const Device& cpu = t.devices[t.index("cpu0")];
  EXPECT_EQ(cpu.cores, 20);
  EXPECT_DOUBLE_EQ(cpu.fp32_flops, 20 * 2.2e9 * (2 * 8 * 2));  // cores x clock x FLOP/cycle (AVX2)
  const Device& host = t.devices[t.index("host")];
  EXPECT_DOUBLE_EQ(host.memory_bw, 4 * 2400e6 * 8);            // channels x MT/s x 8 bytes
  EXPECT_EQ(host.memory, 256.0 * (1 << 30));
  const Device& gpu = t.devices[t.index("gpu2")];
  EXPECT_EQ(gpu.memory, 32.0 * (1 << 30));
  EXPECT_DOUBLE_EQ(gpu.fp32_flops, 15.7e12);
  EXPECT_EQ(gpu.tensor_flops, 125e12);
  EXPECT_EQ(t.gpus().size(), 4u);
}

TEST(HwPresets, PcieBoxFiguresFromTheirWorking) {
  const Topology t = preset("pcie-4gpu-2bus");
  const Device& cpu = t.devices[t.index("cpu0")];
  EXPECT_DOUBLE_EQ(cpu.fp32_flops, 20 * 2.1e9 * (2 * 16 * 2));  // cores x clock x FLOP/cycle (AVX-512)
  EXPECT_DOUBLE_EQ(t.devices[t.index("host")].memory_bw, 6 * 2933e6 * 8);
  for (const Link& l : t.links) EXPECT_NE(l.kind, "nvlink");
}

TEST(HwPresets, HeteroV100ScalesTheSlowGpusByTheirClock) {
  const Topology t = preset("sortinghat-v100-hetero");
  // At 1500 MHz: 5120 cores x 2 FLOP x 1.5 GHz; at 135 MHz: that x 135/1500.
  const double fast = 5120 * 2 * 1.5e9;
  EXPECT_DOUBLE_EQ(t.devices[t.index("gpu0")].fp32_flops, fast);
  EXPECT_DOUBLE_EQ(t.devices[t.index("gpu3")].fp32_flops, fast);
  EXPECT_NEAR(t.devices[t.index("gpu1")].fp32_flops, fast * 135 / 1500, 1);
  EXPECT_NEAR(t.devices[t.index("gpu2")].tensor_flops, 640 * 128 * 1.5e9 * 135 / 1500, 1);
  EXPECT_EQ(t.devices[t.index("gpu2")].memory_bw, 900e9);  // stated assumption: memory clock kept
  EXPECT_EQ(t.links.size(), preset("sortinghat-v100").links.size());
}

TEST(HwPresets, MoiraiLinksCarryTableIIIPerDirection) {
  // Table III row = sender: A -> B 44.26 Gb/s, B -> A 42.39 Gb/s; intra-server A -> B 1170.04.
  const Topology inter = preset("moirai-interserver");
  const Link& ab = inter.links[inter.link_between(inter.index("gpu_a"), inter.index("gpu_b"))];
  EXPECT_DOUBLE_EQ(ab.bw_ab, 44.26e9 / 8);
  EXPECT_DOUBLE_EQ(ab.bw_ba, 42.39e9 / 8);
  const Topology intra = preset("moirai-intraserver");
  const Link& cd = intra.links[intra.link_between(intra.index("gpu_c"), intra.index("gpu_d"))];
  EXPECT_DOUBLE_EQ(cd.bw_ab, 571.96e9 / 8);  // C -> D
  EXPECT_DOUBLE_EQ(cd.bw_ba, 581.35e9 / 8);  // D -> C
}

TEST(HwPresets, ScheInferPcieAndLaunchFromTableI) {
  // Table I, testbed C: PCIe alpha 3.7e-6 s, beta 4.1e-11 s/B; launch 5.2e-5 s.
  const Topology t = preset("scheinfer-c");
  const Route r = *t.route(t.index("host"), t.index("gpu0"));
  ASSERT_EQ(r.hops.size(), 1u);
  EXPECT_NEAR(r.latency_s, 3.7e-6, 1e-15);
  EXPECT_NEAR(t.links[r.hops[0].link].bw_ab, 1 / 4.1e-11, 1e6);  // 24.39 GB/s, rounded in the file
  EXPECT_NEAR(t.devices[t.index("gpu0")].launch_s, 5.2e-5, 1e-15);
  ASSERT_TRUE(t.calibration);
  EXPECT_TRUE(t.calibration->has("gpu_gemm"));
}

TEST(HwPresets, ChrionContentionCurve) {
  const Topology t = preset("chrion-1080ti");
  const Device& cpu = t.devices[1];
  ASSERT_EQ(cpu.kind, DeviceKind::Cpu);
  ASSERT_EQ(cpu.contention.size(), 12u);
  // k/5 beyond five busy cores, 1 up to five.
  for (int k = 1; k <= 12; ++k) EXPECT_NEAR(cpu.contention[k - 1], std::max(1.0, k / 5.0), 1e-12) << k;
}

TEST(HwPresets, DgxNumaAndNics) {
  const Topology t = preset("dgx-a100");
  EXPECT_EQ(t.gpus().size(), 8u);
  EXPECT_EQ(t.devices[t.host_memory_for(t.index("gpu0"))].id, "host0");
  EXPECT_EQ(t.devices[t.host_memory_for(t.index("gpu7"))].id, "host1");
  EXPECT_EQ(t.devices[t.index("host1")].numa_node, 1);
  // GPU to GPU through the NVSwitch: 12 links x 22.5 GB/s on each GPU's hop.
  const Route r = *t.route(t.index("gpu0"), t.index("gpu5"));
  ASSERT_EQ(r.hops.size(), 2u);
  EXPECT_DOUBLE_EQ(t.links[r.hops[0].link].bw_ab, 12 * 22.5e9);
}

TEST(HwPresets, AsymGroupSystemsFollowTable1) {
  // Sk: k two-GPU nodes and 16 - k one-GPU nodes, 16 + k GPUs, 16 nodes.
  for (int k = 0; k <= 16; ++k) {
    const Topology t = preset("asymgroup-s" + std::to_string(k));
    EXPECT_EQ(t.gpus().size(), static_cast<size_t>(16 + k)) << k;
    EXPECT_EQ(t.host_memories().size(), 16u) << k;
    EXPECT_EQ(t.find("n15.gpu1") >= 0, k == 16) << k;
  }
  // 300 GB/s per direction inside a node (600 bidirectional), 100 across (200 bidirectional).
  const Topology t = preset("asymgroup-s2");
  const Route in = *t.route(t.index("n0.gpu0"), t.index("n0.gpu1"));
  ASSERT_EQ(in.hops.size(), 1u);
  EXPECT_DOUBLE_EQ(t.links[in.hops[0].link].bw_ab, 300e9);
  EXPECT_DOUBLE_EQ(route_cost(t, t.index("n0.gpu0"), t.index("n5.gpu0")).bandwidth, 100e9);
}

}  // namespace
