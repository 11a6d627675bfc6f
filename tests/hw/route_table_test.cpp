// Routes computed when asked for (hw/route_table.hpp): whatever order, and however many threads,
// the pairs are asked in, and whatever the caches' budgets drop, each gets the same route; and a
// cluster whose every-pair routes would not fit in memory (4096 GPUs: some 1.6 x 10^8 device
// pairs) loads and routes.
#include <gtest/gtest.h>

#include <algorithm>
#include <fmt/format.h>
#include <random>
#include <thread>

#include "hw/route_table.hpp"
#include "hw/routing.hpp"
#include "hw/topology_yaml.hpp"

using namespace placesim;
using namespace placesim::hw;

namespace {

// Six two-GPU boxes on a leaf-spine fabric of three leaves and two spines, GPUDirect off: both
// routing rules in play (the spine by destination leaf, GPU traffic staged through host memory).
const std::string kCluster = R"(
node_templates:
  box:
    devices:
      - {id: host, type: host_memory, memory: 64GiB}
      - {id: pcie0, type: switch}
      - {id: gpu0, type: gpu, memory: 16GiB, memory_bw: 900GB/s, fp32: 10TFLOPS}
      - {id: gpu1, type: gpu, memory: 16GiB, memory_bw: 900GB/s, fp32: 10TFLOPS}
      - {id: nic0, type: nic}
    links:
      - {a: host, b: pcie0, bw: 10GB/s, latency: 0.5us}
      - {a: pcie0, b: gpu0, bw: 10GB/s, latency: 0.5us}
      - {a: pcie0, b: gpu1, bw: 10GB/s, latency: 0.7us}
      - {a: pcie0, b: nic0, bw: 10GB/s, latency: 0.5us}
nodes: [{template: box, count: 6}]
fabric: {type: leaf-spine, leaf_size: 2, spines: 2, link: {bw: 25GB/s, latency: 1us}, uplink: {bw: 50GB/s, latency: 1us}}
gpudirect: false
)";

using Pairs = std::vector<std::pair<int, int>>;

// The devices a route passes through after `src`, by id.
std::vector<std::string> along(const Topology& t, const std::string& src, const std::string& dst) {
  std::vector<std::string> ids;
  int at = t.index(src);
  for (const RouteRef route = t.route(at, t.index(dst)); const Hop& h : route->hops) {
    at = h.forward ? t.links[static_cast<size_t>(h.link)].b : t.links[static_cast<size_t>(h.link)].a;
    ids.push_back(t.devices[static_cast<size_t>(at)].id);
  }
  return ids;
}

Pairs every_pair(const Topology& t) {
  Pairs p;
  const int n = static_cast<int>(t.devices.size());
  for (int s = 0; s < n; ++s)
    for (int d = 0; d < n; ++d) p.emplace_back(s, d);
  return p;
}

// A route as text: its links and directions, then its latency.
std::string text(const Route& r) {
  std::string out;
  for (const Hop& h : r.hops) out += fmt::format(" {}{}", h.link, h.forward ? '+' : '-');
  return out + fmt::format(" {:.17g}", r.latency_s);
}

// Each pair's route as text, and its host memory.
std::string answer(const Topology& t, int s, int d) {
  return fmt::format("{}>{} host {}:", s, d, t.host_memory_for(s)) + text(*t.route(s, d));
}

// Each pair's answer, asking `t` the pairs in `order`; indexed like every_pair.
std::vector<std::string> answers(const Topology& t, const Pairs& order) {
  const size_t n = t.devices.size();
  std::vector<std::string> out(n * n);
  for (auto [s, d] : order) out[static_cast<size_t>(s) * n + static_cast<size_t>(d)] = answer(t, s, d);
  return out;
}

TEST(RouteTable, EveryPairGetsTheSameRouteWhateverTheOrderAsked) {
  const Pairs pairs = every_pair(load_topology_text(kCluster, "c.yaml"));
  const std::vector<std::string> in_order = answers(load_topology_text(kCluster, "c.yaml"), pairs);
  Pairs reversed(pairs.rbegin(), pairs.rend()), shuffled = pairs;
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(7));
  EXPECT_EQ(answers(load_topology_text(kCluster, "c.yaml"), reversed), in_order);
  EXPECT_EQ(answers(load_topology_text(kCluster, "c.yaml"), shuffled), in_order);
  // The rules are in play: n0.gpu0 -> n2.gpu1 is staged through both hosts and crosses spine1
  // (leaf1 is the destination's leaf: 1 mod 2).
  EXPECT_EQ(along(load_topology_text(kCluster, "c.yaml"), "n0.gpu0", "n2.gpu1"),
            (std::vector<std::string>{"n0.pcie0", "n0.host", "n0.pcie0", "n0.nic0", "leaf0", "spine1", "leaf1", "n2.nic0",
                                      "n2.pcie0", "n2.host", "n2.pcie0", "n2.gpu1"}));
}

// A sweep's points share one topology between threads: four threads asking every pair at once,
// each in its own order, get what one thread gets.
TEST(RouteTable, ThreadsAskingAtOnceGetWhatOneThreadGets) {
  const Topology t = load_topology_text(kCluster, "c.yaml");
  const Pairs pairs = every_pair(t);
  const std::vector<std::string> alone = answers(load_topology_text(kCluster, "c.yaml"), pairs);
  std::vector<std::vector<std::string>> got(4);
  std::vector<std::thread> threads;
  for (unsigned k = 0; k < got.size(); ++k)
    threads.emplace_back([&, k] {
      Pairs order = pairs;
      std::shuffle(order.begin(), order.end(), std::mt19937(k));
      got[k] = answers(t, order);
    });
  for (std::thread& th : threads) th.join();
  for (const auto& g : got) EXPECT_EQ(g, alone);
}

// A table whose budget holds one tree at a time drops a source's tree for the next source's and
// builds it again when asked: every pair, asked in shuffled order (so most trees are built many
// times), gets the route and latency of a table that keeps every tree, and it never holds more
// than one.
TEST(RouteTable, ATreeBudgetDropsTreesAndChangesNoRoute) {
  const Topology t = load_topology_text(kCluster, "c.yaml");
  const std::size_t n = t.devices.size();
  const detail::RouteTable all(t.devices, t.links, {}, {}, false), one(t.devices, t.links, {}, {}, false, n);
  Pairs pairs = every_pair(t);
  std::shuffle(pairs.begin(), pairs.end(), std::mt19937(3));
  std::size_t most = 0;
  for (auto [s, d] : pairs) {
    if (!all.connected(s, d)) continue;
    ASSERT_EQ(text(*one.route(s, d)), text(*all.route(s, d))) << s << ">" << d;
    most = std::max(most, one.trees_held());
  }
  EXPECT_EQ(most, 1u);
  EXPECT_GT(all.trees_held(), 1u);
}

// A table whose route budget holds no route but the last one asked for drops each for the next
// and computes it again when asked: every pair, in shuffled order, gets the route of a table
// that keeps them all, while it holds one route at a time; and a route handed out before all
// those drops still reads as it did.
TEST(RouteTable, ARouteBudgetDropsRoutesAndChangesNone) {
  const Topology t = load_topology_text(kCluster, "c.yaml");
  const std::size_t n = t.devices.size();
  const detail::RouteTable all(t.devices, t.links, {}, {}, false), one(t.devices, t.links, {}, {}, false, n * n, 1);
  Pairs pairs = every_pair(t);
  std::shuffle(pairs.begin(), pairs.end(), std::mt19937(5));
  const int first = t.index("n0.gpu0"), last = t.index("n5.gpu1");
  const RouteRef held = one.route(first, last);
  const std::string held_text = text(*held);
  std::size_t most = 0;
  for (int round = 0; round < 2; ++round)
    for (auto [s, d] : pairs) {
      if (!all.connected(s, d)) continue;
      ASSERT_EQ(text(*one.route(s, d)), text(*all.route(s, d))) << s << ">" << d;
      most = std::max(most, one.routes_held());
    }
  EXPECT_EQ(most, 1u);
  EXPECT_EQ(text(*held), held_text);
  EXPECT_EQ(held_text, text(*all.route(first, last)));
  // Every connected pair apart from a device to itself (an empty route, never kept).
  std::size_t routed = 0;
  for (auto [s, d] : pairs) routed += s != d && all.connected(s, d);
  EXPECT_EQ(all.routes_held(), routed);
}

// A route asked once (RouteTable::route_once) is the route route() gives, and is not kept.
TEST(RouteTable, ARouteAskedOnceIsTheRouteAndIsNotKept) {
  const Topology t = load_topology_text(kCluster, "c.yaml");
  const detail::RouteTable table(t.devices, t.links, {}, {}, false);
  std::size_t routed = 0;
  for (auto [s, d] : every_pair(t)) {
    if (!table.connected(s, d)) continue;
    ASSERT_EQ(text(table.route_once(s, d)), text(*table.route(s, d))) << s << ">" << d;
    ASSERT_EQ(table.routes_held(), routed += s != d);
    ASSERT_EQ(text(table.route_once(s, d)), text(*table.route(s, d))) << s << ">" << d;  // kept now: the same
    ASSERT_EQ(table.routes_held(), routed);
  }
  EXPECT_GT(routed, 0u);
}

// A device with one link takes the tree of the device at its other end, changed in two places
// (RouteTable::tree): every pair's route equals the one walked on a tree searched from the
// source itself. Six boxes (each box's host and two GPUs have one link: 18 devices) and a GPU
// alone with its host memory on one link (each has one link: both searched); latencies that
// differ per link.
TEST(RouteTable, ADeviceWithOneLinkRoutesAsItsOwnSearchWould) {
  const Topology boxes = load_topology_text(kCluster + R"(
devices:
  - {id: a, type: gpu, memory: 16GiB, memory_bw: 900GB/s, fp32: 10TFLOPS}
  - {id: m, type: host_memory, memory: 64GiB}
links:
  - {a: a, b: m, bw: 10GB/s, latency: 2us}
)",
                                            "c.yaml");
  const int n = static_cast<int>(boxes.devices.size());
  const detail::RouteTable table(boxes.devices, boxes.links, {}, {}, false);
  const detail::RouteGraph graph(n, boxes.links);
  int one_link = 0;
  for (int s = 0; s < n; ++s) {
    one_link += graph.only_link(s).first >= 0;
    const std::vector<int> searched = graph.tree(s);
    for (int d = 0; d < n; ++d) {
      if (d == s || !table.connected(s, d)) continue;
      const Route want = graph.walk(searched, s, d), got = *table.route(s, d);
      ASSERT_EQ(got.hops.size(), want.hops.size()) << s << ">" << d;
      for (std::size_t k = 0; k < want.hops.size(); ++k) {
        ASSERT_EQ(got.hops[k].link, want.hops[k].link) << s << ">" << d;
        ASSERT_EQ(got.hops[k].forward, want.hops[k].forward) << s << ">" << d;
      }
      ASSERT_EQ(got.latency_s, want.latency_s) << s << ">" << d;
    }
  }
  EXPECT_EQ(one_link, 20);
}

// 512 DGX A100 nodes (4096 GPUs, 12,800 node devices, a leaf-spine fabric of 128 leaves and 16
// spines): every-pair routes would be some 1.7 x 10^8 routes; asked for one, the table builds
// one tree. The route from the first GPU to the last leaves through the GPU's PCIe switch and
// NIC, crosses leaf0, the spine of the destination's leaf (leaf 127: spine 127 mod 16 = 15), leaf127,
// and enters by nic6, the lower-index of the two NICs on gpu7's PCIe switch (rule 3 of
// hw/routing.hpp); gpu7's host memory is its socket's, host1.
TEST(RouteTable, FourThousandGpusLoadAndRoute) {
  const Topology t = load_topology_text(R"(
node_templates: {dgx: {include: dgx-a100}}
nodes: [{template: dgx, count: 512}]
fabric: {type: leaf-spine, leaf_size: 32, spines: 16, link: {bw: 22.5GB/s, latency: 0.5us, kind: ib},
         uplink: {bw: 45GB/s, latency: 0.5us, kind: ib}}
)",
                                        "big.yaml");
  EXPECT_EQ(t.gpus().size(), 4096u);
  EXPECT_EQ(along(t, "n0.gpu0", "n511.gpu7"), (std::vector<std::string>{"n0.pcie0", "n0.nic0", "leaf0", "spine15", "leaf127", "n511.nic6",
                                              "n511.pcie3", "n511.gpu7"}));
  EXPECT_EQ(t.devices[static_cast<size_t>(t.host_memory_for(t.index("n511.gpu7")))].id, "n511.host1");
}

}  // namespace
