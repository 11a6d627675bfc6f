// The conformance suite: one suite over every registered placer (as ns-3 runs one over every
// scheduler), reading what each placer declares of itself (scheduler/placer_facts.hpp) and never
// its name. A placer meets each problem of the suite, its own sample among them:
//   * a problem lacking something it needs (a GPU, a CPU, resident weights, a transformer at op
//     granularity, a dense one) is refused: an InputError or an `error` result, never a plan;
//   * a bound (kind Bound) gives a positive bound and no plan; one that is given a plan (kind
//     Given) returns the plan it is given, in the file its `path` option names;
//   * any other placer's plan is valid (every op placed once, on a device that can run it, and
//     computed exactly once; every op starts after its producers end; memory within capacity),
//     its simulated makespan is >= every bound its facts say holds, and it predicts its plan's
//     makespan when its facts say it does (a MILP placer that returns its warm start may not);
//   * under `network: ideal`, fixed durations and edge times and no launch cost, the prediction
//     equals the simulated makespan within 1e-9 relative (op times of about a second keep the
//     engine's picosecond rounding far below that).
// MILP placers get a quarter second per solve (support.hpp, suite_spec): their plans are checked
// here, their optimality by the brute-force tests.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <map>

#include "scheduler/plan/json.hpp"
#include "support.hpp"
#include "tests/support/run_cli.hpp"

namespace {

using namespace placers_test;
using scheduler::PlacerEntry;
using scheduler::PlacerKind;
using scheduler::PlacerNeeds;

// A problem of the suite and what it offers, in the terms placers state their needs in.
struct SuiteProblem {
  std::string what;
  scheduler::Problem p;
  PlacerNeeds offers;
  bool ideal = false;  // network: ideal with fixed durations: predictions are exact
  bool milp = false;   // MILP placers run on it (a quarter second per solve adds up), or on their own samples
  std::string owner{};  // the placer whose sample it is, if any: it always runs there
};

PlacerNeeds offers(const scheduler::Problem& p, bool transformer_ops, bool dense) {
  PlacerNeeds n;
  n.resident_weights = p.weights == scheduler::WeightsMode::Resident;
  n.gpu = !p.topo->gpus().empty();
  for (const hw::Device& d : p.topo->devices) n.cpu |= d.kind == hw::DeviceKind::Cpu;
  n.transformer = transformer_ops;
  n.dense = dense;
  return n;
}

// `owner`: the placer whose sample it is, or "".
SuiteProblem from_sample(const scheduler::SampleProblem& s, const std::string& owner = "") {
  const bool transformer = s.arch != "random-dag";
  const bool dense = !transformer || !models::is_moe(models::find_transformer_arch(s.arch));
  scheduler::Problem p = scheduler::make_sample(s);
  const PlacerNeeds n = offers(p, transformer && s.granularity == models::Granularity::Op, dense);
  const std::string what = owner.empty() ? fmt::format("{} ({}, {}) on {}", s.arch, models::to_string(s.granularity),
                                                       scheduler::to_string(s.weights), s.hardware)
                                         : fmt::format("{}'s sample on {}", owner, s.hardware);
  return {what, std::move(p), n, false, false, owner};
}

bool takes(const PlacerNeeds& need, const PlacerNeeds& offered) {
  return (!need.resident_weights || offered.resident_weights) && (!need.gpu || offered.gpu) &&
         (!need.cpu || offered.cpu) && (!need.transformer || offered.transformer) && (!need.dense || offered.dense);
}

// Ideal networks (memory plenty: durations-mode outputs are ~ccr * 1 s * 10 GB/s): GPUs only,
// GPUs and a one-core CPU (a core is the whole CPU, so Chrion's per-core model is the engine's),
// and CPUs only. Six seeded random DAGs on each, MILP placers on the first two.
void add_ideal_problems(std::vector<SuiteProblem>& out) {
  const std::string gpu = "{{id: {}, type: gpu, fp32: 10TFLOPS, memory_bw: 900GB/s, memory: 1e18}}";
  const std::string cpu = "{{id: {}, type: cpu, cores: 1, fp32: {}, memory_bw: {}}}";
  const std::vector<std::vector<std::string>> machines = {
      {fmt::format(fmt::runtime(gpu), "g0"), fmt::format(fmt::runtime(gpu), "g1")},
      {fmt::format(fmt::runtime(gpu), "g0"), fmt::format(fmt::runtime(gpu), "g1"), fmt::format(fmt::runtime(gpu), "g2"),
       fmt::format(fmt::runtime(cpu), "c0", "1TFLOPS", "100GB/s")},
      {fmt::format(fmt::runtime(cpu), "p1", "1GFLOPS", "1GB/s"), fmt::format(fmt::runtime(cpu), "p2", "1GFLOPS", "1GB/s"),
       fmt::format(fmt::runtime(cpu), "p3", "1GFLOPS", "1GB/s")},
  };
  for (const auto& devices : machines) {
    const hw::Topology topo =
        hw::load_topology_text(fmt::format("network: ideal\ndevices: [{}]\n", fmt::join(devices, ", ")), "ideal.yaml");
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      models::RandomDagSpec spec;
      spec.seed = seed;
      spec.depth = 3 + static_cast<int>(seed % 6);
      spec.width = 2 + static_cast<int>(seed % 4);
      spec.density = 0.3 + 0.05 * static_cast<double>(seed % 5);
      spec.jump = 1 + static_cast<int>(seed % 2);
      spec.ccr = seed % 3 == 0 ? 0.1 : (seed % 3 == 1 ? 1.0 : 5.0);
      for (const hw::Device& d : topo.devices) spec.devices.push_back(d.id);
      spec.mean = 1.0;
      spec.beta = 1.0;
      auto p = problem(models::generate_random_dag(spec), topo, scheduler::WeightsMode::Resident);
      const PlacerNeeds n = offers(p, false, true);
      out.push_back({fmt::format("ideal {} devices from {} seed {}", topo.devices.size(), topo.devices.front().id, seed), std::move(p), n, true, seed <= 2});
    }
  }
}

// Every sample, and problems between them: work-mode random DAGs on presets with PCIe, NVLink
// and a multi-core CPU; transformers by op and by layer, prefill and decode, weights in host
// memory and resident; a mixture-of-experts decode whose idle experts' weights no op reads.
std::vector<SuiteProblem> suite_problems() {
  std::vector<SuiteProblem> out;
  for (auto& [name, entry] : scheduler::placers().all()) out.push_back(from_sample(entry.facts.sample, name));
  add_ideal_problems(out);
  for (const char* preset : {"sortinghat-v100", "pcie-4gpu-2bus", "chrion-1080ti"})
    for (std::uint64_t seed = 1; seed <= 2; ++seed) {
      auto p = random_dag_on(preset, seed, 6, 4, static_cast<double>(seed) * 0.5);
      const PlacerNeeds n = offers(p, false, true);
      out.push_back({fmt::format("random DAG on {} seed {}", preset, seed), std::move(p), n, false, seed == 1});
    }
  using models::Granularity;
  using models::Phase;
  using scheduler::WeightsMode;
  const std::vector<scheduler::SampleProblem> transformers = {
      {"sortinghat-v100", "gpt2-xl", Phase::Decode, Granularity::Op, WeightsMode::Resident, 4},
      {"pcie-4gpu-2bus", "openllama-3b", Phase::Prefill, Granularity::Layer, WeightsMode::Host, 4},
      {"pcie-4gpu-2bus", "llama2-7b", Phase::Decode, Granularity::Layer, WeightsMode::Resident, 4},
      {"scheinfer-a", "mixtral-8x7b", Phase::Decode, Granularity::Op, WeightsMode::Host, 2},
      {"sortinghat-v100", "mixtral-8x7b", Phase::Decode, Granularity::Op, WeightsMode::Resident, 2},
  };
  for (const scheduler::SampleProblem& s : transformers) out.push_back(from_sample(s));
  out[out.size() - transformers.size()].milp = true;  // one transformer for the MILP placers
  return out;
}

double bound_of(const std::string& bound, const scheduler::Problem& p) {
  EXPECT_EQ(scheduler::placers().get(bound).kind, PlacerKind::Bound) << bound << " is not a bound";
  return *run_placer(bound, p).predicted_s;
}

// A placer that makes plans, on a problem it takes.
void check_plan(const std::string& name, const PlacerEntry& entry, const SuiteProblem& q) {
  const std::string what = fmt::format("{} on {}", name, q.what);
  const auto r = run_placer(suite_spec(name), q.p);
  ASSERT_TRUE(solved(r, name)) << what << ": " << r.status << ": " << r.message;
  ASSERT_TRUE(r.plan) << what;
  const Simulated s = simulate(q.p, *r.plan);
  expect_valid(q.p, *r.plan, s, what);
  for (const std::string& bound : entry.facts.bounded_by)
    EXPECT_GE(s.makespan, bound_of(bound, q.p) * (1 - 1e-12)) << what << " beats " << bound;
  if (entry.facts.predicts) {
    ASSERT_TRUE(r.predicted_s || (is_milp(name) && r.plan->placer != name)) << what;
  } else {
    EXPECT_FALSE(r.predicted_s) << what << ": its facts say it predicts nothing";
  }
  if (q.ideal && r.predicted_s) {
    EXPECT_NEAR(*r.predicted_s, s.makespan, 1e-9 * s.makespan) << what;
  }
}

// A placer given a plan returns it: the first placer of kind Heuristic that takes the problem
// makes one, written to a file.
void check_given(const std::string& name, const SuiteProblem& q, const std::string& dir) {
  for (auto& [maker, entry] : scheduler::placers().all()) {
    if (entry.kind != PlacerKind::Heuristic || !takes(entry.facts.needs, q.offers)) continue;
    const auto made = run_placer(maker, q.p);
    ASSERT_TRUE(made.plan) << maker << " on " << q.what;
    const std::string json = scheduler::plan_to_json(*made.plan, *q.p.graph, *q.p.topo);
    const std::string file = placesim::testing::write_file(dir, "plan.json", json);
    const auto r = run_placer(fmt::format("{{name: {}, path: '{}'}}", name, file), q.p);
    ASSERT_TRUE(r.plan) << name << " on " << q.what;
    EXPECT_EQ(scheduler::plan_to_json(*r.plan, *q.p.graph, *q.p.topo), json) << name << " on " << q.what;
    return;
  }
}

TEST(Conformance, EveryPlacerOnEveryProblemAsItsFactsSay) {
  const std::vector<SuiteProblem> problems = suite_problems();
  const std::string dir = placesim::testing::temp_dir("conformance");
  std::map<std::string, int> placed, refused;
  for (auto& [name, entry] : scheduler::placers().all()) {
    for (const SuiteProblem& q : problems) {
      SCOPED_TRACE(name + " on " + q.what);
      if (!takes(entry.facts.needs, q.offers)) {
        // Refused: an InputError, or an error result naming why; never a plan.
        try {
          const auto r = run_placer(suite_spec(name), q.p);
          EXPECT_EQ(r.status, scheduler::RunStatus::Error) << r.message;
          EXPECT_FALSE(r.plan);
        } catch (const InputError&) {
        }
        ++refused[name];
        continue;
      }
      if (is_milp(name) && !q.milp && q.owner != name) continue;
      if (entry.kind == PlacerKind::Bound) {
        const auto r = run_placer(name, q.p);
        EXPECT_FALSE(r.plan);
        EXPECT_GT(r.predicted_s.value_or(0), 0);
      } else if (entry.kind == PlacerKind::Given) {
        check_given(name, q, dir);
      } else {
        check_plan(name, entry, q);
      }
      ++placed[name];
    }
  }
  // Every placer met problems it takes beside its sample; every need was refused somewhere.
  for (auto& [name, entry] : scheduler::placers().all()) {
    EXPECT_GE(placed[name], 2) << name;
    const bool needs_any = entry.facts.needs.gpu || entry.facts.needs.cpu || entry.facts.needs.resident_weights ||
                           entry.facts.needs.transformer;
    if (needs_any) {
      EXPECT_GT(refused[name], 0) << name;
    }
  }
}

TEST(Conformance, EverySampleIsTakenByItsPlacer) {
  for (auto& [name, entry] : scheduler::placers().all()) {
    const SuiteProblem q = from_sample(entry.facts.sample, name);
    EXPECT_TRUE(takes(entry.facts.needs, q.offers)) << name << "'s sample lacks something it needs";
  }
}

}  // namespace
