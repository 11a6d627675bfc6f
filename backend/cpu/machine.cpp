#include "backend/cpu/machine.hpp"

#include <hwloc.h>

#include <algorithm>
#include <limits>
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

namespace {

// The largest data or unified cache, among those serving at most `max_pus` PUs.
double largest_cache(hwloc_topology_t topo, int max_pus) {
  double best = 0;
  const int depths = hwloc_topology_get_depth(topo);
  for (int d = 0; d < depths; ++d)
    for (hwloc_obj_t o = hwloc_get_next_obj_by_depth(topo, d, nullptr); o; o = hwloc_get_next_obj_by_depth(topo, d, o)) {
      if (!hwloc_obj_type_is_dcache(o->type) || !o->attr) continue;
      if (hwloc_bitmap_weight(o->cpuset) > max_pus) continue;
      best = std::max(best, static_cast<double>(o->attr->cache.size));
    }
  return best;
}

}  // namespace

double Machine::private_cache_bytes() const { return largest_cache(impl_->topo, 1); }

double Machine::last_level_cache_bytes() const { return largest_cache(impl_->topo, std::numeric_limits<int>::max()); }

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
