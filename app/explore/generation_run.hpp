// One placer on a whole generation (models/generation.hpp): a prefill, then decode steps.
//
//   * Placement. The placer places the prefill graph on the point's problem (its weights mode),
//     and the decode step with the largest KV cache (the last one) with weights resident: the
//     weights are loaded once, by the prefill, and stay. A placer whose facts say its plans hold
//     weights `EveryStep` (scheduler/placer_facts.hpp: the offload placers) keeps the point's
//     weights mode in decode too: its plans say which weights stay on the GPU, and stream the
//     rest every step. Placed at the last step,
//     a placer that heeds memory makes a plan that fits every step.
//   * One decode plan runs every decode step. The step graphs differ only in costs and KV-cache
//     sizes (same nodes at the same indices), as a server runs one decode layout throughout.
//   * Times. TTFT is the prefill's makespan (the first token comes out of it). Each simulated
//     decode step's makespan counts for the steps it stands for (kv_stride); TPOT is their sum
//     over output - 1 steps, and the run's makespan (end-to-end latency) TTFT plus that sum.
//   * Memory. Peak per device is the largest over the prefill and every simulated step; the last
//     step, always simulated, holds the largest KV cache. A peak over capacity in any of them
//     makes the run infeasible, its message naming the phase ("prefill: ", "decode: ").
//   * Weights. A server keeps one weight layout for the whole generation. The prefill and decode
//     plans are made separately, and a placer may keep a weight differently in each (another
//     device, another share); the run then says so (weights_shared false, the message names the
//     first such weight) and the move between the layouts is not simulated.
//   * The rest. comm_bytes: the prefill's plus each simulated step's times its count.
//     placement_s: both placements. predicted_s: none (a placer predicts one graph). gap: the
//     larger of the two placements'. A placer that makes no plan (a bound) has no generation:
//     its run keeps the prefill's status and prediction, with no makespan. A trace is written
//     for the prefill and for the last decode step.
#pragma once

#include <string>

#include "models/generation.hpp"
#include "scheduler/placer.hpp"
#include "scheduler/problem.hpp"
#include "app/explore/run_result.hpp"
#include "sim/trace/trace_file.hpp"

namespace placesim::explore {

// prefill: the point's problem with gen.prefill as its graph. trace_stem: write
// <trace_stem>-prefill and <trace_stem>-decode traces when not empty, in trace_format (its
// extension added), kept by `filter`.
RunResult run_generation(const scheduler::Problem& prefill, const models::Generation& gen,
                         const scheduler::PlacerSpec& placer, const std::string& trace_stem,
                         trace::TraceFormat trace_format = trace::TraceFormat::Json, const trace::TraceFilter& filter = {});

}  // namespace placesim::explore
