#include "scheduler/placers/builtin.hpp"

namespace placesim::scheduler {

void register_builtin_placers(Registry<PlacerEntry>& r) {
  register_baechi(r);
  register_chrion(r);
  register_critical_path(r);
  register_deepplan(r);
  register_heft(r);
  register_round_robin(r);
  register_single_device(r);
}

}  // namespace placesim::scheduler
