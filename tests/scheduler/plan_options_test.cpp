// The plan file's delivery, memory, stream and engine options: a round trip through JSON keeps
// every one, and each bad value is an InputError located at the offending line.
#include "scheduler/plan/json.hpp"
#include "tests/scheduler/fidelity_support.hpp"

namespace {

using namespace fidelity;
using Via = scheduler::ParamDelivery::Via;

const char* kGraph = R"({"nodes": [
    {"name": "w", "param_bytes": 1e6}, {"name": "v", "param_bytes": 1e6}, {"name": "u", "param_bytes": 1e6},
    {"name": "a", "durations": {"gpu0": 1e-3, "cpu0": 1e-3}}, {"name": "b", "durations": {"gpu0": 1e-3}},
    {"name": "c", "durations": {"gpu0": 1e-3, "gpu1": 1e-3}}],
  "edges": [{"src": "w", "dst": "a"}, {"src": "v", "dst": "b"}, {"src": "u", "dst": "c"}]})";

hw::Topology two_streams() {
  hw::Topology t = preset("sortinghat-v100");
  device(t, "gpu0").streams = 2;
  device(t, "gpu0").h2d_engines = 2;
  return t;
}

TEST(PlanOptions, JsonRoundTripKeepsEveryOption) {
  const Problem p = problem(kGraph, two_streams());
  const hw::Topology& t = *p.topo;
  const models::Graph& g = *p.graph;
  scheduler::BuildOptions o;
  o.buffer = scheduler::HostBuffer::Pageable;
  o.stream_of.assign(g.nodes.size(), 0);
  o.stream_of[g.find("b")] = 1;
  o.params[{g.find("w"), t.index("gpu0")}] = {Via::Dha, -1, 0, -1, scheduler::HostBuffer::Pinned};
  o.params[{g.find("v"), t.index("gpu0")}] = {Via::Parallel, t.index("gpu3"), 0.25, t.index("host"), {}};
  o.params[{g.find("u"), t.index("gpu1")}] = {Via::Copy, -1, 0, -1, scheduler::HostBuffer::Pinned};
  Plan plan = plan_for(p, {{"a", "gpu0"}, {"b", "gpu0"}, {"c", "gpu1"}}, o);
  move_task(plan, p, "v@gpu0", "gpu0.h2d1");
  ASSERT_NO_THROW(run(p, plan));
  const std::string text = scheduler::plan_to_json(plan, g, t);
  for (const char* key : {"\"memory\": \"pageable\"", "\"via\": \"dha\"", "\"neighbour\": \"gpu3\"", "\"fraction\": 0.25",
                          "\"from\": \"host\"", "v@gpu0/stage", "v@gpu0/forward", "gpu0.compute1", "gpu0.h2d1"})
    EXPECT_NE(text.find(key), std::string::npos) << key << " in\n" << text;
  // The queue v@gpu0 left is empty: it orders nothing, and the file leaves it out.
  std::erase_if(plan.queues, [](const scheduler::PlanQueue& q) { return q.items.empty(); });
  EXPECT_EQ(scheduler::parse_plan(Json::load_string(text, "plan.json"), g, t), plan);
}

// A plan file with bad options spliced in: the devices and queues of a valid plan around them.
std::string plan_text(const std::string& params, const std::string& queues = "", const std::string& memory = "",
                      const std::string& a_on = "gpu0") {
  return "{\"devices\": {\"a\": \"" + a_on + "\", \"b\": \"gpu0\", \"c\": \"gpu1\"},\n" + memory + "\"params\": {\n" + params +
         "},\n\"queues\": [\n" + queues +
         "{\"name\": \"gpu0.compute\", \"tasks\": [\"a\", \"b\"]},\n"
         "{\"name\": \"gpu1.compute\", \"tasks\": [\"c\"]}]}\n";
}

struct BadCase {
  const char* what;
  std::string text;
  const char* marker;   // the text on the line the error must point at
  const char* message;  // part of the message
};

TEST(PlanOptions, EachBadOptionIsALocatedInputError) {
  const Problem p = problem(kGraph, two_streams());
  const std::vector<BadCase> cases = {
      {"unknown neighbour", plan_text("\"v@gpu0\": {\"via\": \"parallel\",\n \"neighbour\": \"gpu9\", \"fraction\": 0.5}"),
       "gpu9", "no device 'gpu9'"},
      {"neighbour not a GPU", plan_text("\"v@gpu0\": {\"via\": \"parallel\",\n \"neighbour\": \"cpu0\", \"fraction\": 0.5}"),
       "cpu0", "must be another GPU"},
      {"neighbour is the target", plan_text("\"v@gpu0\": {\"via\": \"parallel\",\n \"neighbour\": \"gpu0\", \"fraction\": 0.5}"),
       "\"gpu0\", \"fraction", "must be another GPU"},
      {"fraction above 1", plan_text("\"v@gpu0\": {\"via\": \"parallel\", \"neighbour\": \"gpu3\",\n \"fraction\": 1.5}"),
       "1.5", "fraction in (0, 1]"},
      {"fraction of 0", plan_text("\"v@gpu0\": {\"via\": \"parallel\", \"neighbour\": \"gpu3\",\n \"fraction\": 0}"),
       "\"fraction\": 0}", "fraction in (0, 1]"},
      {"fraction on a copy", plan_text("\"v@gpu0\": {\n\"fraction\": 0.5}"), "0.5", "for via: parallel"},
      {"unknown via", plan_text("\"v@gpu0\": {\"via\":\n \"teleport\"}"), "teleport", "via must be"},
      {"dha on a CPU op", plan_text("\"w@cpu0\": {\"via\":\n \"dha\"}", "", "", "cpu0"), "\"dha\"",
       "needs a GPU"},
      {"dha from pageable memory", plan_text("\"w@gpu0\": {\"via\": \"dha\",\n \"memory\": \"pageable\"}"), "pageable",
       "pinned host memory"},
      {"unknown memory", plan_text("\"w@gpu0\": {\n\"memory\": \"swapped\"}"), "swapped", "pinned or pageable"},
      {"from a GPU", plan_text("\"w@gpu0\": {\n\"from\": \"gpu1\"}"), "\"from\"", "not a host memory"},
      {"nobody reads it there", plan_text("\"w@gpu1\": {\"via\": \"dha\"}"), "w@gpu1", "no op placed on 'gpu1'"},
      {"an op is not a parameter", plan_text("\"a@gpu0\": {\"via\": \"dha\"}"), "a@gpu0", "PARAM@DEVICE"},
      {"plan-wide bad memory", plan_text("", "", "\"memory\": \"paged\",\n"), "paged", "pinned or pageable"},
      {"too many streams", plan_text("", "{\"name\": \"gpu0.compute2\", \"tasks\": []},\n"), "compute2",
       "2 compute streams"},
      {"too many engines", plan_text("", "{\"name\": \"gpu1.h2d1\", \"tasks\": []},\n"), "gpu1.h2d1",
       "1 H2D copy engines"},
      {"engine spelled with 0", plan_text("", "{\"name\": \"gpu0.h2d0\", \"tasks\": []},\n"), "gpu0.h2d0",
       "the first is 'gpu0.h2d'"},
      {"op on another GPU's stream", plan_text("", "{\"name\": \"gpu0.compute1\", \"tasks\": [\"c\"]},\n"),
       "compute1", "not an op placed there"},
      {"P2P on an H2D engine", plan_text("", "{\"name\": \"gpu0.h2d\", \"tasks\": [\"v@gpu1\"]},\n"), "v@gpu1",
       "not a copy it serves"},
      {"copy of a DHA parameter",
       plan_text("\"w@gpu0\": {\"via\": \"dha\"}", "{\"name\": \"gpu0.h2d\", \"tasks\":\n [\"w@gpu0\"]},\n"),
       " [\"w@gpu0\"]", "direct host access"},
      {"resident from a host memory", plan_text("\"w@gpu0\": {\"via\": \"resident\",\n \"from\": \"host\"}"), "\"from\"",
       "comes from no host memory"},
      {"dha reader that does not read it", plan_text("\"w@gpu0\": {\"dha_readers\":\n [\"b\"]}"), "[\"b\"]",
       "not an op on 'gpu0' that reads 'w'"},
      {"dha reader that is no op", plan_text("\"w@gpu0\": {\"dha_readers\":\n [\"zz\"]}"), "zz",
       "'zz' is not an op"},
      {"dha readers of a DHA read", plan_text("\"w@gpu0\": {\"via\": \"dha\",\n \"dha_readers\": [\"a\"]}"),
       "dha_readers", "are for a copy or a parallel transmission"},
      {"evict on direct host access", plan_text("\"w@gpu0\": {\"via\": \"dha\",\n \"evict\": true}"), "evict",
       "evict is for copies"},
      {"launch on a compute stream", plan_text("", "{\"name\": \"gpu0.compute1\", \"tasks\":\n [\"b/launch\"]},\n"),
       "b/launch", "goes on a host queue"},
      {"launch of a delivery of nothing", plan_text("", "{\"name\": \"host.launch\", \"tasks\":\n [\"w@gpu0/stage/launch\"]},\n"),
       "/stage/launch", "a launch is of an op's kernel"},
      {"stage of a copied parameter", plan_text("", "{\"name\": \"gpu3.h2d\", \"tasks\":\n [\"v@gpu0/stage\"]},\n"),
       "/stage", "not marked via: parallel"},
  };
  for (const BadCase& c : cases) {
    SCOPED_TRACE(c.what);
    try {
      scheduler::parse_plan(Json::load_string(c.text, "plan.json"), *p.graph, *p.topo);
      ADD_FAILURE() << "accepted:\n" << c.text;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
      EXPECT_EQ(e.loc().file.str(), "plan.json");
      EXPECT_EQ(e.loc().line, line_of(c.text, c.marker)) << e.what() << "\n" << c.text;
      EXPECT_GT(e.loc().column, 0);
    }
  }
}

// Plans built in code break the same rules: lower() refuses them (without a file location).
TEST(PlanOptions, LowerHoldsBuiltPlansToTheSameRules) {
  const Problem host = problem(kGraph, two_streams());
  scheduler::BuildOptions o;
  o.params[{host.graph->find("w"), host.topo->index("cpu0")}] = {Via::Dha, -1, 0, -1, {}};
  EXPECT_THROW(run(host, plan_for(host, {{"a", "cpu0"}, {"b", "gpu0"}, {"c", "gpu1"}}, o)), InputError);
  const Problem resident = problem(kGraph, two_streams(), scheduler::WeightsMode::Resident);
  o.params = {{{host.graph->find("w"), host.topo->index("gpu0")}, {Via::Dha, -1, 0, -1, {}}}};
  EXPECT_THROW(run(resident, plan_for(resident, {{"a", "gpu0"}, {"b", "gpu0"}, {"c", "gpu1"}}, o)), InputError);
  // A parallel transmission whose stage is missing.
  o.params = {{{host.graph->find("v"), host.topo->index("gpu0")}, {Via::Parallel, host.topo->index("gpu3"), 0.5, -1, {}}}};
  Plan plan = plan_for(host, {{"a", "gpu0"}, {"b", "gpu0"}, {"c", "gpu1"}}, o);
  for (auto& q : plan.queues)
    if (q.name == "gpu3.h2d") q.items.clear();
  EXPECT_THROW(run(host, plan), InputError);
}

}  // namespace
