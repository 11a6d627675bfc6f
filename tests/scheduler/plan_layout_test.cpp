// build_plan's layout options: the queues a placer asks for are built there, each plan still
// lowers and runs, and no task is lost or doubled.
#include "tests/scheduler/fidelity_support.hpp"

namespace {

using namespace fidelity;

// a on the CPU feeds b on gpu0 and c on gpu1; b feeds c; w is read by b, u by c.
const char* kGraph = R"({"nodes": [
    {"name": "w", "param_bytes": 1e6}, {"name": "u", "param_bytes": 1e6},
    {"name": "a", "output_bytes": 1e6, "durations": {"cpu0": 1e-3}},
    {"name": "b", "output_bytes": 1e6, "durations": {"gpu0": 1e-3}},
    {"name": "c", "durations": {"gpu1": 1e-3}}],
  "edges": [{"src": "w", "dst": "b"}, {"src": "u", "dst": "c"}, {"src": "a", "dst": "b", "bytes": 1e6},
            {"src": "a", "dst": "c", "bytes": 1e6}, {"src": "b", "dst": "c", "bytes": 1e6}]})";

const std::vector<std::pair<std::string, std::string>> kWhere = {{"a", "cpu0"}, {"b", "gpu0"}, {"c", "gpu1"}};

// Queue names, and the task names of one queue ("" when absent).
std::vector<std::string> names(const Plan& plan) {
  std::vector<std::string> out;
  for (const auto& q : plan.queues) out.push_back(q.name);
  return out;
}
std::vector<std::string> tasks(const Problem& p, const Plan& plan, const std::string& queue) {
  std::vector<std::string> out;
  for (const auto& q : plan.queues)
    if (q.name == queue)
      for (const auto& it : q.items) out.push_back(scheduler::item_name(it, *p.graph, *p.topo));
  return out;
}

TEST(PlanLayout, DefaultQueuesComputeThenCopiesThenActivations) {
  const Problem p = problem(kGraph, preset("sortinghat-v100"));
  const Plan plan = plan_for(p, kWhere);
  EXPECT_EQ(names(plan), (std::vector<std::string>{"cpu0.compute", "gpu0.compute", "gpu1.compute", "gpu0.h2d",
                                                   "gpu1.h2d", "gpu0->gpu1"}));
  EXPECT_EQ(tasks(p, plan, "gpu1.h2d"), (std::vector<std::string>{"a@gpu1", "u@gpu1"}));  // by producer
  ASSERT_NO_THROW(run(p, plan));
}

TEST(PlanLayout, CpuOpsGoOnTheirCoreQueuesAndThePlanStatesTheCores) {
  const Problem p = problem(kGraph, preset("sortinghat-v100"));
  scheduler::BuildOptions o;
  const int cpu = p.topo->index("cpu0");
  o.cpu_cores[cpu] = 4;
  o.core_of.assign(p.graph->nodes.size(), -1);
  o.core_of[p.graph->find("a")] = 3;
  const Plan plan = plan_for(p, kWhere, o);
  EXPECT_EQ(plan.cores(cpu), 4);
  EXPECT_EQ(names(plan).front(), "cpu0.core3");
  EXPECT_EQ(tasks(p, plan, "cpu0.compute"), std::vector<std::string>{});
  ASSERT_NO_THROW(run(p, plan));
}

TEST(PlanLayout, EachDeliveryOnItsOwnQueueAndBookedCopiesOnTheirs) {
  const Problem p = problem(kGraph, preset("sortinghat-v100"));
  scheduler::BuildOptions o;
  o.delivery_queues = true;
  o.copies = {{p.graph->find("u"), p.topo->index("gpu1"), "bus.copy"}, {p.graph->find("w"), p.topo->index("gpu0"), "bus.copy"}};
  const Plan plan = plan_for(p, kWhere, o);
  EXPECT_EQ(names(plan), (std::vector<std::string>{"cpu0.compute", "gpu0.compute", "gpu1.compute", "a@gpu0", "a@gpu1",
                                                   "b@gpu1", "bus.copy"}));
  EXPECT_EQ(tasks(p, plan, "bus.copy"), (std::vector<std::string>{"u@gpu1", "w@gpu0"}));
  ASSERT_NO_THROW(run(p, plan));
}

TEST(PlanLayout, ChannelQueuesComeAfterTheRestInNameOrder) {
  const Problem p = problem(kGraph, preset("sortinghat-v100"));
  const models::Graph& g = *p.graph;
  const hw::Topology& t = *p.topo;
  scheduler::BuildOptions o;
  o.channel_rank = {{{g.find("a"), t.index("gpu0")}, 2}, {{g.find("a"), t.index("gpu1")}, 0}, {{g.find("b"), t.index("gpu1")}, 1}};
  const Plan plan = plan_for(p, kWhere, o);
  EXPECT_EQ(names(plan), (std::vector<std::string>{"cpu0.compute", "gpu0.compute", "gpu1.compute", "gpu0.h2d",
                                                   "gpu1.h2d", "cpu0->gpu0", "cpu0->gpu1", "gpu0->gpu1"}));
  EXPECT_EQ(tasks(p, plan, "gpu1.h2d"), std::vector<std::string>{"u@gpu1"});
  ASSERT_NO_THROW(run(p, plan));
}

TEST(PlanLayout, ReadyQueueTakesItsTasksFromTheOthersAndComesLast) {
  const Problem p = problem(kGraph, preset("sortinghat-v100"));
  const models::Graph& g = *p.graph;
  const int gpu1 = p.topo->index("gpu1");
  scheduler::BuildOptions o;
  o.copies = {{g.find("w"), p.topo->index("gpu0"), scheduler::bus_copy_queue_name(0)}};
  o.ready[gpu1] = {{PlanItem::Kind::Deliver, g.find("u"), gpu1}, {PlanItem::Kind::Deliver, g.find("a"), gpu1},
                   {PlanItem::Kind::Deliver, g.find("b"), gpu1}, {PlanItem::Kind::Compute, g.find("c"), -1}};
  const Plan plan = plan_for(p, kWhere, o);
  EXPECT_EQ(names(plan), (std::vector<std::string>{"cpu0.compute", "gpu0.compute", "gpu0.h2d", "bus0.copy", "gpu1.ready"}));
  EXPECT_EQ(tasks(p, plan, "gpu0.h2d"), std::vector<std::string>{"a@gpu0"});
  EXPECT_EQ(tasks(p, plan, "gpu1.ready"), (std::vector<std::string>{"u@gpu1", "a@gpu1", "b@gpu1", "c"}));
  ASSERT_NO_THROW(run(p, plan));
}

}  // namespace
