// placesim list placers|presets|models|collectives: what is built in, with one-line descriptions.
#include <cstdio>
#include <fmt/format.h>

#include "hw/topology_yaml.hpp"
#include "models/generators/transformer.hpp"
#include "scheduler/placer.hpp"
#include "sim/cli/command.hpp"
#include "sim/core/error.hpp"
#include "sim/engine/collectives/algorithm.hpp"

namespace placesim::cli {

int cmd_list(const std::vector<std::string>& args) {
  po::options_description opts("options");
  opts.add_options()("what", po::value<std::string>()->required(), "placers, presets, models or collectives");
  Parsed a;
  if (!parse_args(commands()[4], args, opts, {"what"}, a)) return 0;
  const std::string what = a.vm["what"].as<std::string>();
  nlohmann::ordered_json j = nlohmann::ordered_json::array();
  std::string text;
  if (what == "placers") {
    for (auto& [name, e] : scheduler::placers().all()) {
      nlohmann::ordered_json options = nlohmann::ordered_json::array();
      text += fmt::format("{:<16} {}{}\n", name, e.kind == scheduler::PlacerKind::Bound ? "[bound] " : "", e.description);
      for (const OptionSpec& o : e.options) {
        options.push_back({{"name", o.name}, {"default", o.default_value}, {"help", o.help}});
        text += fmt::format("{:<18}{}: {} (default {})\n", "", o.name, o.help, o.default_value);
      }
      j.push_back({{"name", name}, {"description", e.description}, {"bound", e.kind == scheduler::PlacerKind::Bound}, {"options", options}});
    }
  } else if (what == "presets") {
    for (const hw::PresetInfo& p : hw::list_presets()) {
      text += fmt::format("{:<23} {}\n", p.name, p.description);
      j.push_back({{"name", p.name}, {"description", p.description}});
    }
  } else if (what == "models") {
    for (const models::TransformerArch& m : models::transformer_archs()) {
      text += fmt::format("transformer {:<14} {} layers, hidden {}, {} heads ({} kv), ffn {}: {}\n", m.name, m.layers,
                          m.hidden, m.heads, m.kv_heads, m.ffn, m.description);
      j.push_back({{"generator", "transformer"}, {"arch", m.name}, {"layers", m.layers}, {"hidden", m.hidden},
                   {"heads", m.heads}, {"kv_heads", m.kv_heads}, {"ffn", m.ffn}, {"vocab", m.vocab},
                   {"description", m.description}});
    }
    // The other generators take their sizes from the scenario; their headers document the keys.
    const std::pair<const char*, const char*> others[] = {
        {"lstm", "unfolded LSTM, layers x seq cells (models/generators/lstm.hpp)"},
        {"random-dag", "seeded random layered DAG (models/generators/random_dag.hpp)"},
        {"file", "{file: graph.json} (models/graph_json.hpp) or {file: model.onnx, dims: {...}} (models/onnx)"}};
    for (auto& [name, what_it_is] : others) {
      text += fmt::format("{:<26} {}\n", name, what_it_is);
      j.push_back({{"generator", name}, {"description", what_it_is}});
    }
  } else if (what == "collectives") {
    for (auto& [name, e] : engine::collective_algorithms().all()) {
      nlohmann::ordered_json ops = nlohmann::ordered_json::array();
      std::string op_text;
      for (engine::CollectiveOp op : e.ops) {
        ops.push_back(engine::to_string(op));
        op_text += (op_text.empty() ? "" : ", ") + std::string(engine::to_string(op));
      }
      text += fmt::format("{:<14} {} [{}]\n", name, e.description, op_text);
      j.push_back({{"name", name}, {"description", e.description}, {"operations", ops}});
    }
  } else {
    throw InputError(SourceLoc{"placesim list"},
                     fmt::format("unknown list '{}' (expected placers, presets, models or collectives)", what));
  }
  if (a.json) {
    print_json(j);
  } else {
    std::fputs(text.c_str(), stdout);
  }
  return 0;
}

}  // namespace placesim::cli
