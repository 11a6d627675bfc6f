// The HDF5 module's one export (h5_api.hpp).
#include <hdf5.h>

#include "sim/core/module.hpp"
#include "app/explore/h5/h5_api.hpp"

PLACESIM_MODULE_ENTRY const void* placesim_module_h5() {
  using namespace placesim::explore::h5;
  // No HDF5 teardown at exit: every file is closed once written or read, and after a failure
  // (memory running out) its atexit handler crashed on the library's broken state. Called before
  // any other HDF5 function, as it must be.
  H5dont_atexit();
  static const H5Api api{&results_image, &read_results, &validate_image, &check_validate};
  return &api;
}
