// Completes a Plan from an op -> device assignment, with the queues every placer in this layer
// uses: `<dev>.compute` (ops in the given order; `<gpu>.compute<k>` for stream k), `<dev>.h2d`
// (parameter copies, weights: host, and activations a CPU sends to a GPU), `<gpu>.d2h`
// (activations a GPU sends to a CPU) and `<src>-><dst>` (activations moved between GPUs, and
// the forwarded part of a parallel transmission). Every copy of a GPU goes to its first copy
// engine.
//
// BuildOptions lay out what a placer schedules more finely, so that no placer rewrites the
// queues after: a CPU's ops one queue per core (`<cpu>.core<j>`, core_of, as Chrion runs them),
// each activation delivery on a queue of its own named like its task (`op@dev`, so deliveries
// never wait for each other) or on a queue per channel (`<src>-><dst>`, in an order a schedule
// gives, as MOIRAI runs them), the parameter copies on the queues a schedule booked them on
// (`<link>.copy`, `bus<b>.copy`, `<dev>.h2d`, named by names.hpp) in the order it booked
// them, and a device's ops together with the deliveries into it on one ready queue
// (`<dev>.ready`, in an order a schedule gives, so that each copy in holds up the ops after it,
// as SortingHat's executor threads run them). Queues come in order of first appearance:
// compute, then parameter copies, then activations; a queue split by these options takes its
// place, its parts first (each delivery queue, then what remains); channel queues follow in name
// order, then booked copy queues, and ready queues come last, in device order.
//
// Every queue it orders itself is sorted by one global key in which each task's dependencies
// come first (the position of an op in `order`; a delivery just after its producer; a parameter
// copy, and both legs of a parallel transmission, before its first consumer on the device), so
// such a plan can never deadlock; booked copies depend on nothing, and a ready queue keeps the
// schedule's order, which must put each task after those it needs.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "scheduler/plan/plan.hpp"
#include "scheduler/problem.hpp"

namespace placesim::scheduler {

// A parameter copy a schedule booked (weights: host), on the queue that runs it (names.hpp
// names it): the copy to `device`, or the stage on its neighbour of a parallel transmission to
// `device` (kind Stage).
struct ParamCopy {
  int param = -1, device = -1;
  std::string queue;
  PlanItem::Kind kind = PlanItem::Kind::Deliver;
};

struct BuildOptions {
  std::vector<int> stream_of;  // per graph node: compute stream of an op on its GPU; empty: all 0
  HostBuffer buffer = HostBuffer::Pinned;
  std::map<std::pair<int, int>, ParamDelivery> params;  // as Plan::params
  std::map<int, int> cpu_cores;  // as Plan::cpu_cores; an op on such a CPU runs on core core_of[op]
  std::vector<int> core_of;      // per graph node; read for ops on a CPU in cpu_cores only
  bool delivery_queues = false;  // each activation delivery on a queue of its own (`op@dev`)
  // Non-empty: each activation delivery (producer, device) on its channel's queue, by this rank.
  std::map<std::pair<int, int>, int> channel_rank;
  std::vector<ParamCopy> copies; // non-empty: every parameter copy off the ready queues, on its queue in this order
  // Per device: every task of its ready queue in this order (its ops, deliveries into it); a task
  // listed here goes on no other queue.
  std::map<int, std::vector<PlanItem>> ready;
  std::vector<std::vector<int>> dispatch;  // as Plan::dispatch
};

// `device_of`: per graph node, the device of each op (entries of parameters are ignored).
// `order`: every op node once, dependencies first (e.g. the graph's topological order).
Plan build_plan(const Problem& p, std::string placer, std::vector<int> device_of, const std::vector<int>& order,
                const BuildOptions& opts = {});

// A plan file that gives only `devices` (and `memory`), as a person writes one (parse_plan
// leaves its queues empty), completed as build_plan lays out any placer's plan: ops in
// topological order, the default copies and deliveries. A plan with queues is returned as it is.
Plan complete_plan(const Problem& p, Plan given);

}  // namespace placesim::scheduler
