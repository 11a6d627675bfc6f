// A topology's routes, computed when first asked for (hw/routing.hpp gives the rule): a
// shortest-path tree per source device the first time a route from it is needed, and each
// route kept once built. A 4096-GPU cluster has some 10^8 device pairs, of which a run uses a
// few thousand; nothing is computed for the others. Both caches are bounded, the oldest entry
// dropped past the bound and built again if asked for (the same tree, the same route):
//   * the trees hold at most `tree_budget` entries in all (one per device each; 64 MiB by
//     default): a collective over every rank of a 16,384-GPU cluster needs a tree from each,
//     some 50,000 entries apiece;
//   * the routes hold at most `route_budget` bytes (64 MiB by default, counted by route_bytes()
//     in route_table.cpp): an all-to-all over 4096 ranks asks for 1.7 x 10^7 routes.
// A route is handed out shared (RouteRef), so a caller keeps reading one the cache dropped.
//
// After the computed route come, for every pair the file does not route explicitly, the two
// routing rules of cluster files:
//
//  1. Leaf-spine, destination-mod-k: a route that crosses the spine layer (leaf -> spine ->
//     leaf) goes through spine (i mod S), where i is the position of the destination's leaf
//     among the leaves and S the number of spines. Shortest paths alone would send every
//     cross-leaf flow through spine0; this spreads them deterministically, as InfiniBand's
//     fat-tree routing does, with the same hop count.
//  2. `gpudirect: false`: a route that starts at a GPU and crosses a NIC (the GPU's own NIC
//     included) is staged through that GPU's host memory: route(gpu, host) then route(host,
//     dst); likewise a route that ends at a GPU after crossing a NIC arrives by route(src,
//     host of the GPU) then route(host, gpu), where each piece and the host memory are as rule
//     1 leaves them. The staged route crosses the PCIe links to host memory twice, as a bounce
//     buffer does. With GPUDirect RDMA (the default) routes are left as computed.
//
// A device's host memory is the nearest HostMemory by the latency of its route there (after
// both rules), ties to the lowest index.
//
// The table is immutable to its users and safe to share between threads: its caches fill
// under a mutex, and a route, once returned, lives as long as its holder keeps it.
#pragma once

#include <cstddef>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "hw/routing.hpp"
#include "hw/topology.hpp"

namespace placesim::hw::detail {

struct RouteRules {
  std::vector<int> leaves, spines;  // a leaf-spine fabric's switches, in order (rule 1 with 2+ spines)
  bool gpudirect = true;            // false: rule 2
};

class RouteTable {
 public:
  // `listed`: the file's explicit routes (each must follow links from its src to its dst).
  // `ideal`: every pair joined by an empty route.
  static constexpr std::size_t kTreeBudget = std::size_t{1} << 24;   // entries: 64 MiB of ints
  static constexpr std::size_t kRouteBudget = std::size_t{1} << 26;  // bytes
  RouteTable(const std::vector<Device>& devices, const std::vector<Link>& links,
             std::map<std::pair<int, int>, Route> listed, RouteRules rules, bool ideal,
             std::size_t tree_budget = kTreeBudget, std::size_t route_budget = kRouteBudget);

  bool connected(int src, int dst) const;
  RouteRef route(int src, int dst) const;      // connected(src, dst); src == dst: empty
  // The same route, computed now and kept nowhere (route_table.cpp).
  Route route_once(int src, int dst) const;
  int host_memory_for(int device) const;       // -1: none connected
  bool reaches_host_memory(int device) const;  // host_memory_for(device) >= 0, without routing
  std::size_t trees_held() const;              // shortest-path trees kept now (for tests)
  std::size_t routes_held() const;             // routes kept now (for tests)

 private:
  enum class Stage { Respined, Final };  // after rule 1; after both rules
  int n() const { return static_cast<int>(kinds_.size()); }
  const std::vector<int>& tree(int src) const;
  Route computed(int src, int dst, Stage stage) const;  // not listed, connected, src != dst
  Route respined(int src, int dst) const;
  bool respine(Route& r, int src) const;
  bool stage(int src, int dst, Route& out) const;
  bool crosses_nic(const Route& r, int src) const;
  int far_end(const Hop& h) const;
  Hop hop_between(int from, int to) const;
  double latency(const Route& r) const;
  int host_memory(int device, Stage stage) const;
  const Route* fixed(int src, int dst) const;         // empty or listed; nullptr: to compute
  void keep(long long key, const RouteRef& r) const;  // into the route cache, within its budget

  std::vector<DeviceKind> kinds_;
  std::vector<Link> links_;
  std::map<std::pair<int, int>, Route> listed_;  // handed out unowned: they live with the table
  RouteRules rules_;
  bool ideal_;
  std::vector<int> component_;           // connected components of the links
  std::vector<char> component_has_host_;
  std::vector<int> hosts_;               // host memories, in index order
  std::vector<int> leaf_pos_;            // per device: its position among the leaves, -1 if none
  std::vector<char> is_spine_;           // per device: one of rules_.spines
  std::unordered_map<long long, int> link_between_;  // lowest link joining a pair (rule 1's hops)
  RouteGraph graph_;

  mutable std::mutex mu_;
  std::size_t tree_budget_;
  mutable std::vector<std::unique_ptr<std::vector<int>>> trees_;
  mutable std::deque<int> tree_order_;   // the sources holding a tree, oldest first
  std::size_t route_budget_;
  mutable std::unordered_map<long long, RouteRef> routes_;
  mutable std::deque<long long> route_order_;  // the pairs holding a route, oldest first
  mutable std::size_t route_bytes_ = 0;        // route_bytes() of those held
  mutable std::vector<int> host_[2];     // per Stage; -2: not yet asked
};

}  // namespace placesim::hw::detail
