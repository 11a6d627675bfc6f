// placesim run: every placer at every sweep point; a table (or --json), an HDF5 results file,
// written as the sweep goes (run_to_file.hpp), and optionally a trace per run.
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <optional>
#include <thread>

#include "app/cli/command.hpp"
#include "app/cli/run_to_file.hpp"
#include "app/cli/scenario_args.hpp"
#include "sim/core/error.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/progress.hpp"
#include "sim/core/units.hpp"
#include "app/explore/placer_needs.hpp"
#include "app/explore/report.hpp"
#include "app/explore/runner.hpp"
#include "app/cli/trace_args.hpp"

namespace placesim::cli {

int cmd_run(const std::vector<std::string>& args) {
  po::options_description opts("options");
  opts.add_options()("scenario", po::value<std::string>()->required(), "scenario YAML file")(
      "output,o", po::value<std::string>(), "results file (default: results/<scenario name>.h5; with --set or --dim, results/<name>@<overrides>.h5)")(
      "trace", po::value<std::string>(), "write a trace per simulated run into this directory (format: --trace-format)")(
      "jobs,j", po::value<int>()->default_value(static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))),
      "sweep points run in parallel")(
      "timing", "also report each placer's wall-clock placement time (placement_s under --json)")(
      "resume", "continue the results file of an interrupted run of this scenario: run only the points it lacks")(
      "dry-run", "check every point as a run would before placing (each placer's options against the point's "
                 "machine and model), then list the points with their indices (for plan --point) and the placers; "
                 "place and simulate nothing");
  add_trace_filter_option(opts);
  add_trace_format_option(opts);
  add_override_options(opts);
  Parsed a;
  if (!parse_args(command_named("run"), args, opts, {"scenario"}, a)) return 0;

  // An unwritable -o fails at once, before a large sweep's scenario takes its time to expand.
  if (a.vm.count("output")) check_writable(a.vm["output"].as<std::string>());
  const explore::Scenario s = load_scenario_args(a.vm);
  if (s.root.has("requests"))
    s.root.at("requests").fail("this scenario serves a request stream: run it with `placesim serve`");
  // Every point's problem built and checked before the first point runs: an error the input
  // holds stops the run here, not at point 7 with six finished (what --dry-run checks).
  explore::check_placer_options(s);
  if (a.vm.count("dry-run")) return print_points(s, a.json);
  explore::RunOptions ro;
  ro.jobs = a.vm["jobs"].as<int>();
  if (ro.jobs < 1) throw InputError(SourceLoc{"placesim run"}, "--jobs must be at least 1");
  ro.trace = trace_request_args(a.vm);
  // The display (a thread) starts with the sweep, which tells it first, on this thread, once a
  // resumed run's results file is read: that read runs in a forked child (explore/h5_calls.cpp),
  // and a thread starting as the process forks can leave the child waiting for good on a lock
  // the thread held (under AddressSanitizer a resumed run's read once ended at its 30 s bound).
  std::optional<Progress> progress;
  ro.progress = [&](int done, int todo) {
    if (!progress) progress.emplace("sweep points", static_cast<int>(s.points.size()));
    progress->done(done, todo);
  };
  const std::string out =
      a.vm.count("output") ? a.vm["output"].as<std::string>() : default_results_path(a.vm, s.name);
  const std::optional<explore::RunSet> sweep =
      run_to_file(s, ro, {out, a.vm.count("resume") != 0, command_line("run", args)});
  progress.reset();
  if (!sweep) return 0;  // an MPI rank other than 0: rank 0 reports
  const explore::RunSet& set = *sweep;

  if (a.json) {
    print_json(explore::runs_to_json(set, a.vm.count("timing") != 0));
  } else {
    const explore::Comparison c = explore::compare(set, "", explore::Metric::Makespan);
    std::string text = fmt::format("scenario {}: {} sweep point(s) x {} placer(s)\n\n", s.name, s.points.size(),
                                   s.placers.size());
    text += explore::format_comparison(c);
    // Why a run has no makespan (infeasible, error), and the placers' own predictions against
    // the simulation: prediction_error = (predicted - simulated) / simulated. A generation's
    // makespan is its end-to-end latency; its TTFT and TPOT follow.
    using units::format_seconds;
    for (const explore::RunResult& r : set.runs) {
      if (r.generation && r.generation->tpot_s)
        text += fmt::format("  point {} {}: TTFT {}, TPOT {} over {} decode steps (kv_stride {}){}\n", r.point_index,
                            r.placer, format_seconds(*r.generation->ttft_s, 4), format_seconds(*r.generation->tpot_s, 4),
                            r.generation->output_tokens - 1, r.generation->kv_stride,
                            r.message.empty() ? "" : "; " + r.message);
      const bool bound = r.status == scheduler::RunStatus::Ok && !r.makespan_s;
      if (r.status != scheduler::RunStatus::Ok && !r.message.empty())
        text += fmt::format("  point {} {}: {}: {}\n", r.point_index, r.placer, scheduler::to_string(r.status), r.message);
      else if (r.predicted_s && r.makespan_s && *r.makespan_s > 0)
        text += fmt::format("  point {} {}: predicted {}, simulated {} (prediction_error {:+.2f}%)\n", r.point_index,
                            r.placer, format_seconds(*r.predicted_s, 4), format_seconds(*r.makespan_s, 4),
                            (*r.predicted_s - *r.makespan_s) / *r.makespan_s * 100);
      else if (r.predicted_s && !bound)
        text += fmt::format("  point {} {}: predicted {}\n", r.point_index, r.placer, format_seconds(*r.predicted_s, 4));
    }
    if (a.vm.count("timing")) text += "\n" + explore::format_timing(set);
    text += fmt::format("\nresults: {}\n", out);
    std::fputs(text.c_str(), stdout);
  }
  return 0;
}

}  // namespace placesim::cli
