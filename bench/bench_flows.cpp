// placesim's engine beside SimGrid 3.32 on one flow set: N flows between random hosts of a
// 512-host two-level tree with staggered starts (scripts/tree_flows.py writes it; the bench runs
// it). Each tool runs in a process of its own, forked from the bench, from reading the flow file
// to the last completion: SimGrid allows one engine per process, and each process's peak
// resident memory is its own. Both sides are the SimGrid peer test's (tests/peer): placesim's
// engine with a resource per link direction, and SimGrid's CM02 network model under its pure
// max-min settings, so they compute the same completion instants; the bench reports the worst
// relative gap between them.
//
// Counters: placesim_s and simgrid_s (CPU seconds, user + system: the machine may be shared),
// speedup = simgrid_s / placesim_s, each process's peak RSS in MiB, flows in flight at the
// busiest instant, worst_gap. Each process is stopped after PLACESIM_BENCH_LIMIT_S seconds of
// wall time (default 600): placesim_stopped or simgrid_stopped = 1, and its time is then a lower
// bound (and the flows in flight and the gap are not reported).
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
#include <cstdlib>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>

#include "tests/peer/flow_sets.hpp"
#include "tests/peer/simgrid_flows.hpp"

namespace {

using namespace placesim::peer;

// The tree of scripts/tree_flows.py as a FlowSet: links [0, hosts) are the host links,
// [hosts, hosts + leaves) the leaf uplinks; a flow goes up its source's links, down its
// destination's.
FlowSet read_tree_flows(const std::string& path) {
  std::ifstream in(path);
  std::string word[6];
  int hosts = 0, per_leaf = 0;
  double host_bw = 0, uplink_bw = 0;
  std::size_t flows = 0;
  in >> word[0] >> word[1] >> hosts >> word[2] >> per_leaf >> word[3] >> host_bw >> word[4] >> uplink_bw >> word[5] >> flows;
  if (!in || word[0] != "tree-flows" || hosts < 2 || per_leaf < 1 || hosts % per_leaf != 0) {
    throw std::runtime_error(path + ":1: expected the header of scripts/tree_flows.py");
  }
  FlowSet set;
  set.link_bw.assign(hosts, host_bw);
  set.link_bw.resize(hosts + hosts / per_leaf, uplink_bw);
  set.flows.reserve(flows);
  for (std::size_t f = 0; f < flows; ++f) {
    int src = -1, dst = -1;
    Flow flow;
    in >> src >> dst >> flow.bytes >> flow.start_us;
    if (!in || src < 0 || dst < 0 || src >= hosts || dst >= hosts || src == dst) {
      throw std::runtime_error(path + ":" + std::to_string(f + 2) + ": expected a flow 'src dst bytes start_us'");
    }
    flow.route.push_back(Hop{src, true});
    if (src / per_leaf != dst / per_leaf) {
      flow.route.push_back(Hop{hosts + src / per_leaf, true});
      flow.route.push_back(Hop{hosts + dst / per_leaf, false});
    }
    flow.route.push_back(Hop{dst, false});
    set.flows.push_back(std::move(flow));
  }
  return set;
}

struct Outcome {
  std::vector<double> ends;  // per flow, seconds
  double cpu_s = 0;
  double peak_rss_mib = 0;
  bool stopped = false;  // past the limit
  bool failed = false;   // exited with an error
};

// Runs `ends` in a forked process that sends its result back through a pipe.
Outcome in_child(const std::function<std::vector<double>()>& ends, double limit_s) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    close(fds[0]);
    const std::vector<double> e = ends();
    const char* p = reinterpret_cast<const char*>(e.data());
    for (std::size_t left = e.size() * sizeof(double); left > 0;) {
      const ssize_t n = write(fds[1], p, left);
      if (n <= 0) _exit(1);
      p += n;
      left -= static_cast<std::size_t>(n);
    }
    _exit(0);
  }
  close(fds[1]);
  Outcome out;
  std::string bytes;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(limit_s);
  for (char buf[1 << 16];;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd p{fds[0], POLLIN, 0};
    if (left.count() <= 0 || poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1000))) < 0) {
      if (left.count() > 0) continue;
      kill(pid, SIGKILL);
      out.stopped = true;
      break;
    }
    if (p.revents == 0) continue;
    const ssize_t n = read(fds[0], buf, sizeof buf);
    if (n <= 0) break;
    bytes.append(buf, static_cast<std::size_t>(n));
  }
  close(fds[0]);
  int status = 0;
  rusage u{};
  wait4(pid, &status, 0, &u);
  out.failed = !out.stopped && !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  out.cpu_s = static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
  out.peak_rss_mib = static_cast<double>(u.ru_maxrss) / 1024;
  out.ends.resize(bytes.size() / sizeof(double));
  std::copy(bytes.begin(), bytes.end(), reinterpret_cast<char*>(out.ends.data()));
  return out;
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

void flows_beside_simgrid(benchmark::State& state) {
  const auto n = static_cast<int>(state.range(0));
  const std::string path = "/tmp/placesim-tree-flows-" + std::to_string(getpid()) + "-" + std::to_string(n) + ".txt";
  const std::string gen = std::string("/usr/bin/python3 ") + PLACESIM_SOURCE_DIR "/scripts/tree_flows.py --flows " +
                          std::to_string(n) + " -o " + path;
  if (std::system(gen.c_str()) != 0) {
    state.SkipWithError("scripts/tree_flows.py failed");
    return;
  }
  const char* limit_env = std::getenv("PLACESIM_BENCH_LIMIT_S");
  const double limit_s = limit_env ? std::atof(limit_env) : 600;
  Outcome ours, theirs;
  for (auto _ : state) {
    ours = in_child([&] { return placesim_completion_times(read_tree_flows(path)); }, limit_s);
    theirs = in_child([&] { return simgrid_completion_times({read_tree_flows(path)}).value_or(std::vector<std::vector<double>>{{}})[0]; },
                      limit_s);
  }
  const FlowSet set = read_tree_flows(path);
  std::remove(path.c_str());
  if (ours.failed) {
    state.SkipWithError("placesim's run failed");
    return;
  }
  state.counters["placesim_s"] = ours.cpu_s;
  state.counters["placesim_MiB"] = ours.peak_rss_mib;
  if (ours.stopped) {
    state.counters["placesim_stopped"] = 1;
  } else {
    state.counters["in_flight"] = peak_in_flight(set, ours.ends);
  }
  if (theirs.failed) {
    state.counters["simgrid_failed"] = 1;  // what it said is on stderr
    return;
  }
  if (theirs.ends.size() != set.flows.size()) {
    if (!theirs.stopped) {
      state.SkipWithError("SimGrid was not found when placesim was configured (install libsimgrid-dev)");
      return;
    }
    state.counters["simgrid_stopped"] = 1;
  }
  state.counters["simgrid_s"] = theirs.cpu_s;
  state.counters["simgrid_MiB"] = theirs.peak_rss_mib;
  state.counters["speedup"] = theirs.cpu_s / ours.cpu_s;
  double gap = 0;
  for (std::size_t f = 0; f < std::min(ours.ends.size(), theirs.ends.size()); ++f) gap = std::max(gap, std::abs(ours.ends[f] - theirs.ends[f]) / theirs.ends[f]);
  if (!theirs.stopped && !ours.stopped) state.counters["worst_gap"] = gap;
}

BENCHMARK(flows_beside_simgrid)->Arg(1000)->Arg(10000)->Arg(30000)->Arg(50000)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
