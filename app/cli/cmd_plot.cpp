// placesim plot: figures of results, traces and validations, drawn by scripts/plot/ (Python,
// matplotlib). Every input is checked here first, so a wrong file is a located error before any
// plotting starts and the output is never touched; the script writes the image whole or not at
// all.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <string_view>

#include <unistd.h>

#include "app/cli/command.hpp"
#include "app/cli/plot_script.hpp"
#include "sim/core/error.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/yaml_doc.hpp"
#include "sim/trace/trace_file.hpp"
#include "app/explore/compare_files.hpp"
#include "app/explore/compare_summary.hpp"
#include "app/explore/report.hpp"
#include "app/explore/results_h5.hpp"
#include "app/explore/validate_h5.hpp"

namespace placesim::cli {

namespace {

// What each kind of plot reads.
enum class Input { Results, Trace, Validation };

const std::map<std::string, Input>& kinds() {
  static const std::map<std::string, Input> all = {
      {"speedup", Input::Results},      {"pareto", Input::Results},   {"predicted", Input::Results},
      {"latency-load", Input::Results}, {"ttft-cdf", Input::Results}, {"gantt", Input::Trace},
      {"measured", Input::Validation}};
  return all;
}

// A Chrome trace as `run --trace` writes it: a JSON object with a traceEvents list. An HDF5
// file (a results file given by mistake) and a protobuf trace are named as such before a parser
// sees their bytes.
void check_trace(const std::string& path) {
  char head[4] = {};
  std::ifstream(path, std::ios::binary).read(head, sizeof head);
  if (std::string_view(head, sizeof head) == "\x89HDF")
    throw InputError(SourceLoc{path}, "this is an HDF5 results file; a Gantt chart draws a trace (the .json that "
                                      "`placesim run --trace DIR` or `placesim simulate --trace FILE` writes)");
  if (trace::trace_format_of(path) == trace::TraceFormat::Perfetto || head[0] == '\x0a')
    throw InputError(SourceLoc{path}, "this is a Perfetto protobuf trace (.pftrace), which ui.perfetto.dev opens; a Gantt "
                                      "chart draws the JSON format (`--trace FILE.json`, or `run --trace-format json`)");
  const Yaml doc = Yaml::load_file(path);
  if (!doc.is_map() || !doc.has("traceEvents") || !doc.at("traceEvents").is_seq())
    doc.fail("expected a Chrome trace of placesim run --trace (a JSON object with a traceEvents list)");
}

// What `compare --json` prints for these files, which the speedup plot draws (its per-axis
// pivot), so that the bars are compare's figures. The baseline: the one given, else the files'
// own (which must agree).
std::string speedup_document(const std::vector<std::string>& files, const std::string& given) {
  std::vector<explore::NamedRunSet> sets;
  for (const std::string& path : files) sets.push_back({path, explore::read_results_h5(path)});
  const explore::RunSet set = explore::merge_results(sets, given);
  const explore::Comparison c = explore::compare(set, given, explore::Metric::Makespan);  // InputError: unknown
  if (c.baseline.empty())
    throw InputError(SourceLoc{files[0]}, "no baseline to take speed-ups over: name one with --baseline");
  return explore::compare_document(set.scenario, c, explore::summarize(c, explore::kDefaultTie)).dump();
}

// A file removed when it goes out of scope, however the command ends.
struct TempFile {
  std::string path;
  ~TempFile() {
    std::error_code ec;
    std::filesystem::remove(path, ec);
  }
};

}  // namespace

int cmd_plot(const std::vector<std::string>& args) {
  po::options_description opts("options");
  opts.add_options()("kind", po::value<std::string>()->required(),
                     "speedup: geomean speed-up bars per placer at each value of each sweep axis (results files); "
                     "pareto: latency vs the peak memory of the fullest device, every run and each point's Pareto front "
                     "(results files); "
                     "gantt: a Chrome trace of `run --trace`, queues and links over time (one trace); "
                     "predicted: the placers' predictions vs the simulation (results files); "
                     "measured: predicted vs measured, per task and per run (files of `placesim validate`); "
                     "latency-load: p99 TTFT and TPOT against the request rate, a line per placer (files of "
                     "`placesim serve -o`); ttft-cdf: the time to first token's distribution per point and placer "
                     "(files of `placesim serve -o`); "
                     "left out when the first file is a results file: speedup")(
      "files", po::value<std::vector<std::string>>()->multitoken(), "the files to plot")(
      "output,o", po::value<std::string>()->required(), "the image to write: .png or .svg")(
      "baseline", po::value<std::string>(), "speedup: the placer to take speed-ups over (default: the run's)");
  Parsed a;
  if (!parse_args(command_named("plot"), args, opts, {"kind", "files"}, a)) return 0;
  std::string kind = a.vm["kind"].as<std::string>();
  auto files = a.vm.count("files") ? a.vm["files"].as<std::vector<std::string>>() : std::vector<std::string>{};
  // `plot results/x.h5 -o x.png`: no kind, a results file; the speed-up bars are the default.
  if (!kinds().count(kind) && std::filesystem::is_regular_file(kind)) {
    files.insert(files.begin(), kind);
    kind = "speedup";
  }
  const auto known = kinds().find(kind);
  if (known == kinds().end())
    throw InputError(SourceLoc{"placesim plot"},
                     "unknown plot kind '" + kind + "' (expected speedup, pareto, gantt, predicted, measured, "
                     "latency-load or ttft-cdf, or "
                     "a results file for speedup; no file of that name exists either)");
  if (files.empty())
    throw InputError(SourceLoc{"placesim plot"}, "missing files: usage: placesim " + command_named("plot").usage);
  const std::string out = a.vm["output"].as<std::string>();
  std::string ext = std::filesystem::path(out).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char ch) { return std::tolower(ch); });
  if (ext != ".png" && ext != ".svg") throw InputError(SourceLoc{out}, "expected an output file ending in .png or .svg");
  if (a.vm.count("baseline") && kind != "speedup")
    throw InputError(SourceLoc{"--baseline"}, "only speedup plots take a baseline");

  std::vector<std::string> script_args{kind, "-o", out}, inputs = files;
  TempFile document;
  switch (known->second) {
    case Input::Results:
      if (kind == "speedup") {
        const std::string given = a.vm.count("baseline") ? a.vm["baseline"].as<std::string>() : "";
        const std::string text = speedup_document(files, given);
        document.path = (std::filesystem::temp_directory_path() / ("placesim-plot-" + std::to_string(::getpid()) + ".json"))
                            .string();
        write_file_atomic(document.path, text);
        inputs = {document.path};
      } else {
        for (const std::string& path : files) {
          const explore::RunSet set = explore::read_results_h5(path);
          const bool serving = kind == "latency-load" || kind == "ttft-cdf";
          if (serving && std::none_of(set.runs.begin(), set.runs.end(), [](const auto& r) { return r.serving.has_value(); }))
            throw InputError(SourceLoc{path}, "no served request streams here: " + kind +
                                                  " draws the results file of `placesim serve SCENARIO -o FILE`");
        }
      }
      break;
    case Input::Trace:
      if (files.size() != 1) throw InputError(SourceLoc{files[1]}, "a Gantt chart draws one trace; give one file");
      check_trace(files[0]);
      break;
    case Input::Validation:
      for (const std::string& path : files) explore::check_validate_h5(path);
      break;
  }
  script_args.insert(script_args.end(), inputs.begin(), inputs.end());
  const int code = run_plot_script(find_plot_script(), script_args);
  if (code == 0 && a.json) print_json({{"kind", kind}, {"output", out}, {"inputs", files}});
  return code;
}

}  // namespace placesim::cli
