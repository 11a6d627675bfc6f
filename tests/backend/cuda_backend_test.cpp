// The CUDA backend where a GPU is usable: a small graph on two streams, every task measured in
// dependency order. Without a GPU (or without CUDA in the build) each test skips, saying why,
// and `placesim validate --backend cuda` exits 2 with that reason.
#include <gtest/gtest.h>

#include "tests/support/run_cli.hpp"
#include "backend/backend.hpp"
#include "backend/cuda_api.hpp"

namespace placesim::backend {
namespace {

// Why the CUDA backend cannot run here ("" when it can): no CUDA in the build, a module that
// does not load, or no usable GPU.
std::string why_no_gpu() {
  std::string why;
  const CudaApi* cuda = load_cuda(why);
  return cuda ? cuda->unavailable_reason() : why;
}

TEST(CudaBackend, WithoutAGpuValidateExitsTwoWithTheReason) {
  const std::string why = why_no_gpu();
  if (why.empty()) GTEST_SKIP() << "a GPU is usable here; this test covers machines without one";
  const auto r = testing::run_cli("validate " + std::string(PLACESIM_SOURCE_DIR) +
                                  "/scenarios/validate/lstm.yaml --backend cuda -o /tmp/placesim-nogpu.h5");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("backend cuda"), std::string::npos) << r.err;
}

TEST(CudaBackend, RunsAGraphOnTwoStreamsInDependencyOrder) {
  const std::string why = why_no_gpu();
  if (!why.empty()) GTEST_SKIP() << "CUDA backend not testable here: " << why;
  engine::TaskGraph g;
  Workload w;
  w.units = {{Unit::Kind::Host, 0, "host"}, {Unit::Kind::Gpu, 0, "gpu0"}};
  g.add_queue("gpu0.h2d");
  g.add_queue("gpu0.compute");
  w.queue_unit = {1, 1};
  engine::Task copy;
  copy.kind = engine::TaskKind::Transfer;
  copy.queue = 0;
  g.add_task("w@gpu0", std::move(copy));
  engine::Task gemm;
  gemm.queue = 1;
  gemm.deps = {0};
  g.add_task("mm", std::move(gemm));
  Work c;
  c.kind = WorkKind::Copy;
  c.bytes = 8 << 20;
  c.src = 0;
  c.dst = 1;
  Work m;
  m.kind = WorkKind::Gemm;
  m.m = m.n = m.k = 1024;
  w.tasks = {c, m};
  const engine::Trace t = run_backend("cuda", g, w, {}).trace;
  EXPECT_GE(t.tasks[1].start, t.tasks[0].end);
  EXPECT_GT(t.tasks[1].end, t.tasks[1].start);
}

}  // namespace
}  // namespace placesim::backend
