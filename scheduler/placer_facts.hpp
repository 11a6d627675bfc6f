// What a placer is, declared beside its options (docs/architecture.md, "Adding a placer"): the
// problems it takes, the bounds its plans respect, how its plans hold weights across a
// generation, and a small problem it takes. Everything that treats placers differently reads
// these facts, never a placer's name: the scenario checks and `list placers` (needs, bounds),
// generation runs (weights across steps), the conformance suite (all of them, with the sample).
#pragma once

#include <string>
#include <vector>

#include "models/generators/transformer.hpp"
#include "scheduler/problem.hpp"

namespace placesim::scheduler {

// What a placer cannot work without: `list placers` shows it, and a scenario that gives the
// placer a point lacking it is an error at the placer's line when it is loaded
// (app/explore/placer_needs.cpp), before any work, not an `error` row at every point.
struct PlacerNeeds {
  bool resident_weights = false;  // weights: resident (it models no parameter copies)
  bool gpu = false;               // at least one GPU
  bool cpu = false;               // a CPU beside the GPU (the CPU/GPU offload placers)
  bool transformer = false;       // a transformer at op granularity (it reads the generator's op names)
  bool dense = false;             // no mixture-of-experts layers (tensor-parallel roles are a dense decoder's)
};
// The needs in words, one item each ("weights: resident", "a GPU", ...); empty when none.
std::vector<std::string> describe(const PlacerNeeds& n);

// How a placer's plans hold the weights over a generation's decode steps
// (app/explore/generation_run.cpp).
enum class GenerationWeights {
  LoadedOnce,  // the prefill's plan loads them and they stay: decode steps run with weights resident
  EveryStep,   // each step's plan keeps the point's weights mode: weights streamed per use (offload)
};
const char* to_string(GenerationWeights w);  // "loaded once", "every step"

// A small problem the placer takes: a preset and a transformer (or a random DAG), cut short.
// The conformance suite (tests/scheduler/placers/conformance_test.cpp) runs every placer on its own.
struct SampleProblem {
  std::string hardware = "sortinghat-v100";  // a preset name
  std::string arch = "gpt2-large";           // a transformer architecture, or "random-dag"
  models::Phase phase = models::Phase::Prefill;
  models::Granularity granularity = models::Granularity::Op;
  WeightsMode weights = WeightsMode::Host;
  int layers = 2;
};
// The problem, with the roofline cost model: a tiny graph on a preset, built in milliseconds.
Problem make_sample(const SampleProblem& s);

struct PlacerFacts {
  PlacerNeeds needs{};
  // The bounds (registered placers of kind Bound, by name) that no simulated makespan of its
  // plans goes below. The critical-path bound keeps every op whole, counts each op's launch inside
  // the op and every weight byte across the host's links: a plan that splits ops beats its
  // longest path, and one that launches kernels from host queues and keeps weights resident on
  // a GPU beats its weight cut.
  std::vector<std::string> bounded_by = {"critical-path"};
  // Why a bound is left out of bounded_by, in words `list placers` shows ("" when none is).
  std::string unbounded_why{};
  GenerationWeights generation = GenerationWeights::LoadedOnce;
  // It predicts its plans' makespan (PlacerResult::predicted_s: prediction_error in a results
  // table); a MILP placer that returns its warm start's plan may not.
  bool predicts = true;
  SampleProblem sample{};
};

}  // namespace placesim::scheduler
