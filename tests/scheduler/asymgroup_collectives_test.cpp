// AsymGroup's capability-aware collectives placed in plans (scheduler/plan/json.hpp: algorithm
// `proportional`, `weights`, `groups`) on the asymgroup-s* presets. A node's rank is its gpu0 and
// its capability its GPU count (AsymGroup's c_n: one or two A100s). With one GPU per node in the
// group, every route between members leaves through the sender's node links and enters through
// the receiver's, at one bandwidth B and latency L: a switch with one link in and one out per
// rank, where proportional.hpp's closed forms are exact (for all-gather, with the groupings it
// names). B and L are read from the loaded preset; every expectation is derived here.
#include <algorithm>
#include <functional>
#include <numeric>

#include "tests/scheduler/fidelity_support.hpp"

namespace {

using namespace fidelity;

constexpr double S = 1.2e9;

// The plan needs an op; the collective stands alone beside it.
const char* kOneOp = R"({"nodes": [{"name": "a", "durations": {"n0.gpu0": 0}}], "edges": []})";

struct Collective {
  std::string op;
  std::vector<int> nodes;            // rank r is n<nodes[r]>.gpu0
  std::vector<int> groups = {};      // all-gather only
  int chunks = 1;
  std::vector<double> weights = {};  // empty: each node's GPU count
};

template <typename T>
std::string json_list(const std::vector<T>& v) {
  std::string s = "[";
  for (const T& x : v) s += (s.size() > 1 ? ", " : "") + std::to_string(x);
  return s + "]";
}

// "n<node>.<gpu>", built by appending (GCC 12 warns falsely on "n" + std::to_string(node)).
std::string on_node(int node, const char* gpu) {
  std::string s = "n";
  s += std::to_string(node);
  s += '.';
  s += gpu;
  return s;
}
std::string gpu0(int node) { return on_node(node, "gpu0"); }

std::vector<double> capabilities(const hw::Topology& t, const Collective& c) {
  if (!c.weights.empty()) return c.weights;
  std::vector<double> w;
  for (int node : c.nodes) w.push_back(t.find(on_node(node, "gpu1")) >= 0 ? 2 : 1);
  return w;
}

std::string plan_text(const hw::Topology& t, const Collective& c) {
  std::string group;
  for (int node : c.nodes) group += (group.empty() ? "\"" : ", \"") + gpu0(node) + "\"";
  std::string text = R"({"devices": {"a": "n0.gpu0"}, "collectives": [{"name": "c", "op": ")" + c.op +
                     R"(", "algorithm": "proportional", "group": [)" + group + "], \"bytes\": " + std::to_string(S) +
                     ", \"chunks\": " + std::to_string(c.chunks) + ", \"weights\": " + json_list(capabilities(t, c));
  if (!c.groups.empty()) text += ", \"groups\": " + json_list(c.groups);
  return text + R"(}], "queues": [{"name": "n0.gpu0.compute", "tasks": ["a"]}]})";
}

// The route figures every member pair shares (asserted).
Path member_route(const hw::Topology& t, const Collective& c) {
  const Path p = path(t, gpu0(c.nodes[0]), gpu0(c.nodes[1]));
  for (int a : c.nodes)
    for (int b : c.nodes)
      if (a != b) {
        const Path q = path(t, gpu0(a), gpu0(b));
        EXPECT_DOUBLE_EQ(q.bw, p.bw);
        EXPECT_DOUBLE_EQ(q.latency, p.latency);
      }
  return p;
}

// Flow within 1e-9 of the closed form `expect`(L, B, weights) (and a few picoseconds of
// rounding), analytic within 1e-6 of flow.
void expect_closed_form(const std::string& preset_name, const Collective& c,
                        const std::function<double(double, double, const std::vector<double>&)>& expect) {
  SCOPED_TRACE(preset_name + " " + c.op + " on " + json_list(c.nodes) + " groups " + json_list(c.groups));
  const Problem p = problem(kOneOp, preset(preset_name), scheduler::WeightsMode::Resident);
  const Path r = member_route(*p.topo, c);
  const double t = expect(r.latency, r.bw, capabilities(*p.topo, c));
  const std::string text = plan_text(*p.topo, c);
  const double flow = run_text(p, text, engine::Fidelity::Flow).makespan();
  const double analytic = run_text(p, text, engine::Fidelity::Analytic).makespan();
  EXPECT_NEAR(flow, t, tol(t));
  EXPECT_NEAR(analytic, flow, 1e-6 * flow);
}

std::vector<int> nodes_upto(int n) {
  std::vector<int> v(n);
  std::iota(v.begin(), v.end(), 0);
  return v;
}

// Reduce-scatter by capability (weights = GPU counts): T = k L + (n-1) S w_max / (W B), the most
// capable rank receiving its slice from every other (tests/sim/engine/collectives_asymgroup_test.cpp).
TEST(AsymGroupPresets, ReduceScatterByCapability) {
  const auto form = [](int k) {
    return [k](double L, double B, const std::vector<double>& w) {
      const double n = static_cast<double>(w.size()), wmax = *std::max_element(w.begin(), w.end());
      return k * L + (n - 1) * S * wmax / (std::accumulate(w.begin(), w.end(), 0.0) * B);
    };
  };
  for (int k : {1, 4}) expect_closed_form("asymgroup-s5", {"reduce-scatter", nodes_upto(16), {}, k}, form(k));
  expect_closed_form("asymgroup-s10", {"reduce-scatter", nodes_upto(12)}, form(1));
  expect_closed_form("asymgroup-s2", {"reduce-scatter", {1, 3, 5, 0}, {}, 2}, form(2));
}

// All-gather among groups, for groupings where flow is the closed form (k = 1):
//  * S5 by node size: five two-GPU nodes (C0 = 10) and eleven one-GPU nodes (C1 = 11), W = 21.
//    One step: each of G0 sends its fifth of 10S/21 (2S/21), each of G1 its eleventh of 11S/21
//    (S/21); G0's ranks receive a fifth of 11S/21 (11S/105, the busiest), G1's an eleventh of
//    10S/21. T = L + 11S/(105B).
//  * S8 in four groups of four nodes (two-GPU nodes 0-7, one-GPU nodes 8-15): C = 8, 8, 4, 4,
//    W = 24. Each step moves a part between four ranks and four; the largest, S/3, is at every
//    step on some pair of groups as it goes round, a quarter per link: T = 3 (L + S/(12B)).
//  * S3, six nodes each its own group, the ring in reverse node order; capabilities 2, 2, 2, 1,
//    1, 1 (W = 9): the largest part 2S/9 goes round in five steps: T = 5 (L + 2S/(9B)).
TEST(AsymGroupPresets, AllGatherAmongGroups) {
  std::vector<int> by_size, by_four;
  for (int node = 0; node < 16; ++node) {
    by_size.push_back(node < 5 ? 0 : 1);
    by_four.push_back(node / 4);
  }
  expect_closed_form("asymgroup-s5", {"all-gather", nodes_upto(16), by_size},
                     [](double L, double B, const std::vector<double>&) { return L + 11 * S / (105 * B); });
  expect_closed_form("asymgroup-s8", {"all-gather", nodes_upto(16), by_four},
                     [](double L, double B, const std::vector<double>&) { return 3 * (L + S / (12 * B)); });
  expect_closed_form("asymgroup-s3", {"all-gather", nodes_upto(6), {5, 4, 3, 2, 1, 0}},
                     [](double L, double B, const std::vector<double>&) { return 5 * (L + 2 * S / (9 * B)); });
}

// AsymGroup's Fig. 4(d) on asymgroup-s0's first five nodes with capabilities [1, 1, 2, 3, 3]
// in groups {0, 1, 2} and {3, 4}, all-gathering 20 items (u = S/20), as worked in
// tests/sim/engine/collectives_asymgroup_test.cpp: Eq. 2's closed form is L + 6u/B; max-min sharing
// leaves the busiest links part idle, and flow ends at L + 7.5u/B, which the analytic fidelity
// waits too (the flows solved alone, proportional.hpp). The group [1, 1, 2]
// reduce-scattering S as 12 items: L + S/B (its capability-2 rank receives its 6 items from each
// of the two others).
TEST(AsymGroupPresets, Fig4dFiveNodes) {
  const Problem p = problem(kOneOp, preset("asymgroup-s0"), scheduler::WeightsMode::Resident);
  const Collective ag{"all-gather", nodes_upto(5), {0, 0, 0, 1, 1}, 1, {1, 1, 2, 3, 3}};
  const Path r = member_route(*p.topo, ag);
  const double u = S / 20;
  const std::string text = plan_text(*p.topo, ag);
  EXPECT_NEAR(run_text(p, text, engine::Fidelity::Analytic).makespan(), r.latency + 7.5 * u / r.bw, 1e-11);
  EXPECT_NEAR(run_text(p, text, engine::Fidelity::Flow).makespan(), r.latency + 7.5 * u / r.bw, 1e-11);
  expect_closed_form("asymgroup-s0", {"reduce-scatter", nodes_upto(3), {}, 1, {1, 1, 2}},
                     [](double L, double B, const std::vector<double>&) { return L + S / B; });
}

TEST(AsymGroupPlans, RoundTripKeepsWeightsAndGroups) {
  const Problem p = problem(kOneOp, preset("asymgroup-s2"), scheduler::WeightsMode::Resident);
  const std::string text = plan_text(*p.topo, {"all-gather", {0, 1, 2, 3}, {1, 0, 1, 1}});
  const Plan plan = scheduler::parse_plan(Json::load_string(text, "plan.json"), *p.graph, *p.topo);
  ASSERT_EQ(plan.collectives.size(), 1u);
  EXPECT_EQ(plan.collectives[0].groups, (std::vector<int>{1, 0, 1, 1}));
  EXPECT_EQ(plan.collectives[0].weights, (std::vector<double>{2, 2, 1, 1}));
  const std::string back = scheduler::plan_to_json(plan, *p.graph, *p.topo);
  EXPECT_NE(back.find("\"groups\""), std::string::npos) << back;
  EXPECT_EQ(scheduler::parse_plan(Json::load_string(back, "back.json"), *p.graph, *p.topo), plan);
}

// Bad `weights` and `groups`: InputErrors naming the collective and the key, at the key's line
// (or the value's, for a value that is no number of the right kind).
TEST(AsymGroupPlans, BadWeightsAndGroupsAreLocated) {
  const Problem p = problem(kOneOp, preset("asymgroup-s0"), scheduler::WeightsMode::Resident);
  const std::string ag = "\"op\": \"all-gather\", \"algorithm\": \"proportional\",\n";
  const std::string w3 = "\"weights\": [1, 2, 3],\n";
  struct Bad {
    const char* what;
    std::string body;
    const char* marker;
    const char* message;
  } cases[] = {
      {"groups missing", ag + w3 + "\"chunks\": 1", "{\"name\"",
       "collective 'ag': proportional all-gather needs `groups`, a group index per rank (3), got 0"},
      {"a group count off", ag + w3 + "\"groups\": [0, 1]", "\"groups\"", "a group index per rank (3), got 2"},
      {"an empty group", ag + w3 + "\"groups\": [0, 2, 2]", "\"groups\"",
       "collective 'ag': `groups` leaves group 1 of 0..2 empty"},
      {"a negative group", ag + w3 + "\"groups\": [0, -1, 1]", "-1", "expected a whole number >= 0, got '-1'"},
      {"a fractional group", ag + w3 + "\"groups\": [0, 0.5, 1]", "0.5", "expected an integer, got '0.5'"},
      {"groups with ring", "\"op\": \"all-gather\", \"algorithm\": \"ring\",\n\"groups\": [0, 0, 1]", "\"groups\"",
       "collective 'ag': algorithm 'ring' takes no `groups` for all-gather"},
      {"groups with reduce-scatter",
       "\"op\": \"reduce-scatter\", \"algorithm\": \"proportional\",\n" + w3 + "\"groups\": [0, 0, 1]", "\"groups\"",
       "collective 'ag': algorithm 'proportional' takes no `groups` for reduce-scatter"},
      {"a weight count off", ag + "\"weights\": [1, 2],\n\"groups\": [0, 0, 1]", "\"weights\"",
       "collective 'ag': proportional needs `weights`, one per rank (3), got 2"},
      {"a weight not positive", ag + "\"weights\": [1, -3, 2],\n\"groups\": [0, 0, 1]", "-3",
       "expected a positive number, got '-3'"},
  };
  for (const Bad& c : cases) {
    SCOPED_TRACE(c.what);
    const std::string text = R"({"devices": {"a": "n0.gpu0"},
  "collectives": [
    {"name": "ag", "bytes": 1e6, "group": ["n0.gpu0", "n1.gpu0", "n2.gpu0"],
)" + c.body + R"(}],
  "queues": [{"name": "n0.gpu0.compute", "tasks": ["a"]}]})";
    try {
      scheduler::parse_plan(Json::load_string(text, "plan.json"), *p.graph, *p.topo);
      ADD_FAILURE() << "accepted:\n" << text;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
      EXPECT_EQ(e.loc().line, line_of(text, c.marker)) << e.what();
    }
  }
}

}  // namespace
