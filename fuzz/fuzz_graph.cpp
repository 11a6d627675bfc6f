// Graph JSON: parsed, then placed round-robin on the SortingHat station and simulated.
#include "fuzz_support.hpp"
#include "models/graph_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace placesim;
  try {
    models::Graph g = models::parse_graph(Json::load_string(fuzz::text_of(data, size), "g.json"));
    fuzz::place_and_simulate(fuzz::problem_on_preset(std::move(g)));
  } catch (const InputError&) {
  }
  return 0;
}
