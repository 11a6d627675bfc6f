// The names a plan uses, both ways: task names and the GPU queue names that bind a queue to a
// compute stream or a copy engine (scheduler/plan/plan.hpp says what each means).
//
//   op                    the compute of an op
//   node@dev              delivery of node's data to dev (whole copy, or the direct part)
//   param@dev/stage       parallel transmission: host memory -> the neighbour GPU
//   param@dev/forward     parallel transmission: neighbour GPU -> dev, peer to peer
//   op/launch             the host's launch of op's kernel
//   node@dev/launch       the host's launch of that delivery (a copy)
//   op/sync               the host's wait for op to end
//
//   <gpu>.compute, <gpu>.compute1, ...   compute streams 0, 1, ... of a GPU
//   <gpu>.h2d, <gpu>.h2d1, ...           its host-to-device copy engines
//   <gpu>.d2h, <gpu>.d2h1, ...           its device-to-host copy engines
//   <cpu>.core0, <cpu>.core1, ...        one core of a CPU (numbered from 0): its ops run on
//                                        that core alone
// Any other queue name (`bus0.copy`, `gpu0->gpu1`, `cpu0.compute`) only orders its tasks; an op
// on such a queue of a CPU runs across all the cores the plan uses there. Those build_plan lays
// out (scheduler/plan/builder.hpp) are named here too:
//
//   <src>-><dst>                         activations (and forwarded legs) from src to dst
//   <link>.copy                          parameter copies whose routes share that link
//   bus<b>.copy                          parameter copies over PCIe bus b, as SortingHat numbers
//                                        its buses
//   <dev>.ready                          a device's ops and the deliveries into it, one after
//                                        another
//
// lower() adds the runtime's dispatch threads (docs/execution.md, "The runtime"), which no plan
// queue may be named like:
//
//   runtime.dispatch0, ...               dispatch thread t; its tasks `op/dispatch`
#pragma once

#include <string>
#include <string_view>

#include "hw/topology.hpp"
#include "models/graph.hpp"
#include "scheduler/plan/plan.hpp"

namespace placesim::scheduler {

inline constexpr std::string_view kDispatchQueuePrefix = "runtime.dispatch";

std::string item_name(const PlanItem& it, const models::Graph& g, const hw::Topology& topo);

// A task name read back; `error` is non-empty (and `item` meaningless) when it names nothing.
struct ParsedItem {
  PlanItem item;
  std::string error;
};
ParsedItem parse_item_name(std::string_view s, const models::Graph& g, const hw::Topology& topo);

struct QueueRole {
  enum class Kind { Other, Compute, H2d, D2h, Core } kind = Kind::Other;
  int device = -1;  // the GPU (the CPU for Core)
  int index = 0;    // stream, engine or core; -1 for a spelling that is not canonical (`gpu0.h2d0`, `cpu0.core01`)
};
QueueRole queue_role(const hw::Topology& topo, const std::string& name);
std::string queue_name(const hw::Topology& topo, QueueRole role);

std::string channel_queue_name(const hw::Topology& topo, int src, int dst);
std::string link_copy_queue_name(const hw::Topology& topo, int link);
std::string bus_copy_queue_name(int bus);
std::string ready_queue_name(const hw::Topology& topo, int device);

}  // namespace placesim::scheduler
