#include "app/cli/command.hpp"

#include <algorithm>
#include <cstdio>
#include <fmt/format.h>
#include <iostream>
#include <stdexcept>
#include <string_view>

#include "sim/core/error.hpp"
#include "sim/core/log.hpp"

namespace placesim::cli {

const std::vector<Command>& commands() {
  static const std::vector<Command> all = {
      {"run", "run SCENARIO.yaml [-o X.h5] [--resume] [--trace DIR] [-j N] [--dry-run]",
       "run every placer at every sweep point", cmd_run},
      {"serve", "serve SCENARIO.yaml [--set K=V] [-o FILE] [--trace DIR]", "each placer serving the scenario's request stream: TTFT, TPOT, "
       "throughput, SLO attainment", cmd_serve},
      {"capacity", "capacity SCENARIO.yaml --slo ttft_p99=2s,tpot_p99=100ms",
       "each placer's highest request rate meeting the latency targets", cmd_capacity},
      {"plan", "plan SCENARIO.yaml --placer NAME [-o plan.json]", "one placer's plan, to inspect or edit", cmd_plan},
      {"simulate", "simulate --plan P.json (--scenario S.yaml | --hardware H --graph G)",
       "score a given plan on a scenario's problem or a given one", cmd_simulate},
      {"compare", "compare RESULTS.h5... [--baseline NAME] [--markdown]",
       "speed-ups per point and axis, win/tie/loss, memory, placement time", cmd_compare},
      {"list", "list placers|presets [NAME]|models|workloads|cost-models|collectives", "what is built in", cmd_list},
      {"validate", "validate SCENARIO.yaml [--backend cpu|cuda] [-o X.h5]",
       "run each plan for real and compare it with the simulation, task by task", cmd_validate},
      {"calibrate", "calibrate [--backend cpu|cuda] -o FILE.yaml", "fit this machine's costs into a hardware file",
       cmd_calibrate},
      {"discover", "discover -o FILE.yaml", "write this machine's topology (hwloc; GPUs with CUDA)", cmd_discover},
      {"export", "export RESULTS.h5 --csv [-o FILE.csv]", "a results file as CSV, one row per run", cmd_export},
      {"plot", "plot [KIND] FILE... -o OUT.png|OUT.svg",
       "speed-ups, latency vs memory, a trace's Gantt chart, predictions", cmd_plot},
  };
  return all;
}

const Command& command_named(std::string_view name) {
  for (const Command& c : commands())
    if (c.name == name) return c;
  throw std::logic_error("no command named " + std::string(name));
}

namespace {

// `text` in lines of at most 80 columns, broken at spaces, each after the first indented by `indent`.
std::string wrapped(const std::string& text, size_t indent) {
  std::string out, line;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find(' ', at + 1);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(at, end - at);
    if (!line.empty() && line.size() + word.size() > 80) {
      out += line + "\n";
      line = std::string(indent, ' ') + word.substr(word.front() == ' ' ? 1 : 0);
    } else {
      line += word;
    }
    at = end;
  }
  return out + line + "\n";
}

}  // namespace

bool parse_args(const Command& cmd, const std::vector<std::string>& args, po::options_description opts,
                const std::vector<std::string>& positional, Parsed& out) {
  opts.add_options()("json", "print one JSON document on stdout instead of tables")(
      "verbose,v", "log progress details, and how long each step took, to stderr")("help,h", "show this help");
  po::positional_options_description pos;
  // A positional that takes several tokens (po::value<std::vector<...>>()->multitoken()) takes
  // every word left.
  for (const std::string& p : positional)
    pos.add(p.c_str(), opts.find(p, false).semantic()->max_tokens() > 1 ? -1 : 1);
  auto is_positional = [&](std::string name) {
    if (name.rfind("--", 0) == 0) name.erase(0, 2);
    return std::find(positional.begin(), positional.end(), name) != positional.end();
  };
  try {
    po::store(po::command_line_parser(args).options(opts).positional(pos).run(), out.vm);
    if (out.vm.count("help")) {
      // The arguments the usage line names are not options: they are listed apart, by name.
      po::options_description options("options");
      std::string arguments = positional.empty() ? "" : "arguments:\n";
      for (const auto& o : opts.options()) {
        if (is_positional(o->long_name())) arguments += wrapped(fmt::format("  {:<10} {}", o->long_name(), o->description()), 13);
        else options.add(o);
      }
      std::cout << "usage: placesim " << cmd.usage << "\n\n" << cmd.summary << "\n\n" << arguments
                << (arguments.empty() ? "" : "\n") << options << "\n";
      return false;
    }
    po::notify(out.vm);
    // An empty word (`--plan ''`, an unset shell variable) names no file or value: said here,
    // with the option, rather than as a nameless "cannot open file" later.
    for (const auto& [name, value] : out.vm) {
      // A switch (--json) holds an empty string too: only options that take a value are asked.
      if (value.defaulted() || opts.find(name, false).semantic()->max_tokens() == 0) continue;
      const auto* one = boost::any_cast<std::string>(&value.value());
      const auto* many = boost::any_cast<std::vector<std::string>>(&value.value());
      if ((one && one->empty()) || (many && std::find(many->begin(), many->end(), "") != many->end()))
        throw InputError(SourceLoc{"placesim " + cmd.name},
                         fmt::format("{}{}: expected a value, got an empty word", is_positional(name) ? "" : "--", name));
    }
  } catch (const po::required_option& e) {
    // A missing argument is named as the usage line names it, not as the option it is inside.
    if (is_positional(e.get_option_name()))
      throw InputError(SourceLoc{"placesim " + cmd.name},
                       fmt::format("missing {}: usage: placesim {} (see --help)", e.get_option_name().substr(2), cmd.usage));
    throw InputError(SourceLoc{"placesim " + cmd.name}, std::string(e.what()) + " (see --help)");
  } catch (const po::error& e) {
    throw InputError(SourceLoc{"placesim " + cmd.name}, std::string(e.what()) + " (see --help)");
  }
  out.json = out.vm.count("json") != 0;
  if (out.vm.count("verbose")) set_log_level(spdlog::level::info);
  return true;
}

namespace {
thread_local JsonCapture* t_capture = nullptr;
}  // namespace

namespace {
bool g_exit_follows = false;
}  // namespace

void exit_follows_command() { g_exit_follows = true; }

namespace detail {
bool exit_follows() { return g_exit_follows; }
void keep_until_exit(std::shared_ptr<void> value) {
  static auto* kept = new std::vector<std::shared_ptr<void>>;  // never freed: the exit does
  kept->push_back(std::move(value));
}
}  // namespace detail

JsonCapture::JsonCapture() : outer_(t_capture) { t_capture = this; }
JsonCapture::~JsonCapture() { t_capture = outer_; }
void JsonCapture::take(const nlohmann::ordered_json& j) {
  doc_ = j;
  captured_ = true;
}

void print_json(const nlohmann::ordered_json& j) {
  if (t_capture) return t_capture->take(j);
  const std::string s = j.dump(2) + "\n";
  std::fwrite(s.data(), 1, s.size(), stdout);
}

std::string command_line(const std::string& name, const std::vector<std::string>& args) {
  std::string line = "placesim " + name;
  for (const std::string& w : args) {
    const bool plain = !w.empty() && w.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                                         "0123456789_-./=:,+@%") == std::string::npos;
    if (plain) {
      line += " " + w;
      continue;
    }
    line += " '";
    for (const char c : w) line += c == '\'' ? std::string("'\\''") : std::string(1, c);
    line += "'";
  }
  return line;
}

}  // namespace placesim::cli
