// ONNX models: imported (protobuf parse, shape inference, each node costed), then placed
// round-robin on the SortingHat station and simulated when small.
#include "fuzz_support.hpp"
#include "models/onnx/onnx_import.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace placesim;
  try {
    models::OnnxImport m = models::import_onnx(fuzz::write_input(data, size, ".onnx"));
    fuzz::place_and_simulate(fuzz::problem_on_preset(std::move(m.graph)));
  } catch (const InputError&) {
  }
  return 0;
}
