// Reads a transformer model spec from a scenario's `model:` map, every error at its key or value,
// and registers the generator with the keys it reads.
#include <climits>
#include <filesystem>
#include <fmt/format.h>

#include "models/generators/hf_config.hpp"
#include "models/generators/transformer.hpp"
#include "models/generators/transformer_moe.hpp"
#include "models/workload.hpp"

namespace placesim::models {

namespace {

int positive_int(const Yaml& y) {
  const auto v = y.integer();
  if (v < 1 || v > INT_MAX) y.fail("expected a positive integer, got '" + y.str() + "'");
  return static_cast<int>(v);
}

template <class E, size_t K>
E choice(const Yaml& y, const char* what, const std::pair<const char*, E> (&options)[K]) {
  const std::string s = y.str();
  std::string known;
  for (const auto& [name, value] : options) {
    if (s == name) return value;
    known += (known.empty() ? "" : ", ") + std::string(name);
  }
  y.fail("unknown " + std::string(what) + " '" + s + "' (expected " + known + ")");
}

// Runs `f` and relocates its location-less InputError to `y`.
template <class F>
auto at(const Yaml& y, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const InputError& e) {
    if (!e.loc().file.empty()) throw;
    y.fail(e.detail());
  }
}

// The keys parse_transformer_spec reads; the defaults are TransformerSpec's.
const std::vector<OptionSpec>& transformer_options() {
  static const std::vector<OptionSpec> options = [] {
    const TransformerSpec d;
    return std::vector<OptionSpec>{
        {"arch", "", "architecture (placesim list models), unless config gives one"},
        {"config", "none",
         "a Hugging Face config.json instead of arch (model_type llama, mistral, mixtral, qwen2, qwen2_moe, gpt2 or "
         "opt), relative to the scenario's folder"},
        {"batch", fmt::format("{}", d.batch), "sequences per batch"},
        {"seq", fmt::format("{}", d.seq),
         "prefill: tokens per sequence; decode: tokens in the KV cache; generate: prompt tokens"},
        {"phase", to_string(d.phase),
         "prefill | decode (one new token per sequence) | generate (a prefill, then decode steps up to output tokens)"},
        {"output", "none",
         "phase generate only, and required there: tokens generated, 1 by the prefill and 1 per decode step"},
        {"kv_stride", fmt::format("{}", d.kv_stride),
         "phase generate only: simulate one decode step in s, counted s times; the last always (1: exact)"},
        {"dtype", to_string(d.dtype), "weight dtype; activations in the compute dtype (fp16 for int8/int4)"},
        {"granularity", to_string(d.granularity), "op: one node per op; layer: one node per layer"},
        {"layers", fmt::format("{}", d.layers), "keep the first N layers (0: all of the architecture's)"},
        {"experts", "{load: sampled}",
         "mixture-of-experts archs only: {load: sampled (each token's top_k experts drawn from the scenario's seed) | "
         "[tokens per expert] for every layer | [[...], ...] one list per layer, top_k: experts per token (the "
         "arch's)}"}};
  }();
  return options;
}

// output (required) and kv_stride, which only phase generate takes.
void parse_generation_keys(const Yaml& model, const TransformerArch& arch, TransformerSpec& spec) {
  if (spec.phase != Phase::Generate) {
    for (const char* key : {"output", "kv_stride"})
      if (model.has(key))
        model.at(key).fail(fmt::format("{} applies to phase generate only (phase is {})", key, to_string(spec.phase)));
    return;
  }
  const Yaml output = model.at("output");
  spec.output = positive_int(output);
  if (model.has("kv_stride")) spec.kv_stride = positive_int(model.at("kv_stride"));
  const long last_kv = static_cast<long>(spec.seq) + spec.output - 1;
  if (arch.positions > 0 && last_kv > arch.positions)
    output.fail(fmt::format("seq {} + output {} needs {} positions; {} has {}", spec.seq, spec.output, last_kv, arch.name,
                            arch.positions));
}

// One layer's tokens per expert, each count at its item, the list's sum and length at the list.
std::vector<long> expert_load_list(const Yaml& list, const TransformerArch& arch, const TransformerSpec& spec) {
  if (!list.is_seq()) list.fail("expected a list of tokens per expert");
  std::vector<long> load;
  for (const Yaml& n : list.items()) {
    const auto v = n.integer();
    if (v < 0) n.fail("expected a load >= 0, got '" + n.str() + "'");
    load.push_back(static_cast<long>(v));
  }
  at(list, [&] { check_expert_load(load, arch.moe.experts, top_k_of(arch, spec), step_tokens(spec)); });
  return load;
}

// experts: {load: sampled | [n, ...] | [[n, ...], ...], top_k: k}, read after the keys that
// set the tokens (batch, seq, phase) and the layers.
void parse_expert_keys(const Yaml& model, const TransformerArch& arch, TransformerSpec& spec) {
  if (!model.has("experts")) return;
  const Yaml x = model.at("experts");
  if (!is_moe(arch)) x.fail(fmt::format("experts applies to mixture-of-experts archs only ({} is dense)", arch.name));
  if (!x.is_map()) x.fail("expected experts: {load: sampled | [n, ...] | [[n, ...], ...], top_k: k}");
  x.allow_keys({"load", "top_k"});
  if (x.has("top_k")) {
    const Yaml k = x.at("top_k");
    spec.top_k = positive_int(k);
    if (spec.top_k > arch.moe.experts)
      k.fail(fmt::format("top_k {} exceeds {}'s {} experts", spec.top_k, arch.name, arch.moe.experts));
  }
  if (!x.has("load")) return;
  const Yaml load = x.at("load");
  if (load.is_scalar() && load.str() == "sampled") return;
  if (!load.is_seq())
    load.fail("expected load: sampled, a list of tokens per expert, or one such list per layer; got '" + load.str() + "'");
  if (spec.phase == Phase::Generate)
    load.fail("a given load is one step's tokens; phase generate samples each step's (load: sampled)");
  const std::vector<Yaml> items = load.items();
  if (items.empty() || !items[0].is_seq()) {
    spec.expert_load.push_back(expert_load_list(load, arch, spec));
    return;
  }
  const int layers = spec.layers == 0 ? arch.layers : spec.layers;
  if (static_cast<int>(items.size()) != layers)
    load.fail(fmt::format("expected one load list per layer ({}), got {}", layers, items.size()));
  for (const Yaml& list : items) spec.expert_load.push_back(expert_load_list(list, arch, spec));
}

}  // namespace

TransformerSpec parse_transformer_spec(const Yaml& model, std::uint64_t seed) {
  allow_workload_keys(model, transformer_options());
  if (model.has("generator") && model.at("generator").str() != "transformer")
    model.at("generator").fail("expected generator 'transformer', got '" + model.at("generator").str() + "'");
  TransformerSpec spec;
  if (!model.has("arch") && !model.has("config"))
    model.fail("missing key 'arch' (a built-in architecture) or 'config' (a Hugging Face config.json)");
  if (model.has("arch") && model.has("config")) model.at("config").fail("give arch or config, not both");
  if (model.has("config")) {
    const Yaml config = model.at("config");
    std::error_code ec;
    if (!std::filesystem::is_regular_file(config.str(), ec)) config.fail(fmt::format("no config file '{}'", config.str()));
    spec.config = at(config, [&] { return arch_from_hf_config(config.str()); });
  }
  const TransformerArch& arch =
      spec.config ? *spec.config
                  : at(model.at("arch"), [&]() -> const TransformerArch& { return find_transformer_arch(model.at("arch").str()); });
  spec.arch = arch.name;
  if (model.has("batch")) spec.batch = positive_int(model.at("batch"));
  if (model.has("seq")) {
    const Yaml seq = model.at("seq");
    spec.seq = positive_int(seq);
    if (arch.positions > 0 && spec.seq > arch.positions)
      seq.fail("seq " + std::to_string(spec.seq) + " exceeds " + arch.name + "'s " +
               std::to_string(arch.positions) + " positions");
  }
  if (model.has("phase"))
    spec.phase = choice<Phase>(model.at("phase"), "phase",
                               {{"prefill", Phase::Prefill}, {"decode", Phase::Decode}, {"generate", Phase::Generate}});
  parse_generation_keys(model, arch, spec);
  if (model.has("dtype")) {
    const Yaml d = model.at("dtype");
    spec.dtype = at(d, [&] { return parse_dtype(d.str()); });
  }
  if (model.has("granularity"))
    spec.granularity = choice<Granularity>(model.at("granularity"), "granularity",
                                           {{"op", Granularity::Op}, {"layer", Granularity::Layer}});
  if (model.has("layers")) {
    const Yaml l = model.at("layers");
    const auto v = l.integer();
    if (v < 0 || v > arch.layers)
      l.fail("expected layers between 0 (all) and " + std::to_string(arch.layers) + " for " + arch.name);
    spec.layers = static_cast<int>(v);
  }
  spec.seed = seed;
  parse_expert_keys(model, arch, spec);
  return spec;
}

void register_transformer(Registry<WorkloadEntry>& r) {
  WorkloadEntry e{"transformer decoder, dense (GPT-2, GPT-3, MT-NLG, OpenLLaMA, LLaMA-2, Qwen2) or mixture of "
                  "experts (Mixtral, Qwen2-MoE, Phi-3.5-MoE), prefill, decode or a whole generation, per op or per layer",
                  transformer_options(), [](const Yaml& model, std::uint64_t seed) {
                    const TransformerSpec spec = parse_transformer_spec(model, seed);
                    if (spec.phase == Phase::Generate)
                      model.at("phase").fail(
                          "phase generate is a whole generation (a prefill, then decode steps): placesim run "
                          "simulates it; this command takes one step (phase prefill or decode)");
                    return generate_transformer(spec);
                  }};
  e.generation = [](const Yaml& model, std::uint64_t seed) -> std::optional<Generation> {
    const TransformerSpec spec = parse_transformer_spec(model, seed);
    if (spec.phase != Phase::Generate) return std::nullopt;
    return transformer_generation(spec);
  };
  r.add("transformer", std::move(e));
}

}  // namespace placesim::models
