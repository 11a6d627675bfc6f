#include "app/explore/validate_workload.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <tuple>

#include "models/dtype.hpp"
#include "scheduler/plan/names.hpp"
#include "scheduler/plan/slices.hpp"
#include "sim/core/error.hpp"

namespace placesim::explore {
namespace {

using backend::Unit;
using backend::Work;
using backend::WorkKind;

long at_least_one(double v) { return std::max(1L, std::lround(v)); }

GemmShape cube(double flops) {
  const long side = at_least_one(std::cbrt(flops / 2));
  return {side, side, side};
}

Work gemm(GemmShape s, models::DType dtype) {
  Work w;
  w.kind = WorkKind::Gemm;
  w.m = s.m;
  w.n = s.n;
  w.k = s.k;
  w.precision = dtype == models::DType::FP32 ? backend::Precision::F32
                : dtype == models::DType::BF16 ? backend::Precision::BF16
                                               : backend::Precision::F16;
  return w;
}

// The workload's units, made as queues need them: one per host memory and GPU, and per CPU one
// per set of cores a queue runs on.
class Units {
 public:
  Units(const hw::Topology& topo, backend::Workload& w) : topo_(topo), w_(w), plain_(topo.devices.size(), -1) {
    int next_pu = 0, next_gpu = 0;
    first_pu_.assign(topo.devices.size(), -1);
    for (size_t d = 0; d < topo.devices.size(); ++d) {
      const hw::Device& dev = topo.devices[d];
      if (dev.kind == hw::DeviceKind::Cpu) {
        first_pu_[d] = next_pu;
        next_pu += std::max(1, dev.cores);
      } else if (dev.kind == hw::DeviceKind::HostMemory) {
        plain_[d] = add({Unit::Kind::Host, dev.numa_node, dev.id});
      } else if (dev.kind == hw::DeviceKind::Gpu) {
        plain_[d] = add({Unit::Kind::Gpu, next_gpu++, dev.id});
      }
    }
  }

  // Where data on `dev` lives, and where a queue of `dev` that is not a CPU's runs.
  int of(int dev) { return first_pu_.at(dev) >= 0 ? cores(dev, 0, 1) : checked(plain_.at(dev)); }

  // Cores first .. first+count-1 of CPU `dev`.
  int cores(int dev, int first, int count) {
    auto [it, added] = cpu_.try_emplace({dev, first, count}, -1);
    if (added) {
      Unit u{Unit::Kind::CpuCore, first_pu_[dev] + first, topo_.devices[dev].id};
      u.cores = count;
      it->second = add(u);
    }
    return it->second;
  }

 private:
  int add(const Unit& u) {
    w_.units.push_back(u);
    return static_cast<int>(w_.units.size()) - 1;
  }
  static int checked(int unit) {
    PLACESIM_ASSERT(unit >= 0, "a task on a device that neither computes nor holds memory");
    return unit;
  }

  const hw::Topology& topo_;
  backend::Workload& w_;
  std::vector<int> plain_, first_pu_;
  std::map<std::tuple<int, int, int>, int> cpu_;
};

Work compute_work(const scheduler::Problem& p, const scheduler::Plan& plan, int node, int dev, bool one_core,
                  const engine::Task& task) {
  const models::Node& op = p.graph->nodes[node];
  const hw::Device& device = p.topo->devices[dev];
  const int k = plan.cores(dev) > 0 ? plan.cores(dev) : device.cores;
  Work w;
  if (task.kind == engine::TaskKind::Dha) {
    w.kind = WorkKind::Dha;
    w.bytes = task.bytes;
    w.seconds = p.duration(node, dev, plan.cores(dev));
    return w;
  }
  if (!op.durations.empty()) {
    w.kind = WorkKind::Spin;
    w.seconds = p.duration(node, dev, plan.cores(dev)) * (one_core ? k : 1);
    return w;
  }
  if (const auto* s = std::get_if<models::GemmShape>(&op.shape); s && s->weight == models::GemmWeight::B)
    return gemm({at_least_one(s->batch * s->m), at_least_one(s->n), at_least_one(s->k)}, p.graph->dtype);
  if (op.type == "matmul" && op.flops > 0 && op.output_bytes > 0)
    return gemm(matmul_shape(op, models::bytes_per_element(p.graph->dtype)), p.graph->dtype);
  const hw::Device on_k = models::on_cores(device, plan.cores(dev));
  const double peak = models::RooflineCost::peak_flops(on_k, p.graph->dtype);
  const double bw = models::RooflineCost::memory_rate(on_k, op.bytes);
  const double t_compute = peak > 0 ? op.flops / peak : 0;
  const double t_memory = bw > 0 ? op.bytes / bw : 0;
  if (op.flops > 0 && t_compute >= t_memory) return gemm(cube(op.flops), p.graph->dtype);
  if (op.bytes > 0) {
    w.kind = WorkKind::Stream;
    w.bytes = op.bytes;
  }
  return w;
}

}  // namespace

GemmShape matmul_shape(const models::Node& op, double e) {
  const double out = op.output_bytes / e;
  const double k = op.flops / (2 * out);
  const double sum = (op.bytes - op.output_bytes) / e / k;
  const double disc = sum * sum - 4 * out;
  if (!(k >= 1) || !(disc >= 0)) {
    const long side = at_least_one(std::sqrt(out));
    return {side, side, at_least_one(k)};
  }
  const double m = (sum - std::sqrt(disc)) / 2;
  return {at_least_one(m), at_least_one(out / std::max(m, 1.0)), at_least_one(k)};
}

int cpu_core_queue(const hw::Topology& topo, int cpu, const std::string& queue) {
  const hw::Device& dev = topo.devices[cpu];
  const std::string prefix = dev.id + ".core";
  if (queue.size() <= prefix.size() || queue.compare(0, prefix.size(), prefix) != 0) return -1;
  const std::string digits = queue.substr(prefix.size());
  if (!std::all_of(digits.begin(), digits.end(), [](unsigned char c) { return std::isdigit(c); }) || digits.size() > 9)
    return -1;
  const int j = std::stoi(digits);
  if (j >= dev.cores)
    throw InputError(fmt::format("queue '{}': '{}' has {} cores (core0 .. core{})", queue, dev.id, dev.cores, dev.cores - 1));
  return j;
}

backend::Workload make_workload(const scheduler::Problem& original, const scheduler::Plan& plan,
                                const scheduler::Lowered& low) {
  const scheduler::Problem p = scheduler::sliced_problem(original, plan);
  const hw::Topology& topo = *p.topo;
  const engine::TaskGraph& g = low.graph;
  backend::Workload w;
  Units units(topo, w);
  w.tasks.resize(g.tasks.size());
  w.queue_unit.assign(g.queues.size(), -1);

  // The unit of a queue of device `dev`: on a CPU, one core, or the plan's k cores for a queue
  // of ops (docs/execution.md, "CPU cores").
  auto queue_unit = [&](int dev, const scheduler::PlanQueue& q) {
    if (topo.devices[dev].kind != hw::DeviceKind::Cpu) return units.of(dev);
    if (const int j = cpu_core_queue(topo, dev, q.name); j >= 0) return units.cores(dev, j, 1);
    const bool ops = std::any_of(q.items.begin(), q.items.end(),
                                 [](const scheduler::PlanItem& it) { return it.kind == scheduler::PlanItem::Kind::Compute; });
    if (!ops) return units.of(dev);
    return units.cores(dev, 0, plan.cores(dev) > 0 ? plan.cores(dev) : topo.devices[dev].cores);
  };

  // lower() adds the plan's queues and items in order: task ids follow the plan.
  engine::TaskId id = 0;
  for (size_t q = 0; q < plan.queues.size(); ++q)
    for (const scheduler::PlanItem& it : plan.queues[q].items) {
      const engine::Task& task = g.tasks[id];
      Work& work = w.tasks[id++];
      using Kind = scheduler::PlanItem::Kind;
      if (it.kind == Kind::Compute) {
        const int dev = plan.device_of[it.node];
        const bool one_core = topo.devices[dev].kind == hw::DeviceKind::Cpu &&
                              cpu_core_queue(topo, dev, plan.queues[q].name) >= 0;
        work = compute_work(p, plan, it.node, dev, one_core, task);
        w.queue_unit[task.queue] = queue_unit(dev, plan.queues[q]);
        continue;
      }
      if (it.kind == Kind::Launch || it.kind == Kind::Sync) {  // the backend launches and waits itself
        w.queue_unit[task.queue] = units.of(it.device >= 0 ? it.device : plan.device_of[it.node]);
        continue;
      }
      const bool param = p.graph->nodes[it.node].kind == models::NodeKind::Param;
      const auto how = plan.params.find({it.node, it.device});
      const scheduler::ParamDelivery pd = how == plan.params.end() ? scheduler::ParamDelivery{} : how->second;
      const int host = pd.source >= 0 ? pd.source : topo.host_memory_for(it.device);
      int src = param ? host : plan.device_of[it.node];
      int dst = it.device;
      if (it.kind == Kind::Stage) dst = pd.neighbour;
      if (it.kind == Kind::Forward) src = pd.neighbour;
      const bool dst_computes = topo.devices[dst].is_compute();
      w.queue_unit[task.queue] = queue_unit(dst_computes ? dst : src, plan.queues[q]);
      if (task.bytes > 0 && !task.uses.empty()) {
        work.kind = WorkKind::Copy;
        work.bytes = task.bytes;
        work.src = units.of(src);
        work.dst = units.of(dst);
        work.pageable = param && pd.buffer.value_or(plan.buffer) == scheduler::HostBuffer::Pageable;
      } else if (task.latency > 0 && task.bytes <= 0) {
        work.kind = WorkKind::Spin;
        work.seconds = to_seconds(task.latency);
      }
    }
  // The runtime's dispatches (scheduler/lower/lower.hpp) follow the plan's items: each dispatch thread is a host
  // thread of the backend, unpinned, doing nothing but let its ops go in turn, so what the
  // measured trace shows of a dispatch is this backend's own cost of handing an op over.
  const std::vector<int> hosts = topo.host_memories();
  for (; id < static_cast<engine::TaskId>(g.tasks.size()); ++id) {
    const engine::Task& task = g.tasks[id];
    PLACESIM_ASSERT(g.queues[task.queue].rfind(scheduler::kDispatchQueuePrefix, 0) == 0 && !hosts.empty(),
                    "the plan and its lowering disagree");
    w.queue_unit[task.queue] = units.of(hosts.front());
  }
  PLACESIM_ASSERT(id == static_cast<engine::TaskId>(g.tasks.size()), "the plan and its lowering disagree");
  for (int& u : w.queue_unit)
    if (u < 0) u = 0;  // an empty queue: never run
  return w;
}

}  // namespace placesim::explore
