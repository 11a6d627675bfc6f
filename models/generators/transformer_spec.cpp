// Reads a transformer model spec from a scenario's `model:` map, every error at its key or value,
// and registers the generator with the keys it reads.
#include <climits>
#include <fmt/format.h>

#include "models/generators/transformer.hpp"
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
        {"arch", "", "architecture (placesim list models)"},
        {"batch", fmt::format("{}", d.batch), "sequences per batch"},
        {"seq", fmt::format("{}", d.seq), "prefill: tokens per sequence; decode: tokens in the KV cache"},
        {"phase", to_string(d.phase), "prefill | decode (one new token per sequence)"},
        {"dtype", to_string(d.dtype), "weight dtype; activations in the compute dtype (fp16 for int8/int4)"},
        {"granularity", to_string(d.granularity), "op: one node per op; layer: one node per layer"},
        {"layers", fmt::format("{}", d.layers), "keep the first N layers (0: all of the architecture's)"}};
  }();
  return options;
}

}  // namespace

TransformerSpec parse_transformer_spec(const Yaml& model) {
  allow_workload_keys(model, transformer_options());
  if (model.has("generator") && model.at("generator").str() != "transformer")
    model.at("generator").fail("expected generator 'transformer', got '" + model.at("generator").str() + "'");
  TransformerSpec spec;
  const Yaml arch_y = model.at("arch");
  const TransformerArch& arch = at(arch_y, [&]() -> const TransformerArch& { return find_transformer_arch(arch_y.str()); });
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
    spec.phase = choice<Phase>(model.at("phase"), "phase", {{"prefill", Phase::Prefill}, {"decode", Phase::Decode}});
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
  return spec;
}

void register_transformer(Registry<WorkloadEntry>& r) {
  r.add("transformer", {"dense transformer decoder (GPT-2, OpenLLaMA, LLaMA-2), prefill or decode, per op or per layer",
                        transformer_options(),
                        [](const Yaml& model) { return generate_transformer(parse_transformer_spec(model)); }});
}

}  // namespace placesim::models
