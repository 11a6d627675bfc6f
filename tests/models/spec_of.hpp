// A transformer step's spec in one call, for the model tests.
#pragma once

#include <string>

#include "models/generators/transformer.hpp"

namespace placesim::models {

inline TransformerSpec spec_of(const std::string& arch, Phase phase, int batch, int seq, int layers = 0,
                               DType dtype = DType::FP16, Granularity gran = Granularity::Op) {
  TransformerSpec s;
  s.arch = arch;
  s.phase = phase;
  s.batch = batch;
  s.seq = seq;
  s.layers = layers;
  s.dtype = dtype;
  s.granularity = gran;
  return s;
}

}  // namespace placesim::models
