// The constants the header lists, from the topology, the cost model and the graph.
#include "scheduler/placers/sortinghat/sortinghat_constants.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <numeric>

#include "hw/route_cost.hpp"
#include "scheduler/placer.hpp"

namespace placesim::scheduler::sortinghat {
namespace {

// Seconds per byte (1 / slowest hop) and latency of the route a -> b.
std::pair<double, double> route_time(const hw::Topology& topo, int a, int b) {
  const hw::RouteCost r = hw::route_cost(topo, a, b);
  return {1.0 / r.bandwidth, r.latency_s};
}

double mean(const std::vector<double>& v) {
  return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

// gpu_aware false: each time replaced by the mean over the GPUs that can run the op (one that
// cannot stays unable).
void average_over_gpus(std::vector<double>& times) {
  std::vector<double> can;
  for (double t : times)
    if (t != models::kCannotRun) can.push_back(t);
  const double m = mean(can);
  for (double& t : times)
    if (t != models::kCannotRun) t = m;
}

}  // namespace

Machine machine(const Problem& p, const ShConfig& cfg) {
  const hw::Topology& topo = *p.topo;
  Machine mc;
  mc.gpus = default_devices(topo);
  const int k = static_cast<int>(mc.gpus.size());
  if (k == 0) throw InputError(fmt::format("'{}' has no compute device", topo.name));
  std::vector<int> host(k);
  bool all_hosts = true;
  for (int i = 0; i < k; ++i) {
    host[i] = topo.host_memory_for(mc.gpus[i]);
    all_hosts = all_hosts && host[i] >= 0 && host[i] != mc.gpus[i];
  }
  mc.copies_params = p.weights == WeightsMode::Host && !topo.network_ideal && all_hosts;

  // Buses: union of GPUs whose host routes share a link.
  mc.bus_of.resize(k);
  std::iota(mc.bus_of.begin(), mc.bus_of.end(), 0);
  if (cfg.bus_contention && mc.copies_params)
    for (int a = 0; a < k; ++a)
      for (int b = a + 1; b < k; ++b)
        if (hw::shares_link(*topo.route(host[a], mc.gpus[a]), *topo.route(host[b], mc.gpus[b]))) {
          const int from = mc.bus_of[b], to = mc.bus_of[a];
          for (int& x : mc.bus_of) x = x == from ? to : x;
        }
  std::vector<int> ids;  // renumber buses 0.. in order of first GPU
  for (int& x : mc.bus_of) {
    auto it = std::find(ids.begin(), ids.end(), x);
    if (it == ids.end()) ids.push_back(x), it = ids.end() - 1;
    x = static_cast<int>(it - ids.begin());
  }
  mc.buses = static_cast<int>(ids.size());
  mc.on_bus.resize(k);
  for (int i = 0; i < k; ++i) mc.on_bus[i] = static_cast<int>(std::count(mc.bus_of.begin(), mc.bus_of.end(), mc.bus_of[i]));

  mc.t0.assign(k, 0);
  mc.lat0.assign(k, 0);
  mc.t.assign(k, std::vector<double>(k, 0));
  mc.lat.assign(k, std::vector<double>(k, 0));
  for (int i = 0; i < k; ++i) {
    if (mc.copies_params) std::tie(mc.t0[i], mc.lat0[i]) = route_time(topo, host[i], mc.gpus[i]);
    for (int i2 = 0; i2 < k; ++i2) {
      if (i2 == i) continue;
      std::tie(mc.t[i][i2], mc.lat[i][i2]) = route_time(topo, mc.gpus[i], mc.gpus[i2]);
      if (cfg.adjust && !cfg.via_dram) {
        const int l = topo.link_between(mc.gpus[i], mc.gpus[i2]);
        const bool direct = l >= 0 && topo.route(mc.gpus[i], mc.gpus[i2])->hops.size() == 1;
        mc.t[i][i2] *= direct ? 1.5 : static_cast<double>(k);
      }
    }
  }
  if (cfg.via_dram) {
    // One speed for every transfer, twice the mean host -> GPU speed; host latency for all.
    const double t = mean(mc.t0) / 2, lat = mean(mc.lat0);
    for (int i = 0; i < k; ++i) {
      if (mc.copies_params) mc.t0[i] = t, mc.lat0[i] = lat;
      for (int i2 = 0; i2 < k; ++i2)
        if (i2 != i) mc.t[i][i2] = topo.network_ideal ? 0.0 : t, mc.lat[i][i2] = topo.network_ideal ? 0.0 : lat;
    }
  } else if (!cfg.topology_aware) {
    std::vector<double> pair_t, pair_lat;
    for (int i = 0; i < k; ++i)
      for (int i2 = 0; i2 < k; ++i2)
        if (i2 != i) pair_t.push_back(mc.t[i][i2]), pair_lat.push_back(mc.lat[i][i2]);
    const double t0 = mean(mc.t0), lat0 = mean(mc.lat0), t = mean(pair_t), lat = mean(pair_lat);
    for (int i = 0; i < k; ++i) {
      mc.t0[i] = t0, mc.lat0[i] = lat0;
      for (int i2 = 0; i2 < k; ++i2)
        if (i2 != i) mc.t[i][i2] = t, mc.lat[i][i2] = lat;
    }
  }
  mc.capacity.resize(k);
  for (int i = 0; i < k; ++i) {
    const hw::Device& d = topo.devices[mc.gpus[i]];
    const double m = d.kind == hw::DeviceKind::Cpu && host[i] >= 0 ? topo.devices[host[i]].memory : d.memory;
    mc.capacity[i] = std::isfinite(m) ? m : 0;  // `memory: unlimited`: no row (0: unlimited)
  }
  return mc;
}

SubInput submodel_input(const Problem& p, const Machine& mc, const ShConfig& cfg, const models::Submodel& sm) {
  const models::Graph& g = sm.graph;
  const int k = static_cast<int>(mc.gpus.size());
  SubInput out;
  std::vector<int> index(g.nodes.size(), -1);
  for (int v = 0; v < static_cast<int>(g.nodes.size()); ++v)
    if (mc.copies_params || g.nodes[v].kind == models::NodeKind::Op) {
      index[v] = static_cast<int>(out.node_of.size());
      out.node_of.push_back(v);
    }
  ShInput& in = out.in;
  in.n = static_cast<int>(out.node_of.size());
  in.k = k;
  in.q = cfg.q;
  in.dha = cfg.dha && mc.copies_params;
  in.max_gpus = cfg.max_gpus;
  in.bus_of = mc.bus_of;
  in.buses = mc.buses;
  in.capacity = mc.capacity;
  in.prev_m.assign(k, 0);
  in.prev_sg_fin.assign(k, 0);
  in.prev_dt_fin.assign(mc.buses, 0);
  in.is_param.resize(in.n);
  in.p_gpu.assign(in.n, std::vector<double>(k, 0));
  in.p_dha = in.p_gpu;
  in.mem.assign(in.n, 0);
  in.dt_s = in.p_gpu;
  in.copy_s.assign(in.n, std::vector<std::vector<double>>(k, std::vector<double>(k, 0)));
  for (const models::Edge& e : g.edges)
    if (index[e.src] >= 0 && index[e.dst] >= 0) in.edges.push_back({index[e.src], index[e.dst]});
  for (int x = 0; x < in.n; ++x) {
    const int v = out.node_of[x];
    const models::Node& node = g.nodes[v];
    const bool placeholder = sm.original[v] < 0;
    in.is_param[x] = node.kind == models::NodeKind::Param;
    // Bytes a copy of v moves (the engine's delivery: the largest edge it serves), or a fixed time.
    double bytes = 0, fixed = -1;
    for (int e : g.out_edges(v)) {
      bytes = std::max(bytes, g.edges[e].bytes);
      if (g.edges[e].time_s) fixed = std::max(fixed, *g.edges[e].time_s);
    }
    auto copy_time = [&](double per_byte, double lat) { return fixed >= 0 ? fixed : lat + bytes * per_byte; };
    if (in.is_param[x]) {
      in.mem[x] = node.param_bytes;
      for (int i = 0; i < k; ++i) in.dt_s[x][i] = copy_time(mc.t0[i], mc.lat0[i]);
    } else if (!placeholder) {
      in.mem[x] = node.output_bytes + node.state_bytes;
      double dha_bytes = 0;
      for (int e : g.in_edges(v))
        if (g.nodes[g.edges[e].src].kind == models::NodeKind::Param) {
          if (mc.copies_params) dha_bytes += models::param_read_bytes(node.shape, g.dtype, g.edges[e].bytes);
          else in.mem[x] += g.nodes[g.edges[e].src].param_bytes;  // resident: held by its reader
        }
      bool runs = false;
      for (int i = 0; i < k; ++i) runs = runs || p.duration(sm.original[v], mc.gpus[i]) != models::kCannotRun;
      if (!runs) throw InputError(fmt::format("op '{}' can run on none of the devices the MILP places on", node.name));
      for (int i = 0; i < k; ++i) {
        const double d = p.duration(sm.original[v], mc.gpus[i]);
        in.p_gpu[x][i] = d;
        if (dha_bytes <= 0 || d == models::kCannotRun) {
          in.p_dha[x][i] = d;
          continue;
        }
        double dha = mc.lat0[i] + std::max(d, dha_bytes * mc.t0[i]);
        if (cfg.adjust) dha *= 2.0 * mc.on_bus[i];
        in.p_dha[x][i] = dha;
      }
      if (!cfg.gpu_aware) {
        average_over_gpus(in.p_gpu[x]);
        average_over_gpus(in.p_dha[x]);
      }
    }
    for (int i = 0; i < k; ++i)
      for (int i2 = 0; i2 < k; ++i2)
        if (i2 != i) in.copy_s[x][i][i2] = copy_time(mc.t[i][i2], mc.lat[i][i2]);
  }
  return out;
}

}  // namespace placesim::scheduler::sortinghat
