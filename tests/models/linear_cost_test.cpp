// The linear cost model (models/cost/linear.cpp): times worked by hand from ScheInfer's Table I
// (the scheinfer-a preset), CPU thread scaling through the contention curve and per-thread-count
// fits, the fallback, and bad calibrations and options located at their keys.
#include <gtest/gtest.h>

#include "tests/error_of.hpp"

#include "hw/topology_yaml.hpp"
#include "models/cost/cost_models.hpp"
#include "roofline_support.hpp"

namespace placesim::models {
namespace {

// LLaMA-7B's FC1 on 16 tokens: [16, 4096] x [4096, 11008], n = T * M * H = 721,420,288.
constexpr double kT = 16, kM = 4096, kH = 11008;
constexpr double kN = kT * kM * kH;

Node fc1() {
  Node n = work(2 * kN, 0);
  n.name = "fc1";
  n.shape = GemmShape{.m = kT, .n = kH, .k = kM, .weight = GemmWeight::B};
  return n;
}

Graph one(Node n, DType dtype) {
  Graph g;
  g.dtype = dtype;
  g.add_node(std::move(n));
  g.validate();
  return g;
}

std::shared_ptr<const CostModel> linear(const std::string& spec, const hw::Topology& t, const Graph& g) {
  return cost_models().get("linear").make(Yaml::load_string(spec, "s.yaml"), t, g);
}

hw::Topology scheinfer_a() { return hw::load_topology(Yaml(YAML::Node("scheinfer-a"), "s.yaml")); }

const hw::Device& dev(const hw::Topology& t, const char* id) { return t.devices[t.index(id)]; }

using test::error_of;

TEST(LinearCost, TableIGemmOnScheInferA) {
  const hw::Topology t = scheinfer_a();
  const hw::Device& gpu = dev(t, "gpu0");
  const hw::Device cpu = on_cores(dev(t, "cpu0"), 0);  // a plan without cpu_cores: all 32 cores
  for (DType d : {DType::FP16, DType::INT4}) {
    const Graph g = one(fc1(), d);
    const auto m = linear("linear", t, g);
    const double got_gpu = m->duration(g.nodes[0], gpu, d), got_cpu = m->duration(g.nodes[0], cpu, d);
    if (d == DType::FP16) {
      // GPU: launch (Table I, 4.4e-5) + alpha_G + n beta_G; CPU: alpha_C + n beta_C (no launch).
      expect_rel(got_gpu, 4.4e-5 + 1.0e-7 + kN * 3.2e-12);
      expect_rel(got_cpu, 7.4e-7 + kN * 1.6e-11);
    } else {
      expect_rel(got_gpu, 4.4e-5 + 4.7e-6 + kN * 8.1e-13);
      expect_rel(got_cpu, 1.1e-5 + kN * 5.4e-12);
    }
  }
}

TEST(LinearCost, ThreadsScaleTheCpuBetaOfAFitOnAllCores) {
  // Table I's CPU fit counts as measured on all 32 cores; 8 threads do a quarter of the work per
  // unit time (scheinfer-a gives no contention curve): beta * 32 / 8.
  const hw::Topology t = scheinfer_a();
  const Graph g = one(fc1(), DType::FP16);
  const auto m = linear("{name: linear, threads: 8}", t, g);
  expect_rel(m->duration(g.nodes[0], on_cores(dev(t, "cpu0"), 0), DType::FP16), 7.4e-7 + kN * 1.6e-11 * 32 / 8);
  // A plan's own core count wins over the option: 16 cores.
  expect_rel(m->duration(g.nodes[0], on_cores(dev(t, "cpu0"), 16), DType::FP16), 7.4e-7 + kN * 1.6e-11 * 32 / 16);
}

constexpr const char* kTwoCores = R"(devices:
  - {id: cpu, type: cpu, cores: 2, fp32: 100GFLOPS, memory_bw: 10GB/s, contention: [1, 1.25]}
calibration:
  cpu_gemm: {threads: 1, fp32: {alpha: 1.0e-6, beta: 2.0e-11}}
)";

TEST(LinearCost, ContentionCurveBridgesThreadCounts) {
  const hw::Topology t = hw::load_topology_text(kTwoCores, "hw.yaml");
  const Graph g = one(fc1(), DType::FP32);
  const auto m = linear("linear", t, g);
  const hw::Device& cpu = dev(t, "cpu");
  // 2 cores busy, the op on both: beta_1 * (1 / w_1) * (w_2 / 2) = 2e-11 * 1.25 / 2.
  expect_rel(m->duration(g.nodes[0], on_cores(cpu, 2), DType::FP32), 1.0e-6 + kN * 2.0e-11 * 1.25 / 2);
  // One core of two busy ones (Chrion's W): beta_1 * w_2.
  expect_rel(m->duration(g.nodes[0], on_one_core(cpu, 2), DType::FP32), 1.0e-6 + kN * 2.0e-11 * 1.25);
  expect_rel(m->duration(g.nodes[0], on_cores(cpu, 1), DType::FP32), 1.0e-6 + kN * 2.0e-11);
}

TEST(LinearCost, AFitPerThreadCountIsUsedAsMeasured) {
  const hw::Topology t = hw::load_topology_text(R"(devices:
  - {id: cpu, type: cpu, cores: 2, fp32: 100GFLOPS, memory_bw: 10GB/s, contention: [1, 1.25]}
calibration:
  cpu_gemm:
    - {threads: 1, fp32: {alpha: 1.0e-6, beta: 2.0e-11}}
    - {threads: 2, fp32: {alpha: 3.0e-6, beta: 1.5e-11}}
)",
                                                "hw.yaml");
  const Graph g = one(fc1(), DType::FP32);
  const auto m = linear("linear", t, g);
  const hw::Device& cpu = dev(t, "cpu");
  expect_rel(m->duration(g.nodes[0], on_cores(cpu, 2), DType::FP32), 3.0e-6 + kN * 1.5e-11);
  expect_rel(m->duration(g.nodes[0], on_cores(cpu, 1), DType::FP32), 1.0e-6 + kN * 2.0e-11);
  // One core of two busy: the 2-thread fit's rate per core, beta_2 * 2 / 1.
  expect_rel(m->duration(g.nodes[0], on_one_core(cpu, 2), DType::FP32), 3.0e-6 + kN * 1.5e-11 * 2);
}

TEST(LinearCost, OpsWithoutAClassNeedTheFallback) {
  const hw::Topology t = scheinfer_a();
  Node cell = work(1e6, 4e6);
  cell.name = "cell";
  cell.shape = LstmShape{.batch = 8, .input = 64, .hidden = 64};
  const Graph g = one(cell, DType::FP16);
  EXPECT_EQ(error_of([&] { linear("{name: linear}", t, g); }),
            "s.yaml:1:1: op 'cell' is of class lstm: the linear cost model has fits for gemm, attention, norm, "
            "elementwise and gather ops only (calibration keys such as gpu_gemm, cpu_norm); give it `fallback: "
            "roofline` to price the others by the roofline");
  const auto m = linear("{name: linear, fallback: roofline}", t, g);
  const hw::Device& gpu = dev(t, "gpu0");
  EXPECT_EQ(m->duration(g.nodes[0], gpu, DType::FP16), RooflineCost().duration(g.nodes[0], gpu, DType::FP16));
}

// Fits per op class (models/cost/calibration.hpp), each worked by hand on a GPU with a 5 us
// launch: a norm of 1e6 elements reading a 1e3-element weight makes 2.001e6 element accesses; a
// GEMM [100, 1000] x [1000, 999] has n = 99,900,000 multiply-adds and is off the tensor cores' tiles
// (999 and 100 are not multiples of 8), so it takes gemm_unaligned; [128, 1024] x [1024, 1024]
// (n = 134,217,728) takes gemm.
TEST(LinearCost, EachOpClassTakesItsOwnFit) {
  const hw::Topology t = hw::load_topology_text(R"(devices:
  - {id: gpu0, type: gpu, fp32: 10TFLOPS, memory: 16GiB, memory_bw: 900GB/s, launch: 5us}
calibration:
  gpu_gemm: {fp16: {alpha: 1.0e-5, beta: 1.0e-15}}
  gpu_gemm_unaligned: {fp16: {alpha: 2.0e-5, beta: 8.0e-15}}
  gpu_norm: {fp16: {alpha: 3.0e-6, beta: 1.0e-12}}
)", "hw.yaml");
  Node norm = work(4e6, 4e6);
  norm.name = "ln";
  norm.shape = ElementwiseShape{.elements = 1e6, .flops_per_element = 4, .weight_elements = 1e3};
  Node odd = work(2e8, 0), even = work(2 * 134217728.0, 0);
  odd.name = "odd";
  odd.shape = GemmShape{.m = 100, .n = 999, .k = 1000, .weight = GemmWeight::B};
  even.name = "even";
  even.shape = GemmShape{.m = 128, .n = 1024, .k = 1024, .weight = GemmWeight::B};
  const hw::Device& gpu = dev(t, "gpu0");
  const Graph gn = one(norm, DType::FP16), go = one(odd, DType::FP16), ge = one(even, DType::FP16);
  expect_rel(linear("linear", t, gn)->duration(gn.nodes[0], gpu, DType::FP16), 5e-6 + 3e-6 + 2.001e6 * 1e-12);
  expect_rel(linear("linear", t, go)->duration(go.nodes[0], gpu, DType::FP16), 5e-6 + 2e-5 + 99.9e6 * 8e-15);
  expect_rel(linear("linear", t, ge)->duration(ge.nodes[0], gpu, DType::FP16), 5e-6 + 1e-5 + 134217728.0 * 1e-15);
  // Without a gemm_unaligned fit, the gemm fit serves every GEMM.
  const hw::Topology plain = hw::load_topology_text(R"(devices:
  - {id: gpu0, type: gpu, fp32: 10TFLOPS, memory: 16GiB, memory_bw: 900GB/s, launch: 5us}
calibration:
  gpu_gemm: {fp16: {alpha: 1.0e-5, beta: 1.0e-15}}
)", "hw.yaml");
  expect_rel(linear("linear", plain, go)->duration(go.nodes[0], dev(plain, "gpu0"), DType::FP16), 5e-6 + 1e-5 + 99.9e6 * 1e-15);
  // A norm with no gpu_norm fit is an error at the calibration block, unless the roofline stands in.
  EXPECT_NE(error_of([&] { linear("linear", plain, gn); }).find("calibration has no 'gpu_norm' fits"), std::string::npos);
}

TEST(LinearCost, MissingFitsAreLocatedAtTheCalibrationKey) {
  // kTwoCores has no gpu_gemm: a GPU beside the CPU needs one.
  const hw::Topology t = hw::load_topology_text(R"(devices:
  - {id: gpu0, type: gpu, fp32: 10TFLOPS, memory: 16GiB, memory_bw: 900GB/s}
  - {id: cpu, type: cpu, cores: 2, fp32: 100GFLOPS, memory_bw: 10GB/s}
calibration:
  source: a test
  cpu_gemm: {threads: 1, fp32: {alpha: 1.0e-6, beta: 2.0e-11}}
)",
                                                "hw.yaml");
  EXPECT_EQ(error_of([&] { linear("linear", t, one(fc1(), DType::FP32)); }),
            "hw.yaml:5:3: calibration has no 'gpu_gemm' fits: the linear cost model needs one for gemm op 'fc1' on gpu "
            "'gpu0' (fp32), or give the cost model `fallback: roofline`");
  // cpu_gemm has fp32 only; an fp16 model needs an fp16 fit (the GPU is checked first: drop it).
  const hw::Topology cpu_only = hw::load_topology_text(kTwoCores, "hw.yaml");
  EXPECT_EQ(error_of([&] { linear("linear", cpu_only, one(fc1(), DType::FP16)); }),
            "hw.yaml:4:13: calibration 'cpu_gemm' has no fp16 fit: the linear cost model needs one for gemm op 'fc1' on "
            "cpu 'cpu', or give the cost model `fallback: roofline`");
}

TEST(LinearCost, BadCalibrationAndOptionsAreLocated) {
  const Graph g = one(fc1(), DType::FP32);
  const auto error_with = [&](const std::string& cpu_gemm) {
    const hw::Topology t = hw::load_topology_text(
        "devices: [{id: cpu, type: cpu, cores: 2, fp32: 100GFLOPS, memory_bw: 10GB/s}]\ncalibration:\n  cpu_gemm: " +
            cpu_gemm + "\n",
        "hw.yaml");
    return error_of([&] { linear("linear", t, g); });
  };
  EXPECT_EQ(error_with("{fp8: {alpha: 1.0e-6, beta: 2.0e-11}}"),
            "hw.yaml:3:14: unknown dtype 'fp8' (expected fp32, fp16, bf16, int8 or int4)");
  EXPECT_EQ(error_with("{threads: 0, fp32: {alpha: 1.0e-6, beta: 2.0e-11}}"),
            "hw.yaml:3:23: threads must be at least 1 (the cores these fits were measured on), got 0");
  EXPECT_EQ(error_with("{fp32: {alpha: -1.0e-6, beta: 2.0e-11}}"),
            "hw.yaml:3:28: alpha must be >= 0 (a time cannot be negative), got -1e-06");
  const hw::Topology t = hw::load_topology_text(kTwoCores, "hw.yaml");
  EXPECT_EQ(error_of([&] { linear("{name: linear, threads: 0}", t, g); }),
            "s.yaml:1:25: threads must be at least 1 (the cores a CPU op runs on), or all; got 0");
  EXPECT_EQ(error_of([&] { linear("{name: linear, threads: 4}", t, g); }),
            "s.yaml:1:25: threads is 4, but cpu 'cpu' has 2 cores");
  // Table I has fp16 and int4 fits only: an fp32 model is located in the preset (its CPU comes
  // first in the file).
  EXPECT_EQ(error_of([&] { linear("linear", scheinfer_a(), g); }),
            "preset:scheinfer-a:39:13: calibration 'cpu_gemm' has no fp32 fit: the linear cost model needs one for gemm "
            "op 'fc1' on cpu 'cpu0', or give the cost model `fallback: roofline`");
}

}  // namespace
}  // namespace placesim::models
