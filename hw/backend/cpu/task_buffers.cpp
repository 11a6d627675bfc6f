#include "hw/backend/cpu/task_buffers.hpp"

#include <algorithm>
#include <cmath>

#include "hw/backend/cpu/kernels.hpp"
#include "sim/core/error.hpp"

namespace placesim::backend::cpu {
namespace {

std::size_t floats_for(double bytes) { return static_cast<std::size_t>(std::ceil(std::max(0.0, bytes) / sizeof(float))); }

std::unique_ptr<float[]> touched(std::size_t floats) {
  auto p = std::make_unique<float[]>(floats);  // value-initialised: zero, every page touched
  std::fill_n(p.get(), floats, 1.0f);
  return p;
}

}  // namespace

double bytes_needed(const Work& w) {
  switch (w.kind) {
    case WorkKind::Gemm:
      return sizeof(float) * (static_cast<double>(w.m) * w.k + static_cast<double>(w.k) * w.n +
                              static_cast<double>(w.m) * w.n);
    case WorkKind::Stream:
      return w.bytes;
    case WorkKind::Copy:
      return 2 * w.bytes;
    case WorkKind::None:
    case WorkKind::Spin:
    case WorkKind::Dha:
      return 0;
  }
  return 0;
}

TaskBuffers::TaskBuffers(const Work& w) {
  switch (w.kind) {
    case WorkKind::Gemm:
      a_ = touched(static_cast<std::size_t>(w.m * w.k));
      b_ = touched(static_cast<std::size_t>(w.k * w.n));
      c_ = touched(static_cast<std::size_t>(w.m * w.n));
      break;
    case WorkKind::Stream:
      a_floats_ = floats_for(w.bytes / 2);
      a_ = touched(a_floats_);
      b_ = touched(a_floats_);
      break;
    case WorkKind::Copy:
      copy_bytes_ = static_cast<std::size_t>(std::max(0.0, w.bytes));
      a_ = touched(floats_for(w.bytes));
      b_ = touched(floats_for(w.bytes));
      break;
    case WorkKind::None:
    case WorkKind::Spin:
    case WorkKind::Dha:
      break;
  }
}

void TaskBuffers::run(const Work& w) {
  switch (w.kind) {
    case WorkKind::Gemm:
      gemm(a_.get(), b_.get(), c_.get(), w.m, w.n, w.k);
      break;
    case WorkKind::Stream:
      stream(a_.get(), b_.get(), a_floats_);
      break;
    case WorkKind::Copy:
      copy(a_.get(), b_.get(), copy_bytes_);
      break;
    case WorkKind::Spin:
      spin(w.seconds);
      break;
    case WorkKind::None:
      break;
    case WorkKind::Dha:
      PLACESIM_ASSERT(false, "the CPU backend refuses Dha work before it runs");
  }
}

}  // namespace placesim::backend::cpu
