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
// whose ops read them. Where the plan cannot say what the MILP means:
//   * PT (a parameter in a slot of GPU a read in a slot of GPU b): a plan cannot forward a whole
//     parameter between GPUs (a parallel transmission splits it, fraction < 1), so b gets its
//     own copy from host memory at the Algorithm 1 position (b's ready queue), over b's host
//     route instead of T_{a,b}; the copy to a stays on a's bus queue (0 bytes when no op on a
//     reads it);
//   * a parameter several submodels read, or one op and a later one on the same GPU: one
//     delivery per (parameter, GPU), the first the MILP chose (a copy, or DHA), kept for later
//     readers there;
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
