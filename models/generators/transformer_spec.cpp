// Reads a transformer model spec from a scenario's `model:` map, every error at its key or value.
#include <climits>

#include "models/generators/transformer.hpp"

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

}  // namespace

TransformerSpec parse_transformer_spec(const Yaml& model) {
  model.allow_keys({"generator", "arch", "batch", "seq", "phase", "dtype", "granularity", "layers"});
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

}  // namespace placesim::models
