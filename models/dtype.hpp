// Numeric formats of a model: bytes per element, and which peak the cost model uses.
#pragma once

#include <string>

namespace placesim::models {

enum class DType { FP32, FP16, BF16, INT8, INT4 };

double bytes_per_element(DType t);         // 4, 2, 2, 1, 0.5
// The dtype activations (and a KV cache) are computed in: the model's own, except fp16 for int8
// and int4, which are weight-only quantisation (as in llama.cpp, AWQ, GPTQ).
DType activation_dtype(DType model);
const char* to_string(DType t);            // "fp32", ...
DType parse_dtype(const std::string& s);   // InputError (no location) when unknown

}  // namespace placesim::models
