// placesim list placers|presets|models|workloads|cost-models|collectives: what is built in, with
// one-line descriptions and, for registered models, the options each takes.
#include <cstdio>
#include <fmt/format.h>

#include "hw/topology_yaml.hpp"
#include "models/cost/cost_models.hpp"
#include "models/generators/transformer.hpp"
#include "models/workload.hpp"
#include "scheduler/placer.hpp"
#include "app/cli/command.hpp"
#include "sim/core/error.hpp"
#include "sim/engine/collectives/algorithm.hpp"

namespace placesim::cli {

namespace {

using Json = nlohmann::ordered_json;

// An entry's option lines under it (text) and its "options" array (JSON); a required option has
// no default (null).
Json list_options(const std::vector<OptionSpec>& options, std::string& text) {
  Json j = Json::array();
  for (const OptionSpec& o : options) {
    const bool required = o.default_value.empty();
    j.push_back({{"name", o.name}, {"default", required ? Json(nullptr) : Json(o.default_value)}, {"help", o.help}});
    text += fmt::format("{:<18}{}: {} ({})\n", "", o.name, o.help, required ? "required" : "default " + o.default_value);
  }
  return j;
}

// Workloads and cost models: each entry's name, description and options.
template <class Entry>
void list_registry(const Registry<Entry>& r, std::string& text, Json& j) {
  for (auto& [name, e] : r.all()) {
    text += fmt::format("{:<16} {}\n", name, e.description);
    Json options = list_options(e.options, text);
    j.push_back({{"name", name}, {"description", e.description}, {"options", options}});
  }
}

void list_placers(std::string& text, Json& j) {
  for (auto& [name, e] : scheduler::placers().all()) {
    const bool bound = e.kind == scheduler::PlacerKind::Bound;
    text += fmt::format("{:<16} {}{}\n", name, bound ? "[bound] " : "", e.description);
    const scheduler::PlacerFacts& facts = e.facts;
    const std::vector<std::string> needs = scheduler::describe(facts.needs);
    std::string needs_text;
    for (const std::string& n : needs) needs_text += (needs_text.empty() ? "" : "; ") + n;
    if (!needs.empty()) text += fmt::format("{:<18}needs: {}\n", "", needs_text);
    if (!facts.unbounded_why.empty())
      text += fmt::format("{:<18}not bounded by critical-path: {}\n", "", facts.unbounded_why);
    if (facts.generation != scheduler::GenerationWeights::LoadedOnce)
      text += fmt::format("{:<18}weights in a generation: {}\n", "", scheduler::to_string(facts.generation));
    Json options = list_options(e.options, text);
    j.push_back({{"name", name}, {"description", e.description}, {"bound", bound}, {"needs", needs},
                 {"bounded_by", facts.bounded_by}, {"generation_weights", scheduler::to_string(facts.generation)},
                 {"options", options}});
  }
}

void list_presets(std::string& text, Json& j) {
  for (const hw::PresetInfo& p : hw::list_presets()) {
    text += fmt::format("{:<23} {}\n", p.name, p.description);
    j.push_back({{"name", p.name}, {"description", p.description}});
  }
}

// The transformer generator's architectures (its `arch` key).
void list_models(std::string& text, Json& j) {
  for (const models::TransformerArch& m : models::transformer_archs()) {
    const std::string experts =
        models::is_moe(m) ? fmt::format(" x {} experts (top {})", m.moe.experts, m.moe.top_k) : "";
    text += fmt::format("transformer {:<14} {} layers, hidden {}, {} heads ({} kv), ffn {}{}: {}\n", m.name, m.layers,
                        m.hidden, m.heads, m.kv_heads, m.ffn, experts, m.description);
    j.push_back({{"generator", "transformer"}, {"arch", m.name}, {"layers", m.layers}, {"hidden", m.hidden},
                 {"heads", m.heads}, {"kv_heads", m.kv_heads}, {"ffn", m.ffn}, {"vocab", m.vocab},
                 {"experts", m.moe.experts}, {"top_k", m.moe.top_k}, {"shared_ffn", m.moe.shared_ffn},
                 {"description", m.description}});
  }
}

void list_collectives(std::string& text, Json& j) {
  for (auto& [name, e] : engine::collective_algorithms().all()) {
    Json ops = Json::array();
    std::string op_text;
    for (engine::CollectiveOp op : e.ops) {
      ops.push_back(engine::to_string(op));
      op_text += (op_text.empty() ? "" : ", ") + std::string(engine::to_string(op));
    }
    text += fmt::format("{:<14} {} [{}]\n", name, e.description, op_text);
    j.push_back({{"name", name}, {"description", e.description}, {"operations", ops}});
  }
}

struct Listing {
  const char* name;
  void (*fill)(std::string& text, Json& j);
};
const Listing kListings[] = {
    {"placers", list_placers},
    {"presets", list_presets},
    {"models", list_models},
    {"workloads", [](std::string& text, Json& j) { list_registry(models::workloads(), text, j); }},
    {"cost-models", [](std::string& text, Json& j) { list_registry(models::cost_models(), text, j); }},
    {"collectives", list_collectives},
};

}  // namespace

int cmd_list(const std::vector<std::string>& args) {
  std::string names;
  for (const Listing& l : kListings) names += (names.empty() ? "" : ", ") + std::string(l.name);
  po::options_description opts("options");
  opts.add_options()("what", po::value<std::string>()->required(), ("one of: " + names).c_str())(
      "name", po::value<std::string>(), "with presets: print that preset's hardware file (a start for your own)");
  Parsed a;
  if (!parse_args(command_named("list"), args, opts, {"what", "name"}, a)) return 0;
  const std::string what = a.vm["what"].as<std::string>();
  if (a.vm.count("name")) {
    const std::string name = a.vm["name"].as<std::string>();
    if (what != "presets")
      throw InputError(SourceLoc{"placesim list"}, fmt::format("only presets take a name (list presets NAME), not {}", what));
    if (!hw::is_preset(name)) {
      std::string known;
      for (const hw::PresetInfo& p : hw::list_presets()) known += (known.empty() ? "" : ", ") + p.name;
      throw InputError(SourceLoc{"placesim list presets"}, fmt::format("unknown preset '{}' (known: {})", name, known));
    }
    if (a.json) {
      print_json({{"name", name}, {"text", hw::preset_text(name)}});
    } else {
      std::fputs(hw::preset_text(name).c_str(), stdout);
    }
    return 0;
  }
  for (const Listing& l : kListings) {
    if (what != l.name) continue;
    Json j = Json::array();
    std::string text;
    l.fill(text, j);
    if (a.json) {
      print_json(j);
    } else {
      std::fputs(text.c_str(), stdout);
    }
    return 0;
  }
  throw InputError(SourceLoc{"placesim list"}, fmt::format("unknown list '{}' (expected one of: {})", what, names));
}

}  // namespace placesim::cli
