// Work of each operator of a decoder forward pass.
//
// Notation: B batch, S seq, q tokens per sequence in this pass (S for prefill, 1 for decode),
// N = B*q tokens, kv = S positions attended (decode: the new token's K/V sits in the last of
// the S cache slots), h hidden, H heads, d = h/H, kvd = H_kv*d, f ffn, V vocab,
// w bytes per weight element (model dtype), a bytes per activation element (compute dtype:
// fp16 for int8/int4 weight-only quantisation).
//
// flops count multiply and add separately (a multiply-accumulate is 2). bytes is memory
// traffic: every input read once, weights read once, the output written once.
//
//   matmul [N,K] x [K,M] (+ bias)   flops 2*N*K*M (+ N*M)      bytes a*N*K + w*(K*M (+ M)) + a*N*M
//   attention (fused scores, softmax, context; full q x kv rectangle, no causal halving)
//                                   flops 4*B*q*kv*h + 5*B*H*q*kv   (QK^T and PV: 2*B*q*kv*h each;
//                                         softmax: max, subtract, exp, sum, divide per score)
//                                   bytes a*(N*h + 2*B*kv*kvd + N*h)  (Q, K and V, context out)
//                                   state (decode) 2*B*S*kvd*a: the KV cache it holds
//   layernorm (GPT-2)               flops 8*N*h  (mean 1, variance 3, normalise 2, scale+shift 2)
//   rmsnorm (LLaMA)                 flops 4*N*h  (square+sum 2, normalise 1, scale 1)
//                                   bytes a*N*h + w*(2h or h) + a*N*h
//   add (residual)                  flops N*h    bytes 3*a*N*h
//   gelu (tanh form)                flops 8*N*f  bytes 2*a*N*f
//   swiglu silu(gate)*up            flops 5*N*f  (exp, add, divide, multiply; times up)
//                                   bytes 3*a*N*f
//   embedding (gather N rows)       flops N*h for GPT-2's position add, else 0
//                                   bytes w*N*h (tokens) (+ w*N*h positions) + a*N*h
//                                   (shape gather: a read by direct host access moves the
//                                   N rows of each table, not the tables)
//   lm_head                         a matmul [N,h] x [h,V] over all N tokens (what a plain
//                                   forward pass computes; a server may keep only the last)
//
// Mixture of experts (E experts, top k, T_e tokens routed to expert e, sum of T_e = N*k):
//   router                          a matmul [N,h] x [h,E]
//   topk (routing)                  elementwise over the N*E logits, flops 5 + k each: softmax 5
//                                   (as attention's), then k compare passes to pick the top k
//   expert e                        the MLP above on its T_e tokens (gemm batch 1, m = T_e) with
//                                   its own weights: up and gate read the T_e rows of the norm's
//                                   output routed to it (a*T_e*h) and depend on the routing; an
//                                   expert with T_e = 0 runs no op (no kernel is launched for it)
//   shared expert (Qwen2-MoE)       the MLP on all N tokens with intermediate size f_s, and its
//                                   gate, a matmul [N,h] x [h,1]
//   combine                         elementwise over N*h outputs reading k routed rows (and the
//                                   shared one) per output, flops 2 per row read (scale by the
//                                   routing weight or the gate's sigmoid, accumulate); the N*k
//                                   routing weights and N gate logits it also reads, and the
//                                   sigmoid of the latter, are left out: h times smaller
//
// Prefill K/V are part of the qkv activation and are not counted again as state; cache writes
// (2*N*kvd*a per layer) are left out of bytes, as they are small next to the reads.
//
// Each op also carries its shape (models/op_shape.hpp), whose formulas give back the work above:
// a matmul is a gemm of batch B, m = q, k = K, n = M with its weight as operand B; attention
// has B, H, H_kv, d, q, kv; norms, adds and activations are elementwise over N*h or N*f
// elements (norm: its scale (and shift) as weight); an expert's gemms are of batch 1 and
// m = T_e, as its tokens come from any sequence. The embedding lookup has no shape: it reads
// N rows of its tables, not whole weights, which no gemm or elementwise shape describes.
#include "models/generators/transformer_ops.hpp"

#include <fmt/format.h>

#include "models/generators/transformer_moe.hpp"

namespace placesim::models {

namespace {

struct Dims {
  double B, S, q, N, kv;
  double h, H, Hkv, d, kvd, f, V;
  double w, a;
  Biases bias;
};

Dims dims_of(const TransformerArch& arch, const TransformerSpec& spec) {
  Dims s{};
  s.B = spec.batch;
  s.S = spec.seq;
  s.q = spec.phase == Phase::Prefill ? spec.seq : 1;
  s.N = s.B * s.q;
  s.kv = spec.seq;
  s.h = arch.hidden;
  s.H = arch.heads;
  s.d = head_dim(arch);
  s.Hkv = arch.kv_heads;
  s.kvd = s.Hkv * s.d;
  s.f = arch.ffn;
  s.V = arch.vocab;
  s.w = bytes_per_element(spec.dtype);
  s.a = bytes_per_element(activation_dtype(spec.dtype));
  s.bias = arch.biases;
  return s;
}

// The dimensions of work on `tokens` tokens gathered from any sequence (an expert's).
Dims gathered(Dims s, double tokens) {
  s.B = 1;
  s.q = s.N = tokens;
  return s;
}

OpWork matmul(const Dims& s, std::string name, std::string input, std::string param, double K, double M,
              bool bias) {
  OpWork op{.name = std::move(name), .type = "matmul"};
  const double bias_elems = bias ? M : 0;
  op.flops = 2 * s.N * K * M + (bias ? s.N * M : 0);
  op.bytes = s.a * s.N * K + s.w * (K * M + bias_elems) + s.a * s.N * M;
  op.output_bytes = s.a * s.N * M;
  op.inputs = {std::move(input)};
  op.params = {{std::move(param), K * M + bias_elems}};
  op.shape = GemmShape{.batch = s.B, .m = s.q, .n = M, .k = K, .weight = GemmWeight::B, .bias = bias ? 1.0 : 0.0};
  return op;
}

OpWork norm(const Dims& s, std::string name, std::string input) {
  const bool ln = s.bias.layernorm;
  OpWork op{.name = name, .type = ln ? "layernorm" : "rmsnorm"};
  const double elems = ln ? 2 * s.h : s.h;
  op.flops = (ln ? 8 : 4) * s.N * s.h;
  op.bytes = s.a * s.N * s.h + s.w * elems + s.a * s.N * s.h;
  op.output_bytes = s.a * s.N * s.h;
  op.inputs = {std::move(input)};
  op.params = {{name + ".w", elems}};
  op.shape = ElementwiseShape{.elements = s.N * s.h, .flops_per_element = ln ? 8.0 : 4.0, .weight_elements = elems};
  return op;
}

OpWork residual(const Dims& s, std::string name, std::string x, std::string y) {
  OpWork op{.name = std::move(name), .type = "add"};
  op.flops = s.N * s.h;
  op.bytes = 3 * s.a * s.N * s.h;
  op.output_bytes = s.a * s.N * s.h;
  op.inputs = {std::move(x), std::move(y)};
  op.shape = ElementwiseShape{.elements = s.N * s.h, .inputs = 2};
  return op;
}

OpWork attention(const Dims& s, const TransformerSpec& spec, std::string name, std::string qkv) {
  OpWork op{.name = std::move(name), .type = "attention"};
  op.flops = 4 * s.B * s.q * s.kv * s.h + 5 * s.B * s.H * s.q * s.kv;
  op.bytes = s.a * (s.N * s.h + 2 * s.B * s.kv * s.kvd + s.N * s.h);
  op.output_bytes = s.a * s.N * s.h;
  if (spec.phase == Phase::Decode) op.state_bytes = 2 * s.B * s.S * s.kvd * s.a;
  op.inputs = {std::move(qkv)};
  op.shape = AttentionShape{.batch = s.B, .heads = s.H, .kv_heads = s.Hkv, .head_dim = s.d, .q_len = s.q,
                            .kv_len = s.kv};
  return op;
}

OpWork activation(const Dims& s, std::string name, std::string up, std::string gate, bool gated) {
  OpWork op{.name = std::move(name), .type = gated ? "swiglu" : "gelu"};
  op.flops = (gated ? 5 : 8) * s.N * s.f;
  op.bytes = (gated ? 3 : 2) * s.a * s.N * s.f;
  op.output_bytes = s.a * s.N * s.f;
  op.inputs = {std::move(up)};
  if (gated) op.inputs.push_back(std::move(gate));
  op.shape = ElementwiseShape{.elements = s.N * s.f, .flops_per_element = gated ? 5.0 : 8.0, .inputs = gated ? 2.0 : 1.0};
  return op;
}

Block embedding(const TransformerArch& arch, const Dims& s) {
  OpWork op{.name = "embed", .type = "embedding"};
  const double tables = arch.positions > 0 ? 2 : 1;
  op.flops = arch.positions > 0 ? s.N * s.h : 0;
  op.bytes = s.w * tables * s.N * s.h + s.a * s.N * s.h;
  op.output_bytes = s.a * s.N * s.h;
  op.params = {{"embed.wte", s.V * s.h}};
  if (arch.positions > 0) op.params.push_back({"embed.wpe", static_cast<double>(arch.positions) * s.h});
  const double positions = arch.positions > 0 ? static_cast<double>(arch.positions) : 0.0;
  op.shape = GatherShape{.rows = s.N, .width = s.h, .tables = tables, .table_rows = s.V + positions};
  return Block{"embed", "embedding", -1, {std::move(op)}};
}

// The MLP of s.N tokens with intermediate size s.f: a dense layer's (prefix "l3.") or an
// expert's ("l3.expert5.", "l3.shared."). Up and gate read `inputs` (what of each: `input_bytes`,
// empty for all of it); the last op, prefix + "down", is its output.
void mlp(const TransformerArch& arch, const Dims& s, const std::string& prefix, const std::vector<std::string>& inputs,
         const std::vector<double>& input_bytes, std::vector<OpWork>& ops) {
  const bool gated = arch.gated_mlp, bias = s.bias.mlp;
  for (const char* proj : gated ? std::vector<const char*>{"up", "gate"} : std::vector<const char*>{"up"}) {
    OpWork op = matmul(s, prefix + proj, inputs[0], prefix + proj + ".w", s.h, s.f, bias);
    op.inputs = inputs;
    op.input_bytes = input_bytes;
    ops.push_back(std::move(op));
  }
  ops.push_back(activation(s, prefix + "act", prefix + "up", prefix + "gate", gated));
  ops.push_back(matmul(s, prefix + "down", prefix + "act", prefix + "down.w", s.f, s.h, bias));
}

OpWork routing(const Dims& s, std::string name, std::string logits, double experts, double k) {
  OpWork op{.name = std::move(name), .type = "topk"};
  const double elements = s.N * experts;
  op.flops = (5 + k) * elements;
  op.bytes = 2 * s.a * elements;
  op.output_bytes = s.a * elements;
  op.inputs = {std::move(logits)};
  op.shape = ElementwiseShape{.elements = elements, .flops_per_element = 5 + k};
  return op;
}

OpWork combine(const Dims& s, std::string name, std::vector<std::string> rows, std::vector<double> row_bytes,
               double rows_per_token) {
  OpWork op{.name = std::move(name), .type = "combine"};
  op.flops = 2 * rows_per_token * s.N * s.h;
  op.bytes = s.a * rows_per_token * s.N * s.h + s.a * s.N * s.h;
  op.output_bytes = s.a * s.N * s.h;
  op.inputs = std::move(rows);
  op.input_bytes = std::move(row_bytes);
  op.shape = ElementwiseShape{.elements = s.N * s.h, .flops_per_element = 2 * rows_per_token, .inputs = rows_per_token};
  return op;
}

// Router, routing, each expert with tokens on its load, the shared expert and its gate, and the
// combine, whose output is the block's. Experts without tokens leave their weights in `idle`.
void moe(const TransformerArch& arch, const Dims& s, const std::string& p, const std::vector<long>& load, int k,
         std::vector<OpWork>& ops, std::vector<ParamUse>& idle) {
  const int experts = arch.moe.experts;
  const bool shared = arch.moe.shared_ffn > 0;
  ops.push_back(matmul(s, p + "router", p + "ln2", p + "router.w", s.h, experts, false));
  ops.push_back(routing(s, p + "topk", p + "router", experts, k));
  std::vector<std::string> rows;
  std::vector<double> row_bytes;
  for (int e = 0; e < experts; ++e) {
    const std::string x = fmt::format("{}expert{}.", p, e);
    if (load[e] == 0) {
      for (const char* proj : arch.gated_mlp ? std::vector<const char*>{"up", "gate"} : std::vector<const char*>{"up"})
        idle.push_back({x + proj + ".w", s.h * s.f});
      idle.push_back({x + "down.w", s.f * s.h});
      continue;
    }
    const Dims t = gathered(s, static_cast<double>(load[e]));
    mlp(arch, t, x, {p + "ln2", p + "topk"}, {s.a * t.N * s.h, 0}, ops);
    rows.push_back(x + "down");
    row_bytes.push_back(ops.back().output_bytes);
  }
  rows.push_back(p + "topk");
  row_bytes.push_back(s.a * s.N * k);  // the routing weights of each token's k experts
  if (shared) {
    Dims all = s;  // every token, as a dense MLP's
    all.f = arch.moe.shared_ffn;
    mlp(arch, all, p + "shared.", {p + "ln2"}, {}, ops);
    rows.push_back(p + "shared.down");
    row_bytes.push_back(ops.back().output_bytes);
    ops.push_back(matmul(s, p + "shared_gate", p + "ln2", p + "shared_gate.w", s.h, 1, false));
    rows.push_back(p + "shared_gate");
    row_bytes.push_back(ops.back().output_bytes);
  }
  ops.push_back(combine(s, p + "combine", std::move(rows), std::move(row_bytes), k + (shared ? 1 : 0)));
}

Block layer(const TransformerArch& arch, const TransformerSpec& spec, const Dims& s, int l, const std::string& x,
            const std::vector<long>* load) {
  const std::string p = fmt::format("l{}.", l);
  Block b{fmt::format("l{}", l), "transformer_layer", l, {}};
  auto& ops = b.ops;
  ops.push_back(norm(s, p + "ln1", x));
  ops.push_back(matmul(s, p + "qkv", p + "ln1", p + "qkv.w", s.h, s.h + 2 * s.kvd, s.bias.qkv));
  ops.push_back(attention(s, spec, p + "attn", p + "qkv"));
  ops.push_back(matmul(s, p + "out", p + "attn", p + "out.w", s.h, s.h, s.bias.out));
  ops.push_back(residual(s, p + "add1", x, p + "out"));
  ops.push_back(norm(s, p + "ln2", p + "add1"));
  if (load) moe(arch, s, p, *load, top_k_of(arch, spec), ops, b.idle_params);
  else mlp(arch, s, p, {p + "ln2"}, {}, ops);
  ops.push_back(residual(s, p + "add2", p + "add1", ops.back().name));
  return b;
}

Block head(const TransformerArch& arch, const Dims& s, const std::string& x) {
  Block b{"head", "lm_head", -1, {}};
  b.ops.push_back(norm(s, "final_norm", x));
  b.ops.push_back(matmul(s, "lm_head", "final_norm", arch.tied_embeddings ? "embed.wte" : "lm_head.w", s.h, s.V,
                         s.bias.lm_head));
  return b;
}

}  // namespace

std::vector<Block> transformer_blocks(const TransformerArch& arch, const TransformerSpec& spec, int layers) {
  const Dims s = dims_of(arch, spec);
  std::vector<Block> blocks;
  blocks.push_back(embedding(arch, s));
  const std::vector<std::vector<long>> loads = is_moe(arch) ? expert_loads(arch, spec, layers)
                                                            : std::vector<std::vector<long>>{};
  for (int l = 0; l < layers; ++l)
    blocks.push_back(layer(arch, spec, s, l, blocks.back().ops.back().name, loads.empty() ? nullptr : &loads[l]));
  blocks.push_back(head(arch, s, blocks.back().ops.back().name));
  return blocks;
}

}  // namespace placesim::models
