#include "scheduler/placers/builtin.hpp"

namespace placesim::scheduler {

void register_builtin_placers(Registry<PlacerEntry>& r) {
  register_asymgroup(r);
  register_scheinfer(r);
  register_llamacpp_offload(r);
  register_fiddler(r);
  register_autoddl_2d(r);
  register_baechi(r);
  register_chrion(r);
  register_critical_path(r);
  register_deepplan(r);
  register_getf(r);
  register_heft(r);
  register_megatron_tp(r);
  register_milp_moirai(r);
  register_plan_file(r);
  register_round_robin(r);
  register_single_device(r);
  register_sortinghat(r);
}

}  // namespace placesim::scheduler
