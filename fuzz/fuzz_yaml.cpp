// Scenario and hardware YAML: the scenario loaded (keys, placers, sweep) and its first point's
// problem built (the hardware, inline or a preset, and the model), then placed round-robin and
// simulated when small. An input that is a hardware file rather than a scenario goes through
// the topology loader too.
#include "fuzz_support.hpp"
#include "app/explore/scenario.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace placesim;
  const std::string text = fuzz::text_of(data, size);
  if (fuzz::asks_for_large_cluster(text)) return 0;
  try {
    hw::load_topology_text(text, "hw.yaml");
  } catch (const InputError&) {
  }
  try {
    const std::string path = fuzz::write_input(data, size, ".yaml");
    const explore::Scenario s = explore::load_scenario(path);
    if (s.points.empty()) return 0;
    fuzz::place_and_simulate(explore::build_problem(s, s.points.front()));
  } catch (const InputError&) {
  }
  return 0;
}
