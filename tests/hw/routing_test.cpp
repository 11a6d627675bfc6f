// Routes: the computed rule (fewest hops, then latency, then lowest index; hw/routing.hpp),
// explicit routes, `network: ideal`, the nearest host memory, and the SortingHat station's
// shared PCIe buses and NVLink mesh.
#include <algorithm>
#include <gtest/gtest.h>
#include <set>

#include "hw/topology_yaml.hpp"

using namespace placesim;
using namespace placesim::hw;

namespace {

// The device ids a route passes through, src first.
std::vector<std::string> path(const Topology& t, int src, int dst) {
  std::vector<std::string> out{t.devices[src].id};
  int at = src;
  for (const RouteRef route = t.route(src, dst); const Hop& h : route->hops) {
    const Link& l = t.links[h.link];
    EXPECT_EQ(h.forward ? l.a : l.b, at);
    at = h.forward ? l.b : l.a;
    out.push_back(t.devices[at].id);
  }
  return out;
}
std::vector<std::string> path(const Topology& t, const char* src, const char* dst) {
  return path(t, t.index(src), t.index(dst));
}

std::set<int> links_of(const Route& r) {
  std::set<int> s;
  for (const Hop& h : r.hops) s.insert(h.link);
  return s;
}

// Four switches a, b, x, y (indices 0..3) plus the given links.
Topology four(const std::string& links) {
  return load_topology_text("devices:\n  - {id: a, type: switch}\n  - {id: b, type: switch}\n"
                            "  - {id: x, type: switch}\n  - {id: y, type: switch}\nlinks:\n" + links,
                            "t.yaml");
}

using Path = std::vector<std::string>;

TEST(HwRouting, FewestHopsBeatsLowerLatency) {
  const Topology t = four("  - {a: a, b: b, bw: 1GB/s, latency: 10us}\n"
                          "  - {a: a, b: x, bw: 1GB/s, latency: 1us}\n"
                          "  - {a: x, b: b, bw: 1GB/s, latency: 1us}\n");
  EXPECT_EQ(path(t, "a", "b"), (Path{"a", "b"}));
  EXPECT_DOUBLE_EQ(t.route(0, 1)->latency_s, 10e-6);
}

TEST(HwRouting, LatencyBreaksHopTies) {
  const Topology t = four("  - {a: a, b: x, bw: 1GB/s, latency: 3us}\n"
                          "  - {a: x, b: b, bw: 1GB/s, latency: 3us}\n"
                          "  - {a: a, b: y, bw: 1GB/s, latency: 1us}\n"
                          "  - {a: y, b: b, bw: 1GB/s, latency: 2us}\n");
  EXPECT_EQ(path(t, "a", "b"), (Path{"a", "y", "b"}));
  EXPECT_EQ(path(t, "b", "a"), (Path{"b", "y", "a"}));
  EXPECT_DOUBLE_EQ(t.route(0, 1)->latency_s, 1e-6 + 2e-6);
}

TEST(HwRouting, LowestIndexBreaksExactTies) {
  // Through y is listed first, but x has the lower index.
  const Topology t = four("  - {a: a, b: y, bw: 1GB/s, latency: 1us}\n"
                          "  - {a: y, b: b, bw: 1GB/s, latency: 1us}\n"
                          "  - {a: a, b: x, bw: 1GB/s, latency: 1us}\n"
                          "  - {a: x, b: b, bw: 1GB/s, latency: 1us}\n");
  EXPECT_EQ(path(t, "a", "b"), (Path{"a", "x", "b"}));
  EXPECT_EQ(path(t, "b", "a"), (Path{"b", "x", "a"}));
}

TEST(HwRouting, ParallelLinksUseTheLowestIndexAndHopsKnowTheirDirection) {
  const Topology t = four("  - {a: a, b: b, bw: 1GB/s}\n  - {a: b, b: a, bw: 2GB/s}\n");
  ASSERT_EQ(t.route(0, 1)->hops.size(), 1u);
  EXPECT_EQ(t.route(0, 1)->hops[0].link, 0);
  EXPECT_TRUE(t.route(0, 1)->hops[0].forward);
  EXPECT_EQ(t.route(1, 0)->hops[0].link, 0);
  EXPECT_FALSE(t.route(1, 0)->hops[0].forward);
  EXPECT_TRUE(t.route(2, 2)->hops.empty());
}

TEST(HwRouting, LatencyIsTheSumOfHopLatencies) {
  const Topology t = four("  - {a: a, b: x, bw: 1GB/s, latency: 1us}\n"
                          "  - {a: x, b: y, bw: 1GB/s, latency: 0.25us}\n"
                          "  - {a: y, b: b, bw: 1GB/s, latency: 2ms}\n");
  EXPECT_EQ(path(t, "a", "b"), (Path{"a", "x", "y", "b"}));
  EXPECT_DOUBLE_EQ(t.route(0, 1)->latency_s, 1e-6 + 0.25e-6 + 2e-3);
}

TEST(HwRouting, UnconnectedDevicesThrowNamingBoth) {
  const Topology t = four("  - {a: a, b: b, bw: 1GB/s}\n");
  EXPECT_FALSE(t.connected(0, 2));
  try {
    t.route(t.index("a"), t.index("y"));
    ADD_FAILURE() << "expected an InputError";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("'a'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("'y'"), std::string::npos) << msg;
  }
}

TEST(HwRouting, ExplicitRoutesOverrideBothWays) {
  const std::string base = "devices:\n  - {id: a, type: switch}\n  - {id: b, type: switch}\n"
                           "  - {id: c, type: switch}\nlinks:\n  - {a: a, b: b, bw: 1GB/s, latency: 1us}\n"
                           "  - {a: b, b: c, bw: 1GB/s, latency: 1us}\n  - {a: a, b: c, bw: 1GB/s, latency: 5us}\n";
  const Topology computed = load_topology_text(base, "t.yaml");
  EXPECT_EQ(path(computed, "a", "c"), (Path{"a", "c"}));

  const Topology listed = load_topology_text(base + "routes:\n  - [a, b, c]\n", "t.yaml");
  EXPECT_EQ(path(listed, "a", "c"), (Path{"a", "b", "c"}));
  EXPECT_EQ(path(listed, "c", "a"), (Path{"c", "b", "a"}));
  EXPECT_DOUBLE_EQ(listed.route(0, 2)->latency_s, 2e-6);
  EXPECT_EQ(path(listed, "a", "b"), (Path{"a", "b"}));  // other pairs keep their computed route

  const Topology each_way = load_topology_text(base + "routes:\n  - [a, b, c]\n  - [c, a]\n", "t.yaml");
  EXPECT_EQ(path(each_way, "a", "c"), (Path{"a", "b", "c"}));
  EXPECT_EQ(path(each_way, "c", "a"), (Path{"c", "a"}));
}

TEST(HwRouting, IdealNetworkConnectsEveryPairForFree) {
  const Topology t = load_topology_text(
      "network: ideal\ndevices:\n  - {id: host, type: host_memory, memory: 1GiB}\n"
      "  - {id: g0, type: gpu, memory: 1GiB, memory_bw: 1GB/s, fp32: 1TFLOPS}\n"
      "  - {id: g1, type: gpu, memory: 1GiB, memory_bw: 1GB/s, fp32: 1TFLOPS}\n",
      "t.yaml");
  EXPECT_TRUE(t.network_ideal);
  for (int s = 0; s < 3; ++s)
    for (int d = 0; d < 3; ++d) {
      EXPECT_TRUE(t.connected(s, d));
      EXPECT_TRUE(t.route(s, d)->hops.empty());
      EXPECT_EQ(t.route(s, d)->latency_s, 0.0);
    }
  EXPECT_EQ(t.host_memory_for(t.index("g1")), t.index("host"));
}

TEST(HwRouting, NearestHostMemoryByLatencyThenIndex) {
  const std::string devices =
      "devices:\n  - {id: h0, type: host_memory, memory: 1GiB}\n  - {id: h1, type: host_memory, memory: 1GiB}\n"
      "  - {id: g, type: gpu, memory: 1GiB, memory_bw: 1GB/s, fp32: 1TFLOPS}\nlinks:\n";
  const Topology nearer_h1 = load_topology_text(
      devices + "  - {a: h0, b: g, bw: 1GB/s, latency: 2us}\n  - {a: h1, b: g, bw: 1GB/s, latency: 1us}\n", "t.yaml");
  EXPECT_EQ(nearer_h1.host_memory_for(2), 1);
  EXPECT_EQ(nearer_h1.host_memory_for(0), 0);  // a host memory is its own
  const Topology tie = load_topology_text(
      devices + "  - {a: h1, b: g, bw: 1GB/s, latency: 1us}\n  - {a: h0, b: g, bw: 1GB/s, latency: 1us}\n", "t.yaml");
  EXPECT_EQ(tie.host_memory_for(2), 0);
}

class SortingHat : public ::testing::Test {
 protected:
  Topology t = load_topology_text(preset_text("sortinghat-v100"), "preset:sortinghat-v100");
  int host = t.index("host");
  int gpu(int i) { return t.index("gpu" + std::to_string(i)); }
};

TEST_F(SortingHat, Gpu0ToGpu3IsTheDoubleNvLink) {
  // The paper: 2 NVLink 2 links between GPU1 and GPU4, each 25 GB/s per direction at ~90%.
  const Route r = *t.route(gpu(0), gpu(3));
  ASSERT_EQ(r.hops.size(), 1u);
  const Link& l = t.links[r.hops[0].link];
  EXPECT_EQ(l.kind, "nvlink");
  EXPECT_EQ(l.count, 2);
  EXPECT_DOUBLE_EQ(l.bw_ab, 2 * 0.9 * 25e9);
  EXPECT_DOUBLE_EQ(l.bw_ba, 2 * 0.9 * 25e9);
  // and a single link between GPU1 and GPU2
  EXPECT_DOUBLE_EQ(t.links[t.route(gpu(0), gpu(1))->hops.at(0).link].bw_ab, 0.9 * 25e9);
}

TEST_F(SortingHat, SameBusGpusShareTheUplinkOtherBusGpusDoNot) {
  const std::set<int> to0 = links_of(*t.route(host, gpu(0)));
  const std::set<int> to1 = links_of(*t.route(host, gpu(1)));
  const std::set<int> to2 = links_of(*t.route(host, gpu(2)));
  std::vector<int> shared01, shared02;
  std::set_intersection(to0.begin(), to0.end(), to1.begin(), to1.end(), std::back_inserter(shared01));
  std::set_intersection(to0.begin(), to0.end(), to2.begin(), to2.end(), std::back_inserter(shared02));
  ASSERT_EQ(shared01.size(), 1u);
  EXPECT_EQ(t.links[shared01[0]].id, "host-bus0");
  EXPECT_EQ(t.links[shared01[0]].kind, "pcie");
  EXPECT_TRUE(shared02.empty());
  EXPECT_EQ(path(t, "host", "gpu0"), (Path{"host", "bus0", "gpu0"}));
  EXPECT_EQ(path(t, "gpu3", "host"), (Path{"gpu3", "bus1", "host"}));
}

TEST_F(SortingHat, HostToGpuLatencyIsTheSumOfItsHops) {
  for (int i = 0; i < 4; ++i) {
    const Route r = *t.route(host, gpu(i));
    double sum = 0;
    for (const Hop& h : r.hops) sum += t.links[h.link].latency_s;
    EXPECT_EQ(r.latency_s, sum);
    EXPECT_DOUBLE_EQ(r.latency_s, 0.5e-6 + 0.5e-6);  // uplink + the GPU's own x16 link
    EXPECT_EQ(t.host_memory_for(gpu(i)), host);
  }
}

}  // namespace
