#include "backend/cuda/cuda_backend.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fmt/format.h>
#include <memory>
#include <thread>
#include <vector>

#include "backend/cpu/cpu_backend.hpp"
#include "backend/cpu/kernels.hpp"
#include "backend/cpu/machine.hpp"
#include "backend/cpu/task_buffers.hpp"
#include "backend/cuda/cuda_check.hpp"
#include "backend/cuda/gpu_kernels.hpp"
#include "backend/measured_trace.hpp"
#include "sim/core/error.hpp"
#include "sim/core/units.hpp"

namespace placesim::backend {
namespace {

using Clock = std::chrono::steady_clock;

// One allocation of any kind, freed with the matching call.
struct Memory {
  enum class Kind { None, Device, Pinned, Pageable, Mapped } kind = Kind::None;
  void* ptr = nullptr;
  void* device_view = nullptr;  // Mapped: the GPU's pointer to it
  int gpu = -1;

  Memory() = default;
  Memory(Kind k, std::size_t bytes, int on_gpu) : kind(k), gpu(on_gpu) {
    bytes = std::max<std::size_t>(bytes, 4);
    switch (k) {
      case Kind::Device:
        cuda_check(cudaSetDevice(gpu), "cudaSetDevice");
        cuda_check(cudaMalloc(&ptr, bytes), "cudaMalloc");
        cuda_check(cudaMemset(ptr, 0, bytes), "cudaMemset");
        break;
      case Kind::Pinned:
        cuda_check(cudaMallocHost(&ptr, bytes), "cudaMallocHost");
        std::fill_n(static_cast<char*>(ptr), bytes, 0);
        break;
      case Kind::Pageable:
        ptr = std::calloc(bytes, 1);
        if (!ptr) throw std::bad_alloc();
        break;
      case Kind::Mapped:
        cuda_check(cudaSetDevice(gpu), "cudaSetDevice");
        cuda_check(cudaHostAlloc(&ptr, bytes, cudaHostAllocMapped | cudaHostAllocPortable), "cudaHostAlloc");
        std::fill_n(static_cast<char*>(ptr), bytes, 0);
        cuda_check(cudaHostGetDevicePointer(&device_view, ptr, 0), "cudaHostGetDevicePointer");
        break;
      case Kind::None:
        break;
    }
  }
  ~Memory() {
    switch (kind) {
      case Kind::Device: cudaFree(ptr); break;
      case Kind::Pinned:
      case Kind::Mapped: cudaFreeHost(ptr); break;
      case Kind::Pageable: std::free(ptr); break;
      case Kind::None: break;
    }
  }
  Memory(const Memory&) = delete;
  Memory& operator=(const Memory&) = delete;
};

std::size_t element_bytes(Precision p) { return p == Precision::F32 ? 4 : 2; }

cudaDataType cuda_type(Precision p) {
  return p == Precision::F32 ? CUDA_R_32F : p == Precision::F16 ? CUDA_R_16F : CUDA_R_16BF;
}

struct QueueState {
  int gpu = 0;  // the device its stream lives on
  bool host = false;
  cudaStream_t stream = nullptr;
  cublasHandle_t blas = nullptr;
};

struct HostCall {
  cpu::TaskBuffers* buffers;
  const Work* work;
};

void CUDART_CB run_host_task(void* p) {
  auto* call = static_cast<HostCall*>(p);
  call->buffers->run(*call->work);
}

class CudaRun {
 public:
  CudaRun(const engine::TaskGraph& g, const Workload& w) : g_(g), w_(w) {
    PLACESIM_ASSERT(w.tasks.size() == g.tasks.size() && w.queue_unit.size() == g.queues.size(),
                    "workload does not match the task graph");
    order_ = enqueue_order();
    check_memory();
    setup_queues();
    setup_tasks();
  }

  ~CudaRun() {
    for (auto& e : start_) cudaEventDestroy(e);
    for (auto& e : end_) cudaEventDestroy(e);
    for (auto& e : origin_) cudaEventDestroy(e);
    for (QueueState& q : queues_) {
      if (q.blas) cublasDestroy(q.blas);
      if (q.stream) cudaStreamDestroy(q.stream);
    }
  }

  engine::Trace run_once(double watchdog_s) {
    for (size_t d = 0; d < origin_.size(); ++d) {
      cuda_check(cudaSetDevice(static_cast<int>(d)), "cudaSetDevice");
      cuda_check(cudaEventRecord(origin_[d], origin_stream_[d]), "origin event");
    }
    for (size_t q = 0; q < queues_.size(); ++q)
      if (queues_[q].stream) cuda_check(cudaStreamWaitEvent(queues_[q].stream, origin_[queues_[q].gpu], 0), "wait origin");
    for (engine::TaskId t : order_) enqueue(t);
    wait_all(watchdog_s);
    std::vector<TaskTimes> times(g_.tasks.size());
    for (size_t t = 0; t < g_.tasks.size(); ++t) {
      const int gpu = queues_[g_.tasks[t].queue].gpu;
      float a = 0, b = 0;
      cuda_check(cudaEventElapsedTime(&a, origin_[gpu], start_[t]), "elapsed time");
      cuda_check(cudaEventElapsedTime(&b, origin_[gpu], end_[t]), "elapsed time");
      times[t] = {static_cast<TimePs>(static_cast<double>(a) * 1e9), static_cast<TimePs>(static_cast<double>(b) * 1e9)};
    }
    return make_trace(g_, times);
  }

 private:
  // Kahn's algorithm over dependencies and queue predecessors (lowest id first): every event a
  // stream waits on is recorded before the wait is enqueued.
  std::vector<engine::TaskId> enqueue_order() const {
    const size_t n = g_.tasks.size();
    std::vector<std::vector<engine::TaskId>> next(n);
    std::vector<int> missing(n, 0);
    for (size_t t = 0; t < n; ++t)
      for (engine::TaskId d : g_.tasks[t].deps) next[d].push_back(static_cast<engine::TaskId>(t)), ++missing[t];
    const std::vector<engine::TaskId> pred = g_.queue_predecessors();
    for (size_t t = 0; t < n; ++t)
      if (pred[t] >= 0) next[pred[t]].push_back(static_cast<engine::TaskId>(t)), ++missing[t];
    std::vector<engine::TaskId> ready, out;
    for (size_t t = 0; t < n; ++t)
      if (missing[t] == 0) ready.push_back(static_cast<engine::TaskId>(t));
    while (!ready.empty()) {
      std::pop_heap(ready.begin(), ready.end(), std::greater<>());
      const engine::TaskId t = ready.back();
      ready.pop_back();
      out.push_back(t);
      for (engine::TaskId s : next[t])
        if (--missing[s] == 0) {
          ready.push_back(s);
          std::push_heap(ready.begin(), ready.end(), std::greater<>());
        }
    }
    if (out.size() < n)
      for (size_t t = 0; t < n; ++t)
        if (missing[t] > 0)
          throw InputError(fmt::format("task '{}' can never start: its queue order and dependencies form a cycle",
                                       g_.name(t)));
    return out;
  }

  bool on_gpu(int unit) const { return w_.units[unit].kind == Unit::Kind::Gpu; }
  int gpu_of(int unit) const { return on_gpu(unit) ? w_.units[unit].index : 0; }

  void check_memory() const {
    int count = 0;
    cuda_check(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
    std::vector<double> device(count, 0.0);
    double host = 0;
    for (size_t t = 0; t < g_.tasks.size(); ++t) {
      const Work& work = w_.tasks[t];
      const int unit = w_.queue_unit[g_.tasks[t].queue];
      if (on_gpu(unit) && w_.units[unit].index >= count)
        throw InputError(fmt::format("task '{}' needs GPU {} ('{}'), this machine has {}", g_.name(t),
                                     w_.units[unit].index, w_.units[unit].id, count));
      if (work.kind == WorkKind::Copy) {
        for (int u : {work.src, work.dst}) (on_gpu(u) ? device[gpu_of(u)] : host) += work.bytes;
      } else if (work.kind == WorkKind::Dha) {
        host += work.bytes;
      } else if (on_gpu(unit)) {
        device[gpu_of(unit)] += work.kind == WorkKind::Gemm
                                    ? element_bytes(work.precision) * static_cast<double>(work.m * work.k + work.k * work.n + work.m * work.n)
                                    : work.bytes;
      } else {
        host += cpu::bytes_needed(work);
      }
    }
    for (int d = 0; d < count; ++d) {
      if (device[d] <= 0) continue;
      std::size_t free = 0, total = 0;
      cuda_check(cudaSetDevice(d), "cudaSetDevice");
      cuda_check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
      if (device[d] > kMaxMemoryFraction * static_cast<double>(free))
        throw InputError(fmt::format("the plan needs {} on GPU {}, more than {:.0f}% of its {} free; refused",
                                     units::format_bytes(device[d]), d, 100 * kMaxMemoryFraction,
                                     units::format_bytes(static_cast<double>(free))));
    }
    const double have = this_machine().memory_bytes();
    if (host > kMaxMemoryFraction * have)
      throw InputError(fmt::format("the plan needs {} of host buffers, more than {:.0f}% of this machine's {}; refused",
                                   units::format_bytes(host), 100 * kMaxMemoryFraction, units::format_bytes(have)));
  }

  void setup_queues() {
    int count = 0;
    cuda_check(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
    origin_.resize(count);
    origin_stream_.resize(count);
    for (int d = 0; d < count; ++d) {
      cuda_check(cudaSetDevice(d), "cudaSetDevice");
      cuda_check(cudaEventCreate(&origin_[d]), "cudaEventCreate");
      origin_stream_[d] = nullptr;  // the legacy default stream: after all earlier work
      for (int p = 0; p < count; ++p) {
        int can = 0;
        if (p != d && cudaDeviceCanAccessPeer(&can, d, p) == cudaSuccess && can) {
          const cudaError_t e = cudaDeviceEnablePeerAccess(p, 0);
          if (e != cudaErrorPeerAccessAlreadyEnabled) cuda_check(e, "cudaDeviceEnablePeerAccess");
          cudaGetLastError();
        }
      }
    }
    queues_.resize(g_.queues.size());
    const std::vector<std::vector<engine::TaskId>> orders = g_.queue_orders();
    for (size_t q = 0; q < g_.queues.size(); ++q) {
      if (orders[q].empty()) continue;
      const int unit = w_.queue_unit[q];
      QueueState& s = queues_[q];
      s.host = !on_gpu(unit);
      s.gpu = gpu_of(unit);
      cuda_check(cudaSetDevice(s.gpu), "cudaSetDevice");
      cuda_check(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking), "cudaStreamCreate");
      if (!s.host) {
        cublas_check(cublasCreate(&s.blas), "cublasCreate");
        cublas_check(cublasSetStream(s.blas, s.stream), "cublasSetStream");
      }
    }
  }

  void setup_tasks() {
    const size_t n = g_.tasks.size();
    start_.resize(n);
    end_.resize(n);
    memory_.resize(n);
    host_buffers_.resize(n);
    host_calls_.resize(n);
    for (size_t t = 0; t < n; ++t) {
      const QueueState& q = queues_[g_.tasks[t].queue];
      cuda_check(cudaSetDevice(q.gpu), "cudaSetDevice");
      cuda_check(cudaEventCreate(&start_[t]), "cudaEventCreate");
      cuda_check(cudaEventCreate(&end_[t]), "cudaEventCreate");
      const Work& work = w_.tasks[t];
      auto& mem = memory_[t];
      using K = Memory::Kind;
      if (q.host && work.kind != WorkKind::Copy) {
        host_buffers_[t] = std::make_unique<cpu::TaskBuffers>(work);
        host_calls_[t] = {host_buffers_[t].get(), &work};
        continue;
      }
      switch (work.kind) {
        case WorkKind::Gemm: {
          const std::size_t e = element_bytes(work.precision);
          for (long elems : {work.m * work.k, work.k * work.n, work.m * work.n})
            mem.push_back(std::make_unique<Memory>(K::Device, e * static_cast<std::size_t>(elems), q.gpu));
          break;
        }
        case WorkKind::Stream:
          for (int i = 0; i < 2; ++i)
            mem.push_back(std::make_unique<Memory>(K::Device, static_cast<std::size_t>(work.bytes / 2), q.gpu));
          break;
        case WorkKind::Copy:
          for (int u : {work.src, work.dst})
            mem.push_back(std::make_unique<Memory>(on_gpu(u) ? K::Device : (work.pageable ? K::Pageable : K::Pinned),
                                                   static_cast<std::size_t>(work.bytes), gpu_of(u)));
          break;
        case WorkKind::Dha:
          mem.push_back(std::make_unique<Memory>(K::Mapped, static_cast<std::size_t>(work.bytes), q.gpu));
          mem.push_back(std::make_unique<Memory>(K::Device, sizeof(float), q.gpu));
          break;
        case WorkKind::None:
        case WorkKind::Spin:
          break;
      }
    }
  }

  void enqueue(engine::TaskId t) {
    const engine::Task& task = g_.tasks[t];
    const QueueState& q = queues_[task.queue];
    const Work& work = w_.tasks[t];
    auto& mem = memory_[t];
    cuda_check(cudaSetDevice(q.gpu), "cudaSetDevice");
    for (engine::TaskId d : task.deps) cuda_check(cudaStreamWaitEvent(q.stream, end_[d], 0), "cudaStreamWaitEvent");
    cuda_check(cudaEventRecord(start_[t], q.stream), "cudaEventRecord");
    if (host_buffers_[t]) {
      cuda_check(cudaLaunchHostFunc(q.stream, run_host_task, &host_calls_[t]), "cudaLaunchHostFunc");
    } else {
      switch (work.kind) {
        case WorkKind::Gemm: {
          const float one = 1, zero = 0;
          const cudaDataType type = cuda_type(work.precision);
          // Row-major C = A B is column-major C^T = B^T A^T.
          cublas_check(cublasGemmEx(q.blas, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(work.n), static_cast<int>(work.m),
                                    static_cast<int>(work.k), &one, mem[1]->ptr, type, static_cast<int>(work.n),
                                    mem[0]->ptr, type, static_cast<int>(work.k), &zero, mem[2]->ptr, type,
                                    static_cast<int>(work.n), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                       "cublasGemmEx");
          break;
        }
        case WorkKind::Stream:
          gpu::stream(static_cast<const float*>(mem[0]->ptr), static_cast<float*>(mem[1]->ptr),
                      static_cast<std::size_t>(work.bytes / 8), q.stream);
          break;
        case WorkKind::Spin:
          gpu::spin(work.seconds, q.stream);
          break;
        case WorkKind::Copy: {
          const std::size_t bytes = static_cast<std::size_t>(work.bytes);
          if (on_gpu(work.src) && on_gpu(work.dst) && gpu_of(work.src) != gpu_of(work.dst))
            cuda_check(cudaMemcpyPeerAsync(mem[1]->ptr, gpu_of(work.dst), mem[0]->ptr, gpu_of(work.src), bytes, q.stream),
                       "cudaMemcpyPeerAsync");
          else
            cuda_check(cudaMemcpyAsync(mem[1]->ptr, mem[0]->ptr, bytes, cudaMemcpyDefault, q.stream), "cudaMemcpyAsync");
          break;
        }
        case WorkKind::Dha:
          gpu::dha(static_cast<const float*>(mem[0]->device_view), static_cast<std::size_t>(work.bytes / 4),
                   static_cast<float*>(mem[1]->ptr), q.stream);
          break;
        case WorkKind::None:
          break;
      }
      cuda_check(cudaGetLastError(), "kernel launch");
    }
    cuda_check(cudaEventRecord(end_[t], q.stream), "cudaEventRecord");
  }

  void wait_all(double watchdog_s) {
    const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(watchdog_s));
    for (engine::TaskId t : order_) {
      for (cudaError_t e; (e = cudaEventQuery(end_[t])) == cudaErrorNotReady;) {
        if (Clock::now() > deadline) throw WatchdogError(fmt::format("watchdog: the run did not finish within {} s: {}", watchdog_s, stuck()));
        std::this_thread::sleep_for(std::chrono::microseconds(50));
      }
      cuda_check(cudaEventQuery(end_[t]), "task failed");
    }
  }

  std::string stuck() const {
    for (engine::TaskId t : order_) {
      if (cudaEventQuery(end_[t]) != cudaErrorNotReady) continue;
      return fmt::format("task '{}' on queue '{}' never finished", g_.name(t), g_.queues[g_.tasks[t].queue]);
    }
    return "every task finished late";
  }

  const engine::TaskGraph& g_;
  const Workload& w_;
  std::vector<engine::TaskId> order_;
  std::vector<QueueState> queues_;
  std::vector<cudaEvent_t> origin_, start_, end_;
  std::vector<cudaStream_t> origin_stream_;
  std::vector<std::vector<std::unique_ptr<Memory>>> memory_;
  std::vector<std::unique_ptr<cpu::TaskBuffers>> host_buffers_;
  std::vector<HostCall> host_calls_;
};

}  // namespace

std::string cuda_unavailable_reason() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) return fmt::format("no usable GPU: {} ({})", cudaGetErrorString(e), cudaGetErrorName(e));
  if (count == 0) return "no GPU on this machine";
  return "";
}

Measurement run_cuda(const engine::TaskGraph& g, const Workload& w, const BackendOptions& opts) {
  const std::string why = cuda_unavailable_reason();
  if (!why.empty()) throw InputError("backend cuda: " + why);
  cpu::use_one_blas_thread();
  CudaRun run(g, w);
  std::vector<engine::Trace> traces;
  for (int r = 0; r < opts.warmup + opts.repeats; ++r) {
    engine::Trace t = run.run_once(opts.watchdog_s);
    if (r >= opts.warmup) traces.push_back(std::move(t));
  }
  return median_run(std::move(traces));
}

}  // namespace placesim::backend
