// The submodels' MILP solutions merged and lowered to one Plan (sortinghat.md 3.2, Algorithm 1).
//
// Algorithm 1 has a copy thread per PCIe bus and an executor thread per GPU; the plan gets one
// queue for each, in the MILP's order, submodel after submodel (build_plan lays them out, as
// booked copies and ready queues: scheduler/plan/builder.hpp):
//
//   bus<b>.copy   CopyParam(b): the parameter copies `w@gpu` of bus b's slots in the round-robin
//                 order of Eq. 12-13 (ShInput::dt_order), each slot's in node order. The queue
//                 only orders (scheduler/plan/names.hpp); each copy uses its GPU's first H2D engine.
//   <gpu>.ready   ExecSubgraph(gpu): the GPU's slots in index order; for each, first the copies in
//                 from other GPUs (Algorithm 1 lines 15-22: parameters placed on another GPU,
//                 then other GPUs' op results), then its ops in topological order. An op and the
//                 deliveries share this one queue, so they run one after another, as Eq. 21-22
//                 add the copy-in times to the slot's time.
//
// Parameters in slot 0 are read by direct host access (ParamDelivery::Via::Dha) on every GPU
// whose ops read them and hold no copy of them yet. What the MILP means, lowered:
//   * PT (a parameter in a slot of GPU a read in a slot of GPU b): the copy to a on a's bus
//     queue (the whole parameter, whether or not an op on a reads it), and b's executor thread
//     forwarding it from there over T_{a,b} at the Algorithm 1 position (a parallel
//     transmission of fraction 1 taken from a's copy: scheduler/plan/plan.hpp); where a holds
//     no copy of it (an earlier submodel left it in host memory for a), b copies it itself;
//   * a parameter read by direct host access on a GPU and copied there by a later submodel (the
//     tied embedding table, looked up first and read by the head last): the copy serves the
//     readers from then on, the earlier ones read it by DHA (ParamDelivery::dha_readers);
//   * a parameter several submodels copy to one GPU: one copy, the first the MILP chose, kept
//     for later readers there (a later DHA read of it reads the copy);
//   * the placeholder of submodel k > 0 is no task: its readers on another GPU get the output
//     of the partition point it stands for delivered from that point's GPU.
// Weights not copied by the model (Machine::copies_params false) with weights: host (an ideal
// network, or a GPU without host memory): each GPU that reads a parameter gets its copy at the
// head of the first slot that reads it.
#pragma once

#include <string>
#include <vector>

#include "scheduler/placers/sortinghat/sortinghat_constants.hpp"
#include "scheduler/plan/plan.hpp"

namespace placesim::scheduler::sortinghat {

struct SolvedSubmodel {
  const models::Submodel* sm = nullptr;
  SubInput sub;
  ShSolution sol;
  int point = -1;  // k > 0: the graph node its placeholder stands for
};

Plan merge_plan(const Problem& p, const Machine& mc, const std::vector<SolvedSubmodel>& subs, std::string placer);

}  // namespace placesim::scheduler::sortinghat
