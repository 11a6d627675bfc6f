// The hardware file's `calibration:` block (hw::Topology::calibration): linear time fits
// t = alpha + n * beta (ScheInfer Eq. 3, in the form of its Table I). The one statement of its
// schema: the `linear` cost model reads it (models/cost/linear.cpp), the scheinfer-a/b/c presets
// carry Table I in it, and `placesim calibrate` writes it (cpu_gemm: backend/calibrate/
// cpu_hardware_file.cpp; gpu_gemm, pcie, launch: backend/cuda/cuda_calibrate.cpp).
//
//   calibration:
//     source: ScheInfer Table I, Testbed-A     # any key not below is a record, read by nothing
//     gpu_gemm:                                # a GEMM on a GPU
//       fp16: {alpha: 1.0e-07, beta: 3.2e-12}  # one fit per dtype (fp32, fp16, bf16, int8, int4)
//       int4: {alpha: 4.7e-06, beta: 8.1e-13}
//     cpu_gemm:                                # a GEMM on a CPU, measured on `threads` of its
//       threads: 32                            #   cores (optional; default: all of them)
//       fp16: {alpha: 7.4e-07, beta: 1.6e-11}
//     # or one entry per thread count measured:
//     #   cpu_gemm: [{threads: 1, fp32: {...}}, {threads: 2, fp32: {...}}]
//     pcie: {alpha: 3.0e-06, beta: 2.6e-11}    # records: a host-GPU copy (n = bytes) and the
//     launch: 4.4e-05                           # GPU's launch; the presets' pcie link and GPU
//                                              # `launch:` carry them, and the engine uses those
//
// alpha is seconds (the start-up time), beta seconds per unit of n, both >= 0; a fit map may
// also record r2 and samples. The keys the fits are read from are `<device>_<class>`: device
// gpu or cpu, class an op class with a work measure n (op_class_work), one per class of op the
// generators emit (models/op_shape.hpp):
//   gemm        n = batch * m * k * n multiply-adds of C = A[m, k] x B[k, n]: ScheInfer's n_GEMM
//               = T * M * H for tokens [T, M] times a weight [M, H] (section IV-A2, "the
//               dimensions of two input matrices")
//   gemm_unaligned  the same n, for a GEMM with m, n or k not a multiple of 8 (tensor cores
//               take whole tiles: cuBLAS runs such shapes several times slower per
//               multiply-add); read where given, else the gemm fit serves them
//   attention   n = its flops (scores, softmax and context)
//   norm        n = element accesses, inputs * elements + weight_elements + elements (an
//               elementwise op with a weight vector: layernorm, rmsnorm)
//   elementwise n = element accesses, inputs * elements + elements (add, activations)
//   gather      n = element accesses, (tables + 1) * rows * width (an embedding lookup)
// A fit is in the dtype the kernel runs in: a GEMM with a weight operand the model's, any
// other op the activations' (models::activation_dtype).
// Errors carry the file, line and column of the key at fault.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "hw/topology.hpp"
#include "models/dtype.hpp"
#include "models/op_shape.hpp"
#include "sim/core/yaml_doc.hpp"

namespace placesim::models {

struct TimeFit {
  double alpha = 0;  // seconds
  double beta = 0;   // seconds per unit of work
};

// The fits of one key measured on one thread count.
struct FitsAtThreads {
  int threads = 0;  // CPU cores they were measured on; 0: all of the device's
  std::map<DType, TimeFit> by_dtype;
};

// One `<device>_<class>` key.
struct OpClassFits {
  std::string key;
  SourceLoc loc;                    // the key's value
  std::vector<FitsAtThreads> sets;  // distinct thread counts, in file order; one for a GPU
};

struct Calibration {
  SourceLoc loc;                             // the block
  std::map<std::string, OpClassFits> fits;   // by key
};

// The class of an op's shape and its work n, for the classes fits can be given for (gemm,
// attention, norm, elementwise, gather); nullopt for any other shape (lstm, none). A GEMM's
// class is gemm whatever its alignment (unaligned_gemm says).
struct OpClassWork {
  const char* op_class;
  double n;
};
std::optional<OpClassWork> op_class_work(const OpShape& s);

// A GEMM shape whose m, n or k is not a multiple of kGemmAlignment (the gemm_unaligned fit's).
inline constexpr double kGemmAlignment = 8;
bool unaligned_gemm(const OpShape& s);

// "gpu_gemm", "cpu_norm", ...
std::string fit_key(hw::DeviceKind device, const std::string& op_class);

// Reads the fit keys of a calibration block; InputError at the key at fault.
Calibration read_calibration(const Yaml& block);

}  // namespace placesim::models
