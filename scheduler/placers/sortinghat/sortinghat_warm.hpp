// CBC's starting assignment for one submodel: the warm-start heuristic's plan cut into slots,
// else a trivial one. The heuristic plan is what milp_support compares against in the end; as
// a start it lets CBC improve on it instead of on "everything on one GPU".
//
// From a plan: each op on its plan device, in the submodel's topological order, appended to its
// GPU's open run; when an op reads from another GPU's open run, that run closes and the op
// opens a new run on its own GPU. Open runs are then sinks of the slot graph (nothing else
// reads them), so the slots are contiguous (Eq. 6-8) and wait for each other without a cycle
// (Eq. 17-19). Runs take the GPU's slots in order, after a fixed node's first slot; with DHA an
// op whose parameters the plan reads all by DHA goes to an odd (DHA) slot, any other op to an
// even one, a new run starting where the kind changes. A parameter read in a DHA slot stays in
// DRAM (slot 0), any other joins the slot of its first reader. None when the plan uses another
// device or needs more slots than q.
// Trivial: every node in the second slot of the placeholder's GPU, or of the roomiest GPU when
// there is no placeholder or the submodel's memory does not fit beside it; the placeholder in
// its GPU's first slot. CBC checks whichever it gets and drops a start that breaks a row.
#pragma once

#include <optional>
#include <vector>

#include "scheduler/placers/sortinghat/sortinghat_constants.hpp"
#include "scheduler/plan/plan.hpp"

namespace placesim::scheduler::sortinghat {

std::optional<std::vector<int>> slots_from_plan(const SubInput& sub, const models::Submodel& sm, const Machine& mc,
                                                const Plan& plan);

std::vector<int> trivial_slots(const ShInput& in);

}  // namespace placesim::scheduler::sortinghat
