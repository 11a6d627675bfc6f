// Timing several measurement points on a shared, noisy machine: every point is measured once per
// round, in the same order each round (A B C A B C ...), and each point keeps its median.
//
// Measuring A five times, then B five times, lets a slow spell (a neighbour's compile, a
// frequency change) land on one point alone and bend the fit through it; interleaved, the spell
// touches every point alike and the median over rounds drops it. One unrecorded round comes
// first: it allocates, faults in and warms what the points touch.
#pragma once

#include <functional>
#include <vector>

namespace placesim::backend {

// A measurement: runs its work once and returns the seconds it took (it times itself, so it can
// leave set-up, or a warming pass, out of the time).
using Measure = std::function<double()>;

// What is done, for a progress display: called before the first measurement and after each, with
// the measurements taken and their total (every point once per round, the unrecorded one too).
using MeasureProgress = std::function<void(int done, int total)>;

// samples[p][r]: point p's time in recorded round r (rounds >= 1).
std::vector<std::vector<double>> interleaved_samples(const std::vector<Measure>& points, int rounds,
                                                     const MeasureProgress& progress = {});
// The median of each point's samples.
std::vector<double> interleaved_medians(const std::vector<Measure>& points, int rounds);

}  // namespace placesim::backend
