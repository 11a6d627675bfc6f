// Graph files: reading (defaults, units, durations, fixed edge times), the lossless round trip,
// and each kind of bad input reported at its file:line:column.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "models/generators/lstm.hpp"
#include "models/generators/transformer.hpp"
#include "models/graph_json.hpp"

namespace placesim::models {
namespace {

Graph parse(const std::string& text) { return parse_graph(Json::load_string(text, "g.json")); }

std::string error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// Field-by-field equality (locations aside, which name where a node was read).
void expect_same(const Graph& a, const Graph& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.dtype, b.dtype);
  ASSERT_EQ(a.nodes.size(), b.nodes.size());
  for (size_t i = 0; i < a.nodes.size(); ++i) {
    const Node &x = a.nodes[i], &y = b.nodes[i];
    SCOPED_TRACE(x.name);
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.kind, y.kind);
    EXPECT_EQ(x.type, y.type);
    EXPECT_EQ(x.flops, y.flops);
    EXPECT_EQ(x.bytes, y.bytes);
    EXPECT_EQ(x.output_bytes, y.output_bytes);
    EXPECT_EQ(x.param_bytes, y.param_bytes);
    EXPECT_EQ(x.state_bytes, y.state_bytes);
    EXPECT_EQ(x.layer, y.layer);
    EXPECT_EQ(x.durations, y.durations);
    EXPECT_EQ(x.shape, y.shape);
  }
  ASSERT_EQ(a.edges.size(), b.edges.size());
  for (size_t i = 0; i < a.edges.size(); ++i) {
    EXPECT_EQ(a.edges[i].src, b.edges[i].src);
    EXPECT_EQ(a.edges[i].dst, b.edges[i].dst);
    EXPECT_EQ(a.edges[i].bytes, b.edges[i].bytes);
    EXPECT_EQ(a.edges[i].time_s, b.edges[i].time_s);
  }
}

TEST(GraphJson, ReadsTheDocumentedFormat) {
  const Graph g = parse(R"({"name": "g", "dtype": "bf16",
    "nodes": [{"name": "a", "type": "matmul", "flops": 1e9, "bytes": "4MB", "output_bytes": 2e6},
              {"name": "w", "param_bytes": "1MiB"},
              {"name": "b", "durations": {"gpu0": 0.002, "cpu0": "10ms"}, "layer": 3}],
    "edges": [{"src": "w", "dst": "a"}, {"src": "a", "dst": "b"},
              {"src": "a", "dst": "b", "bytes": 5}, {"src": "a", "dst": "b", "time": "1ms"}]})");
  EXPECT_EQ(g.dtype, DType::BF16);
  EXPECT_EQ(g.nodes[0].bytes, 4e6);
  EXPECT_EQ(g.nodes[1].kind, NodeKind::Param);
  EXPECT_EQ(g.nodes[1].type, "param");
  EXPECT_EQ(g.nodes[2].type, "op");
  EXPECT_EQ(g.nodes[2].layer, 3);
  EXPECT_EQ(g.nodes[2].durations.at("cpu0"), 0.01);
  EXPECT_EQ(g.edges[0].bytes, 1048576.0);  // a parameter's edge: its size
  EXPECT_EQ(g.edges[1].bytes, 2e6);        // an op's edge: its output
  EXPECT_EQ(g.edges[2].bytes, 5.0);
  EXPECT_EQ(g.edges[3].time_s, 0.001);
  EXPECT_EQ(g.nodes[2].loc.line, 4);
  EXPECT_EQ(g.nodes[2].loc.column, 15);
}

// Edge ends met in no order of the nodes' are each asked for ahead (Graph::Lookahead): what is
// read is what the names say, and a missing end is still an error at its edge.
TEST(GraphJson, EdgesInAnyOrderFindTheirEnds) {
  constexpr int kNodes = 60, kEdges = 180, kBad = 99;
  std::vector<std::pair<int, int>> ends;
  for (int k = 0; k < kEdges; ++k) {
    const int src = k % (kNodes - 1);
    ends.emplace_back(src, src + 1 + (k * 37) % (kNodes - 1 - src));  // src < dst: no cycle
  }
  // Edge k on line k + 1; with `bad`, edge kBad's end is a name no node has.
  auto text = [&](bool bad) {
    std::string t = R"({"nodes": [)";
    for (int i = 0; i < kNodes; ++i) t += fmt::format(R"({}{{"name": "op{}.x"}})", i ? ", " : "", i);
    t += R"(], "edges": [)";
    for (int k = 0; k < kEdges; ++k) {
      const std::string dst = bad && k == kBad ? "nosuch" : fmt::format("op{}.x", ends[k].second);
      t += fmt::format(R"({}{{"src": "op{}.x", "dst": "{}"}})", k ? ",\n" : "", ends[k].first, dst);
    }
    return t + "]}";
  };
  const Graph g = parse(text(false));
  ASSERT_EQ(g.edges.size(), ends.size());
  for (std::size_t k = 0; k < ends.size(); ++k) {
    EXPECT_EQ(g.edges[k].src, ends[k].first) << k;
    EXPECT_EQ(g.edges[k].dst, ends[k].second) << k;
  }
  const std::string column = std::to_string(fmt::format(R"({{"src": "op{}.x", "dst": )", ends[kBad].first).size() + 1);
  EXPECT_EQ(error_of(text(true)), "g.json:" + std::to_string(kBad + 1) + ":" + column + ": edge to missing node 'nosuch'");
}

TEST(GraphJson, RoundTripIsExact) {
  Graph g = parse(R"({"name": "odd", "dtype": "int4",
    "nodes": [{"name": "a", "type": "t", "flops": 0.1, "bytes": 123456789.123456789, "output_bytes": 3,
               "state_bytes": 1e-300, "layer": 0},
              {"name": "w", "param_bytes": 0, "layer": 7},
              {"name": "b", "durations": {"p1": 14, "p2": 0.3333333333333333}}],
    "edges": [{"src": "w", "dst": "a", "bytes": 1}, {"src": "a", "dst": "b", "time": 2.5e-7},
              {"src": "a", "dst": "b", "bytes": 0.30000000000000004, "time": 0}]})");
  g.nodes[0].flops = 1.0 / 3.0;  // a value no short decimal writes
  const std::string text = graph_to_json(g);
  const Graph back = parse(text);
  expect_same(g, back);
  EXPECT_EQ(graph_to_json(back), text);
}

TEST(GraphJson, GeneratedGraphsRoundTrip) {
  TransformerSpec s;
  s.arch = "llama2-70b";
  s.layers = 2;
  s.phase = Phase::Decode;
  s.seq = 777;
  s.batch = 3;
  s.dtype = DType::INT4;
  for (Granularity gran : {Granularity::Op, Granularity::Layer}) {
    s.granularity = gran;
    const Graph g = generate_transformer(s);
    const Graph back = parse(graph_to_json(g));
    expect_same(g, back);
    EXPECT_EQ(back.topo_order(), g.topo_order());
  }
}

TEST(GraphJson, GeneratedShapesRoundTrip) {
  // Op granularity: every op but the embedding has a shape (gemm, attention, elementwise).
  TransformerSpec s;
  s.arch = "gpt2-large";
  s.layers = 1;
  s.seq = 100;
  const Graph g = generate_transformer(s);
  expect_same(g, parse(graph_to_json(g)));
  const Graph lstm = generate_lstm(LstmSpec{});
  expect_same(lstm, parse(graph_to_json(lstm)));
}

// A shape gives the flops when the node leaves them out:
//   gemm 2*2*128*1280*5120 + 2*128*5120 (bias) = 3,355,443,200 + 1,310,720 = 3,356,753,920
//   attention 4*1*16*512*(32*128) + 5*1*32*16*512 = 134,217,728 + 1,310,720 = 135,528,448
TEST(GraphJson, ReadsShapes) {
  const Graph g = parse(R"({"nodes": [
      {"name": "up", "type": "matmul", "shape": {"gemm": {"batch": 2, "m": 128, "n": 5120, "k": 1280,
                                                          "weight": "b", "bias": true}}},
      {"name": "attn", "flops": 135528448, "shape": {"attention": {"heads": 32, "kv_heads": 8, "head_dim": 128,
                                                                   "q_len": 16, "kv_len": 512}}},
      {"name": "ln", "shape": {"elementwise": {"elements": 1000, "flops_per_element": 8, "weight_elements": 20}}},
      {"name": "add", "shape": {"elementwise": {"elements": 1000, "inputs": 2}}},
      {"name": "cell", "shape": {"lstm": {"input": 10, "hidden": 20}}},
      {"name": "plain", "flops": 7}]})");
  EXPECT_EQ(g.nodes[0].shape,
            OpShape(GemmShape{.batch = 2, .m = 128, .n = 5120, .k = 1280, .weight = GemmWeight::B, .bias = 1}));
  EXPECT_EQ(g.nodes[0].flops, 3'356'753'920.0);
  EXPECT_EQ(g.nodes[0].bytes, 0);  // bytes are never derived
  EXPECT_EQ(g.nodes[1].shape,
            OpShape(AttentionShape{.heads = 32, .kv_heads = 8, .head_dim = 128, .q_len = 16, .kv_len = 512}));
  EXPECT_EQ(g.nodes[1].flops, 135'528'448.0);
  EXPECT_EQ(g.nodes[2].flops, 8000);
  EXPECT_EQ(std::get<ElementwiseShape>(g.nodes[3].shape).inputs, 2);
  EXPECT_EQ(g.nodes[4].shape, OpShape(LstmShape{.input = 10, .hidden = 20}));
  EXPECT_EQ(g.nodes[4].flops, 8.0 * 20 * 30 + 21 * 20);  // 8BH(I+H) + 21BH, B = 1
  EXPECT_FALSE(has_shape(g.nodes[5].shape));
  // Written back with the defaults left out: batch 1, weight none, bias false, kv_heads = heads.
  const std::string text = graph_to_json(g);
  EXPECT_NE(text.find(R"("shape": {
        "lstm": {
          "input": 10,
          "hidden": 20
        }
      })"), std::string::npos) << text;
  expect_same(g, parse(text));
}

TEST(GraphJson, BadShapesAreLocated) {
  auto node = [](const std::string& fields) { return "{\"nodes\": [{\"name\": \"a\", " + fields + "}]}"; };
  // {"nodes": [{"name": "a", "shape": {"gemm": {"m": 0, ...: "shape" at column 26, its map at 35,
  // the gemm map at 44, the 0 at 50 (a flow map's key is located at itself, a value at itself).
  EXPECT_EQ(error_of(node(R"("shape": {"gemm": {"m": 0, "n": 1, "k": 1}})")),
            "g.json:1:50: expected a positive integer dimension, got 0");
  EXPECT_EQ(error_of(node(R"("shape": {"gemm": {"m": -3, "n": 1, "k": 1}})")),
            "g.json:1:50: expected a positive integer dimension, got -3");
  EXPECT_EQ(error_of(node(R"("shape": {"gemm": {"m": 1.5, "n": 1, "k": 1}})")),
            "g.json:1:50: expected an integer, got '1.5'");
  EXPECT_EQ(error_of(node(R"("shape": {"gemm": {"m": 1, "n": 1}})")), "g.json:1:44: missing key 'k'");
  EXPECT_EQ(error_of(node(R"("shape": {"gemm": {"m": 1, "n": 1, "k": 1, "rows": 2}})")),
            "g.json:1:69: unknown key 'rows' (expected one of: batch, m, n, k, weight, bias)");
  EXPECT_EQ(error_of(node(R"("shape": {"gemm": {"m": 1, "n": 1, "k": 1, "weight": "a"}})")),
            "g.json:1:79: expected weight 'b' (operand B is a parameter) or 'none', got 'a'");
  EXPECT_EQ(error_of(node(R"("shape": {"conv": {"m": 1}})")),
            "g.json:1:36: unknown key 'conv' (expected one of: gemm, attention, elementwise, gather, lstm)");
  const std::string one_kind = "expected a shape of one kind: {\"gemm\": {...}}, {\"attention\": {...}}, "
                               "{\"elementwise\": {...}}, {\"gather\": {...}} or {\"lstm\": {...}}";
  EXPECT_EQ(error_of(node(R"("shape": {})")), "g.json:1:35: " + one_kind);
  EXPECT_EQ(error_of(node(R"("shape": {"lstm": {"input": 1, "hidden": 1}, "gemm": {"m": 1, "n": 1, "k": 1}})")),
            "g.json:1:35: " + one_kind);
  EXPECT_EQ(error_of(node(R"("shape": {"attention": {"heads": 32, "kv_heads": 5, "head_dim": 8, "q_len": 1,
                                                     "kv_len": 1}})")),
            "g.json:1:75: kv_heads 5 must divide heads 32");
  EXPECT_EQ(error_of(node(R"("shape": {"elementwise": {"elements": 4, "flops_per_element": -1}})")),
            "g.json:1:88: expected flops_per_element >= 0, got -1");
  // Given flops must be the shape's, 2*1*2*3 = 12, to 1e-9 relative.
  EXPECT_EQ(error_of(node(R"("flops": 13, "shape": {"gemm": {"m": 1, "n": 2, "k": 3}})")),
            "g.json:1:35: flops 13 disagree with the gemm shape's 12 (more than 1e-09 relative)");
  EXPECT_EQ(parse(node(R"("flops": 12.000000001, "shape": {"gemm": {"m": 1, "n": 2, "k": 3}})")).nodes[0].flops,
            12.000000001);
  // A parameter has no shape.
  EXPECT_EQ(error_of(R"({"nodes": [{"name": "w", "param_bytes": 1, "shape": {}}]})"),
            "g.json:1:44: unknown key 'shape' (expected one of: name, param_bytes, layer)");
}

TEST(GraphJson, ExampleFileLoads) {
  // models/examples/two-layer.json: per layer a [500,1000] x [1000,1000] fp16 matmul:
  // flops 2*500*1000*1000 = 1e9; bytes 1e6 (in) + 2e6 (weight) + 1e6 (out) = 4e6.
  const Graph g = load_graph_json(std::string(PLACESIM_SOURCE_DIR) + "/models/examples/two-layer.json");
  EXPECT_EQ(g.name, "two-layer");
  EXPECT_EQ(g.ops().size(), 2u);
  EXPECT_EQ(g.params().size(), 2u);
  EXPECT_EQ(g.nodes[g.find("mm2")].flops, 2.0 * 500 * 1000 * 1000);
  EXPECT_EQ(g.nodes[g.find("mm2")].bytes, 2.0 * 500 * 1000 + 2.0 * 1000 * 1000 + 2.0 * 500 * 1000);
  EXPECT_EQ(g.edges[g.in_edges(g.find("mm2"))[0]].bytes, 2e6);  // w2: its size
  EXPECT_EQ(g.edges[g.in_edges(g.find("mm2"))[1]].bytes, 1e6);  // mm1's output
  // Its shape says the same: a gemm of m 500, k 1000, n 1000 with the weight as B, whose flops
  // 2*500*1000*1000 agree with the given 1e9, and whose weight is w2's 2e6 bytes in fp16.
  const OpShape mm2 = g.nodes[g.find("mm2")].shape;
  EXPECT_EQ(mm2, OpShape(GemmShape{.m = 500, .n = 1000, .k = 1000, .weight = GemmWeight::B}));
  EXPECT_EQ(shape_weight_bytes(mm2, g.dtype), g.nodes[g.find("w2")].param_bytes);
  EXPECT_EQ(shape_bytes(mm2, g.dtype), g.nodes[g.find("mm2")].bytes);
}

TEST(GraphJson, ABadNodeInAMillionNodeGraphNamesItsLine) {
  // One node a line after the header's two; node 700000 gives its flops as a word.
  std::string text = "{\"name\": \"big\",\n\"nodes\": [\n";
  for (int i = 0; i < 1'000'000; ++i)
    text += fmt::format("{{\"name\": \"n{}\", \"flops\": {}}}{}\n", i, i == 700'000 ? "\"many\"" : "1e9",
                        i + 1 < 1'000'000 ? "," : "");
  text += "]}\n";
  EXPECT_EQ(error_of(text), "g.json:700003:30: expected a number, got 'many'");
}

TEST(GraphJson, NameDefaultsToTheFileStem) {
  const Graph g = parse_graph(Json::load_string(R"({"nodes": [{"name": "a"}]})", "dir/my-graph.json"));
  EXPECT_EQ(g.name, "my-graph");
  EXPECT_EQ(g.dtype, DType::FP32);
}

TEST(GraphJson, BadInputIsLocated) {
  // Malformed JSON: where the parser stopped, 1-based.
  const std::string malformed = error_of("{\"nodes\": [\n  {\"name\": \"a\"\n]}");
  EXPECT_EQ(malformed.rfind("g.json:3:1: malformed JSON", 0), 0u) << malformed;

  EXPECT_EQ(error_of("{\"nodes\": [\n  {\"name\": \"a\", \"flop\": 1}]}"),
            "g.json:2:17: unknown key 'flop' (expected one of: name, type, flops, bytes, output_bytes, "
            "state_bytes, layer, durations, shape)");
  EXPECT_EQ(error_of("{\"nodes\": [], \"edge\": []}"),
            "g.json:1:15: unknown key 'edge' (expected one of: name, dtype, nodes, edges)");
  EXPECT_EQ(error_of("{\"nodes\": [{\"name\": \"w\", \"param_bytes\": 1, \"flops\": 2}]}"),
            "g.json:1:44: unknown key 'flops' (expected one of: name, param_bytes, layer)");

  EXPECT_EQ(error_of("{\"nodes\": [{\"name\": \"a\"}],\n \"edges\": [{\"src\": \"a\", \"dst\": \"b\"}]}"),
            "g.json:2:32: edge to missing node 'b'");

  EXPECT_EQ(error_of("{\"nodes\": [{\"name\": \"a\"},\n           {\"name\": \"b\"}],\n"
                     " \"edges\": [{\"src\": \"a\", \"dst\": \"b\"}, {\"src\": \"b\", \"dst\": \"a\"}]}"),
            "g.json:1:12: cycle through node 'a': a -> b -> a");

  EXPECT_EQ(error_of("{\"nodes\": [{\"name\": \"a\"},\n  {\"name\": \"b\", \"bytes\": -5}]}"),
            "g.json:2:3: node 'b': bytes must be >= 0, got -5");
  EXPECT_EQ(error_of("{\"nodes\": [{\"name\": \"a\"}, {\"name\": \"b\"}],\n"
                     " \"edges\": [{\"src\": \"a\", \"dst\": \"b\", \"time\": -1}]}"),
            "g.json:2:12: edge 'a' -> 'b': time must be >= 0, got -1");

  EXPECT_EQ(error_of("{\"nodes\": [{\"name\": \"a\"},\n  {\"name\": \"a\"}]}"),
            "g.json:2:12: duplicate node name 'a' (first defined at g.json:1:12)");

  EXPECT_EQ(error_of("{\"dtype\": \"fp64\", \"nodes\": []}"),
            "g.json:1:11: unknown dtype 'fp64' (expected fp32, fp16, bf16, int8 or int4)");
  EXPECT_EQ(error_of("{\"nodes\": [{\"name\": \"a\", \"flops\": \"lots\"}]}"),
            "g.json:1:35: expected a number, got 'lots'");
}

TEST(GraphJson, MissingFile) {
  try {
    load_graph_json("/nonexistent/g.json");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "/nonexistent/g.json: cannot open file (No such file or directory)");
  }
}

}  // namespace
}  // namespace placesim::models
