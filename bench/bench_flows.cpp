// placesim's engine beside SimGrid 3.32 on one flow set: N flows between random hosts of a
// 512-host two-level tree with staggered starts (scripts/tree_flows.py writes it; the bench runs
// it). Each tool runs in a process of its own, forked from the bench, from reading the flow file
// to the last completion: SimGrid allows one engine per process, and each process's peak
// resident memory is its own. Both sides are the SimGrid peer test's (tests/peer): placesim's
// engine with a resource per link direction, and SimGrid's CM02 network model under its pure
// max-min settings, so they compute the same completion instants; the bench reports the worst
// relative gap between them.
//
// Counters: placesim_s and simgrid_s (CPU seconds, user + system: the machine may be shared;
// up to 10k flows the medians of 15 alternated runs, `alternate`), pairs (how many),
// speedup = simgrid_s / placesim_s, each process's peak RSS in MiB, flows in flight at the
// busiest instant, worst_gap. Each process is stopped after PLACESIM_BENCH_LIMIT_S seconds of
// wall time (default 600): placesim_stopped or simgrid_stopped = 1, and its time is then a lower
// bound (and the flows in flight and the gap are not reported). cli_beside_simgrid runs the whole
// program on each side; cli_traced prices placesim's --trace in each format; flows_sharing_on_off
// runs the engine with shared rates and without (their counters are described at each).
#include <benchmark/benchmark.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/core/child_call.hpp"
#include "tests/peer/flow_sets.hpp"
#include "tests/peer/simgrid_flows.hpp"

namespace {

using namespace placesim::peer;

// A flow file of scripts/tree_flows.py as a FlowSet.
FlowSet read_tree_flows(const std::string& path) {
  std::ifstream in(path);
  std::string word[3];
  std::size_t links = 0, flows = 0;
  in >> word[0] >> word[1] >> links >> word[2] >> flows;
  if (!in || word[0] != "flow-set" || word[1] != "links" || word[2] != "flows" || links == 0) {
    throw std::runtime_error(path + ":1: expected 'flow-set links L flows N' (scripts/tree_flows.py)");
  }
  FlowSet set;
  set.link_bw.resize(links);
  for (double& bw : set.link_bw) in >> bw;
  std::string line;
  std::getline(in, line);
  set.flows.reserve(flows);
  for (std::size_t f = 0; f < flows; ++f) {
    Flow flow;
    std::getline(in, line);
    std::istringstream words(line);
    words >> flow.bytes >> flow.start_us;
    bool bad = !words;
    for (std::string hop; words >> hop;) {
      const char way = hop.back();
      const int link = std::atoi(hop.c_str());
      bad = bad || (way != '+' && way != '-') || link < 0 || static_cast<std::size_t>(link) >= links;
      flow.route.push_back(Hop{link, way == '+'});
    }
    if (!in || bad || flow.bytes == 0 || flow.route.empty()) {
      throw std::runtime_error(path + ":" + std::to_string(links + f + 2) + ": expected a flow 'bytes start_us link+ ... link-'");
    }
    set.flows.push_back(std::move(flow));
  }
  return set;
}

struct Outcome {
  std::string out;  // what the child wrote
  double cpu_s = 0;
  double peak_rss_mib = 0;
  bool stopped = false;  // past the limit
  bool failed = false;   // exited with an error

  // The child's output read as doubles (what `completion_times` wrote).
  std::vector<double> doubles() const {
    std::vector<double> d(out.size() / sizeof(double));
    std::copy(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(d.size() * sizeof(double)), reinterpret_cast<char*>(d.data()));
    return d;
  }
};

// Reads child `pid`'s output from `fd` until it closes, or kills the child after `limit_s`
// seconds of wall time; then its exit, CPU time and peak memory.
Outcome collect_child(pid_t pid, int fd, double limit_s) {
  Outcome out;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(limit_s);
  for (char buf[1 << 16];;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd p{fd, POLLIN, 0};
    if (left.count() <= 0 || poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1000))) < 0) {
      if (left.count() > 0) continue;
      kill(pid, SIGKILL);
      out.stopped = true;
      break;
    }
    if (p.revents == 0) continue;
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) break;
    out.out.append(buf, static_cast<std::size_t>(n));
  }
  close(fd);
  int status = 0;
  rusage u{};
  wait4(pid, &status, 0, &u);
  out.failed = !out.stopped && !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  out.cpu_s = static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
  out.peak_rss_mib = static_cast<double>(u.ru_maxrss) / 1024;
  return out;
}

// Runs `body` in a forked process, which writes its result to the file descriptor it is given;
// reads it back.
Outcome in_child(const std::function<void(int fd)>& body, double limit_s) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    close(fds[0]);
    body(fds[1]);
    _exit(0);
  }
  close(fds[1]);
  return collect_child(pid, fds[0], limit_s);
}

// Programs (`placesim simulate`, SimGrid's side) are started the way a shell starts them, by a
// small process: a launcher that main() forks before this one holds anything. Forked from the
// bench itself, a program paid in its own CPU time for taking down its copy of the bench's
// memory (the flow sets, SimGrid's libraries: hundreds of MiB) at exec, 5-15 ms a run on each
// side, and reported the bench's resident memory as its own peak (ru_maxrss keeps the largest of
// every address space the process had, the one it had before exec included); posix_spawn avoids
// the first and not the second. The launcher reads a program's arguments and time limit from a
// pipe, runs it (collect_child), and answers with its Outcome.
class Launcher {
 public:
  static void start() { instance() = std::make_unique<Launcher>(); }
  static Launcher& get() { return *instance(); }

  Launcher() {
    int ask[2], answer[2];
    if (pipe(ask) != 0 || pipe(answer) != 0) throw std::runtime_error("pipe failed");
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
      close(ask[1]);
      close(answer[0]);
      serve(ask[0], answer[1]);
      _exit(0);
    }
    close(ask[0]);
    close(answer[1]);
    ask_ = ask[1];
    answer_ = answer[0];
  }
  ~Launcher() {
    close(ask_);  // the launcher's read ends: it exits
    close(answer_);
    waitpid(pid_, nullptr, 0);
  }

  Outcome run(const std::vector<std::string>& args, double limit_s) {
    std::string req;
    put(req, static_cast<std::uint64_t>(args.size()));
    for (const std::string& a : args) put_string(req, a);
    put(req, limit_s);
    send(ask_, req);
    Outcome o;
    o.stopped = get<std::uint8_t>(answer_) != 0;
    o.failed = get<std::uint8_t>(answer_) != 0;
    o.cpu_s = get<double>(answer_);
    o.peak_rss_mib = get<double>(answer_);
    o.out = get_string(answer_);
    return o;
  }

 private:
  static std::unique_ptr<Launcher>& instance() {
    static std::unique_ptr<Launcher> launcher;
    return launcher;
  }
  template <class T>
  static void put(std::string& s, T v) {
    s.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  static void put_string(std::string& s, const std::string& v) {
    put(s, static_cast<std::uint64_t>(v.size()));
    s += v;
  }
  static void send(int fd, const std::string& s) {
    if (!placesim::write_all(fd, s)) throw std::runtime_error("the launcher's pipe closed");
  }
  // False at the end of the pipe before the first byte.
  static bool read_all(int fd, char* p, std::size_t n) {
    for (std::size_t at = 0; at < n;) {
      const ssize_t got = read(fd, p + at, n - at);
      if (got <= 0) {
        if (at == 0) return false;
        throw std::runtime_error("the launcher's pipe closed");
      }
      at += static_cast<std::size_t>(got);
    }
    return true;
  }
  template <class T>
  static T get(int fd) {
    T v{};
    if (!read_all(fd, reinterpret_cast<char*>(&v), sizeof v)) throw std::runtime_error("the launcher's pipe closed");
    return v;
  }
  static std::string get_string(int fd) {
    std::string s(get<std::uint64_t>(fd), '\0');
    if (!s.empty() && !read_all(fd, s.data(), s.size())) throw std::runtime_error("the launcher's pipe closed");
    return s;
  }

  // The launcher's loop: a program per request, until the bench closes the pipe.
  static void serve(int ask, int answer) {
    for (std::uint64_t argc = 0; read_all(ask, reinterpret_cast<char*>(&argc), sizeof argc);) {
      std::vector<std::string> args(argc);
      for (std::string& a : args) a = get_string(ask);
      const double limit_s = get<double>(ask);
      int fds[2];
      if (pipe(fds) != 0) _exit(1);
      const pid_t pid = fork();
      if (pid < 0) _exit(1);
      if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], STDOUT_FILENO);
        close(fds[1]);
        std::vector<char*> argv;
        for (std::string& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        execv(argv[0], argv.data());
        _exit(127);
      }
      close(fds[1]);
      const Outcome o = collect_child(pid, fds[0], limit_s);
      std::string reply;
      put(reply, static_cast<std::uint8_t>(o.stopped));
      put(reply, static_cast<std::uint8_t>(o.failed));
      put(reply, o.cpu_s);
      put(reply, o.peak_rss_mib);
      put_string(reply, o.out);
      send(answer, reply);
    }
  }

  pid_t pid_ = -1;
  int ask_ = -1, answer_ = -1;
};

Outcome launched(const std::vector<std::string>& args, double limit_s) { return Launcher::get().run(args, limit_s); }
// A child body: computes per-flow instants and writes them as doubles.
std::function<void(int)> completion_times(const std::function<std::vector<double>()>& ends) {
  return [ends](int fd) {
    const std::vector<double> e = ends();
    const char* p = reinterpret_cast<const char*>(e.data());
    for (std::size_t left = e.size() * sizeof(double); left > 0;) {
      const ssize_t n = write(fd, p, left);
      if (n <= 0) _exit(1);
      p += n;
      left -= static_cast<std::size_t>(n);
    }
  };
}

// `placesim simulate --json` on the set's files; with a trace written to `trace` when it is not
// empty.
std::vector<std::string> placesim_cli(const std::string& dir, const std::string& trace = "") {
  std::vector<std::string> argv = {PLACESIM_BINARY, "simulate", "--hardware", dir + "/hardware.yaml", "--graph",
                                   dir + "/graph.json", "--plan", dir + "/plan.json", "--json"};
  if (!trace.empty()) {
    argv.push_back("--trace");
    argv.push_back(trace);
  }
  return argv;
}

// SimGrid's completion instants for the flow file (none when placesim was built without it).
std::vector<double> simgrid_ends(const std::string& file) {
  return simgrid_completion_times({read_tree_flows(file)}).value_or(std::vector<std::vector<double>>{{}})[0];
}

// SimGrid's side as a program of its own (this one, started again with --simgrid-child FILE:
// loading SimGrid, reading the flow file, simulating), its per-flow instants on stdout.
std::vector<std::string> simgrid_program(const std::string& file) {
  return {std::filesystem::read_symlink("/proc/self/exe").string(), "--simgrid-child", file};
}

// The most flows in flight at once: a flow is from its start to its end, ends before starts
// at one instant.
double peak_in_flight(const FlowSet& set, const std::vector<double>& ends) {
  std::vector<std::pair<double, int>> events;
  for (std::size_t f = 0; f < set.flows.size(); ++f) {
    events.emplace_back(static_cast<double>(set.flows[f].start_us) * 1e-6, 1);
    events.emplace_back(ends[f], -1);
  }
  std::sort(events.begin(), events.end());
  int now = 0, peak = 0;
  for (const auto& e : events) peak = std::max(peak, now += e.second);
  return peak;
}

const char* const kTrees[] = {"uniform", "mixed"};

double limit_s() {
  const char* limit_env = std::getenv("PLACESIM_BENCH_LIMIT_S");
  return limit_env ? std::atof(limit_env) : 600;
}

// The set a benchmark's arguments name (flows, tree), written for it (a flow file and, with
// `cli`, the CLI's files in a folder beside it) and removed when it goes; the benchmark is
// labelled with the tree, and skipped with the reason when the set cannot be written.
struct GeneratedSet {
  std::string file, dir;
  bool ok = false;

  GeneratedSet(benchmark::State& state, bool cli) {
    const auto flows = static_cast<int>(state.range(0));
    const char* tree = kTrees[state.range(1)];
    state.SetLabel(tree);
    const std::string stem = "/tmp/placesim-tree-flows-" + std::to_string(getpid()) + "-" + tree + "-" + std::to_string(flows);
    file = stem + ".txt";
    std::string gen = std::string("/usr/bin/python3 ") + PLACESIM_SOURCE_DIR "/scripts/tree_flows.py --flows " + std::to_string(flows) +
                      " --tree " + tree + " -o " + file;
    if (cli) {
      dir = stem;
      gen += " --placesim " + dir;
    }
    ok = std::system(gen.c_str()) == 0;
    if (!ok) state.SkipWithError("scripts/tree_flows.py failed");
  }
  GeneratedSet(const GeneratedSet&) = delete;
  GeneratedSet& operator=(const GeneratedSet&) = delete;
  ~GeneratedSet() {
    std::remove(file.c_str());
    if (!dir.empty()) {
      for (const char* f : {"/hardware.yaml", "/graph.json", "/plan.json"}) std::remove((dir + f).c_str());
      rmdir(dir.c_str());
    }
  }
};

// Two runs to compare, each in a child: up to 10k flows one is under a second or two, where this
// machine's noise between two runs is 5-10%, so the two alternate 15 times and each one's CPU
// seconds are the median of its runs; past that, once each. The last Outcome of each is kept
// (its output); the first failure or stop ends the pairs.
struct Alternated {
  Outcome a, b;
  double a_s = 0, b_s = 0;  // median CPU seconds
  int pairs = 0;
};
Alternated alternate(std::int64_t flows, const std::function<Outcome()>& run_a, const std::function<Outcome()>& run_b) {
  Alternated r;
  std::vector<double> a_s, b_s;
  const int pairs = flows <= 10000 ? 15 : 1;
  for (int k = 0; k < pairs; ++k) {
    r.a = run_a();
    r.b = run_b();
    if (r.a.failed || r.b.failed || r.a.stopped || r.b.stopped) break;
    a_s.push_back(r.a.cpu_s);
    b_s.push_back(r.b.cpu_s);
  }
  const auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
  };
  r.a_s = a_s.empty() ? r.a.cpu_s : median(a_s);
  r.b_s = b_s.empty() ? r.b.cpu_s : median(b_s);
  r.pairs = static_cast<int>(a_s.size());
  return r;
}

// The engine alone beside SimGrid: each reads the flow file and simulates it. Counters in the
// file's header comment.
void flows_beside_simgrid(benchmark::State& state) {
  const GeneratedSet gen(state, false);
  if (!gen.ok) return;
  const std::string& path = gen.file;
  Alternated runs;
  for (auto _ : state) {
    runs = alternate(state.range(0), [&] { return in_child(completion_times([&] { return placesim_completion_times(read_tree_flows(path)); }), limit_s()); },
                     [&] { return in_child(completion_times([&] { return simgrid_ends(path); }), limit_s()); });
  }
  const Outcome& ours = runs.a;
  const Outcome& theirs = runs.b;
  state.counters["pairs"] = runs.pairs;
  const FlowSet set = read_tree_flows(path);
  if (ours.failed) {
    state.SkipWithError("placesim's run failed");
    return;
  }
  state.counters["placesim_s"] = runs.a_s;
  state.counters["placesim_MiB"] = ours.peak_rss_mib;
  if (ours.stopped) {
    state.counters["placesim_stopped"] = 1;
  } else {
    state.counters["in_flight"] = peak_in_flight(set, ours.doubles());
  }
  if (theirs.failed) {
    state.counters["simgrid_failed"] = 1;  // what it said is on stderr
    return;
  }
  const std::vector<double> a = ours.doubles(), b = theirs.doubles();
  if (b.size() != set.flows.size()) {
    if (!theirs.stopped) {
      state.SkipWithError("SimGrid was not found when placesim was configured (install libsimgrid-dev)");
      return;
    }
    state.counters["simgrid_stopped"] = 1;
  }
  state.counters["simgrid_s"] = runs.b_s;
  state.counters["simgrid_MiB"] = theirs.peak_rss_mib;
  state.counters["speedup"] = runs.b_s / runs.a_s;
  double gap = 0;
  for (std::size_t f = 0; f < std::min(a.size(), b.size()); ++f) gap = std::max(gap, std::abs(a[f] - b[f]) / b[f]);
  if (!theirs.stopped && !ours.stopped) state.counters["worst_gap"] = gap;
}

// The whole program beside SimGrid, as a user meets each: `placesim simulate` on the set's
// hardware, graph and plan files (reading them, building the plan, lowering, routing,
// simulating, printing), and SimGrid reading the flow file and simulating it. Counters:
// cli_s and simgrid_s (CPU seconds; medians of alternated runs, `alternate`), cli_MiB and
// simgrid_MiB (peak RSS), speedup = simgrid_s / cli_s, makespan_gap (the CLI's makespan against
// SimGrid's last completion, relative).
void cli_beside_simgrid(benchmark::State& state) {
  const GeneratedSet gen(state, true);
  if (!gen.ok) return;
  Alternated runs;
  for (auto _ : state) {
    runs = alternate(state.range(0), [&] { return launched(placesim_cli(gen.dir), limit_s()); },
                     [&] { return launched(simgrid_program(gen.file), limit_s()); });
  }
  const Outcome& ours = runs.a;
  const Outcome& theirs = runs.b;
  state.counters["pairs"] = runs.pairs;
  if (ours.failed) {
    state.SkipWithError("placesim simulate failed (what it said is on stderr)");
    return;
  }
  state.counters["cli_s"] = runs.a_s;
  state.counters["cli_MiB"] = ours.peak_rss_mib;
  if (ours.stopped) state.counters["cli_stopped"] = 1;
  const std::vector<double> b = theirs.doubles();
  if (theirs.failed || (b.empty() && !theirs.stopped)) {
    state.SkipWithError(theirs.failed ? "SimGrid's run failed" : "SimGrid was not found when placesim was configured (install libsimgrid-dev)");
    return;
  }
  if (theirs.stopped) state.counters["simgrid_stopped"] = 1;
  state.counters["simgrid_s"] = runs.b_s;
  state.counters["simgrid_MiB"] = theirs.peak_rss_mib;
  state.counters["speedup"] = runs.b_s / runs.a_s;
  const auto at = ours.out.find("\"makespan_s\":");
  if (!ours.stopped && !theirs.stopped && at != std::string::npos) {
    const double makespan = std::atof(ours.out.c_str() + at + 13);
    state.counters["makespan_gap"] = std::abs(makespan - *std::max_element(b.begin(), b.end())) / *std::max_element(b.begin(), b.end());
  }
}

// What --trace costs the whole program: `placesim simulate` on the set's files untraced, then
// writing the whole trace as Perfetto's protobuf (.pftrace) and as JSON (.json), each file
// deleted and the disk synced before its run (so that one run's writeback is not the next's). Counters: plain_s, json_s, pftrace_s (CPU seconds), json_ratio and
// pftrace_ratio (each over plain_s), json_MB and pftrace_MB (the files), and each run's peak RSS.
void cli_traced(benchmark::State& state) {
  const GeneratedSet gen(state, true);
  if (!gen.ok) return;
  Outcome plain, json, pftrace;
  double json_mb = 0, pftrace_mb = 0;
  auto traced = [&](const std::string& name, double& mb) {
    const std::string path = gen.dir + "/" + name;
    std::filesystem::remove(path);
    sync();
    Outcome o = launched(placesim_cli(gen.dir, path), limit_s());
    std::error_code ec;
    mb = static_cast<double>(std::filesystem::file_size(path, ec)) / 1e6;
    std::filesystem::remove(path, ec);
    return o;
  };
  for (auto _ : state) {
    sync();
    plain = launched(placesim_cli(gen.dir), limit_s());
    pftrace = traced("t.pftrace", pftrace_mb);
    json = traced("t.json", json_mb);
  }
  if (plain.failed || json.failed || pftrace.failed) {
    state.SkipWithError("placesim simulate failed (what it said is on stderr)");
    return;
  }
  if (plain.stopped || json.stopped || pftrace.stopped) state.counters["stopped"] = 1;
  state.counters["plain_s"] = plain.cpu_s;
  state.counters["json_s"] = json.cpu_s;
  state.counters["pftrace_s"] = pftrace.cpu_s;
  state.counters["json_ratio"] = json.cpu_s / plain.cpu_s;
  state.counters["pftrace_ratio"] = pftrace.cpu_s / plain.cpu_s;
  state.counters["json_MB"] = json_mb;
  state.counters["pftrace_MB"] = pftrace_mb;
  state.counters["plain_MiB"] = plain.peak_rss_mib;
  state.counters["json_MiB"] = json.peak_rss_mib;
  state.counters["pftrace_MiB"] = pftrace.peak_rss_mib;
}

// Shared rates on and off (SimOptions::share_rates: the cost model of rate_groups.hpp decides
// from the first start, or never), the engine alone on the flow file: shared_s and apart_s (CPU
// seconds; medians of alternated runs, `alternate`), on_off = shared_s / apart_s, worst_gap
// between the two runs' instants (relative).
void flows_sharing_on_off(benchmark::State& state) {
  const GeneratedSet gen(state, false);
  if (!gen.ok) return;
  placesim::engine::SimOptions apart, by_default;
  apart.share_rates = false;
  auto run = [&](const placesim::engine::SimOptions& o) {
    return in_child(completion_times([&] { return placesim_completion_times(read_tree_flows(gen.file), o); }), limit_s());
  };
  Alternated runs;
  for (auto _ : state) runs = alternate(state.range(0), [&] { return run(by_default); }, [&] { return run(apart); });
  const Outcome& shared = runs.a;
  const Outcome& alone = runs.b;
  if (shared.failed || alone.failed) {
    state.SkipWithError("placesim's run failed");
    return;
  }
  state.counters["shared_s"] = runs.a_s;
  state.counters["apart_s"] = runs.b_s;
  if (shared.stopped || alone.stopped) {
    state.counters["stopped"] = 1;
    return;
  }
  state.counters["on_off"] = runs.a_s / runs.b_s;
  state.counters["pairs"] = runs.pairs;
  const std::vector<double> a = shared.doubles(), b = alone.doubles();
  double gap = 0;
  for (std::size_t f = 0; f < a.size(); ++f) gap = std::max(gap, std::abs(a[f] - b[f]) / b[f]);
  state.counters["worst_gap"] = gap;
}

void sizes(benchmark::internal::Benchmark* b) {
  for (int tree = 0; tree < 2; ++tree) {
    for (int flows : {1000, 10000, 30000, 50000}) b->Args({flows, tree});
  }
}

BENCHMARK(flows_beside_simgrid)->Apply(sizes)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(cli_beside_simgrid)->Apply(sizes)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(flows_sharing_on_off)->Apply(sizes)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(cli_traced)->Apply(sizes)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "--simgrid-child") {
    completion_times([&] { return simgrid_ends(argv[2]); })(STDOUT_FILENO);
    return 0;
  }
  Launcher::start();  // before this process holds anything (Launcher)
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
