// The subcommands of `placesim`, each in its own file, and what they share: option parsing with
// --help and --json, and printing either a table (for people) or one JSON document (for
// scripts) on stdout. Logs and progress go to stderr.
#pragma once

#include <boost/program_options.hpp>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>
#include <nlohmann/json.hpp>

namespace placesim::cli {

namespace po = boost::program_options;

struct Command {
  std::string name;
  std::string usage;    // "run SCENARIO.yaml [options]"
  std::string summary;  // one line for `placesim --help`
  std::function<int(const std::vector<std::string>& args)> main;
};

const std::vector<Command>& commands();
const Command& command_named(std::string_view name);  // each command's main finds its own entry

// Parses `args` against `opts` (+ --help, --json, --verbose) with `positional` names in order.
// Returns false when --help was printed. Throws InputError on bad options.
struct Parsed {
  po::variables_map vm;
  bool json = false;
};
bool parse_args(const Command& cmd, const std::vector<std::string>& args, po::options_description opts,
                const std::vector<std::string>& positional, Parsed& out);

void print_json(const nlohmann::ordered_json& j);  // one document on stdout, newline-terminated

// While one is alive on a thread, print_json on that thread hands the document to it instead of
// stdout: how the Python module gets a command's `--json` document as its answer.
class JsonCapture {
 public:
  JsonCapture();
  ~JsonCapture();
  JsonCapture(const JsonCapture&) = delete;
  JsonCapture& operator=(const JsonCapture&) = delete;
  const nlohmann::ordered_json& document() const { return doc_; }
  bool captured() const { return captured_; }
  void take(const nlohmann::ordered_json& j);

 private:
  JsonCapture* outer_;
  nlohmann::ordered_json doc_;
  bool captured_ = false;
};

// What a command built, left unfreed when the process ends as the command returns. Freeing a
// large problem block by block (its graph's names, routes, tasks, trace) took 5-7% of `placesim
// simulate` at 10k flows, and the exit frees it all at once. Only placesim's main says the
// process ends with the command (exit_follows_command); the Python module runs commands one
// after another in its own process, so there the values stay with their owner and are freed as
// usual. They stay reachable (LeakSanitizer reports none).
void exit_follows_command();
namespace detail {
bool exit_follows();
void keep_until_exit(std::shared_ptr<void> value);
}  // namespace detail
template <class... T>
void leave_to_exit(T&&... values) {
  if (!detail::exit_follows()) return;
  (detail::keep_until_exit(std::make_shared<std::decay_t<T>>(std::move(values))), ...);
}

// "placesim NAME ARGS...", each word quoted for a POSIX shell where it needs it: what results
// files record as the command that wrote them.
std::string command_line(const std::string& name, const std::vector<std::string>& args);

int cmd_run(const std::vector<std::string>& args);
int cmd_serve(const std::vector<std::string>& args);
int cmd_capacity(const std::vector<std::string>& args);
int cmd_plan(const std::vector<std::string>& args);
int cmd_simulate(const std::vector<std::string>& args);
int cmd_list(const std::vector<std::string>& args);
int cmd_compare(const std::vector<std::string>& args);
int cmd_plot(const std::vector<std::string>& args);
int cmd_validate(const std::vector<std::string>& args);
int cmd_calibrate(const std::vector<std::string>& args);
int cmd_discover(const std::vector<std::string>& args);
int cmd_export(const std::vector<std::string>& args);

}  // namespace placesim::cli
