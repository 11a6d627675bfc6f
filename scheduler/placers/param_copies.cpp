#include "scheduler/placers/param_copies.hpp"

#include "hw/route_cost.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <numeric>

#include "scheduler/plan/names.hpp"
#include "sim/core/error.hpp"

namespace placesim::scheduler {

ParamCopies::ParamCopies(const Problem& p)
    : p_(&p), channel_of_(p.topo->devices.size(), -1), latency_(p.topo->devices.size(), 0.0),
      inv_rate_(p.topo->devices.size(), 0.0), end_(p.topo->devices.size()) {
  if (p.weights != WeightsMode::Host) return;
  const hw::Topology& topo = *p.topo;
  const std::vector<int> devs = topo.compute_devices();
  std::vector<int> parent(topo.devices.size());
  std::iota(parent.begin(), parent.end(), 0);
  auto root = [&](int d) {
    while (parent[d] != d) d = parent[d] = parent[parent[d]];
    return d;
  };
  std::map<int, int> user;                   // link direction (2 * link + backward) -> first device using it
  std::vector<std::pair<int, int>> shared;   // (link, a device whose copy route shares it)
  for (int d : devs) {
    const int h = topo.host_memory_for(d);
    if (topo.network_ideal || h < 0) continue;
    const hw::RouteCost r = hw::route_cost(topo, h, d);
    double rate = r.bandwidth;
    for (const hw::Hop& hop : r.hops) {
      auto [it, fresh] = user.emplace(hw::channel(hop), d);
      if (fresh) continue;
      parent[root(d)] = root(it->second);
      shared.emplace_back(hop.link, d);
    }
    const hw::Device& dev = topo.devices[d];
    if (dev.kind == hw::DeviceKind::Gpu && dev.copy_engine_bw > 0) rate = std::min(rate, dev.copy_engine_bw);
    if (topo.devices[h].memory_bw > 0) rate = std::min(rate, topo.devices[h].memory_bw);
    latency_[d] = r.latency_s;
    inv_rate_[d] = 1 / rate;
  }
  std::map<int, int> shared_link;  // channel root -> lowest-index link two of its devices share
  for (auto [link, d] : shared) {
    auto [it, fresh] = shared_link.emplace(root(d), link);
    if (!fresh) it->second = std::min(it->second, link);
  }
  std::map<int, int> channel;  // root -> channel index
  for (int d : devs) {
    const int r = root(d);
    auto [it, fresh] = channel.emplace(r, static_cast<int>(channel_name_.size()));
    if (fresh) {
      auto link = shared_link.find(r);
      channel_name_.push_back(link == shared_link.end() ? queue_name(topo, {QueueRole::Kind::H2d, d, 0})
                                                        : link_copy_queue_name(topo, link->second));
    }
    channel_of_[d] = it->second;
  }
  channel_end_.assign(channel_name_.size(), 0.0);
}

double ParamCopies::copy_time(double bytes, int dev) const {
  const hw::Topology& topo = *p_->topo;
  if (topo.network_ideal) return 0;
  if (topo.host_memory_for(dev) < 0)
    throw InputError(fmt::format("weights: host, but '{}' has no host memory to copy parameters to '{}' from",
                                 topo.name, topo.devices[dev].id));
  return latency_[dev] + bytes * inv_rate_[dev];
}

const std::vector<std::pair<int, double>>& ParamCopies::missing(int op, int dev) const {
  std::vector<std::pair<int, double>>& out = missing_;
  out.clear();
  if (p_->weights != WeightsMode::Host) return out;
  const models::Graph& g = *p_->graph;
  const std::vector<double>& end = end_[dev];
  for (int e : g.in_edges(op)) {
    const models::Edge& edge = g.edges[e];
    const int w = edge.src;
    if (g.nodes[w].kind != models::NodeKind::Param || (!end.empty() && end[w] >= 0)) continue;
    if (std::any_of(out.begin(), out.end(), [&](const auto& x) { return x.first == w; })) continue;
    out.emplace_back(w, edge.time_s ? *edge.time_s : copy_time(edge.bytes, dev));
  }
  return out;
}

double ParamCopies::arrival(int op, int dev) const {
  if (p_->weights != WeightsMode::Host) return 0;
  const models::Graph& g = *p_->graph;
  const std::vector<double>& end = end_[dev];
  double ready = 0;
  for (int e : g.in_edges(op)) {
    const int w = g.edges[e].src;
    if (g.nodes[w].kind == models::NodeKind::Param && !end.empty() && end[w] >= 0) ready = std::max(ready, end[w]);
  }
  double t = channel_end_[channel_of_[dev]];
  for (const auto& [w, dur] : missing(op, dev)) ready = std::max(ready, t += dur);
  return ready;
}

void ParamCopies::book(int op, int dev) {
  const std::vector<std::pair<int, double>>& copies = missing(op, dev);
  if (copies.empty()) return;
  std::vector<double>& end = end_[dev];
  if (end.empty()) end.assign(p_->graph->nodes.size(), -1.0);
  const int c = channel_of_[dev];
  for (const auto& [w, dur] : copies) {
    const double start = channel_end_[c];
    channel_end_[c] = end[w] = start + dur;
    booked_.push_back({w, dev, c, start, end[w]});
  }
}

std::vector<ParamCopy> ParamCopies::plan_copies() const {
  std::vector<ParamCopy> out;
  for (const Copy& c : booked_) out.push_back({c.param, c.device, channel_name_[c.channel]});
  return out;
}

}  // namespace placesim::scheduler
