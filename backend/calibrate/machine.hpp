// The machine a calibration is measured on, in words ("Intel(R) Xeon(R) CPU @ 2.20GHz, 2
// cores"): calibrate records it in the hardware file's `calibration: {machine: ...}`, and validate
// compares it with the machine it runs on, so that predictions made with another machine's costs
// do not pass unremarked.
#pragma once

#include <string>

namespace placesim::backend {

// /proc/cpuinfo's first "model name" (else "unknown CPU") and the cores this process may use.
std::string machine_name();

}  // namespace placesim::backend
