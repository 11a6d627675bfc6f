// Registration of every built-in placer (explicit, never static constructors: STYLE.md).
#pragma once

#include "scheduler/placer.hpp"

namespace placesim::scheduler {

void register_builtin_placers(Registry<PlacerEntry>& r);

// One registration function per placer file.
void register_single_device(Registry<PlacerEntry>& r);
void register_round_robin(Registry<PlacerEntry>& r);
void register_critical_path(Registry<PlacerEntry>& r);
void register_heft(Registry<PlacerEntry>& r);
void register_chrion(Registry<PlacerEntry>& r);
void register_baechi(Registry<PlacerEntry>& r);  // m-topo, m-etf, m-sct
void register_deepplan(Registry<PlacerEntry>& r);
void register_milp_moirai(Registry<PlacerEntry>& r);  // moirai/milp_moirai.cpp
void register_sortinghat(Registry<PlacerEntry>& r);  // milp-sortinghat, efficientmip
void register_getf(Registry<PlacerEntry>& r);
void register_plan_file(Registry<PlacerEntry>& r);
void register_megatron_tp(Registry<PlacerEntry>& r);  // tensor_parallel/megatron_tp.cpp
void register_autoddl_2d(Registry<PlacerEntry>& r);   // tensor_parallel/autoddl_2d.cpp
void register_asymgroup(Registry<PlacerEntry>& r);    // tensor_parallel/asymgroup.cpp
void register_scheinfer(Registry<PlacerEntry>& r);        // scheinfer/scheinfer.cpp
void register_llamacpp_offload(Registry<PlacerEntry>& r); // scheinfer/llamacpp_offload.cpp
void register_fiddler(Registry<PlacerEntry>& r);          // scheinfer/fiddler.cpp

}  // namespace placesim::scheduler
