// The built-in presets: each loads, is described and cited, every GPU reaches host memory, and
// the derived figures match the working written in the preset's comments.
#include <algorithm>
#include <gtest/gtest.h>

#include "hw/topology_yaml.hpp"

using namespace placesim;
using namespace placesim::hw;

namespace {

Topology preset(const std::string& name) { return load_topology_text(preset_text(name), "preset:" + name); }

TEST(HwPresets, ListedSortedAndDescribed) {
  const std::vector<PresetInfo> list = list_presets();
  std::vector<std::string> names;
  for (const PresetInfo& p : list) {
    names.push_back(p.name);
    EXPECT_FALSE(p.description.empty()) << p.name;
    EXPECT_TRUE(is_preset(p.name));
  }
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  for (const char* want : {"pcie-4gpu-2bus", "sortinghat-v100"})
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
    for (const Device& d : t.devices) EXPECT_EQ(d.loc.file, "preset:" + p.name);
    for (int g : t.gpus()) {
      const int h = t.host_memory_for(g);
      ASSERT_GE(h, 0) << t.devices[g].id;
      EXPECT_EQ(t.devices[h].kind, DeviceKind::HostMemory);
      EXPECT_FALSE(t.route(h, g).hops.empty());
      EXPECT_FALSE(t.route(g, h).hops.empty());
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

}  // namespace
