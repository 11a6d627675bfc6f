// Parameter counts of the generated architectures against their published sizes.
//
// The count is the sum of the Param nodes' bytes divided by bytes per element. Each expected
// value is worked out by hand from the published hyper-parameters (h hidden, f ffn, V vocab,
// L layers), then compared with the size the model's authors report, rounded as they round it.
#include <gtest/gtest.h>

#include "models/generators/transformer.hpp"
#include "sums.hpp"

namespace placesim::models {
namespace {

double param_count(const std::string& arch, DType dtype = DType::FP16,
                   Granularity gran = Granularity::Op) {
  TransformerSpec spec;
  spec.arch = arch;
  spec.seq = 16;
  spec.dtype = dtype;
  spec.granularity = gran;
  return test::totals(generate_transformer(spec)).param_bytes / bytes_per_element(dtype);
}

// GPT-2 (biases, LayerNorm scale+shift, 1024 learned positions, lm_head tied to wte):
//   per layer: qkv 3h^2+3h, out h^2+h, up h*4h+4h, down 4h*h+h, two LayerNorms 4h = 12h^2+13h
//   total: V*h (wte) + 1024*h (wpe) + L*(12h^2+13h) + 2h (final LayerNorm)
TEST(TransformerParams, Gpt2Large) {
  // h=1280: 12h^2+13h = 19,660,800+16,640 = 19,677,440; x36 = 708,387,840
  // wte 50257*1280 = 64,328,960; wpe 1,310,720; final 2,560 -> 774,030,080
  const double n = param_count("gpt2-large");
  EXPECT_EQ(n, 774'030'080.0);
  EXPECT_NEAR(n, 774e6, 0.5e6);  // published: 774M
}

TEST(TransformerParams, Gpt2Xl) {
  // h=1600: 12h^2+13h = 30,720,000+20,800 = 30,740,800; x48 = 1,475,558,400
  // wte 50257*1600 = 80,411,200; wpe 1,638,400; final 3,200 -> 1,557,611,200
  const double n = param_count("gpt2-xl");
  EXPECT_EQ(n, 1'557'611'200.0);
  EXPECT_NEAR(n, 1.558e9, 0.5e6);  // published: 1558M ("1.5B")
}

// GPT-3 uses GPT-2's block with 2048 learned positions (Brown et al. 2020, Table 2.1).
TEST(TransformerParams, Gpt3) {
  // small, h=768, L=12: 12h^2+13h = 7,077,888+9,984 = 7,087,872; x12 = 85,054,464;
  //   wte 50257*768 = 38,597,376; wpe 2048*768 = 1,572,864; final 1,536 -> 125,226,240
  EXPECT_EQ(param_count("gpt3-small"), 125'226'240.0);
  // xl, h=2048, L=24: 50,331,648+26,624 = 50,358,272; x24 = 1,208,598,528;
  //   wte 102,926,336; wpe 4,194,304; final 4,096 -> 1,315,723,264 (published 1.3B)
  EXPECT_EQ(param_count("gpt3-xl"), 1'315'723'264.0);
  // 175b, h=12288, L=96: 1,811,939,328+159,744 = 1,812,099,072; x96 = 173,961,510,912;
  //   wte 617,558,016; wpe 25,165,824; final 24,576 -> 174,604,259,328 (published 175.0B)
  const double n = param_count("gpt3-175b");
  EXPECT_EQ(n, 174'604'259'328.0);
  EXPECT_NEAR(n, 175e9, 0.5e9);
}

// MT-NLG 530B: GPT-3's block, 2048 learned positions, vocabulary 51200 (Smith et al. 2022).
TEST(TransformerParams, Mt530b) {
  // h=20480, L=105: 12h^2+13h = 5,033,164,800+266,240 = 5,033,431,040; x105 = 528,510,259,200;
  //   wte 51200*20480 = 1,048,576,000; wpe 2048*20480 = 41,943,040; final 40,960
  //   -> 529,600,819,200 (published: 530B)
  const double n = param_count("mt-530b");
  EXPECT_EQ(n, 529'600'819'200.0);
  EXPECT_NEAR(n, 530e9, 0.5e9);
}

// LLaMA (no biases, RMSNorm scale only, rotary positions, untied lm_head, kvd = kv_heads*h/heads):
//   per layer: q h^2, k and v 2*h*kvd, out h^2, gate+up+down 3*h*f, two RMSNorms 2h
//   total: V*h (embedding) + L*(...) + h (final norm) + V*h (lm_head)
TEST(TransformerParams, OpenLlama3b) {
  // h=3200, f=8640: 4h^2 = 40,960,000; 3hf = 82,944,000; 2h = 6,400 -> 123,910,400 x26
  //   = 3,221,670,400; embedding + lm_head 2*32000*3200 = 204,800,000; final 3,200
  //   -> 3,426,473,600
  const double n = param_count("openllama-3b");
  EXPECT_EQ(n, 3'426'473'600.0);
  EXPECT_NEAR(n, 3.43e9, 0.005e9);  // published (model card / HF): 3.43B, marketed "3B"
}

TEST(TransformerParams, Llama2_7bAndOpenLlama7b) {
  // h=4096, f=11008: 4h^2 = 67,108,864; 3hf = 135,266,304; 2h = 8,192 -> 202,383,360 x32
  //   = 6,476,267,520; 2*32000*4096 = 262,144,000; final 4,096 -> 6,738,415,616
  for (const char* arch : {"llama2-7b", "openllama-7b"}) {
    const double n = param_count(arch);
    EXPECT_EQ(n, 6'738'415'616.0) << arch;
    EXPECT_NEAR(n, 6.74e9, 0.005e9) << arch;  // published: 6.74B
  }
}

TEST(TransformerParams, Llama2_13b) {
  // h=5120, f=13824: 4h^2 = 104,857,600; 3hf = 212,336,640; 2h = 10,240 -> 317,204,480 x40
  //   = 12,688,179,200; 2*32000*5120 = 327,680,000; final 5,120 -> 13,015,864,320
  const double n = param_count("llama2-13b");
  EXPECT_EQ(n, 13'015'864'320.0);
  EXPECT_NEAR(n, 13.0e9, 0.05e9);  // published: 13.0B
}

TEST(TransformerParams, Llama2_70bWithGqa) {
  // h=8192, 64 heads of 128, 8 KV heads: kvd = 1,024; f=28672
  //   q h^2 = 67,108,864; k,v 2*8192*1024 = 16,777,216; out 67,108,864; 3hf = 704,643,072;
  //   2h = 16,384 -> 855,654,400 x80 = 68,452,352,000; 2*32000*8192 = 524,288,000;
  //   final 8,192 -> 68,976,648,192
  const double n = param_count("llama2-70b");
  EXPECT_EQ(n, 68'976'648'192.0);
  EXPECT_NEAR(n, 69e9, 0.5e9);  // published: "69B" (68.98B)
}

TEST(TransformerParams, WeightBytesFollowTheDtype) {
  // Same element count whatever the storage: 4, 2, 2, 1 and 0.5 bytes per element.
  for (DType t : {DType::FP32, DType::BF16, DType::INT8, DType::INT4})
    EXPECT_EQ(param_count("gpt2-large", t), 774'030'080.0) << to_string(t);
}

TEST(TransformerParams, LayerGranularityHoldsTheSameWeights) {
  EXPECT_EQ(param_count("gpt2-large", DType::FP16, Granularity::Layer), 774'030'080.0);
  EXPECT_EQ(param_count("llama2-70b", DType::INT4, Granularity::Layer), 68'976'648'192.0);
}

}  // namespace
}  // namespace placesim::models
