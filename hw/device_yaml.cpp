#include "hw/device_yaml.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fmt/format.h>
#include <limits>
#include <string_view>
#include <vector>

#include "hw/yaml_values.hpp"

namespace placesim::hw {
namespace {

struct KindInfo {
  std::string_view name;
  DeviceKind kind;
  std::vector<std::string_view> keys;      // fields this type may carry, besides kCommonKeys
  std::vector<std::string_view> required;
};

const std::vector<KindInfo>& kinds() {
  static const std::vector<KindInfo> k = {
      {"gpu", DeviceKind::Gpu,
       {"memory", "memory_bw", "fp32", "tensor", "int8", "launch", "dispatch", "concurrent_kernels",
        "h2d_engines", "d2h_engines", "copy_engine_bw", "streams", "cache", "cache_bw", "overlap"},
       {"memory", "memory_bw", "fp32"}},
      {"cpu", DeviceKind::Cpu,
       {"cores", "memory_bw", "fp32", "tensor", "int8", "launch", "dispatch", "sockets", "contention",
        "numa_node", "cache", "cache_bw", "overlap", "core_memory_bw"},
       {"cores", "memory_bw", "fp32"}},
      {"host_memory", DeviceKind::HostMemory, {"memory", "memory_bw", "numa_node", "pageable_bw"}, {"memory"}},
      {"switch", DeviceKind::Switch, {}, {}},
      {"nic", DeviceKind::Nic, {}, {}},
  };
  return k;
}

const std::vector<std::string_view> kCommonKeys = {"id", "type", "template", "model"};
const std::vector<std::string_view> kTemplateKeys = {"type", "model"};

std::string join(const std::vector<std::string_view>& words) {
  std::string s;
  for (auto w : words) s += (s.empty() ? "" : ", ") + std::string(w);
  return s;
}

std::string_view example(std::string_view key) {
  if (key == "memory") return "32GiB";
  if (key == "memory_bw") return "900GB/s";
  if (key == "fp32") return "15.7TFLOPS";
  return "20";  // cores
}

const KindInfo& kind_named(const Yaml& type) {
  const std::string name = type.str();
  for (const KindInfo& k : kinds())
    if (k.name == name) return k;
  std::vector<std::string_view> names;
  for (const KindInfo& k : kinds()) names.push_back(k.name);
  type.fail(fmt::format("unknown device type '{}' (expected one of: {})", name, join(names)));
}

// Fails at the first key of `map` not in `a` or `b`, pointing at the key.
void check_keys(const Yaml& map, const std::vector<std::string_view>& a, const std::vector<std::string_view>& b,
                const std::string& what) {
  for (auto it = map.node().begin(); it != map.node().end(); ++it) {
    const std::string key = it->first.Scalar();
    const auto in = [&](const std::vector<std::string_view>& v) { return std::find(v.begin(), v.end(), key) != v.end(); };
    if (in(a) || in(b)) continue;
    if (key == "op_overhead")  // the name before the runtime model (docs/execution.md, "The runtime")
      Yaml(it->first, map.file())
          .fail("'op_overhead' is now 'dispatch': the host time the runtime spends dispatching each op onto this "
                "device, paid on a dispatch thread rather than on the device (docs/execution.md, \"The runtime\")");
    std::vector<std::string_view> all = a;
    all.insert(all.end(), b.begin(), b.end());
    Yaml(it->first, map.file()).fail(fmt::format("unknown key '{}' for {} (expected one of: {})", key, what, join(all)));
  }
}

// A device's fields: its own maps first (newest layer first), then its template's.
struct Fields {
  std::vector<Yaml> own;
  Yaml tmpl;
  Yaml get(std::string_view key) const {
    for (const Yaml& layer : own)
      if (Yaml v = layer.get(key); v.defined()) return v;
    return tmpl.get(key);
  }
};

int nonnegative_int(const Yaml& v) {
  const std::int64_t x = v.integer();
  if (x < 0 || x > std::numeric_limits<int>::max())
    v.fail(fmt::format("expected a whole number >= 0, got '{}'", v.str()));
  return static_cast<int>(x);
}

// contention: [1, 1.05, 1.2, ...]: a non-empty list of numbers, each >= 1, at most one per core.
std::vector<double> contention_curve(const Yaml& v, int cores) {
  if (!v.is_seq() || v.items().empty())
    v.fail("expected a list of per-core slowdown factors >= 1 such as [1, 1.1, 1.3] (one per number of busy cores)");
  std::vector<double> out;
  for (const Yaml& f : v.items()) {
    double x = 0;
    const bool numeric = f.is_scalar() && YAML::convert<double>::decode(f.node(), x);
    if (!numeric || !(x >= 1) || !std::isfinite(x))
      f.fail(fmt::format("expected a slowdown factor >= 1 (1 = no slowdown) such as 1.2, got '{}'",
                         f.is_scalar() ? f.str() : yaml_to_string(f.node())));
    out.push_back(x);
  }
  if (static_cast<int>(out.size()) > cores)
    v.fail(fmt::format("contention lists {} factors (one per number of busy cores) but the cpu has {} cores",
                       out.size(), cores));
  return out;
}

// cache and cache_bw come together (a size without a rate, or a rate without a size, means
// nothing); overlap is a share in [0, 1].
void parse_cache(const Fields& f, Device& d) {
  const Yaml size = f.get("cache"), bw = f.get("cache_bw");
  if (size.defined() != bw.defined()) {
    const Yaml& given = size.defined() ? size : bw;
    given.fail(size.defined() ? "cache needs cache_bw too (the rate of data that fits in it, such as 100GB/s)"
                              : "cache_bw needs cache too (the size data must fit in, such as 1MiB)");
  }
  if (size.defined()) {
    d.cache_bytes = positive_size(size);
    d.cache_bw = bw.positive_bandwidth();
  }
  if (Yaml v = f.get("overlap"); v.defined()) {
    d.overlap = v.number();
    if (!(d.overlap >= 0 && d.overlap <= 1))
      v.fail(fmt::format("expected overlap between 0 (compute and memory times add) and 1 (the roofline's max), got '{}'",
                         v.str()));
  }
}

// Whether the device is one map holding only `id` and `template`: its template's name, or empty.
std::string template_alone(const std::vector<Yaml>& layers) {
  if (layers.size() != 1 || !layers.front().is_map() || layers.front().node().size() != 2) return "";
  const Yaml id = layers.front().get("id"), t = layers.front().get("template");
  if (!id.defined() || !t.defined() || !id.is_scalar() || !t.is_scalar() || id.str().empty()) return "";
  return t.str();
}

}  // namespace

DeviceTemplates parse_device_templates(const Yaml& templates) {
  std::vector<std::string_view> fields;
  for (const KindInfo& k : kinds())
    for (auto key : k.keys)
      if (std::find(fields.begin(), fields.end(), key) == fields.end()) fields.push_back(key);
  DeviceTemplates out;
  for (auto& [name, t] : templates.entries()) {
    if (!t.is_map()) t.fail("expected a device template map such as {type: gpu, memory: 32GiB, ...}");
    check_keys(t, kTemplateKeys, fields, "a device template");
    out.emplace(name, t);
  }
  return out;
}

Device parse_device(const std::vector<Yaml>& layers, const DeviceTemplates& templates, const std::string& prefix,
                    TemplateDevices* made) {
  const std::string alone = made ? template_alone(layers) : "";
  if (!alone.empty()) {
    if (auto it = made->find(alone); it != made->end()) {
      Device d = it->second;
      d.id = prefix + layers.front().get("id").str();
      d.loc = layers.front().loc();
      return d;
    }
    const Device d = parse_device(layers, templates, prefix);
    made->emplace(alone, d);
    return d;
  }
  PLACESIM_ASSERT(!layers.empty(), "a device has at least one map");
  for (const Yaml& layer : layers)
    if (!layer.is_map()) layer.fail("expected a device map such as {id: gpu0, type: gpu, ...}");
  const Yaml& node = layers.front();
  Fields f{layers, Yaml()};
  std::string template_name;
  if (Yaml t = f.get("template"); t.defined()) {
    template_name = t.str();
    auto it = templates.find(template_name);
    if (it == templates.end()) {
      std::string known;
      for (auto& [name, _] : templates) known += (known.empty() ? "" : ", ") + name;
      t.fail(fmt::format("unknown template '{}' (templates: {})", template_name, known.empty() ? "none" : known));
    }
    f.tmpl = it->second;
  }
  const Yaml type = f.get("type");
  if (!type.defined()) {
    std::vector<std::string_view> names;
    for (const KindInfo& k : kinds()) names.push_back(k.name);
    node.fail(fmt::format("missing key 'type' (expected one of: {})", join(names)));
  }
  const KindInfo& k = kind_named(type);
  const std::string what = fmt::format("a {} device", k.name);
  for (const Yaml& layer : layers) check_keys(layer, kCommonKeys, k.keys, what);
  if (f.tmpl.defined()) check_keys(f.tmpl, kTemplateKeys, k.keys, what);

  Device d;
  const Yaml id = f.get("id");
  if (!id.defined()) node.fail("missing key 'id' (a device needs an id such as gpu0)");
  if (id.str().empty()) id.fail("expected a non-empty device id");
  d.id = prefix + id.str();
  d.kind = k.kind;
  d.loc = node.loc();
  const Yaml model = f.get("model");
  d.model = model.defined() ? model.str() : template_name;
  for (auto key : k.required)
    if (!f.get(key).defined())
      node.fail(fmt::format("{} device '{}' needs '{}' (such as {}: {})", k.name, d.id, key, key, example(key)));

  if (Yaml v = f.get("memory"); v.defined()) d.memory = positive_size(v);
  if (Yaml v = f.get("memory_bw"); v.defined()) d.memory_bw = v.positive_bandwidth();
  if (Yaml v = f.get("fp32"); v.defined()) d.fp32_flops = positive_rate(v);
  if (Yaml v = f.get("tensor"); v.defined()) d.tensor_flops = positive_rate(v);
  if (Yaml v = f.get("int8"); v.defined()) d.int8_ops = positive_rate(v);
  if (Yaml v = f.get("launch"); v.defined()) d.launch_s = nonnegative_duration(v);
  if (Yaml v = f.get("dispatch"); v.defined()) d.dispatch_s = nonnegative_duration(v);
  if (Yaml v = f.get("concurrent_kernels"); v.defined()) d.concurrent_kernels = v.boolean();
  if (Yaml v = f.get("cores"); v.defined()) {
    // Each core is a resource of the simulation: 2^31 of them took 24 GB. The largest CPU
    // sockets have 192 cores; 4096 leaves room for a whole node's as one device.
    constexpr int kMaxCores = 4096;
    d.cores = positive_count(v);
    if (d.cores > kMaxCores) v.fail(fmt::format("expected at most {} cores, got '{}'", kMaxCores, v.str()));
  }
  if (Yaml v = f.get("h2d_engines"); v.defined()) d.h2d_engines = positive_count(v);
  if (Yaml v = f.get("d2h_engines"); v.defined()) d.d2h_engines = positive_count(v);
  if (Yaml v = f.get("copy_engine_bw"); v.defined()) d.copy_engine_bw = v.positive_bandwidth();
  if (Yaml v = f.get("streams"); v.defined()) d.streams = positive_count(v);
  if (Yaml v = f.get("sockets"); v.defined()) {
    d.sockets = positive_count(v);
    if (d.sockets > d.cores)
      v.fail(fmt::format("cpu '{}' has {} sockets but only {} cores", d.id, d.sockets, d.cores));
  }
  if (Yaml v = f.get("contention"); v.defined()) d.contention = contention_curve(v, d.cores);
  if (Yaml v = f.get("numa_node"); v.defined()) d.numa_node = nonnegative_int(v);
  if (Yaml v = f.get("core_memory_bw"); v.defined()) d.core_memory_bw = v.positive_bandwidth();
  parse_cache(f, d);
  if (Yaml v = f.get("pageable_bw"); v.defined()) d.pageable_bw = v.positive_bandwidth();
  return d;
}

}  // namespace placesim::hw
