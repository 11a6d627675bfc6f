// The serving loop on an hour of requests at 10 per second (36,000 requests, prompts of 64-2048
// tokens, outputs of 16-512), continuous and chunked batching, iteration times from a table
// indexed like a shape-bucket cache would be (what a cached run costs: the loop's own work).
// Reported: seconds per stream, and iterations per second (items_per_second).
#include <benchmark/benchmark.h>

#include <cmath>

#include "app/explore/serving/serving_loop.hpp"

namespace {

using namespace placesim;

std::vector<models::Request> hour_at_10_qps() {
  models::RequestSpec spec;
  spec.rate = 10;
  spec.count = 36'000;
  spec.prompt = {models::TokenDist::Kind::Uniform, 64, 2048, 1};
  spec.output = {models::TokenDist::Kind::Uniform, 16, 512, 1};
  return models::make_requests(spec);
}

// A cache of iteration times by bucket: prefill tokens by 256, decodes by 8, context by 4096; an
// A100-like step of 6 ms plus 0.1 ms per 256 prompt tokens and 0.05 ms per 4096 context tokens.
double cached_time(const explore::IterationShape& s) {
  static std::vector<double> table(1 << 16, 0);
  const auto key = static_cast<std::size_t>((s.prefill_tokens / 256) * 131 + (s.decode_seqs / 8) * 17 +
                                            s.decode_context / 4096) & 0xffff;
  if (table[key] == 0)
    table[key] = 6e-3 + 1e-4 * std::ceil(s.prefill_tokens / 256.0) + 5e-5 * std::ceil(s.decode_context / 4096.0);
  return table[key];
}

void BM_ServeAnHour(benchmark::State& state) {
  const std::vector<models::Request> reqs = hour_at_10_qps();
  explore::ServingConfig cfg;
  cfg.policy = static_cast<explore::Batching>(state.range(0));
  cfg.max_batch = 256;
  cfg.token_budget = 2048;
  cfg.block_tokens = 16;
  cfg.kv_blocks = 40'000;  // 640k tokens of cache
  std::int64_t iterations = 0;
  for (auto _ : state) {
    const explore::ServingTrace t = explore::serve(reqs, cfg, cached_time);
    iterations += t.iterations;
    benchmark::DoNotOptimize(t.requests.data());
  }
  state.SetItemsProcessed(iterations);
  state.counters["iterations_per_stream"] = static_cast<double>(iterations) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_ServeAnHour)->Arg(static_cast<int>(explore::Batching::Continuous))->Arg(static_cast<int>(explore::Batching::Chunked))->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
