#include "backend/workload.hpp"

#include <fmt/format.h>

namespace placesim::backend {

const char* to_string(WorkKind k) {
  switch (k) {
    case WorkKind::None: return "none";
    case WorkKind::Gemm: return "gemm";
    case WorkKind::Stream: return "stream";
    case WorkKind::Spin: return "spin";
    case WorkKind::Copy: return "copy";
    case WorkKind::Dha: return "dha";
  }
  return "?";
}

EmptyChain empty_chain(int n, int queues) {
  EmptyChain c;
  c.workload.units = {{Unit::Kind::CpuCore, 0, "core0"}, {Unit::Kind::CpuCore, 1, "core1"}};
  for (int q = 0; q < queues; ++q) {
    c.graph.add_queue(fmt::format("q{}", q));
    c.workload.queue_unit.push_back(q % 2);
  }
  for (int i = 0; i < n; ++i) {
    engine::Task t;
    t.queue = i % queues;
    if (i > 0) t.deps.push_back(i - 1);
    c.graph.add_task(fmt::format("t{}", i), t);
  }
  c.workload.tasks.resize(static_cast<size_t>(n));
  return c;
}

EmptyChain dispatched_chain(int n) {
  EmptyChain c;
  c.workload.units = {{Unit::Kind::Host, 0, "host"}, {Unit::Kind::CpuCore, 0, "core0"}};
  c.graph.add_queue("runtime.dispatch0");
  c.graph.add_queue("core0");
  c.workload.queue_unit = {0, 1};
  for (int i = 0; i < n; ++i) {
    engine::Task dispatch, op;
    dispatch.queue = 0;
    if (i > 0) dispatch.deps.push_back(2 * i - 1);  // the thread waits for the op before
    op.queue = 1;
    op.deps.push_back(2 * i);
    c.graph.add_task(fmt::format("op{}/dispatch", i), dispatch);
    c.graph.add_task(fmt::format("op{}", i), op);
  }
  c.workload.tasks.resize(static_cast<size_t>(2 * n));
  return c;
}

}  // namespace placesim::backend
