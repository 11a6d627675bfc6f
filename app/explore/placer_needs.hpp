// Whether a scenario's points give each placer what it declares it needs (scheduler::PlacerNeeds):
// checked when the scenario is loaded, so that pairing a placer with what it cannot use is one
// error at the placer's line before any work, not an `error` row at every point.
#pragma once

#include "app/explore/scenario.hpp"

namespace placesim::explore {

// InputError at `where` (the placer's entry) naming the first point that lacks a need of
// `placer`, what it lacks and where the scenario says so.
void check_placer_needs(const Scenario& s, const scheduler::PlacerSpec& placer, const Yaml& where);

// `run --dry-run`'s last check: every point's problem is built (hardware, graph, cost model) and
// every placer checks its options against it (scheduler::Placer::check), so what a real run
// would refuse before placing is refused here, naming the point.
void check_placer_options(const Scenario& s);

}  // namespace placesim::explore
