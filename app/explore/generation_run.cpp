#include "app/explore/generation_run.hpp"

#include <algorithm>
#include <exception>
#include <fmt/format.h>
#include <memory>
#include <stdexcept>

#include "scheduler/score_plan.hpp"
#include "scheduler/plan/weight_layout.hpp"
#include "app/explore/runner.hpp"

namespace placesim::explore {

namespace {

std::string trace_file(const std::string& stem, const char* phase, trace::TraceFormat format) {
  return stem.empty() ? "" : fmt::format("{}-{}{}", stem, phase, trace::extension_of(format));
}

void add_comm(scheduler::CommBytes& sum, const scheduler::CommBytes& c, double times) {
  sum.total += c.total * times;
  sum.inter_node += c.inter_node * times;
  for (const auto& [dev, bytes] : c.per_gpu) sum.per_gpu[dev] += bytes * times;
  for (const auto& [kind, bytes] : c.by_kind) sum.by_kind[kind] += bytes * times;
}

// device id -> bytes pairs, from a run (a map) or a memory check (a vector).
template <class Peaks>
void max_peaks(std::map<std::string, double>& peak, const Peaks& more) {
  for (const auto& [dev, bytes] : more) peak[dev] = std::max(peak[dev], bytes);
}

// The decode step at `kv`, checked to be the placed step's graph but for its costs, so that the
// decode plan (which indexes nodes) means the same ops in it.
std::shared_ptr<const models::Graph> step_graph(const models::Generation& gen, int kv, const models::Graph& placed) {
  auto g = std::make_shared<const models::Graph>(gen.decode(kv));
  bool same = g->nodes.size() == placed.nodes.size() && g->edges.size() == placed.edges.size();
  for (size_t i = 0; same && i < g->nodes.size(); ++i) same = g->nodes[i].name == placed.nodes[i].name;
  if (!same) throw std::logic_error(fmt::format("decode step at kv {} has other nodes than the placed one", kv));
  return g;
}

// The run ends at `phase`: its status, message and (no) makespan are that phase's.
RunResult& ended_at(RunResult& r, const RunResult& phase_run, const char* phase) {
  r.status = phase_run.status;
  r.message = phase_run.message.empty() ? "" : fmt::format("{}: {}", phase, phase_run.message);
  r.makespan_s.reset();
  return r;
}

}  // namespace

RunResult run_generation(const scheduler::Problem& prefill, const models::Generation& gen,
                         const scheduler::PlacerSpec& placer, const std::string& trace_stem, trace::TraceFormat trace_format,
                         const trace::TraceFilter& filter) {
  const std::vector<models::DecodeStep> steps = models::decode_steps(gen.input, gen.output, gen.kv_stride);
  const SingleRun pre = run_placer(prefill, placer, trace_file(trace_stem, "prefill", trace_format), filter);
  RunResult r = pre.result;
  GenerationResult& g = r.generation.emplace();
  g.input_tokens = gen.input;
  g.output_tokens = gen.output;
  g.kv_stride = gen.kv_stride;
  if (!pre.plan && pre.result.status == scheduler::RunStatus::Ok) return r;  // a bound: of the prefill, so of the whole
  r.predicted_s.reset();
  if (!pre.result.makespan_s) return ended_at(r, pre.result, "prefill");
  const double ttft = *pre.result.makespan_s;
  g.ttft_s = ttft;
  if (steps.empty()) return r;  // output 1: the prefill's token is the whole generation

  scheduler::Problem decode = prefill;
  if (scheduler::placers().get(placer.name).facts.generation == scheduler::GenerationWeights::LoadedOnce)
    decode.weights = scheduler::WeightsMode::Resident;
  decode.graph = std::make_shared<const models::Graph>(gen.decode(steps.back().kv));
  const SingleRun last = run_placer(decode, placer, trace_file(trace_stem, "decode", trace_format), filter);
  r.placement_s += last.result.placement_s;
  if (last.result.gap) r.gap = std::max(r.gap.value_or(0), *last.result.gap);
  max_peaks(r.peak_mem_bytes, last.result.peak_mem_bytes);
  if (!last.plan || !last.result.makespan_s) return ended_at(r, last.result, "decode");
  if (last.result.status != scheduler::RunStatus::Ok) r.status = last.result.status;

  const std::string moved = scheduler::first_difference(scheduler::weight_layout(*prefill.graph, *pre.plan),
                                                        scheduler::weight_layout(*decode.graph, *last.plan));
  g.weights_shared = moved.empty();
  if (!moved.empty())
    r.message += fmt::format("{}prefill and decode plans keep weight {} differently; moving it is not simulated",
                             r.message.empty() ? "" : "; ", moved);

  double decode_s = *last.result.makespan_s * steps.back().count;
  if (last.result.comm_bytes) add_comm(*r.comm_bytes, *last.result.comm_bytes, steps.back().count);
  for (size_t i = 0; i + 1 < steps.size(); ++i) {
    scheduler::Problem step = decode;
    scheduler::PlanScore score;
    try {
      step.graph = step_graph(gen, steps[i].kv, *decode.graph);
      score = scheduler::score_plan(step, *last.plan);
    } catch (const std::exception& e) {
      r.status = scheduler::RunStatus::Error;
      r.message = fmt::format("decode step at kv {}: {}", steps[i].kv, e.what());
      r.makespan_s.reset();
      return r;
    }
    max_peaks(r.peak_mem_bytes, score.memory.peak);
    if (!score.fits()) {
      r.status = scheduler::RunStatus::Infeasible;
      r.message = fmt::format("decode step at kv {}: {}", steps[i].kv, score.memory_message());
      r.makespan_s.reset();
      return r;
    }
    decode_s += score.makespan_s() * steps[i].count;
    add_comm(*r.comm_bytes, scheduler::comm_bytes(*step.topo, score.lowered.graph, score.trace), steps[i].count);
  }
  g.tpot_s = decode_s / (gen.output - 1);
  r.makespan_s = ttft + decode_s;
  return r;
}

}  // namespace placesim::explore
