#include "scheduler/placer.hpp"

#include <fmt/format.h>

#include "scheduler/placers/builtin.hpp"

namespace placesim::scheduler {

PlacerOptions::PlacerOptions(const std::vector<OptionSpec>& specs, const Yaml& given) {
  for (const OptionSpec& s : specs)
    values_[s.name] = Yaml::load_string(s.default_value, "default of option '" + s.name + "'");
  if (!given.defined()) return;
  for (auto& [key, value] : given.entries()) {
    if (key == "name") continue;
    if (!values_.count(key)) {
      std::string known;
      for (const OptionSpec& s : specs) known += (known.empty() ? "" : ", ") + s.name;
      value.fail(fmt::format("unknown option '{}' (options: {})", key, known.empty() ? "none" : known));
    }
    values_[key] = value;
  }
}

Yaml PlacerOptions::get(const std::string& name) const {
  auto it = values_.find(name);
  PLACESIM_ASSERT(it != values_.end(), "placer read an undeclared option " + name);
  return it->second;
}

Registry<PlacerEntry>& placers() {
  static Registry<PlacerEntry> registry = [] {
    Registry<PlacerEntry> r("placer");
    register_builtin_placers(r);
    return r;
  }();
  return registry;
}

std::string placer_label(const Yaml& spec) {
  if (!spec.is_map()) return spec.str();
  std::string args;
  for (auto& [k, v] : spec.entries())
    if (k != "name") args += (args.empty() ? "" : ",") + k + "=" + yaml_to_string(v.node());
  const std::string name = spec.at("name").str();
  return args.empty() ? name : name + "{" + args + "}";
}

PlacerSpec make_placer(const Yaml& spec) {
  PlacerSpec out;
  Yaml options;
  if (spec.is_map()) {
    out.name = spec.at("name").str();
    options = spec;
  } else {
    out.name = spec.str();
  }
  const PlacerEntry& e = placers().get(out.name, spec.loc());
  PlacerOptions opts(e.options, options);
  out.label = placer_label(spec);
  out.placer = e.make(opts);
  out.kind = e.kind;
  out.where = spec.loc();
  return out;
}

InputError located(const PlacerSpec& placer, const InputError& e) {
  return e.loc().file.empty() && e.loc().line == 0 ? InputError(placer.where, e.detail()) : e;
}

std::vector<int> default_devices(const hw::Topology& topo) {
  std::vector<int> gpus = topo.gpus();
  return gpus.empty() ? topo.compute_devices() : gpus;
}

}  // namespace placesim::scheduler
