// Builds the unfolded LSTM graph, reads its spec and registers the generator; the formulas are in
// lstm.hpp.
#include "models/generators/lstm.hpp"

#include <climits>
#include <fmt/format.h>

#include "models/workload.hpp"

namespace placesim::models {

double lstm_cell_flops(double batch, double input, double hidden) {
  return 8 * batch * hidden * (input + hidden) + 21 * batch * hidden;
}

double lstm_layer_params(double input, double hidden) { return 4 * hidden * (input + hidden) + 8 * hidden; }

namespace {

int positive_int(const Yaml& y) {
  const auto v = y.integer();
  if (v < 1 || v > INT_MAX) y.fail("expected a positive integer, got '" + y.str() + "'");
  return static_cast<int>(v);
}

int hidden_of(const LstmSpec& s) { return s.hidden > 0 ? s.hidden : s.io; }

// The keys parse_lstm_spec reads; the defaults are LstmSpec's.
const std::vector<OptionSpec>& lstm_options() {
  static const std::vector<OptionSpec> options = [] {
    const LstmSpec d;
    return std::vector<OptionSpec>{{"layers", fmt::format("{}", d.layers), "stacked LSTM layers"},
                                   {"seq", fmt::format("{}", d.seq), "time steps"},
                                   {"batch", fmt::format("{}", d.batch), "sequences per batch"},
                                   {"io", fmt::format("{}", d.io), "input feature size (Chrion's io size)"},
                                   {"hidden", fmt::format("{}", d.hidden), "hidden size (0: io)"},
                                   {"dtype", to_string(d.dtype), "weight dtype"}};
  }();
  return options;
}

}  // namespace

LstmSpec parse_lstm_spec(const Yaml& model) {
  allow_workload_keys(model, lstm_options());
  if (model.has("generator") && model.at("generator").str() != "lstm")
    model.at("generator").fail("expected generator 'lstm', got '" + model.at("generator").str() + "'");
  LstmSpec spec;
  if (model.has("layers")) spec.layers = positive_int(model.at("layers"));
  if (model.has("seq")) spec.seq = positive_int(model.at("seq"));
  if (model.has("batch")) spec.batch = positive_int(model.at("batch"));
  if (model.has("io")) spec.io = positive_int(model.at("io"));
  if (model.has("hidden")) spec.hidden = positive_int(model.at("hidden"));
  if (model.has("dtype")) {
    const Yaml d = model.at("dtype");
    try {
      spec.dtype = parse_dtype(d.str());
    } catch (const InputError& e) {
      d.fail(e.detail());
    }
  }
  return spec;
}

Graph generate_lstm(const LstmSpec& spec) {
  if (spec.layers < 1 || spec.seq < 1 || spec.batch < 1 || spec.io < 1 || spec.hidden < 0)
    throw InputError(fmt::format("lstm: layers, seq, batch and io must be positive, hidden >= 0 (got {}, {}, {}, {}, {})",
                                 spec.layers, spec.seq, spec.batch, spec.io, spec.hidden));
  const double B = spec.batch, H = hidden_of(spec);
  const double w = bytes_per_element(spec.dtype);
  const double a = bytes_per_element(activation_dtype(spec.dtype));

  Graph g;
  g.name = fmt::format("lstm-{}l-s{}-b{}-io{}-h{}-{}", spec.layers, spec.seq, spec.batch, spec.io, hidden_of(spec),
                       to_string(spec.dtype));
  g.dtype = spec.dtype;
  std::vector<int> below(spec.seq, -1);  // cell (l-1, t) while building layer l
  for (int l = 0; l < spec.layers; ++l) {
    const double I = l == 0 ? spec.io : H;
    Node p;
    p.name = fmt::format("l{}.w", l);
    p.kind = NodeKind::Param;
    p.type = "param";
    p.param_bytes = w * lstm_layer_params(I, H);
    p.layer = l;
    const int param = g.add_node(std::move(p));
    int prev = -1;
    for (int t = 0; t < spec.seq; ++t) {
      Node c;
      c.name = fmt::format("l{}.t{}", l, t);
      c.type = "lstm_cell";
      c.layer = l;
      c.flops = lstm_cell_flops(B, I, H);
      c.bytes = w * lstm_layer_params(I, H) + a * (B * I + 2 * B * H) + a * 2 * B * H;
      c.output_bytes = a * 2 * B * H;
      c.shape = LstmShape{.batch = B, .input = I, .hidden = H};
      const int v = g.add_node(std::move(c));
      g.add_edge(param, v, g.nodes[param].param_bytes);
      if (below[t] >= 0) g.add_edge(below[t], v, a * B * H);
      if (prev >= 0) g.add_edge(prev, v, a * 2 * B * H);
      below[t] = prev = v;
    }
  }
  g.validate();
  return g;
}

void register_lstm(Registry<WorkloadEntry>& r) {
  r.add("lstm", {"unfolded LSTM: layers x seq cells, one op each (Chrion)", lstm_options(),
                 [](const Yaml& model, std::uint64_t) { return generate_lstm(parse_lstm_spec(model)); }});
}

}  // namespace placesim::models
