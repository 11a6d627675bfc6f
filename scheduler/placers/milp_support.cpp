#include "scheduler/placers/milp_support.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <limits>

#include "scheduler/score_plan.hpp"
#include "sim/core/log.hpp"
#include "sim/core/stop_request.hpp"
#include "sim/core/units.hpp"

namespace placesim::scheduler {

std::vector<OptionSpec> milp_option_specs(const std::string& default_time_limit) {
  return {{"time_limit", default_time_limit,
           "wall-clock seconds for the whole placement, shared by its MILP solves (a guard: use node_limit for "
           "reproducible plans); 0 returns the warm start without solving"},
          {"node_limit", "0", "branch-and-bound nodes per solve; 0: no limit. Same limit and seed, same plan"},
          {"gap", "1e-6", "relative optimality gap at which a solve stops"},
          {"warm", "[heft, single-device]",
           "heuristic placers whose best plan (simulated) is the warm start; the MILP's plan is returned only when "
           "it simulates faster; none: no warm start (the solver starts from nothing)"},
          {"dump_model", "\"\"", "write each MILP to this file (.lp or .mps) for debugging; several solves: <stem>.<k><ext>"}};
}

MilpSettings::MilpSettings(const PlacerOptions& o, const std::string& placer) {
  const Yaml t = o.get("time_limit");
  time_limit_s = t.number();
  if (!(time_limit_s >= 0)) throw InputError(t.loc(), "time_limit must be >= 0 seconds");
  const Yaml n = o.get("node_limit");
  node_limit = n.integer();
  if (node_limit < 0) throw InputError(n.loc(), "node_limit must be >= 0 (0: no limit)");
  const Yaml g = o.get("gap");
  gap = g.number();
  if (!(gap >= 0 && gap < 1)) throw InputError(g.loc(), "gap must be in [0, 1)");
  const Yaml w = o.get("warm");
  warm_start = !(w.is_scalar() && w.str() == "none");
  if (warm_start && !w.is_seq())
    throw InputError(w.loc(), "warm must be a list of placer names, e.g. [heft, single-device], or none");
  if (warm_start)
    for (const Yaml& item : w.items()) {
      const std::string name = item.str();
      if (name == placer) throw InputError(item.loc(), fmt::format("warm names '{}' itself; warm starts come from heuristics", name));
      const PlacerEntry& e = placers().get(name, item.loc());
      if (e.kind == PlacerKind::Bound) throw InputError(item.loc(), fmt::format("'{}' is a bound and makes no plan to start from", name));
      if (e.kind == PlacerKind::Milp) throw InputError(item.loc(), fmt::format("'{}' is a MILP placer; warm starts come from heuristics", name));
      warm.push_back(name);
    }
  if (!warm_start && time_limit_s == 0)
    throw InputError(t.loc(), "time_limit 0 solves nothing and returns the warm start, but warm is none: no plan could "
                              "come out (give time_limit > 0, or warm starts)");
  const Yaml d = o.get("dump_model");
  dump_model = d.str();
  if (!dump_model.empty()) {
    const std::string ext = std::filesystem::path(dump_model).extension().string();
    if (ext != ".lp" && ext != ".mps") throw InputError(d.loc(), "dump_model must end in .lp or .mps");
  }
}

milp::SolveOptions MilpSettings::solve_options(const Problem& p, double seconds) const {
  milp::SolveOptions s;
  s.time_limit = std::chrono::duration<double>(std::max(0.0, seconds));
  if (node_limit > 0) s.node_limit = node_limit;
  s.relative_gap = gap;
  s.seed = static_cast<int>(p.seed % 2147483647u);
  s.threads = 1;
  s.verbose = log().should_log(spdlog::level::info);
  return s;
}

void MilpSettings::dump(const milp::Model& m, int k, int n) const {
  if (dump_model.empty()) return;
  std::filesystem::path path(dump_model);
  if (n > 1) path.replace_filename(fmt::format("{}.{}{}", path.stem().string(), k, path.extension().string()));
  const milp::ModelFormat format = path.extension() == ".mps" ? milp::ModelFormat::Mps : milp::ModelFormat::Lp;
  milp::write_model(m, path, format);
}

SolveBudget::SolveBudget(double limit_s) : start_(std::chrono::steady_clock::now()), limit_s_(limit_s) {}

double SolveBudget::share(int k, int n) const {
  if (stop_requested()) return 0;  // the stop's: the solves left keep their warm starts
  const double used = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  return std::max(0.0, limit_s_ - used) / std::max(1, n - k);
}

double simulated_makespan(const Problem& p, const Plan& plan) {
  try {
    const PlanScore s = score_plan(p, plan);
    return s.fits() ? s.makespan_s() : std::numeric_limits<double>::infinity();
  } catch (const InputError&) {
    return std::numeric_limits<double>::infinity();
  }
}

std::optional<ScoredPlan> best_heuristic(const Problem& p, const std::vector<std::string>& names) {
  std::optional<ScoredPlan> best;
  for (const std::string& name : names) {
    const PlacerEntry& e = placers().get(name);
    const PlacerOptions defaults(e.options, Yaml{});
    PlacerResult r;
    try {
      r = e.make(defaults)->place(p);
    } catch (const InputError&) {
      continue;  // this heuristic cannot serve the problem (e.g. deepplan without a GPU)
    }
    if (!r.plan) continue;
    const double t = simulated_makespan(p, *r.plan);
    if (!std::isfinite(t)) continue;
    if (!best || t < best->simulated_s) best = ScoredPlan{name, std::move(*r.plan), r.predicted_s, t};
  }
  return best;
}

void SolveSummary::add(const milp::Result& r, double seconds_per_unit) {
  const std::optional<double> objective =
      r.has_solution() ? std::optional<double>(r.objective * seconds_per_unit) : std::nullopt;
  const std::optional<double> bound =
      std::isfinite(r.best_bound) ? std::optional<double>(r.best_bound * seconds_per_unit) : std::nullopt;
  const bool first = solves == 0;
  objective_s = chained || first ? objective : objective && objective_s ? std::optional(*objective_s + *objective) : std::nullopt;
  bound_s = chained || first ? bound : bound && bound_s ? std::optional(*bound_s + *bound) : std::nullopt;
  ++solves;
  if (r.status == milp::Status::Optimal) ++optimal;
  if (!r.has_solution()) ++without_solution;
  if (r.status == milp::Status::Error && error.empty()) error = r.message;
  if (r.status == milp::Status::Feasible || r.status == milp::Status::NoSolution)
    ++(node_limit > 0 && r.nodes >= node_limit ? at_node_limit : at_time_limit);
  gap = std::max(gap, r.status == milp::Status::Optimal ? 0.0 : r.gap);
  nodes += r.nodes;
}

std::string SolveSummary::describe() const {
  if (solves == 0) return "no MILP solved";
  // No wall-clock figure: with node limits two runs must print the same (placement_s, under
  // --timing, has the time).
  std::string limits;
  if (at_node_limit > 0) limits += fmt::format(", {} at the node limit", at_node_limit);
  if (at_time_limit > 0) limits += fmt::format(", {} at the time limit", at_time_limit);
  return fmt::format("{} solve{}, {} optimal{}, gap {}, {} nodes{}{}", solves, solves == 1 ? "" : "s", optimal, limits,
                     std::isfinite(gap) ? fmt::format("{:.3g}%", 100 * gap) : std::string("inf"), nodes,
                     note.empty() ? "" : "; ", note);
}

// The record of the solves; plan_source and the MILP plan's figures are the caller's to fill.
static MilpRecord record_of(const SolveSummary& s) {
  MilpRecord m;
  m.plan_source = "none";
  m.solves = s.solves;
  m.optimal = s.optimal;
  m.nodes = s.nodes;
  return m;
}

PlacerResult finish_milp(const Problem& p, std::optional<Plan> milp_plan, std::optional<double> milp_predicted_s,
                         const SolveSummary& s, const std::optional<ScoredPlan>& warm) {
  PlacerResult r;
  r.gap = s.gap;
  const bool proven = s.solves > 0 && s.optimal == s.solves;
  r.status = proven ? RunStatus::Ok : s.error.empty() ? RunStatus::Limit : RunStatus::Error;
  const double own = milp_plan ? simulated_makespan(p, *milp_plan) : std::numeric_limits<double>::infinity();
  MilpRecord& m = r.milp.emplace(record_of(s));
  if (milp_plan) {
    if (std::isfinite(own)) m.makespan_s = own;
    m.objective_s = s.objective_s;
    m.bound_s = s.bound_s;
  }
  if (warm && !(own <= warm->simulated_s)) {
    m.plan_source = "warm:" + warm->placer;
    // The warm start simulates strictly faster (or the MILP gave nothing usable): keep it.
    // No prediction: the MILP's model did not time this plan, and the heuristic's own estimate
    // would be charged to the MILP's model. The MILP plan's prediction goes in the message.
    r.plan = warm->plan;
    r.message = milp_plan ? fmt::format("{}; warm start ({}) kept: simulated {} against the MILP plan's {} "
                                        "(its model: {})",
                                        s.describe(), warm->placer, units::format_seconds(warm->simulated_s),
                                        units::format_seconds(own),
                                        milp_predicted_s ? units::format_seconds(*milp_predicted_s) : "none")
                          : fmt::format("{}; warm start ({}) returned", s.describe(), warm->placer);
  } else {
    if (milp_plan) m.plan_source = "milp";
    r.plan = std::move(milp_plan);
    r.predicted_s = milp_predicted_s;
    r.message = s.describe();
  }
  if (!s.error.empty()) r.message += "; solver error: " + s.error;
  if (!r.plan && r.status != RunStatus::Error) {
    r.status = RunStatus::Error;
    r.message += "; no plan: neither the MILP nor any warm-start heuristic produced one that fits";
  }
  return r;
}

PlacerResult milp_infeasible(const SolveSummary& s, std::string message) {
  PlacerResult r;
  r.status = RunStatus::Infeasible;
  r.message = std::move(message);
  r.milp = record_of(s);
  return r;
}

}  // namespace placesim::scheduler
