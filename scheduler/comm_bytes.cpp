#include "scheduler/comm_bytes.hpp"

#include "sim/core/error.hpp"

namespace placesim::scheduler {

CommBytes comm_bytes(const hw::Topology& topo, const engine::TaskGraph& g, const engine::Trace& t) {
  PLACESIM_ASSERT(t.tasks.size() == g.tasks.size(), "trace and task graph differ in task count");
  CommBytes c;
  for (int d : topo.gpus()) c.per_gpu[topo.devices[d].id] = 0;
  for (const engine::Traffic& x : g.traffic) {
    if (t.tasks[x.task].end < 0) continue;
    const hw::Device& src = topo.devices[x.src];
    c.total += x.bytes;
    if (src.node != topo.devices[x.dst].node) c.inter_node += x.bytes;
    if (src.is_compute()) c.per_gpu[src.id] += x.bytes;
    c.by_kind[x.kind] += x.bytes;
  }
  return c;
}

}  // namespace placesim::scheduler
