#include "scheduler/dispatch_order.hpp"

#include <fmt/format.h>
#include <functional>
#include <queue>

#include "scheduler/plan/rules.hpp"

namespace placesim::scheduler {

std::vector<int> default_dispatch_order(const models::Graph& g, const Plan& plan) {
  const std::size_t n = g.nodes.size();
  std::vector<std::vector<int>> next(n);
  std::vector<int> waits(n, 0);
  const auto edge = [&](int a, int b) {
    next[a].push_back(b);
    ++waits[b];
  };
  for (const models::Edge& e : g.edges)
    if (g.nodes[e.src].kind == models::NodeKind::Op && g.nodes[e.dst].kind == models::NodeKind::Op) edge(e.src, e.dst);
  for (const PlanQueue& q : plan.queues) {
    int before = -1;
    for (const PlanItem& it : q.items) {
      if (it.kind != PlanItem::Kind::Compute) continue;
      if (before >= 0) edge(before, it.node);
      before = it.node;
    }
  }
  for (const PlanCollective& c : plan.collectives)
    for (int a : c.after)
      for (int b : c.before) edge(a, b);
  std::priority_queue<int, std::vector<int>, std::greater<>> ready;
  for (int op : g.ops())
    if (waits[op] == 0) ready.push(op);
  std::vector<int> order;
  std::vector<char> placed(n, 0);
  while (!ready.empty()) {
    const int op = ready.top();
    ready.pop();
    order.push_back(op);
    placed[op] = 1;
    for (int b : next[op])
      if (--waits[b] == 0) ready.push(b);
  }
  for (int op : g.ops())
    if (!placed[op]) order.push_back(op);
  return order;
}

DispatchProblem check_dispatch(const models::Graph& g, const hw::Topology& topo, const Plan& plan) {
  if (plan.dispatch.empty()) return {};
  if (std::string bad = check_dispatch_threads(topo, plan.dispatch.size()); !bad.empty()) return {bad};
  std::vector<int> thread(g.nodes.size(), -1);
  for (std::size_t t = 0; t < plan.dispatch.size(); ++t)
    for (std::size_t i = 0; i < plan.dispatch[t].size(); ++i) {
      const int op = plan.dispatch[t][i], ti = static_cast<int>(t), ii = static_cast<int>(i);
      if (op < 0 || static_cast<std::size_t>(op) >= g.nodes.size() || g.nodes[op].kind != models::NodeKind::Op)
        return {fmt::format("dispatch thread {} lists a node that is no op", t), ti, ii};
      if (thread[op] >= 0)
        return {fmt::format("op '{}' is dispatched by thread {} already", g.nodes[op].name, thread[op]), ti, ii};
      thread[op] = ti;
    }
  for (int op : g.ops())
    if (thread[op] < 0) return {fmt::format("no dispatch thread dispatches op '{}' (each op on one thread)", g.nodes[op].name)};
  return {};
}

}  // namespace placesim::scheduler
