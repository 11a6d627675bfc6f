// The runtime's dispatch threads (lower.hpp; docs/execution.md, "The runtime").
#include <fmt/format.h>

#include "scheduler/dispatch_order.hpp"
#include "scheduler/lower/lowering.hpp"

namespace placesim::scheduler::detail {

void Lowering::add_dispatch() {
  if (!topo.dispatches()) return;
  engine::TaskGraph& tg = out.graph;
  std::vector<std::vector<int>> threads = plan.dispatch;
  if (threads.empty()) threads.push_back(default_dispatch_order(g, plan));
  for (std::size_t t = 0; t < threads.size(); ++t) {
    const engine::QueueId queue = tg.add_queue(fmt::format("{}{}", kDispatchQueuePrefix, t));
    int before = -1;  // the op this thread dispatched last
    for (int op : threads[t]) {
      const hw::Device& dev = topo.devices[plan.device_of[op]];
      engine::Task d;
      d.kind = engine::TaskKind::Launch;
      d.queue = queue;
      d.latency = ceil_ps(dev.dispatch_s);
      // A CPU op runs on its thread's turn: the thread dispatches nothing more until it ends.
      if (before >= 0 && topo.devices[plan.device_of[before]].kind == hw::DeviceKind::Cpu)
        d.deps.push_back(compute[before]);
      const engine::TaskId id = tg.add_task(g.nodes[op].name + "/dispatch", std::move(d), {.op = op});
      tg.tasks[compute[op]].deps.push_back(id);
      before = op;
    }
  }
}

}  // namespace placesim::scheduler::detail
