// The HDF5 module's one export (h5_api.hpp).
#include "sim/core/module.hpp"
#include "sim/explore/h5/h5_api.hpp"

PLACESIM_MODULE_ENTRY const void* placesim_module_h5() {
  using namespace placesim::explore::h5;
  static const H5Api api{&write_results, &read_results, &write_validate, &check_validate};
  return &api;
}
