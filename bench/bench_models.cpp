// Workloads: ONNX import of a 10k-node graph (built here with the protobuf API: 3334 blocks of
// MatMul(x, W_i[16,16]) -> Add(b_i) -> Relu on x[1,16], each weight its own initializer), and
// the graph transforms (dominator partition, fusion coarsening) on random DAGs.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fmt/format.h>
#include <fstream>

#include "models/generators/random_dag.hpp"
#include "models/transform/dominators.hpp"
#include "models/transform/fusion.hpp"
#ifdef PLACESIM_WITH_ONNX
#include <onnx/onnx_pb.h>

#include "models/onnx/onnx_import.hpp"
#endif

namespace placesim::models {
namespace {

#ifdef PLACESIM_WITH_ONNX

void add_value(onnx::ValueInfoProto* v, const std::string& name, std::initializer_list<std::int64_t> dims) {
  v->set_name(name);
  auto* t = v->mutable_type()->mutable_tensor_type();
  t->set_elem_type(onnx::TensorProto::FLOAT);
  for (auto d : dims) t->mutable_shape()->add_dim()->set_dim_value(d);
}

void add_weight(onnx::GraphProto& g, const std::string& name, std::initializer_list<std::int64_t> dims) {
  onnx::TensorProto* t = g.add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto::FLOAT);
  std::int64_t n = 1;
  for (auto d : dims) {
    t->add_dims(d);
    n *= d;
  }
  t->set_raw_data(std::string(static_cast<size_t>(n) * 4, '\0'));
}

void add_node(onnx::GraphProto& g, const std::string& op, const std::string& name, std::vector<std::string> in,
              const std::string& out) {
  onnx::NodeProto* n = g.add_node();
  n->set_op_type(op);
  n->set_name(name);
  for (auto& i : in) n->add_input(i);
  n->add_output(out);
}

// A chain of `blocks` MatMul -> Add -> Relu blocks, written once to a temporary file.
std::string chain_model(int blocks) {
  const auto path = std::filesystem::temp_directory_path() / fmt::format("placesim_bench_chain_{}.onnx", blocks);
  if (std::filesystem::exists(path)) return path.string();
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(17);
  onnx::GraphProto& g = *m.mutable_graph();
  g.set_name("chain");
  add_value(g.add_input(), "x", {1, 16});
  std::string prev = "x";
  for (int i = 0; i < blocks; ++i) {
    const std::string s = std::to_string(i);
    add_weight(g, "W" + s, {16, 16});
    add_weight(g, "b" + s, {16});
    add_node(g, "MatMul", "mm" + s, {prev, "W" + s}, "m" + s);
    add_node(g, "Add", "add" + s, {"m" + s, "b" + s}, "a" + s);
    add_node(g, "Relu", "relu" + s, {"a" + s}, "r" + s);
    prev = "r" + s;
  }
  add_value(g.add_output(), prev, {1, 16});
  std::ofstream(path, std::ios::binary) << m.SerializeAsString();
  return path.string();
}

void BM_OnnxImport(benchmark::State& state) {
  const std::string path = chain_model(static_cast<int>(state.range(0)));
  size_t nodes = 0;
  for (auto _ : state) nodes = import_onnx(path).graph.nodes.size();
  state.counters["onnx_nodes"] = static_cast<double>(3 * state.range(0));
  state.counters["graph_nodes"] = static_cast<double>(nodes);
  state.counters["onnx_nodes/s"] =
      benchmark::Counter(static_cast<double>(3 * state.range(0)), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_OnnxImport)->Arg(3334)->Unit(benchmark::kMillisecond);

#endif

Graph random_dag(int depth) {
  RandomDagSpec s;
  s.depth = depth;
  s.width = 10;
  s.density = 0.2;
  s.jump = 2;
  return generate_random_dag(s);
}

void BM_DominatorPartition(benchmark::State& state) {
  const Graph g = random_dag(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(split_submodels(g, partition_by_dominators(g, 1)));
  state.counters["nodes"] = static_cast<double>(g.nodes.size());
}
BENCHMARK(BM_DominatorPartition)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond);

void BM_Coarsen(benchmark::State& state) {
  Graph g = random_dag(static_cast<int>(state.range(0)));
  const char* types[] = {"conv", "bn", "add", "relu"};
  for (size_t i = 0; i < g.nodes.size(); ++i) g.nodes[i].type = types[i % 4];
  for (auto _ : state) benchmark::DoNotOptimize(coarsen(g, eigen_fusion_rules()));
  state.counters["nodes"] = static_cast<double>(g.nodes.size());
}
BENCHMARK(BM_Coarsen)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace placesim::models

BENCHMARK_MAIN();
