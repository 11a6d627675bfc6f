#include "hw/backend/cpu/machine.hpp"

#include <hwloc.h>
#include <stdexcept>

namespace placesim::backend {

struct Machine::Impl {
  hwloc_topology_t topo = nullptr;
};

Machine::Machine() : impl_(std::make_unique<Impl>()) {
  if (hwloc_topology_init(&impl_->topo) != 0 || hwloc_topology_load(impl_->topo) != 0)
    throw std::runtime_error("hwloc could not load this machine's topology");
}

Machine::~Machine() { hwloc_topology_destroy(impl_->topo); }

int Machine::pus() const {
  const int n = hwloc_get_nbobjs_by_type(impl_->topo, HWLOC_OBJ_PU);
  return n > 0 ? n : 1;
}

double Machine::memory_bytes() const {
  const hwloc_obj_t root = hwloc_get_root_obj(impl_->topo);
  return static_cast<double>(root->total_memory);
}

bool Machine::pin_this_thread(int pu) const {
  const hwloc_obj_t obj = hwloc_get_obj_by_type(impl_->topo, HWLOC_OBJ_PU, static_cast<unsigned>(pu % pus()));
  if (!obj) return false;
  return hwloc_set_cpubind(impl_->topo, obj->cpuset, HWLOC_CPUBIND_THREAD) == 0;
}

const Machine& this_machine() {
  static const Machine m;
  return m;
}

}  // namespace placesim::backend
