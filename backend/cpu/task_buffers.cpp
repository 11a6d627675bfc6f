#include "backend/cpu/task_buffers.hpp"

#include <algorithm>
#include <cmath>

#include "backend/cpu/kernels.hpp"
#include "sim/core/error.hpp"

namespace placesim::backend::cpu {
namespace {

std::size_t floats_for(double bytes) { return static_cast<std::size_t>(std::ceil(std::max(0.0, bytes) / sizeof(float))); }

// [begin, end) of part `part` of `parts` of n items: the parts cover 0..n once, sizes within one.
struct Slice {
  long begin, end;
};
Slice slice(long n, int part, int parts) { return {n * part / parts, n * (part + 1) / parts}; }

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

void TaskBuffers::run(const Work& w, int part, int parts) {
  PLACESIM_ASSERT(part >= 0 && part < parts, "part out of range");
  switch (w.kind) {
    case WorkKind::Gemm:
      if (w.n >= w.m) {  // columns [begin, end) of B and C
        const Slice s = slice(w.n, part, parts);
        if (s.end > s.begin) gemm(a_.get(), b_.get() + s.begin, c_.get() + s.begin, w.m, s.end - s.begin, w.k, w.k, w.n, w.n);
      } else {  // rows [begin, end) of A and C
        const Slice s = slice(w.m, part, parts);
        if (s.end > s.begin)
          gemm(a_.get() + s.begin * w.k, b_.get(), c_.get() + s.begin * w.n, s.end - s.begin, w.n, w.k, w.k, w.n, w.n);
      }
      break;
    case WorkKind::Stream: {
      const Slice s = slice(static_cast<long>(a_floats_), part, parts);
      stream(a_.get() + s.begin, b_.get() + s.begin, static_cast<std::size_t>(s.end - s.begin));
      break;
    }
    case WorkKind::Copy: {
      const Slice s = slice(static_cast<long>(copy_bytes_), part, parts);
      copy(reinterpret_cast<const char*>(a_.get()) + s.begin, reinterpret_cast<char*>(b_.get()) + s.begin,
           static_cast<std::size_t>(s.end - s.begin));
      break;
    }
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
