#include "app/explore/serving/stream_trace.hpp"

#include <fmt/format.h>
#include <map>

#include "sim/core/file_io.hpp"

namespace placesim::explore {
namespace {

double us(double seconds) { return seconds * 1e6; }

std::string iteration_name(const IterationShape& s) {
  if (s.prefill_seqs > 0 && s.decode_seqs > 0)
    return fmt::format("prefill {} tokens + decode {}", s.prefill_tokens, s.decode_seqs);
  return s.prefill_seqs > 0 ? fmt::format("prefill {} tokens", s.prefill_tokens) : fmt::format("decode {}", s.decode_seqs);
}

}  // namespace

void write_stream_trace(std::ostream& out, const std::vector<models::Request>& requests, const ServingTrace& trace,
                        const std::vector<IterationEvent>& iterations) {
  int replicas = 1;
  for (const IterationEvent& e : iterations) replicas = std::max(replicas, e.replica + 1);
  out << "{\"traceEvents\": [\n";
  out << R"({"ph": "M", "pid": 1, "name": "process_name", "args": {"name": "replicas"}})";
  out << ",\n" << R"({"ph": "M", "pid": 2, "name": "process_name", "args": {"name": "requests"}})";
  for (int k = 0; k < replicas; ++k)
    out << ",\n"
        << fmt::format(R"({{"ph": "M", "pid": 1, "tid": {}, "name": "thread_name", "args": {{"name": "replica {}"}}}})",
                       k + 1, k);
  std::map<int, std::int64_t> blocks;  // per replica: the last count drawn
  for (const IterationEvent& e : iterations) {
    const IterationShape& s = e.shape;
    out << ",\n"
        << fmt::format(R"({{"ph": "X", "pid": 1, "tid": {}, "ts": {}, "dur": {}, "name": "{}", "args": {{"prefill_tokens": {}, )"
                       R"("prefill_seqs": {}, "decode_seqs": {}, "decode_context": {}, "kv_blocks": {}}}}})",
                       e.replica + 1, us(e.start_s), us(e.seconds), iteration_name(s), s.prefill_tokens, s.prefill_seqs,
                       s.decode_seqs, s.decode_context, e.blocks);
    if (auto it = blocks.find(e.replica); it != blocks.end() && it->second == e.blocks) continue;
    blocks[e.replica] = e.blocks;
    out << ",\n"
        << fmt::format(R"({{"ph": "C", "pid": 1, "ts": {}, "name": "replica {} KV blocks", "args": {{"blocks": {}}}}})",
                       us(e.start_s), e.replica, e.blocks);
  }
  for (size_t i = 0; i < trace.requests.size(); ++i) {
    const RequestTimes& t = trace.requests[i];
    const auto event = [&](char ph, double at, const std::string& name, const std::string& args) {
      out << ",\n"
          << fmt::format(R"({{"ph": "{}", "cat": "request", "id": {}, "pid": 2, "ts": {}, "name": "{}"{}}})", ph, i, us(at),
                         name, args);
    };
    const std::string request = fmt::format("request {}", i);
    event('b', t.arrival_s, request,
          fmt::format(R"(, "args": {{"prompt_tokens": {}, "output_tokens": {}, "preemptions": {}}})", requests[i].prompt,
                      requests[i].output, t.preemptions));
    event('b', t.arrival_s, "to first token", "");
    event('e', t.first_token_s, "to first token", "");
    event('b', t.first_token_s, "generating", "");
    event('e', t.finish_s, "generating", "");
    event('e', t.finish_s, request, "");
  }
  out << "\n]}\n";
}

void write_stream_trace_file(const std::string& path, const std::vector<models::Request>& requests,
                             const ServingTrace& trace, const std::vector<IterationEvent>& iterations) {
  write_file_atomic(path, [&](std::ostream& out) { write_stream_trace(out, requests, trace, iterations); });
}

}  // namespace placesim::explore
