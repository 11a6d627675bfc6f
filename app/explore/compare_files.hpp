// Several results files as one RunSet, so that `placesim compare A.h5 B.h5` tabulates them side
// by side: each file's points become points of their own under a leading "scenario" axis (the
// scenario's name; where two files share it, the name and the --set / --dim overrides of the
// command that made each, "quickstart --set model.batch=2"; where those are the same too, the
// file's path), and the placers are those of every file, in order of first appearance.
#pragma once

#include <string>
#include <vector>

#include "app/explore/run_result.hpp"

namespace placesim::explore {

// A results file read whole (not ResultsFile, the one a sweep writes as it runs).
struct NamedRunSet {
  std::string path;
  RunSet set;
};

// One file is returned as it is. baseline: "" takes the files' own, which must then agree (an
// InputError names them when they do not).
RunSet merge_results(const std::vector<NamedRunSet>& files, const std::string& baseline);

}  // namespace placesim::explore
