#include "app/explore/placer_needs.hpp"

#include <fmt/format.h>
#include <map>
#include <optional>

#include "hw/topology_yaml.hpp"
#include "models/generators/transformer.hpp"

namespace placesim::explore {
namespace {

// " at point 3 (model.arch=gpt2-xl)" for a swept scenario; "" for a single point.
std::string at_point(const Scenario& s, const Point& p) {
  if (s.points.size() == 1) return "";
  std::string values;
  for (auto& [axis, value] : p.values) values += (values.empty() ? "" : ", ") + axis + "=" + value;
  return fmt::format(" at point {} ({})", p.index, values);
}

// "s.yaml:4:10", or "the default" for a key the point does not give.
std::string where_given(const Yaml& v) { return v.defined() ? v.loc().str() : "the default"; }

// A placer that needs a transformer at op granularity (and a dense one, when it says so) given
// another model. A graph file may hold a transformer's ops (plan --graph-out) and a `config:`
// model may hold experts: the placer checks those itself.
void check_transformer(const Scenario& s, const Point& p, const scheduler::PlacerSpec& placer,
                       const scheduler::PlacerNeeds& needs, const Yaml& model, const Yaml& where) {
  const Yaml generator = model.is_map() ? model.get("generator") : Yaml();
  const Yaml granularity = model.is_map() ? model.get("granularity") : Yaml();
  const bool other = generator.defined() && generator.str() != "transformer";
  if (other || (granularity.defined() && granularity.str() == "layer"))
    throw InputError(where.loc(),
                     fmt::format("placer '{}' needs a transformer model at op granularity, but the model is {}{} ({})",
                                 placer.name, other ? "generator " + generator.str() : "granularity layer",
                                 at_point(s, p), (other ? generator : granularity).loc().str()));
  const Yaml arch = model.is_map() && !model.has("config") ? model.get("arch") : Yaml();
  if (!needs.dense || !arch.defined()) return;
  for (const models::TransformerArch& a : models::transformer_archs())
    if (a.name == arch.str() && models::is_moe(a))
      throw InputError(where.loc(), fmt::format("placer '{}' needs a dense transformer, but arch {} has {} experts{} ({})",
                                                placer.name, a.name, a.moe.experts, at_point(s, p), arch.loc().str()));
}

}  // namespace

void check_placer_needs(const Scenario& s, const scheduler::PlacerSpec& placer, const Yaml& where) {
  const scheduler::PlacerNeeds& needs = scheduler::placers().get(placer.name).facts.needs;
  for (const Point& p : s.points) {
    const Yaml root = point_yaml(s, p);
    if (needs.resident_weights) {
      const Yaml w = root.get("weights");
      if (!w.defined() || scheduler::parse_weights(w.str()) != scheduler::WeightsMode::Resident)
        throw InputError(where.loc(),
                         fmt::format("placer '{}' needs weights: resident (it models no parameter copies), but "
                                     "weights is {}{} ({})",
                                     placer.name, w.defined() ? w.str() : "host", at_point(s, p), where_given(w)));
    }
    if (needs.gpu || needs.cpu) {
      const Yaml hw_spec = root.at("hardware");
      const std::shared_ptr<const hw::Topology> topo = s.topologies->get(hw_spec);  // the one the run builds on
      int gpus = 0, cpus = 0;
      for (const hw::Device& d : topo->devices) {
        gpus += d.kind == hw::DeviceKind::Gpu;
        cpus += d.kind == hw::DeviceKind::Cpu;
      }
      const char* lacks = needs.gpu && gpus == 0 ? "GPU" : needs.cpu && cpus == 0 ? "CPU" : nullptr;
      if (lacks)
        throw InputError(where.loc(), fmt::format("placer '{}' needs {}, but hardware '{}'{} ({}) has no {}",
                                                  placer.name, scheduler::describe(needs).front(), topo->name,
                                                  at_point(s, p), hw_spec.loc().str(), lacks));
    }
    if (needs.transformer) check_transformer(s, p, placer, needs, root.at("model"), where);
  }
}

void check_placer_options(const Scenario& s) {
  for (const Point& p : s.points) {
    const std::optional<models::Generation> gen = point_generation(s, p);
    const scheduler::Problem problem = gen ? build_problem(s, p, gen->prefill) : build_problem(s, p);
    for (const scheduler::PlacerSpec& placer : s.placers) {
      try {
        placer.placer->check(problem);
      } catch (const InputError& e) {
        const InputError at = scheduler::located(placer, e);
        throw InputError(at.loc(), at.detail() + at_point(s, p));
      }
    }
  }
}

}  // namespace placesim::explore
