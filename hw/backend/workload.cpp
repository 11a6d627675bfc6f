#include "hw/backend/workload.hpp"

namespace placesim::backend {

const char* to_string(WorkKind k) {
  switch (k) {
    case WorkKind::None: return "none";
    case WorkKind::Gemm: return "gemm";
    case WorkKind::Stream: return "stream";
    case WorkKind::Spin: return "spin";
    case WorkKind::Copy: return "copy";
    case WorkKind::Dha: return "dha";
  }
  return "?";
}

}  // namespace placesim::backend
