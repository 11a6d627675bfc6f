// The Python side of `placesim plot` (scripts/plot/, run by /usr/bin/python3 with Debian's
// matplotlib and h5py): where to find it, and running it.
//
// The script folder is looked for, in this order, beside the binary in the build tree
// (build/share/placesim/plot/, copied there by every build), in an install prefix
// (PREFIX/bin/placesim -> PREFIX/share/placesim/plot/), and in the source tree the binary was
// built from (scripts/plot/).
#pragma once

#include <string>
#include <vector>

namespace placesim::cli {

// The folder holding __main__.py; throws std::runtime_error naming the places looked in.
std::string find_plot_script();

// Runs /usr/bin/python3 on the script folder with `args` (no shell) and returns its exit code;
// its output goes to ours. Throws std::runtime_error when it cannot be started.
int run_plot_script(const std::string& script, const std::vector<std::string>& args);

}  // namespace placesim::cli
