#include "app/explore/scenario.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <fmt/format.h>

#include "hw/topology_yaml.hpp"
#include "models/cost/cost_models.hpp"
#include "models/workload.hpp"
#include "app/explore/model_spec.hpp"
#include "app/explore/placer_needs.hpp"
#include "app/explore/tree_edit.hpp"
#include "sim/core/yaml_reader.hpp"

namespace placesim::explore {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kScenarioKeys = {"name",  "description", "hardware", "model", "weights",
                                                "cost",  "placers",     "baseline", "sweep", "seed",
                                                "collectives", "requests", "serving"};
const std::vector<std::string> kCollectivesKeys = {"fidelity", "volume"};

// "model.batch" -> {model, batch}. Sweep axes are labels that contain dots themselves:
// "sweep.model.seq" -> {sweep, model.seq}.
std::vector<std::string> split_path(const std::string& key) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t dot = key.find('.', start);
    if (dot == std::string::npos || (parts.size() == 1 && parts[0] == "sweep")) {
      parts.push_back(key.substr(start));
      break;
    }
    parts.push_back(key.substr(start, dot - start));
    start = dot + 1;
  }
  return parts;
}

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& k : v) out += (out.empty() ? "" : ", ") + k;
  return out;
}

// The keys `model` (a workload's) and `cost` (a cost model's) take at point p, besides the one
// naming them; empty when that entry is absent or names nothing known (which it reports itself).
std::vector<std::string> keys_of(const Yaml& root, const std::string& entry) {
  const Yaml e = root.get(entry);
  if (!e.is_map()) return {};
  const std::vector<OptionSpec>* options = nullptr;
  const std::string name_key = entry == "model" ? "generator" : "name";
  if (entry == "model" && !e.has("generator") && !workload_name(e).empty()) {
    options = &models::workloads().get(workload_name(e)).options;
  } else if (e.has(name_key) && e.at(name_key).is_scalar()) {
    const std::string name = e.at(name_key).str();
    if (entry == "model" && models::workloads().has(name)) options = &models::workloads().get(name).options;
    if (entry == "cost" && models::cost_models().has(name)) options = &models::cost_models().get(name).options;
  }
  if (!options) return {};
  std::vector<std::string> keys = {name_key};
  for (const OptionSpec& o : *options) keys.push_back(o.name);
  return keys;
}

// A key an override sets (`--set key=value`, or a sweep axis) is one a scenario has: one of its
// top-level keys and, under `model`, `cost` and `collectives`, a key that entry takes at `root`.
// A key an override adds has no place in the file, so an unknown one is reported at the
// override (`where`), as `what` ("the override", "sweep axis 'model.sq'"): a later check could
// only blame the scenario file.
void check_key_set(const Yaml& root, const std::string& key, const std::string& what, const SourceLoc& where) {
  const std::vector<std::string> parts = split_path(key);
  if (parts[0] == "sweep" || std::find(kScenarioKeys.begin(), kScenarioKeys.end(), parts[0]) == kScenarioKeys.end())
    throw InputError(where, fmt::format("{} sets '{}', and a scenario has no key '{}' (expected one of: {})", what, key,
                                        parts[0], join(kScenarioKeys)));
  if (parts.size() < 2 || (parts[0] != "model" && parts[0] != "cost" && parts[0] != "collectives")) return;
  const std::vector<std::string> known =
      parts[0] == "collectives" ? kCollectivesKeys : keys_of(root, parts[0]);
  if (known.empty() || std::find(known.begin(), known.end(), parts[1]) != known.end()) return;
  throw InputError(where, fmt::format("{} sets '{}', and {} takes no key '{}' (its keys: {})", what, key, parts[0],
                                      parts[1], join(known)));
}

// "model.[batch,seq]" -> {"model.batch", "model.seq"}; "model.arch" -> {"model.arch"}.
std::vector<std::string> axis_keys(const std::string& label, const Yaml& where) {
  const size_t open = label.find('[');
  if (open == std::string::npos) return {label};
  if (label.back() != ']') where.fail(fmt::format("malformed sweep axis '{}' (expected prefix.[a,b])", label));
  const std::string prefix = label.substr(0, open);
  std::vector<std::string> keys;
  std::string inner = label.substr(open + 1, label.size() - open - 2);
  size_t start = 0;
  while (start <= inner.size()) {
    size_t comma = inner.find(',', start);
    if (comma == std::string::npos) comma = inner.size();
    std::string k = inner.substr(start, comma - start);
    k.erase(0, k.find_first_not_of(' '));
    k.erase(k.find_last_not_of(' ') + 1);
    if (k.empty()) where.fail(fmt::format("malformed sweep axis '{}'", label));
    keys.push_back(prefix + k);
    start = comma + 1;
  }
  return keys;
}

// One dimension of the product: one or more axes advanced together.
struct Dimension {
  struct Axis {
    std::string label;
    std::vector<std::string> keys;
    std::vector<std::vector<std::string>> paths;  // each key's parts (split_path)
    std::vector<Yaml> values;
    Yaml where;  // its list of values
  };
  std::vector<Axis> axes;
  size_t size() const { return axes.front().values.size(); }
};

Dimension::Axis read_axis(const std::string& label, const Yaml& values) {
  Dimension::Axis a{label, axis_keys(label, values), {}, {}, values};
  for (const std::string& k : a.keys) a.paths.push_back(split_path(k));
  if (!values.is_seq() || values.node().size() == 0) values.fail(fmt::format("sweep axis '{}' needs a non-empty list", label));
  for (const Yaml& v : values.items()) {
    if (a.keys.size() > 1 && (!v.is_seq() || v.node().size() != a.keys.size()))
      v.fail(fmt::format("expected a list of {} values for '{}'", a.keys.size(), label));
    a.values.push_back(v);
  }
  return a;
}

// The keys `--set key=value` overrides name, in order.
std::vector<std::string> set_keys(const std::vector<std::string>& overrides) {
  std::vector<std::string> keys;
  for (const std::string& o : overrides) keys.push_back(o.substr(0, o.find('=')));
  return keys;
}

// Whether --set replaces axis `a` (sets its label, or every key it sets): then the key takes the
// --set value at every point and the axis goes. Setting some of the keys one axis sets together
// would leave the axis setting the rest: an error naming that --set.
bool replaced_by_set(const Dimension::Axis& a, const std::vector<std::string>& overrides) {
  const std::vector<std::string> keys = set_keys(overrides);
  size_t set = 0;
  std::string one;
  for (const std::string& k : a.keys)
    if (std::find(keys.begin(), keys.end(), k) != keys.end()) ++set, one = k;
  if (std::find(keys.begin(), keys.end(), a.label) != keys.end() || set == a.keys.size()) return true;
  if (set == 0) return false;
  const std::string o = overrides[std::find(keys.begin(), keys.end(), one) - keys.begin()];
  throw InputError(SourceLoc{"--set " + o},
                   fmt::format("'{}' is swept together with other keys by axis '{}'; give that axis one value "
                               "instead: --set '{}=[...]'",
                               one, a.label, a.label));
}

std::vector<Dimension> read_sweep(const Yaml& sweep, const std::vector<std::string>& overrides) {
  std::vector<Dimension> dims;
  if (!sweep.defined()) return dims;
  for (auto& [label, values] : sweep.entries()) {
    Dimension d;
    if (label == "zip") {
      for (auto& [l, v] : values.entries()) d.axes.push_back(read_axis(l, v));
      if (d.axes.empty()) values.fail("zip needs at least one axis");
      for (auto& a : d.axes)
        if (a.values.size() != d.axes.front().values.size())
          values.get(a.label).fail(fmt::format("zipped axes need equal lengths: '{}' has {}, '{}' has {}", a.label,
                                               a.values.size(), d.axes.front().label, d.axes.front().values.size()));
    } else {
      d.axes.push_back(read_axis(label, values));
    }
    std::erase_if(d.axes, [&](const Dimension::Axis& a) { return replaced_by_set(a, overrides); });
    if (!d.axes.empty()) dims.push_back(std::move(d));
  }
  return dims;
}

// A relative path is taken from the directory of the file that names it: the scenario's
// hardware and model files from the scenario's directory `dir` (a swept one too, as the sweep is
// in the scenario), and a path given by --set from the working directory, as any path on the
// command line. Presets and absolute paths stay as they are.
void resolve_path(YAML::Node n, const fs::path& dir) {
  if (!n.IsScalar()) return;
  const std::string v = n.Scalar();
  if (v.empty() || hw::is_preset(v) || fs::path(v).is_absolute()) return;
  n = (dir / v).lexically_normal().string();
}


// A swept hardware file, model file or model config, relative to the scenario's directory `dir`
// like the one it replaces. Resolved once, in the axis's own value nodes, which every point shares.
void resolve_swept_paths(const std::vector<Dimension>& dims, const fs::path& dir) {
  for (const Dimension& d : dims)
    for (const Dimension::Axis& a : d.axes)
      for (size_t j = 0; j < a.keys.size(); ++j) {
        if (a.keys[j] != "hardware" && a.keys[j] != "model.file" && a.keys[j] != "model.config") continue;
        for (const Yaml& v : a.values) resolve_path(a.keys.size() == 1 ? v.node() : v.node()[j], dir);
      }
}

// The scenario file with --set overrides applied and relative paths resolved against its own
// directory, as edits of `file` (tree_edit.hpp) made in `arena`.
Yaml read_scenario(const Yaml& file, const std::vector<std::string>& overrides, NodeArena& arena) {
  if (!file.is_map()) file.fail("expected a scenario (a map with hardware, model and placers)");
  TreeEdit doc(arena, file);
  std::vector<std::pair<std::string, std::string>> set;  // (key, the override that sets it)
  for (const std::string& o : overrides) {
    const size_t eq = o.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError(SourceLoc{"--set"}, fmt::format("expected key=value, got '{}'", o));
    YAML::Node value;
    try {
      value = read_yaml(std::string_view(o).substr(eq + 1), "--set");
    } catch (const InputError& e) {
      throw InputError(SourceLoc{"--set"}, fmt::format("in '{}': {}", o, e.detail()));
    }
    const std::string key = o.substr(0, eq);
    if (key.find('[') != std::string::npos && key.rfind("sweep.", 0) != 0) {
      // A joint axis's label ("model.[batch,seq]=[4, 16]"): each of its keys takes its value.
      const std::vector<std::string> keys = axis_keys(key, Yaml(value, "--set " + o));
      if (!value.IsSequence() || value.size() != keys.size())
        throw InputError(SourceLoc{"--set " + o}, fmt::format("expected a list of {} values for '{}'", keys.size(), key));
      for (size_t j = 0; j < keys.size(); ++j) {
        doc.set(split_path(keys[j]), value[j], SourceLoc{"--set " + o});
        doc.graft(value[j], "--set " + o);
        set.emplace_back(keys[j], o);
      }
      continue;
    }
    doc.set(split_path(key), value, SourceLoc{"--set " + o});
    doc.graft(value, "--set " + o);
    set.emplace_back(key, o);
  }
  // Checked once every override is in: one may set the generator whose keys another sets.
  // A sweep set so is checked as the sweep, axis by axis.
  for (const auto& [key, o] : set)
    if (split_path(key)[0] != "sweep") check_key_set(doc.yaml(), key, "the override", SourceLoc{"--set " + o});
  // A path --set gives is the command line's, relative to the working directory as it stands.
  // (The scenario's own are resolved in place: the file was read for this scenario alone.)
  auto by_set = [&](const std::string& key) {
    return std::any_of(set.begin(), set.end(), [&](const auto& k) { return k.first == key; });
  };
  const YAML::Node& root = doc.root();
  const fs::path dir = fs::path(file.file()).parent_path();
  if (root["hardware"] && !by_set("hardware")) resolve_path(root["hardware"], dir);
  for (const char* key : {"file", "config"})
    if (root["model"] && root["model"].IsMap() && root["model"][key] && !by_set(std::string("model.") + key) &&
        !by_set("model"))
      resolve_path(root["model"][key], dir);
  return doc.yaml();
}

// The most sweep points a scenario may have: every point's problem is built and checked before
// the first runs, and each holds its edit of the scenario's tree until the run ends. 10^5 points
// of a small model took 82 s and 0.66 GB to check (run --dry-run); 10^6 would take 15 minutes
// and some 6.5 GB before anything runs.
constexpr size_t kMaxPoints = 100'000;

// Each point is an edit of the scenario's tree (`doc`, read into `arena`): it shares every node
// but the maps on the way to the keys its axes set.
void expand(Scenario& s, const Yaml& doc, const std::vector<Dimension>& dims, NodeArena& arena) {
  size_t total = 1;
  for (auto& d : dims)
    if (__builtin_mul_overflow(total, d.size(), &total) || total > kMaxPoints)
      doc.at("sweep").fail(fmt::format(
          "the sweep's axes multiply to more than {} points; split it into several scenarios", kMaxPoints));
  for (size_t i = 0; i < total; ++i) {
    Point p;
    p.index = static_cast<int>(i);
    TreeEdit e(arena, doc);
    e.remove("sweep");
    size_t rest = i;
    std::vector<size_t> idx(dims.size());
    for (size_t k = dims.size(); k-- > 0;) {
      idx[k] = rest % dims[k].size();
      rest /= dims[k].size();
    }
    for (size_t k = 0; k < dims.size(); ++k)
      for (const auto& a : dims[k].axes) {
        const Yaml& v = a.values[idx[k]];
        p.values.emplace_back(a.label, yaml_to_string(v.node()));
        if (a.paths.size() == 1) {
          e.set(a.paths[0], v.node(), v.loc());
        } else {
          for (size_t j = 0; j < a.paths.size(); ++j) e.set(a.paths[j], v.node()[j], v.loc());
        }
      }
    p.root = e.root();
    p.origins = e.origins();
    s.points.push_back(std::move(p));
  }
}

// Each axis key names a key a scenario has: one of its top-level keys and, under `model`, `cost`
// and `collectives`, a key that entry takes at every point. Checked before any point runs, at
// the axis, so that a misspelt axis is an error and not a value nothing reads.
void check_axis_keys(const std::vector<Dimension>& dims, const Scenario& s) {
  for (const Dimension& d : dims)
    for (const Dimension::Axis& a : d.axes)
      for (const std::string& key : a.keys) {
        // Only the keys under model and cost depend on the point (a swept generator changes them).
        const std::string top = split_path(key)[0];
        const size_t points = top == "model" || top == "cost" ? s.points.size() : 1;
        for (size_t i = 0; i < points; ++i)
          check_key_set(point_yaml(s, s.points[i]), key, fmt::format("sweep axis '{}'", a.label), a.where.loc());
      }
}

// Parameters kept in host memory (weights: host, the default) need one in the hardware: found here,
// at the key that asked for it, rather than when a placer's plan is lowered.
void check_host_memory(const Yaml& root, const hw::Topology& topo, const models::Graph& g,
                       scheduler::WeightsMode weights) {
  if (weights != scheduler::WeightsMode::Host) return;
  const auto is = [](auto kind) { return [kind](const auto& x) { return x.kind == kind; }; };
  if (std::any_of(topo.devices.begin(), topo.devices.end(), is(hw::DeviceKind::HostMemory)) ||
      std::none_of(g.nodes.begin(), g.nodes.end(), is(models::NodeKind::Param)))
    return;
  const Yaml w = root.get("weights");
  (w.defined() ? w : root.at("hardware"))
      .fail(fmt::format("weights: host{} keeps parameters in host memory, but hardware '{}' has none: add a device "
                        "of type host_memory, or set weights: resident",
                        w.defined() ? "" : " (the default)", topo.name));
}

scheduler::WeightsMode weights_of(const Yaml& w) {
  if (!w.defined()) return scheduler::WeightsMode::Host;
  try {
    return scheduler::parse_weights(w.str());
  } catch (const InputError& e) {
    w.fail(e.detail());
  }
}

// collectives: {fidelity: flow|link|analytic|ideal}; flow when absent.
// The scenario's `collectives` map: its fidelity and what a tensor-parallel linear's
// collectives carry, each checked at its value.
struct CollectivesModel {
  engine::Fidelity fidelity = engine::Fidelity::Flow;
  scheduler::LinearVolume volume = scheduler::LinearVolume::Exact;
};
CollectivesModel collectives_of(const Yaml& c) {
  CollectivesModel m;
  if (!c.defined()) return m;
  c.allow_keys(kCollectivesKeys);
  try {
    if (c.has("fidelity")) m.fidelity = scheduler::parse_fidelity(c.at("fidelity").str());
  } catch (const InputError& e) {
    c.at("fidelity").fail(e.detail());
  }
  try {
    if (c.has("volume")) m.volume = scheduler::parse_linear_volume(c.at("volume").str());
  } catch (const InputError& e) {
    c.at("volume").fail(e.detail());
  }
  return m;
}

std::string hardware_text(const Yaml& hw) {
  if (hw.is_scalar()) {
    if (hw::is_preset(hw.str())) return hw::preset_text(hw.str());
    std::ifstream in(hw.str());
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  return yaml_to_string(hw.node());
}

}  // namespace

Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides) {
  Scenario s;
  s.file = path;
  s.overrides = overrides;
  const Yaml file = Yaml::load_file(path);
  NodeArena arena(file.node());
  Yaml doc = read_scenario(file, overrides, arena);
  doc.allow_keys(kScenarioKeys);
  s.root = doc;
  s.name = doc.str_or("name", fs::path(path).stem().string());
  if (doc.has("description") && !doc.at("description").is_scalar())
    doc.at("description").fail("expected text (a description of the study), not a map or a list");
  // The name makes the default output path (results/<name>.h5): it must stay a file name there,
  // and one a terminal shows as it is. A NUL would cut the path short (the lock's removal then
  // took the results with it); an escape sequence would reach file names and terminals.
  const bool control = show_controls(s.name) != s.name;  // a control character in it
  if (s.name.empty() || s.name == "." || s.name == ".." || s.name.find('/') != std::string::npos ||
      s.name.find('\\') != std::string::npos || control) {
    (doc.has("name") ? doc.at("name") : doc).fail(
        fmt::format("scenario name '{}' must be a file name (no '/', no control characters, not '.' or '..'): results "
                    "go to results/<name>.h5",
                    show_controls(s.name)));
  }
  if (doc.has("seed") && doc.at("seed").integer() < 0)
    doc.at("seed").fail(fmt::format("seed must be a whole number >= 0, got {}", doc.at("seed").str()));
  s.seed = static_cast<std::uint64_t>(doc.integer_or("seed", 1));

  s.hardware_text = hardware_text(doc.at("hardware"));
  weights_of(doc.get("weights"));
  collectives_of(doc.get("collectives"));
  doc.at("model");

  for (const Yaml& p : doc.at("placers").items()) s.placers.push_back(scheduler::make_placer(p));
  if (s.placers.empty()) doc.at("placers").fail("expected at least one placer");
  for (size_t i = 0; i < s.placers.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (s.placers[i].label == s.placers[j].label)
        throw InputError(doc.at("placers").items()[i].loc(), fmt::format("placer '{}' is listed twice", s.placers[i].label));
  if (doc.has("baseline")) {
    const Yaml b = doc.at("baseline");
    s.baseline = scheduler::placer_label(b);
    bool found = false;
    for (auto& p : s.placers) found = found || p.label == s.baseline;
    if (!found) b.fail(fmt::format("baseline '{}' is not one of this scenario's placers", s.baseline));
  }

  const std::vector<Dimension> dims = read_sweep(doc.get("sweep"), overrides);
  resolve_swept_paths(dims, fs::path(s.file).parent_path());
  for (auto& d : dims)
    for (auto& a : d.axes) s.axes.push_back(a.label);
  expand(s, doc, dims, arena);
  check_axis_keys(dims, s);
  for (size_t i = 0; i < s.placers.size(); ++i) check_placer_needs(s, s.placers[i], doc.at("placers").items()[i]);
  s.text = YAML::Dump(doc.node()) + "\n";
  return s;
}

Yaml point_yaml(const Scenario& s, const Point& p) { return Yaml(p.root, s.file, p.origins); }

scheduler::Problem build_problem(const Scenario& s, const Point& pt) {
  return build_problem(s, pt, build_model(point_yaml(s, pt).at("model"), s.seed));
}

scheduler::Problem build_problem(const Scenario& s, const Point& pt, models::Graph graph) {
  const Yaml root = point_yaml(s, pt);
  scheduler::Problem p;
  p.topo = s.topologies->get(root.at("hardware"));
  p.graph = std::make_shared<const models::Graph>(std::move(graph));
  if (const std::string bad = scheduler::check_duration_devices(*p.graph, *p.topo); !bad.empty()) root.at("model").fail(bad);
  p.cost = make_cost_model(root.get("cost"), *p.topo, *p.graph);
  p.weights = weights_of(root.get("weights"));
  check_host_memory(root, *p.topo, *p.graph, p.weights);
  const CollectivesModel collectives = collectives_of(root.get("collectives"));
  p.collectives = collectives.fidelity;
  p.linear_volume = collectives.volume;
  p.seed = s.seed;
  return p;
}

std::optional<models::Generation> point_generation(const Scenario& s, const Point& pt) {
  return build_generation(point_yaml(s, pt).at("model"), s.seed);
}

}  // namespace placesim::explore
