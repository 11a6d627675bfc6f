// Parameter counts of the mixture-of-experts architectures (and Qwen2 7B) against their
// published sizes.
//
// Each expected value is worked out by hand from the Hugging Face config.json (h hidden, kvd =
// kv_heads * h / heads, f each expert's intermediate size, E experts, k top_k, V vocab, L
// layers), then compared with the size the model's authors report, rounded as they round it.
// Total: every Param node. Active (what one token uses): the total less the routed experts a
// token does not use, (1 - k/E) of them.
#include <gtest/gtest.h>

#include "models/generators/transformer.hpp"
#include "sums.hpp"

namespace placesim::models {
namespace {

struct Count {
  double total = 0, active = 0;
};

Count param_count(const std::string& arch, DType dtype = DType::FP16, Granularity gran = Granularity::Op) {
  TransformerSpec spec;
  spec.arch = arch;
  spec.seq = 16;
  spec.dtype = dtype;
  spec.granularity = gran;
  const Graph g = generate_transformer(spec);
  const double w = bytes_per_element(dtype);
  const TransformerArch& a = find_transformer_arch(arch);
  double routed = 0;
  for (int p : g.params())
    if (g.nodes[p].name.find(".expert") != std::string::npos) routed += g.nodes[p].param_bytes / w;
  const double total = test::totals(g).param_bytes / w;
  const double unused = a.moe.experts > 0 ? (1 - static_cast<double>(a.moe.top_k) / a.moe.experts) * routed : 0;
  return {total, total - unused};
}

// MoE layer (no biases, RMSNorm): attention q h^2, k and v 2*h*kvd, out h^2; two norms 2h;
// router h*E; each expert gate+up+down 3*h*f. Rest: embedding and lm_head 2*V*h, final norm h.
TEST(MoeParams, Mixtral8x7b) {
  // h=4096, kvd=1024, f=14336, E=8, k=2, L=32, V=32000
  //   attention 33,554,432 + 8,388,608 = 41,943,040; norms 8,192; router 32,768;
  //   expert 3*4096*14336 = 176,160,768
  //   layer 41,943,040 + 8,192 + 32,768 + 8*176,160,768 = 1,451,270,144; x32 = 46,440,644,608
  //   rest 2*32000*4096 + 4096 = 262,148,096 -> 46,702,792,704
  //   active layer 41,943,040 + 8,192 + 32,768 + 2*176,160,768 = 394,305,536; x32 + rest
  //   = 12,879,925,248
  const Count n = param_count("mixtral-8x7b");
  EXPECT_EQ(n.total, 46'702'792'704.0);
  EXPECT_EQ(n.active, 12'879'925'248.0);
  EXPECT_NEAR(n.total, 46.7e9, 0.05e9);  // published (Mistral AI): 46.7B total
  EXPECT_NEAR(n.active, 12.9e9, 0.05e9);  // 12.9B active
}

TEST(MoeParams, Mixtral8x22b) {
  // h=6144, kvd=1024, f=16384, E=8, k=2, L=56, V=32000
  //   attention 2*37,748,736 + 2*6,291,456 = 88,080,384; norms 12,288; router 49,152;
  //   expert 3*6144*16384 = 301,989,888
  //   layer 88,080,384 + 12,288 + 49,152 + 8*301,989,888 = 2,504,060,928; x56 = 140,227,411,968
  //   rest 2*32000*6144 + 6144 = 393,222,144 -> 140,620,634,112
  //   active layer 692,121,600; x56 + rest = 39,152,031,744
  const Count n = param_count("mixtral-8x22b");
  EXPECT_EQ(n.total, 140'620'634'112.0);
  EXPECT_EQ(n.active, 39'152'031'744.0);
  EXPECT_NEAR(n.total, 141e9, 0.5e9);  // published (Mistral AI): 141B total
  EXPECT_NEAR(n.active, 39e9, 0.5e9);  // 39B active
}

// Qwen2-57B-A14B adds q/k/v biases (h + 2*kvd) and a shared expert (3*h*f_s) with its gate (h).
TEST(MoeParams, Qwen2_57bA14b) {
  // h=3584, kvd=512, f=2560, f_s=20480, E=64, k=8, L=28, V=151936
  //   attention 2*12,845,056 + 2*1,835,008 + 4,608 = 29,364,736; norms 7,168; router 229,376;
  //   expert 3*3584*2560 = 27,525,120; shared 3*3584*20480 + 3584 = 220,204,544
  //   layer 29,364,736 + 7,168 + 229,376 + 64*27,525,120 + 220,204,544 = 2,011,413,504
  //   x28 = 56,319,578,112; rest 2*151936*3584 + 3584 = 1,089,080,832 -> 57,408,658,944
  //   active layer 470,006,784 (8 experts); x28 + rest = 14,249,270,784
  const Count n = param_count("qwen2-57b-a14b");
  EXPECT_EQ(n.total, 57'408'658'944.0);
  EXPECT_EQ(n.active, 14'249'270'784.0);
  EXPECT_NEAR(n.total, 57.4e9, 0.05e9);  // published (Qwen2 report, Table 1 / model card): 57.4B
  EXPECT_NEAR(n.active, 14e9, 0.5e9);    // "A14B": 14B activated, given to two digits
}

// Phi-3.5-MoE: LayerNorm (scale and shift, 2h each), biases on q, k, v and out, lm_head bias V.
TEST(MoeParams, Phi35Moe) {
  // h=4096, kvd=1024, f=6400, E=16, k=2, L=32, V=32064
  //   attention 41,943,040 + biases 4096 + 2048 + 4096 = 41,953,280; norms 16,384;
  //   router 65,536; expert 3*4096*6400 = 78,643,200
  //   layer 41,953,280 + 16,384 + 65,536 + 16*78,643,200 = 1,300,326,400; x32 = 41,610,444,800
  //   rest 2*32064*4096 + 8192 (final LayerNorm) + 32064 (lm_head bias) = 262,708,544
  //   -> 41,873,153,344; active layer 199,321,600; x32 + rest = 6,640,999,744
  const Count n = param_count("phimoe");
  EXPECT_EQ(n.total, 41'873'153'344.0);
  EXPECT_EQ(n.active, 6'640'999'744.0);
  EXPECT_NEAR(n.total, 41.9e9, 0.05e9);  // published (model card): 41.9B
  EXPECT_NEAR(n.active, 6.6e9, 0.05e9);  // 6.6B active
}

TEST(MoeParams, Qwen2_7bWithQkvBiases) {
  // h=3584, kvd=512, f=18944, L=28, V=152064: 2h^2 + 2*h*kvd + (h + 2*kvd) + 3hf + 2h
  //   = 25,690,112 + 3,670,016 + 4,608 + 203,685,888 + 7,168 = 233,057,792; x28 = 6,525,618,176
  //   rest 2*152064*3584 + 3584 = 1,089,998,336 -> 7,615,616,512
  const Count n = param_count("qwen2-7b");
  EXPECT_EQ(n.total, 7'615'616'512.0);
  EXPECT_EQ(n.active, n.total);
  EXPECT_NEAR(n.total, 7.6e9, 0.05e9);  // published (Qwen2 report, model card): 7.6B
}

// Weight-only quantisation: the same elements in every dtype, and both granularities hold them
// (idle experts' weights included).
TEST(MoeParams, WeightBytesFollowTheDtypeAtBothGranularities) {
  for (DType t : {DType::FP16, DType::INT4})
    for (Granularity gran : {Granularity::Op, Granularity::Layer}) {
      EXPECT_EQ(param_count("mixtral-8x7b", t, gran).total, 46'702'792'704.0) << to_string(t);
      EXPECT_EQ(param_count("qwen2-57b-a14b", t, gran).total, 57'408'658'944.0) << to_string(t);
    }
}

}  // namespace
}  // namespace placesim::models
