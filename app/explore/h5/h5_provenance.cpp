#include "app/explore/h5/h5_file.hpp"

#ifndef PLACESIM_GIT_COMMIT
#define PLACESIM_GIT_COMMIT "unknown"
#endif

namespace placesim::explore::h5 {

void write_provenance(hid_t file, int schema_version, const std::string& command) {
  write_int_attr(file, "schema_version", schema_version);
  write_string_attr(file, "placesim_version", PLACESIM_VERSION);
  write_string_attr(file, "git_commit", PLACESIM_GIT_COMMIT);
  write_string_attr(file, "command", command);
}

}  // namespace placesim::explore::h5
