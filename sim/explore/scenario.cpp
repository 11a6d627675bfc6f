#include "sim/explore/scenario.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <fmt/format.h>

#include "hw/topology_yaml.hpp"
#include "models/workload.hpp"
#include "sim/explore/model_spec.hpp"

namespace placesim::explore {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kScenarioKeys = {"name",    "description", "hardware", "model", "weights",    "cost",
                                                "placers", "baseline",    "sweep",    "seed",  "collectives"};

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

// Sets root.a.b.c = value, creating maps on the way. `where` locates errors.
void set_path(YAML::Node root, const std::string& key, const YAML::Node& value, const SourceLoc& where) {
  const std::vector<std::string> parts = split_path(key);
  YAML::Node cur;
  cur.reset(root);  // yaml-cpp: `=` between nodes assigns content; reset() rebinds
  for (size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].empty()) throw InputError(where, fmt::format("malformed key '{}'", key));
    if (!cur.IsMap() && cur.IsDefined() && !cur.IsNull())
      throw InputError(where, fmt::format("cannot set '{}': '{}' is not a map", key, parts[i - 1]));
    if (i + 1 == parts.size()) {
      cur[parts[i]] = value;
    } else {
      YAML::Node next = cur[parts[i]];
      if (!next.IsDefined() || next.IsNull()) cur[parts[i]] = YAML::Node(YAML::NodeType::Map);
      cur.reset(cur[parts[i]]);
    }
  }
}

// Keys that --set or the sweep set (key, where the override is). A key they add has no place in
// the file, so an unknown one is reported here, at the override: later checks could name only
// the scenario file. Checked once all of a point's keys are set, as a swept generator changes
// which model keys there are.
using KeysSet = std::vector<std::pair<std::string, SourceLoc>>;

void check_keys_set(const YAML::Node& root, const KeysSet& set) {
  auto allow = [](const std::string& key, const std::vector<std::string>& allowed, const SourceLoc& where) {
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) return;
    std::string list;
    for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
    throw InputError(where, fmt::format("unknown key '{}' (expected one of: {})", key, list));
  };
  for (const auto& [key, where] : set) {
    const std::vector<std::string> parts = split_path(key);
    allow(parts[0], kScenarioKeys, where);
    const YAML::Node model = root["model"];
    if (parts[0] != "model" || parts.size() < 2 || !model.IsMap()) continue;
    const std::string workload = model["generator"] ? model["generator"].as<std::string>("")
                                 : model["file"]    ? models::importer_for(model["file"].as<std::string>(""))
                                                    : "";
    if (!models::workloads().has(workload)) continue;  // the model's own check names it, at the generator
    std::vector<std::string> keys = {"generator"};
    for (const OptionSpec& o : models::workloads().get(workload).options) keys.push_back(o.name);
    allow(parts[1], keys, where);
  }
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
    std::vector<Yaml> values;
  };
  std::vector<Axis> axes;
  size_t size() const { return axes.front().values.size(); }
};

Dimension::Axis read_axis(const std::string& label, const Yaml& values) {
  Dimension::Axis a{label, axis_keys(label, values), {}};
  if (!values.is_seq() || values.node().size() == 0) values.fail(fmt::format("sweep axis '{}' needs a non-empty list", label));
  for (const Yaml& v : values.items()) {
    if (a.keys.size() > 1 && (!v.is_seq() || v.node().size() != a.keys.size()))
      v.fail(fmt::format("expected a list of {} values for '{}'", a.keys.size(), label));
    a.values.push_back(v);
  }
  return a;
}

std::vector<Dimension> read_sweep(const Yaml& sweep) {
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
    dims.push_back(std::move(d));
  }
  return dims;
}

// The scenario's hardware file and model file, when given as relative paths that exist there,
// made paths relative to the scenario's directory `dir` (presets and absolute paths stay).
void resolve_paths(const YAML::Node& root, const fs::path& dir) {
  auto resolve = [&](YAML::Node n) {
    if (!n.IsScalar()) return;
    const std::string v = n.Scalar();
    if (hw::is_preset(v) || fs::path(v).is_absolute()) return;
    if (fs::exists(dir / v)) n = (dir / v).string();
  };
  if (root["hardware"]) resolve(root["hardware"]);
  if (root["model"] && root["model"].IsMap() && root["model"]["file"]) resolve(root["model"]["file"]);
}

// The scenario file with --set overrides applied and relative paths resolved against its own
// directory. Read afresh for every sweep point, so that every node keeps its file location
// (YAML::Clone would drop them).
Yaml read_scenario(const std::string& path, const std::vector<std::string>& overrides) {
  Yaml doc = Yaml::load_file(path);
  if (!doc.is_map()) doc.fail("expected a scenario (a map with hardware, model and placers)");
  KeysSet set;
  for (const std::string& o : overrides) {
    const size_t eq = o.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError(SourceLoc{"--set"}, fmt::format("expected key=value, got '{}'", o));
    YAML::Node value;
    try {
      value = YAML::Load(o.substr(eq + 1));
    } catch (const YAML::Exception& e) {
      throw InputError(SourceLoc{"--set"}, fmt::format("malformed value in '{}': {}", o, e.msg));
    }
    set_path(doc.node(), o.substr(0, eq), value, SourceLoc{"--set " + o});
    set.emplace_back(o.substr(0, eq), SourceLoc{"--set " + o});
  }
  check_keys_set(doc.node(), set);
  resolve_paths(doc.node(), fs::path(path).parent_path());
  return doc;
}

// The most sweep points a scenario may have: each point is a problem to build, place and
// simulate, and holds its scenario text until the run ends.
constexpr size_t kMaxPoints = 1'000'000;

void expand(Scenario& s, const std::vector<Dimension>& dims, const Yaml& sweep) {
  size_t total = 1;
  for (auto& d : dims)
    if (__builtin_mul_overflow(total, d.size(), &total) || total > kMaxPoints)
      sweep.fail(fmt::format("the sweep's axes multiply to more than {} points; split it into several scenarios",
                             kMaxPoints));
  for (size_t i = 0; i < total; ++i) {
    Point p;
    p.index = static_cast<int>(i);
    p.root = read_scenario(s.file, s.overrides).node();
    p.root.remove("sweep");
    size_t rest = i;
    std::vector<size_t> idx(dims.size());
    for (size_t k = dims.size(); k-- > 0;) {
      idx[k] = rest % dims[k].size();
      rest /= dims[k].size();
    }
    KeysSet set;
    for (size_t k = 0; k < dims.size(); ++k)
      for (const auto& a : dims[k].axes) {
        const Yaml& v = a.values[idx[k]];
        p.values.emplace_back(a.label, yaml_to_string(v.node()));
        if (a.keys.size() == 1) {
          set_path(p.root, a.keys[0], v.node(), v.loc());
        } else {
          for (size_t j = 0; j < a.keys.size(); ++j) set_path(p.root, a.keys[j], v.node()[j], v.loc());
        }
        for (const std::string& key : a.keys) set.emplace_back(key, v.loc());
      }
    check_keys_set(p.root, set);
    resolve_paths(p.root, fs::path(s.file).parent_path());  // a swept model.file or hardware too
    s.points.push_back(std::move(p));
  }
}

scheduler::WeightsMode weights_of(const Yaml& w) {
  if (!w.defined()) return scheduler::WeightsMode::Host;
  try {
    return scheduler::parse_weights(w.str());
  } catch (const InputError& e) {
    w.fail(e.detail());
  }
}

// collectives: {fidelity: flow|analytic}; flow when absent.
engine::Fidelity fidelity_of(const Yaml& c) {
  if (!c.defined()) return engine::Fidelity::Flow;
  c.allow_keys({"fidelity"});
  if (!c.has("fidelity")) return engine::Fidelity::Flow;
  const Yaml f = c.at("fidelity");
  try {
    return scheduler::parse_fidelity(f.str());
  } catch (const InputError& e) {
    f.fail(e.detail());
  }
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
  Yaml doc = read_scenario(path, overrides);
  doc.allow_keys(kScenarioKeys);
  s.root = doc;
  s.name = doc.str_or("name", fs::path(path).stem().string());
  // The name makes the default output path (results/<name>.h5): it must stay a file name there.
  if (s.name.empty() || s.name == "." || s.name == ".." || s.name.find('/') != std::string::npos ||
      s.name.find('\\') != std::string::npos)
    (doc.has("name") ? doc.at("name") : doc).fail(
        fmt::format("scenario name '{}' must be a file name (no '/', not '.' or '..'): results go to results/<name>.h5",
                    s.name));
  if (doc.has("seed") && doc.at("seed").integer() < 0)
    doc.at("seed").fail(fmt::format("seed must be a whole number >= 0, got {}", doc.at("seed").str()));
  s.seed = static_cast<std::uint64_t>(doc.integer_or("seed", 1));

  s.hardware_text = hardware_text(doc.at("hardware"));
  weights_of(doc.get("weights"));
  fidelity_of(doc.get("collectives"));
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

  const std::vector<Dimension> dims = read_sweep(doc.get("sweep"));
  for (auto& d : dims)
    for (auto& a : d.axes) s.axes.push_back(a.label);
  expand(s, dims, doc.get("sweep"));
  s.text = YAML::Dump(doc.node()) + "\n";
  return s;
}

scheduler::Problem build_problem(const Scenario& s, const Point& pt) {
  return build_problem(s, pt, build_model(Yaml(pt.root, s.file).at("model"), s.seed));
}

scheduler::Problem build_problem(const Scenario& s, const Point& pt, models::Graph graph) {
  const Yaml root(pt.root, s.file);
  scheduler::Problem p;
  p.topo = std::make_shared<const hw::Topology>(hw::load_topology(root.at("hardware")));
  p.graph = std::make_shared<const models::Graph>(std::move(graph));
  if (const std::string bad = scheduler::check_duration_devices(*p.graph, *p.topo); !bad.empty()) root.at("model").fail(bad);
  p.cost = make_cost_model(root.get("cost"), *p.topo, *p.graph);
  p.weights = weights_of(root.get("weights"));
  p.collectives = fidelity_of(root.get("collectives"));
  p.seed = s.seed;
  return p;
}

std::optional<models::Generation> point_generation(const Scenario& s, const Point& pt) {
  return build_generation(Yaml(pt.root, s.file).at("model"), s.seed);
}

}  // namespace placesim::explore
