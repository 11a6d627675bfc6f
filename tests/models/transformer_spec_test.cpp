// Reading a transformer spec from YAML: defaults, every key, and located errors.
#include <gtest/gtest.h>

#include "models/generators/transformer.hpp"

namespace placesim::models {
namespace {

TransformerSpec parse(const std::string& text) {
  return parse_transformer_spec(Yaml::load_string(text, "s.yaml"));
}

// The message of the InputError parsing `text` throws ("" when none).
std::string error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(TransformerSpec, ReadsEveryKey) {
  const TransformerSpec s = parse(
      "{generator: transformer, arch: llama2-70b, batch: 4, seq: 2048, phase: decode, dtype: int4,"
      " granularity: layer, layers: 3}");
  EXPECT_EQ(s.arch, "llama2-70b");
  EXPECT_EQ(s.batch, 4);
  EXPECT_EQ(s.seq, 2048);
  EXPECT_EQ(s.phase, Phase::Decode);
  EXPECT_EQ(s.dtype, DType::INT4);
  EXPECT_EQ(s.granularity, Granularity::Layer);
  EXPECT_EQ(s.layers, 3);
}

TEST(TransformerSpec, Defaults) {
  const TransformerSpec s = parse("arch: gpt2-xl");
  EXPECT_EQ(s.batch, 1);
  EXPECT_EQ(s.seq, 128);
  EXPECT_EQ(s.phase, Phase::Prefill);
  EXPECT_EQ(s.dtype, DType::FP16);
  EXPECT_EQ(s.granularity, Granularity::Op);
  EXPECT_EQ(s.layers, 0);
}

TEST(TransformerSpec, ErrorsNameTheLocation) {
  EXPECT_EQ(error_of("arch: gpt2-xl\nbatchsize: 2"),
            "s.yaml:2:1: unknown key 'batchsize' (expected one of: generator, arch, config, batch, seq, phase, output, "
            "kv_stride, dtype, granularity, layers, experts)");
  EXPECT_EQ(error_of("arch: gpt5"),
            "s.yaml:1:7: unknown arch 'gpt5' (known: gpt2-large, gpt2-xl, gpt3-small, gpt3-medium, gpt3-large, "
            "gpt3-xl, gpt3-2.7b, gpt3-6.7b, gpt3-13b, gpt3-175b, mt-530b, openllama-3b, openllama-7b, "
            "llama2-7b, llama2-13b, llama2-70b, qwen2-7b, mixtral-8x7b, mixtral-8x22b, qwen2-57b-a14b, phimoe)");
  EXPECT_EQ(error_of("arch: gpt2-xl\nphase: train"),
            "s.yaml:2:8: unknown phase 'train' (expected prefill, decode, generate)");
  EXPECT_EQ(error_of("arch: gpt2-xl\ndtype: fp8"),
            "s.yaml:2:8: unknown dtype 'fp8' (expected fp32, fp16, bf16, int8 or int4)");
  EXPECT_EQ(error_of("arch: gpt2-xl\ngranularity: block"),
            "s.yaml:2:14: unknown granularity 'block' (expected op, layer)");
  EXPECT_EQ(error_of("arch: gpt2-xl\nbatch: 0"), "s.yaml:2:8: expected a positive integer, got '0'");
  EXPECT_EQ(error_of("arch: gpt2-xl\nseq: 2048"), "s.yaml:2:6: seq 2048 exceeds gpt2-xl's 1024 positions");
  EXPECT_EQ(error_of("arch: gpt2-xl\nlayers: 49"),
            "s.yaml:2:9: expected layers between 0 (all) and 48 for gpt2-xl");
  EXPECT_EQ(error_of("generator: lstm\narch: gpt2-xl"),
            "s.yaml:1:12: expected generator 'transformer', got 'lstm'");
  EXPECT_EQ(error_of("batch: 1"),
            "s.yaml:1:1: missing key 'arch' (a built-in architecture) or 'config' (a Hugging Face config.json)");
  EXPECT_EQ(error_of("{arch: gpt2-xl, config: c.json}"), "s.yaml:1:25: give arch or config, not both");
  EXPECT_EQ(error_of("{config: no/such.json}"), "s.yaml:1:10: no config file 'no/such.json'");
}

TEST(TransformerSpec, ReadsAGeneration) {
  const TransformerSpec s = parse("{arch: mt-530b, seq: 1024, phase: generate, output: 1024, kv_stride: 16}");
  EXPECT_EQ(s.phase, Phase::Generate);
  EXPECT_EQ(s.seq, 1024);
  EXPECT_EQ(s.output, 1024);
  EXPECT_EQ(s.kv_stride, 16);
  EXPECT_EQ(parse("{arch: gpt2-xl, phase: generate, output: 3}").kv_stride, 1);  // exact unless asked
}

TEST(TransformerSpec, GenerationErrorsNameTheLocation) {
  EXPECT_EQ(error_of("arch: gpt2-xl\nphase: generate"), "s.yaml:1:1: missing key 'output'");
  EXPECT_EQ(error_of("arch: gpt2-xl\nphase: generate\noutput: 0"), "s.yaml:3:9: expected a positive integer, got '0'");
  EXPECT_EQ(error_of("arch: gpt2-xl\nphase: generate\noutput: 4\nkv_stride: 0"),
            "s.yaml:4:12: expected a positive integer, got '0'");
  EXPECT_EQ(error_of("arch: gpt2-xl\nphase: generate\noutput: 2.5"), "s.yaml:3:9: expected an integer, got '2.5'");
  EXPECT_EQ(error_of("arch: gpt2-xl\nphase: prefill\noutput: 4"),
            "s.yaml:3:9: output applies to phase generate only (phase is prefill)");
  EXPECT_EQ(error_of("arch: gpt2-xl\noutput: 4"), "s.yaml:2:9: output applies to phase generate only (phase is prefill)");
  EXPECT_EQ(error_of("arch: gpt2-xl\nphase: decode\nkv_stride: 2"),
            "s.yaml:3:12: kv_stride applies to phase generate only (phase is decode)");
  // The last decode step attends over seq + output - 1 positions.
  EXPECT_EQ(error_of("arch: gpt2-xl\nseq: 1000\nphase: generate\noutput: 26"),
            "s.yaml:4:9: seq 1000 + output 26 needs 1025 positions; gpt2-xl has 1024");
  EXPECT_EQ(error_of("arch: gpt2-xl\nseq: 1000\nphase: generate\noutput: 25"), "");
}

TEST(TransformerSpec, GenerateRejectsWhatParseRejects) {
  TransformerSpec s;
  s.arch = "nope";
  EXPECT_THROW(generate_transformer(s), InputError);
  s.arch = "gpt2-large";
  s.layers = 37;
  EXPECT_THROW(generate_transformer(s), InputError);
  s.layers = 0;
  s.batch = 0;
  EXPECT_THROW(generate_transformer(s), InputError);
}

TEST(TransformerSpec, TruncationAndName) {
  TransformerSpec s;
  s.arch = "llama2-13b";
  s.layers = 2;
  const Graph g = generate_transformer(s);
  EXPECT_EQ(g.name, "llama2-13b-prefill-b1-s128-fp16-op-2l");
  EXPECT_EQ(g.dtype, DType::FP16);
  EXPECT_GE(g.find("l1.add2"), 0);
  EXPECT_EQ(g.find("l2.ln1"), -1);
}

}  // namespace
}  // namespace placesim::models
