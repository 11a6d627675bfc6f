#include "sim/explore/validate_workload.hpp"

#include <algorithm>
#include <cmath>

#include "models/dtype.hpp"
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

std::vector<int> device_units(const hw::Topology& topo, backend::Workload& w) {
  std::vector<int> unit(topo.devices.size(), -1);
  int next_pu = 0, next_gpu = 0;
  for (size_t d = 0; d < topo.devices.size(); ++d) {
    const hw::Device& dev = topo.devices[d];
    Unit u;
    u.id = dev.id;
    if (dev.kind == hw::DeviceKind::HostMemory) {
      u.kind = Unit::Kind::Host;
      u.index = dev.numa_node;
    } else if (dev.kind == hw::DeviceKind::Gpu) {
      u.kind = Unit::Kind::Gpu;
      u.index = next_gpu++;
    } else if (dev.kind == hw::DeviceKind::Cpu) {
      u.kind = Unit::Kind::CpuCore;
      u.index = next_pu;
      next_pu += std::max(1, dev.cores);
    } else {
      continue;
    }
    unit[d] = static_cast<int>(w.units.size());
    w.units.push_back(u);
  }
  return unit;
}

Work compute_work(const scheduler::Problem& p, int node, int dev, const engine::Task& task) {
  const models::Node& op = p.graph->nodes[node];
  const hw::Device& device = p.topo->devices[dev];
  Work w;
  if (task.kind == engine::TaskKind::Dha) {
    w.kind = WorkKind::Dha;
    w.bytes = task.bytes;
    w.seconds = p.duration(node, dev);
    return w;
  }
  if (!op.durations.empty()) {
    w.kind = WorkKind::Spin;
    w.seconds = p.duration(node, dev);
    return w;
  }
  if (op.type == "matmul" && op.flops > 0 && op.output_bytes > 0)
    return gemm(matmul_shape(op, models::bytes_per_element(p.graph->dtype)), p.graph->dtype);
  const double peak = models::RooflineCost::peak_flops(device, p.graph->dtype);
  const double t_compute = peak > 0 ? op.flops / peak : 0;
  const double t_memory = device.memory_bw > 0 ? op.bytes / device.memory_bw : 0;
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

backend::Workload make_workload(const scheduler::Problem& p, const scheduler::Plan& plan,
                                const scheduler::Lowered& low) {
  const hw::Topology& topo = *p.topo;
  const engine::TaskGraph& g = low.graph;
  backend::Workload w;
  const std::vector<int> unit = device_units(topo, w);
  w.tasks.resize(g.tasks.size());
  w.queue_unit.assign(g.queues.size(), -1);
  auto unit_of = [&](int dev) {
    PLACESIM_ASSERT(dev >= 0 && unit[dev] >= 0, "a task on a device that neither computes nor holds memory");
    return unit[dev];
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
        work = compute_work(p, it.node, dev, task);
        w.queue_unit[task.queue] = unit_of(dev);
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
      w.queue_unit[task.queue] = unit_of(dst_computes ? dst : src);
      if (task.bytes > 0 && !task.uses.empty()) {
        work.kind = WorkKind::Copy;
        work.bytes = task.bytes;
        work.src = unit_of(src);
        work.dst = unit_of(dst);
        work.pageable = param && pd.buffer.value_or(plan.buffer) == scheduler::HostBuffer::Pageable;
      } else if (task.latency > 0 && task.bytes <= 0) {
        work.kind = WorkKind::Spin;
        work.seconds = to_seconds(task.latency);
      }
    }
  PLACESIM_ASSERT(id == static_cast<engine::TaskId>(g.tasks.size()), "the plan and its lowering disagree");
  for (int& u : w.queue_unit)
    if (u < 0) u = 0;  // an empty queue: never run
  return w;
}

}  // namespace placesim::explore
