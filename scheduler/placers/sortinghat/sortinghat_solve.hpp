// One placement by SortingHat's method (sortinghat.md 3): partition by dominators (3.1), one MILP
// per submodel in order (3.3), chained through PrevM, PrevDTFin, PrevSGFin and FixedNodes when
// cfg.chain, merged into one plan (sortinghat_schedule.hpp), and finished against the warm
// start (milp_support.hpp).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "scheduler/placers/milp_support.hpp"
#include "scheduler/placers/sortinghat/sortinghat_constants.hpp"

namespace placesim::scheduler::sortinghat {

// What one submodel's solve saw: its constants, the start CBC got (slot per node; empty
// without one) and CBC's outcome. Benches measure the solver through it.
using SolveSeen = std::function<void(const ShInput& in, const std::vector<int>& start, const milp::Result& r)>;

PlacerResult place(const Problem& p, const ShConfig& cfg, const MilpSettings& settings, const std::string& placer,
                   const SolveSeen& seen = {});

}  // namespace placesim::scheduler::sortinghat
