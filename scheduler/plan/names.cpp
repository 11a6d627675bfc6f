#include "scheduler/plan/names.hpp"

#include <cctype>
#include <fmt/format.h>

namespace placesim::scheduler {

const char* to_string(HostBuffer b) { return b == HostBuffer::Pinned ? "pinned" : "pageable"; }

const char* to_string(ParamDelivery::Via v) {
  switch (v) {
    case ParamDelivery::Via::Copy: return "copy";
    case ParamDelivery::Via::Dha: return "dha";
    case ParamDelivery::Via::Parallel: return "parallel";
    case ParamDelivery::Via::Resident: return "resident";
  }
  return "?";
}

namespace {
constexpr std::string_view kStage = "/stage";
constexpr std::string_view kForward = "/forward";
constexpr std::string_view kLaunch = "/launch";
constexpr std::string_view kSync = "/sync";

const char* role_word(QueueRole::Kind k) {
  switch (k) {
    case QueueRole::Kind::Compute: return "compute";
    case QueueRole::Kind::H2d: return "h2d";
    case QueueRole::Kind::D2h: return "d2h";
    case QueueRole::Kind::Core: return "core";
    case QueueRole::Kind::Other: break;
  }
  return "";
}
}  // namespace

std::string item_name(const PlanItem& it, const models::Graph& g, const hw::Topology& topo) {
  const std::string& node = g.nodes[it.node].name;
  const auto on_device = [&](std::string_view suffix) {
    std::string s = node + "@" + topo.devices[it.device].id;
    s += suffix;
    return s;
  };
  const auto with = [&](std::string_view suffix) {
    std::string s = node;
    s += suffix;
    return s;
  };
  switch (it.kind) {
    case PlanItem::Kind::Compute: return node;
    case PlanItem::Kind::Deliver: return on_device("");
    case PlanItem::Kind::Stage: return on_device(kStage);
    case PlanItem::Kind::Forward: return on_device(kForward);
    case PlanItem::Kind::Launch: return it.device < 0 ? with(kLaunch) : on_device(kLaunch);
    case PlanItem::Kind::Sync: return with(kSync);
  }
  return node;
}

// Called for every task of a plan file (300k for a 100k-op graph): views, no strings made.
ParsedItem parse_item_name(std::string_view s, const models::Graph& g, const hw::Topology& topo) {
  // A sync: the op it waits for, then `/sync` (unless a node has the whole name).
  if (s.ends_with(kSync) && g.find(s) < 0) {
    ParsedItem r = parse_item_name(s.substr(0, s.size() - kSync.size()), g, topo);
    if (r.error.empty() && r.item.kind != PlanItem::Kind::Compute)
      r.error = fmt::format("'{}': a sync waits for an op (OP/sync)", s);
    r.item.kind = PlanItem::Kind::Sync;
    return r;
  }
  // A launch: the item it launches, then `/launch` (unless a node has the whole name).
  if (s.ends_with(kLaunch) && g.find(s) < 0) {
    ParsedItem r = parse_item_name(s.substr(0, s.size() - kLaunch.size()), g, topo);
    if (r.error.empty() && r.item.kind != PlanItem::Kind::Compute && r.item.kind != PlanItem::Kind::Deliver)
      r.error = fmt::format("'{}': a launch is of an op's kernel (OP/launch) or of a delivery (NODE@DEVICE/launch)", s);
    r.item.kind = PlanItem::Kind::Launch;
    return r;
  }
  ParsedItem r;
  // An op whose own name has an '@' (ONNX and hand-written graphs allow one) is its compute item;
  // a name that is no node's is NODE@DEVICE, split at the last '@'.
  if (const int whole = g.find(s); whole >= 0 && g.nodes[whole].kind == models::NodeKind::Op) {
    r.item.kind = PlanItem::Kind::Compute;
    r.item.node = whole;
    return r;
  }
  const size_t at = s.rfind('@');
  const std::string_view node = s.substr(0, at);
  r.item.node = g.find(node);
  if (r.item.node < 0) {
    r.error = fmt::format("no node '{}' in graph '{}'", node, g.name);
    return r;
  }
  const bool param = g.nodes[r.item.node].kind == models::NodeKind::Param;
  if (at == std::string_view::npos) {
    if (param) r.error = fmt::format("'{}' is a parameter: name its delivery as '{}@DEVICE'", s, s);
    return r;
  }
  std::string_view dev = s.substr(at + 1);
  r.item.kind = PlanItem::Kind::Deliver;
  for (auto [suffix, kind] : {std::pair{kStage, PlanItem::Kind::Stage}, std::pair{kForward, PlanItem::Kind::Forward}})
    if (dev.ends_with(suffix)) {
      dev.remove_suffix(suffix.size());
      r.item.kind = kind;
      if (!param) r.error = fmt::format("'{}': only a parameter has a parallel transmission", s);
    }
  r.item.device = topo.find(dev);
  if (r.item.device < 0) r.error = fmt::format("no device '{}' in '{}'", dev, topo.name);
  return r;
}

QueueRole queue_role(const hw::Topology& topo, const std::string& name) {
  const size_t dot = name.rfind('.');
  if (dot == std::string::npos) return {};
  const int dev = topo.find(name.substr(0, dot));
  if (dev < 0) return {};
  std::string word = name.substr(dot + 1);
  size_t digits = word.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(word[digits - 1]))) --digits;
  const std::string number = word.substr(digits);
  word.resize(digits);
  if (topo.devices[dev].kind == hw::DeviceKind::Cpu) {
    // Cores are always numbered, from 0: `cpu0.core0` is the first.
    if (word != role_word(QueueRole::Kind::Core)) return {};
    if (number.empty() || (number[0] == '0' && number.size() > 1) || number.size() > 6)
      return {QueueRole::Kind::Core, dev, -1};
    return {QueueRole::Kind::Core, dev, std::stoi(number)};
  }
  if (topo.devices[dev].kind != hw::DeviceKind::Gpu) return {};
  for (auto kind : {QueueRole::Kind::Compute, QueueRole::Kind::H2d, QueueRole::Kind::D2h}) {
    if (word != role_word(kind)) continue;
    if (number.empty()) return {kind, dev, 0};
    if (number[0] == '0' || number.size() > 6) return {kind, dev, -1};
    return {kind, dev, std::stoi(number)};
  }
  return {};
}

std::string queue_name(const hw::Topology& topo, QueueRole role) {
  const std::string base = topo.devices[role.device].id + "." + role_word(role.kind);
  return role.index == 0 && role.kind != QueueRole::Kind::Core ? base : base + std::to_string(role.index);
}

std::string channel_queue_name(const hw::Topology& topo, int src, int dst) {
  return topo.devices[src].id + "->" + topo.devices[dst].id;
}

std::string link_copy_queue_name(const hw::Topology& topo, int link) { return topo.links[link].id + ".copy"; }

std::string bus_copy_queue_name(int bus) { return fmt::format("bus{}.copy", bus); }

std::string ready_queue_name(const hw::Topology& topo, int device) { return topo.devices[device].id + ".ready"; }

}  // namespace placesim::scheduler
