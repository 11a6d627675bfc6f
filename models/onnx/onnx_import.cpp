// ONNX file -> Graph: read, fix dynamic dimensions, infer shapes, then cost each node
// (the rules are in onnx_import.hpp, the flops formulas in op_cost.cpp). The ONNX module's
// entry (onnx_import.hpp, OnnxApi).
#include "models/onnx/onnx_import.hpp"
#include "sim/core/module.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>
#include <set>
#include <sstream>
#include <unordered_map>

#include "models/onnx/op_cost.hpp"
#include "models/onnx/op_dims.hpp"
#include "sim/core/log.hpp"

namespace placesim::models {

using onnx_import::Shape;

namespace {

struct Tensor {
  Shape shape;
  double bytes = 0;
};

double element_bytes(std::int32_t t) {
  using T = onnx::TensorProto;
  switch (t) {
    case T::BOOL: case T::INT8: case T::UINT8: return 1;
    case T::INT16: case T::UINT16: case T::FLOAT16: case T::BFLOAT16: return 2;
    case T::INT32: case T::UINT32: case T::FLOAT: return 4;
    case T::INT64: case T::UINT64: case T::DOUBLE: case T::COMPLEX64: return 8;
    case T::COMPLEX128: return 16;
    default: return 0;  // strings and undefined: no fixed size
  }
}

DType dtype_of(std::int32_t t) {
  using T = onnx::TensorProto;
  switch (t) {
    case T::FLOAT16: return DType::FP16;
    case T::BFLOAT16: return DType::BF16;
    case T::INT8: case T::UINT8: return DType::INT8;
    default: return DType::FP32;
  }
}

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

onnx::ModelProto read_model(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(SourceLoc{path}, "cannot read the ONNX file");
  std::stringstream bytes;
  bytes << in.rdbuf();
  onnx::ModelProto model;
  if (!model.ParseFromString(bytes.str()) || model.ir_version() == 0 || !model.has_graph())
    throw InputError(SourceLoc{path}, "not an ONNX model (expected a serialized onnx.ModelProto with a graph)");
  return model;
}

// Sets every named dimension listed in `dims`; then every graph input (not an initializer)
// must be fully static.
void fix_dims(onnx::ModelProto& model, const std::map<std::string, std::int64_t>& dims, const std::string& path) {
  onnx::GraphProto& g = *model.mutable_graph();
  std::set<std::string> named, used;
  auto fix = [&](onnx::ValueInfoProto& v) {
    if (!v.type().has_tensor_type() || !v.type().tensor_type().has_shape()) return;
    for (auto& d : *v.mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim()) {
      if (!d.has_dim_param()) continue;
      named.insert(d.dim_param());
      auto it = dims.find(d.dim_param());
      if (it == dims.end()) continue;
      used.insert(it->first);
      d.set_dim_value(it->second);
    }
  };
  for (auto& v : *g.mutable_input()) fix(v);
  for (auto& v : *g.mutable_output()) fix(v);
  for (auto& v : *g.mutable_value_info()) fix(v);
  for (const auto& [name, value] : dims)
    if (!used.count(name)) {
      std::string known;
      for (const auto& n : named) known += (known.empty() ? "" : ", ") + n;
      throw InputError(SourceLoc{path}, fmt::format("--dim {}={}: the model has no dimension named '{}' (its named "
                                                    "dimensions: {})", name, value, name, known.empty() ? "none" : known));
    }

  std::set<std::string> initializers;
  for (const auto& t : g.initializer()) initializers.insert(t.name());
  for (const auto& v : g.input()) {
    if (initializers.count(v.name())) continue;
    if (!v.type().has_tensor_type() || !v.type().tensor_type().has_shape())
      throw InputError(SourceLoc{path}, fmt::format("graph input '{}' has no shape", v.name()));
    const auto& shape = v.type().tensor_type().shape();
    for (int i = 0; i < shape.dim_size(); ++i) {
      const auto& d = shape.dim(i);
      if (d.has_dim_value()) continue;
      if (d.has_dim_param())
        throw InputError(SourceLoc{path}, fmt::format("graph input '{}' has dynamic dimension '{}': give its value "
                                                      "with --dim {}=VALUE", v.name(), d.dim_param(), d.dim_param()));
      throw InputError(SourceLoc{path}, fmt::format("graph input '{}' has an unnamed dynamic dimension {}", v.name(), i));
    }
  }
}

// libonnx 1.12's convolution shape inference takes the kernel from the weights' dimensions when
// kernel_shape is absent, without checking them against the input's rank, and reads past the
// input's dimensions when they differ (a crash, found by fuzzing). With kernel_shape given it
// checks the sizes and fails cleanly, so a node without one gets it from its weights, as the
// ONNX specification says it is inferred; weights that are not an initializer leave nothing
// to take it from, and such a node is refused.
void complete_kernel_shapes(onnx::ModelProto& model, const std::string& path) {
  static const std::map<std::string, int> weights_input = {{"Conv", 1}, {"ConvTranspose", 1}, {"ConvInteger", 1}, {"QLinearConv", 3}};
  std::unordered_map<std::string, const onnx::TensorProto*> initializers;
  for (const auto& t : model.graph().initializer()) initializers[t.name()] = &t;
  for (onnx::NodeProto& node : *model.mutable_graph()->mutable_node()) {
    const auto w = weights_input.find(node.op_type());
    if (w == weights_input.end() || !(node.domain().empty() || node.domain() == "ai.onnx")) continue;
    const auto& attrs = node.attribute();
    if (std::any_of(attrs.begin(), attrs.end(), [](const onnx::AttributeProto& a) { return a.name() == "kernel_shape"; })) continue;
    const auto init = w->second < node.input_size() ? initializers.find(node.input(w->second)) : initializers.end();
    if (init == initializers.end() || init->second->dims_size() < 3)
      throw InputError(SourceLoc{path}, fmt::format("{} node '{}' has no kernel_shape and its weights are not an initializer "
                                                    "of rank 3 or more: give kernel_shape",
                                                    node.op_type(), node.name()));
    onnx::AttributeProto* k = node.add_attribute();
    k->set_name("kernel_shape");
    k->set_type(onnx::AttributeProto::INTS);
    for (int i = 2; i < init->second->dims_size(); ++i) k->add_ints(init->second->dims(i));
  }
}

void infer_shapes(onnx::ModelProto& model, const std::string& path) {
  try {
    onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(),
                                       onnx::ShapeInferenceOptions(/*check_type=*/true, /*strict=*/1,
                                                                   /*data_propagation=*/true));
  } catch (const std::exception& e) {
    throw InputError(SourceLoc{path}, "ONNX shape inference failed: " + first_line(e.what()));
  }
}

std::string op_type_name(const std::string& op) {
  static const std::map<std::string, std::string> renamed = {
      {"Gemm", "matmul"}, {"LayerNormalization", "layernorm"}, {"BatchNormalization", "batchnorm"}};
  if (auto it = renamed.find(op); it != renamed.end()) return it->second;
  std::string s = op;
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

class Importer {
 public:
  Importer(const onnx::ModelProto& model, std::string path) : g_(model.graph()), path_(std::move(path)) {
    for (const auto& v : g_.input()) types_[v.name()] = &v.type();
    for (const auto& v : g_.value_info()) types_[v.name()] = &v.type();
    for (const auto& v : g_.output()) types_[v.name()] = &v.type();
    for (const auto& t : g_.initializer()) inits_[t.name()] = &t;
  }

  OnnxImport run() {
    OnnxImport out;
    Graph& g = out.graph;
    g.name = g_.name().empty() ? std::filesystem::path(path_).stem().string() : g_.name();
    g.dtype = dominant_dtype();
    std::vector<int> index(g_.node_size(), -1);
    for (int i = 0; i < g_.node_size(); ++i) {
      const onnx::NodeProto& n = g_.node(i);
      if (n.op_type() == "Constant" && n.domain().empty()) {
        for (const auto& o : n.output()) {
          producer_[o] = add_param(g, o, output(n, i, o).bytes);
          constants_.insert(o);
        }
        continue;
      }
      index[i] = g.add_node(op_node(n, i, out.unsupported));
      for (const auto& o : n.output())
        if (!o.empty()) producer_[o] = index[i];
    }
    for (int i = 0; i < g_.node_size(); ++i)
      if (index[i] >= 0) connect(g, g_.node(i), index[i]);
    report(out.unsupported);
    g.validate();
    return out;
  }

 private:
  // "CumSum", or "com.example.Mystery" outside the default domain.
  static std::string op_label(const onnx::NodeProto& n) {
    return n.domain().empty() || n.domain() == "ai.onnx" ? n.op_type() : n.domain() + "." + n.op_type();
  }

  static std::string describe(const onnx::NodeProto& n, int i) {
    return fmt::format("node '{}' ({})", n.name().empty() ? fmt::format("#{}", i) : n.name(), op_label(n));
  }

  std::optional<Tensor> tensor(const std::string& name) const {
    if (auto it = inits_.find(name); it != inits_.end()) {
      Tensor t{Shape(it->second->dims().begin(), it->second->dims().end()), 0};
      t.bytes = onnx_import::numel(t.shape) * element_bytes(it->second->data_type());
      return t;
    }
    auto it = types_.find(name);
    if (it == types_.end() || !it->second->has_tensor_type() || !it->second->tensor_type().has_shape())
      return std::nullopt;
    Tensor t;
    for (const auto& d : it->second->tensor_type().shape().dim()) {
      if (!d.has_dim_value()) return std::nullopt;
      t.shape.push_back(d.dim_value());
    }
    t.bytes = onnx_import::numel(t.shape) * element_bytes(it->second->tensor_type().elem_type());
    return t;
  }

  Tensor output(const onnx::NodeProto& n, int i, const std::string& name) const {
    auto t = tensor(name);
    if (!t)
      throw InputError(SourceLoc{path_}, fmt::format("{}: output '{}' has no static shape after ONNX shape inference "
                                                     "(an op ONNX cannot infer, or a shape only known at run time)",
                                                     describe(n, i), name));
    return *t;
  }

  Node op_node(const onnx::NodeProto& n, int i, std::map<std::string, int>& unsupported) {
    Node node;
    node.name = unique(n.name().empty() ? fmt::format("{}_{}", n.op_type(), i) : n.name());
    node.type = op_type_name(n.op_type());
    node.loc = SourceLoc{path_};
    std::vector<Shape> out;
    for (const auto& o : n.output()) {
      if (o.empty()) continue;
      const Tensor t = output(n, i, o);
      node.output_bytes += t.bytes;
      out.push_back(t.shape);
    }
    std::vector<std::optional<Tensor>> in;
    std::vector<bool> param;
    std::set<std::string> seen;
    for (const auto& name : n.input()) {
      param.push_back(inits_.count(name) || constants_.count(name));
      if (name.empty()) {
        in.emplace_back();
        continue;
      }
      auto t = tensor(name);
      if (!t)
        throw InputError(SourceLoc{path_}, fmt::format("{}: input '{}' has no static shape", describe(n, i), name));
      if (seen.insert(name).second && n.op_type() != "Shape" && n.op_type() != "Size") node.bytes += t->bytes;
      in.push_back(std::move(t));
    }
    node.bytes += node.output_bytes;
    std::vector<const Shape*> in_shapes;
    for (const auto& t : in) in_shapes.push_back(t ? &t->shape : nullptr);
    try {
      const auto flops = onnx_import::op_flops(n, in_shapes, out);
      if (flops) node.flops = *flops;
      else ++unsupported[op_label(n)];
    } catch (const InputError& e) {
      throw InputError(SourceLoc{path_}, fmt::format("{}: {}", describe(n, i), e.detail()));
    }
    node.shape = onnx_import::op_shape(n, in_shapes, param, out);
    return node;
  }

  // Edges into op `v` from the producers of its inputs, one per producer with summed bytes;
  // initializers become Param nodes on first use.
  void connect(Graph& g, const onnx::NodeProto& n, int v) {
    std::map<int, double> from;
    std::set<std::string> seen;
    for (const auto& name : n.input()) {
      if (name.empty() || !seen.insert(name).second) continue;
      auto it = producer_.find(name);
      if (it == producer_.end() && inits_.count(name))
        it = producer_.emplace(name, add_param(g, name, tensor(name)->bytes)).first;
      if (it == producer_.end()) continue;  // a graph input
      from[it->second] += tensor(name)->bytes;
    }
    for (const auto& [src, bytes] : from) g.add_edge(src, v, bytes);
  }

  int add_param(Graph& g, const std::string& tensor_name, double bytes) {
    Node p;
    p.name = unique(tensor_name);
    p.kind = NodeKind::Param;
    p.type = "param";
    p.param_bytes = bytes;
    p.loc = SourceLoc{path_};
    return g.add_node(std::move(p));
  }

  std::string unique(const std::string& name) {
    std::string s = name;
    for (int k = 2; !used_.insert(s).second; ++k) s = fmt::format("{}_{}", name, k);
    return s;
  }

  DType dominant_dtype() const {
    std::map<std::int32_t, double> bytes;
    for (const auto& [name, t] : inits_) bytes[t->data_type()] += tensor(name)->bytes;
    auto best = std::max_element(bytes.begin(), bytes.end(), [](auto& a, auto& b) { return a.second < b.second; });
    return best == bytes.end() ? DType::FP32 : dtype_of(best->first);
  }

  void report(const std::map<std::string, int>& unsupported) const {
    if (unsupported.empty()) return;
    std::string list;
    for (const auto& [op, count] : unsupported) list += fmt::format("{}{} x{}", list.empty() ? "" : ", ", op, count);
    log().warn("{}: op types without a flops formula, costed by the bytes they move: {}", path_, list);
  }

  const onnx::GraphProto& g_;
  std::string path_;
  std::unordered_map<std::string, const onnx::TypeProto*> types_;
  std::unordered_map<std::string, const onnx::TensorProto*> inits_;
  std::unordered_map<std::string, int> producer_;
  std::set<std::string> constants_;  // outputs of Constant nodes: parameters, like initializers
  std::set<std::string> used_;
};

OnnxImport import_file(const std::string& path, const std::map<std::string, std::int64_t>& dims) {
  onnx::ModelProto model = read_model(path);
  fix_dims(model, dims, path);
  complete_kernel_shapes(model, path);
  infer_shapes(model, path);
  return Importer(model, path).run();
}

}  // namespace
}  // namespace placesim::models

PLACESIM_MODULE_ENTRY const void* placesim_module_onnx() {
  static const placesim::models::OnnxApi api{&placesim::models::import_file};
  return &api;
}
