// import_onnx on the ONNX module (models/onnx/onnx_import.hpp), loaded the first time a model is
// imported.
#include "models/generators/lstm.hpp"
#include "models/onnx/onnx_import.hpp"
#include "sim/core/log.hpp"
#include "sim/core/module.hpp"

namespace placesim::models {

namespace {

[[gnu::used]] const void* const kModuleImports[] = {module_import(&log), module_import(&lstm_cell_flops)};

}  // namespace

OnnxImport import_onnx(const std::string& path, const std::map<std::string, std::int64_t>& dims) {
  return module_api<OnnxApi>("onnx").import(path, dims);
}

}  // namespace placesim::models
