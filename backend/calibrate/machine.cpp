#include "backend/calibrate/machine.hpp"

#include <fmt/format.h>
#include <fstream>
#include <thread>

namespace placesim::backend {

std::string machine_name() {
  std::ifstream in("/proc/cpuinfo");
  std::string line, model = "unknown CPU";
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    if (const size_t colon = line.find(':'); colon != std::string::npos && colon + 2 <= line.size())
      model = line.substr(colon + 2);
    break;
  }
  return fmt::format("{}, {} cores", model, std::thread::hardware_concurrency());
}

}  // namespace placesim::backend
