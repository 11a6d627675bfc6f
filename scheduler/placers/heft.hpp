// HEFT's schedule, exposed so tests can check it against hand-worked examples.
#pragma once

#include <vector>

#include "scheduler/placers/list_schedule.hpp"

namespace placesim::scheduler {

// Heterogeneous Earliest Finish Time over `devices` (see heft.cpp for the equations).
Schedule heft_schedule(const Problem& p, const std::vector<int>& devices, bool insertion);

}  // namespace placesim::scheduler
