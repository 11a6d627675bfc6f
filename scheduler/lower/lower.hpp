// lower(): the one bridge from a plan on a topology to the engine's IR (docs/execution.md).
//
//   * each GPU is a resource of capacity 1 (exclusive when the device runs one kernel at a
//     time): kernels on several compute streams of a GPU share it; each core of a CPU is a
//     resource of capacity 1 named like its queue (`cpu0.core0`, `cpu0.core1`, ...); each
//     direction of each link a resource of its bandwidth; each copy engine of a GPU with
//     copy_engine_bw > 0 a resource of that rate, named like its queue (`gpu0.h2d`, `gpu0.h2d1`,
//     `gpu0.d2h`); each host memory with a memory_bw (its NUMA node's DRAM bandwidth) a resource
//     of that rate (`host.mem`), used by every copy from or to it (a CPU's: its nearest host
//     memory's) and by direct host access reads of it;
//   * an op is a Compute task of its cost-model duration on its device; when the plan reads some
//     of its parameters by direct host access it is a Dha task instead: the same duration on the
//     device and the bytes it reads of those parameters (models::param_read_bytes: a gather's
//     rows, else all of them) over the route from their host memory at once (the
//     engine ends it when both are done), after the longest of those routes' latencies;
//   * a delivery `node@dev` is a Transfer over the route from the data's source (the host
//     memory the plan names, else the one nearest `dev`, for a parameter; the producer's device
//     for an activation), waiting the route latency first. A parallel transmission's parts move
//     1 - f of the bytes over dev's own route (`@dev`), f from the same host memory to the
//     neighbour (`/stage`) and f from the neighbour to dev (`/forward`, after the stage); the
//     ops wait for `@dev` and `/forward`;
//   * a copy between host memory or a CPU and a GPU also uses that GPU's copy engine (H2D into
//     it, D2H out of it): engine k when it sits on queue `<gpu>.h2d<k>` / `<gpu>.d2h<k>`, else
//     the first. Copies between GPUs (peer to peer) use no engine;
//   * a pageable parameter copy (the plan's `memory`, or the parameter's) from a host memory with
//     pageable_bw > 0 gets rate_cap = pageable_bw / bytes (progress per second): it never runs
//     faster than pageable_bw, whatever the links allow. The cap is per copy: the driver stages
//     each pageable copy through its own pinned bounce buffer with a CPU memcpy, so pageable
//     copies do not share one budget;
//   * an op on a CPU: d_k is the cost model's duration on the plan's core count k for that CPU
//     (models::on_cores: k cores' share of the peak, slowed by the contention curve at k). On
//     queue `<cpu>.core<j>` (j < k) it runs on core j alone, for its time on one of k busy cores
//     (Problem::core_duration: k * d_k with the launch paid once; alone it
//     never runs faster than one core); on any other queue it runs
//     across cores 0..k-1, using d_k of each;
//   * a plan's collective is appended by engine::lower_collective, at the problem's fidelity,
//     over the topology's routes (scheduler/lower/collectives.hpp), after its `after` ops'
//     compute and before its `before` ops'; it holds no memory of its own;
//   * each delivery's bytes are also recorded as traffic (engine::Traffic, never read by the
//     engine) from its source to its destination device, as "parameter" or "activation"; each
//     collective's by the engine, as its operation: what scheduler/comm_bytes.hpp sums;
//   * a delivery whose edges have fixed times is a task of the shortest of those times and no
//     resource use; a consumer whose edge is longer waits the difference in a task of its own
//     (`node@dev>consumer`, on its own queue), so every edge takes exactly its own time;
//     `network: ideal` makes byte edges free (and copy engines are not modelled);
//   * where the machine's runtime dispatches ops (hw::Topology::dispatches), each op's dispatch
//     is a task `op/dispatch` on its dispatch thread's queue `runtime.dispatch<t>` (the plan's
//     `dispatch`, else one thread in default_dispatch_order), taking its device's dispatch_s
//     and using no resource; the op waits for it, and a CPU op holds its thread: the thread's
//     next dispatch waits for the op to end. A GPU kernel does not: it runs asynchronously;
//   * memory: a copied parameter is held from its arrival to the end (each part of a parallel
//     transmission from its own arrival; the staged part also on the neighbour until forwarded);
//     a parameter read by direct host access takes no device memory; from time 0 when weights
//     are resident; an activation from its producer's start to its last consumer's end, on the
//     producer's device and on every device it is delivered to; an op's state (KV cache) for
//     the whole run. A CPU's memory is the host memory nearest it.
//
// It only translates: a plan that misses a task, names one twice, or breaks a rule of
// scheduler/plan/rules.hpp (too many streams or engines, a task on a queue that cannot serve it,
// inconsistent delivery options) is an InputError.
#pragma once

#include <string>
#include <vector>

#include "scheduler/plan/plan.hpp"
#include "scheduler/problem.hpp"
#include "sim/engine/task_graph.hpp"
#include "sim/engine/trace.hpp"

namespace placesim::scheduler {

struct Lowered {
  // Task k is the plan's k-th item (queue by queue, in order; PlanOrigin::task(k) is its entry
  // in a plan file); the tasks lowering adds beyond the items (an edge's extra wait, the
  // collectives' steps, the dispatches) follow them.
  engine::TaskGraph graph;
  std::vector<int> pool_device;        // per engine pool: topology device index
  std::vector<int> resource_link;      // per engine resource: link index, -1 for devices
  // Per plan collective, the tasks its steps became: [first, end) of the graph's task ids.
  std::vector<std::pair<engine::TaskId, engine::TaskId>> collective_tasks;
};

Lowered lower(const Problem& p, const Plan& plan);

// Peak memory per device id, and the first device whose peak exceeds its capacity ("" if none).
struct MemoryCheck {
  std::vector<std::pair<std::string, double>> peak;  // device id -> bytes, in pool order
  std::string over_device;
  double over_bytes = 0, capacity = 0;
};
MemoryCheck check_memory(const Problem& p, const Lowered& l, const engine::Trace& t);

}  // namespace placesim::scheduler
