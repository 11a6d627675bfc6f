// What the scheinfer placer hands its solver (solver.hpp), read off a problem: the fits of Eq. 3,
// each layer's FFN block in this graph's step and in a generation step, and the GPU memory left
// for GG slices (scheinfer.cpp says how each is found). Apart from the placer so that a test can
// check the solver's answers against a brute-force scan on exactly what the placer solved.
#pragma once

#include <vector>

#include "scheduler/placers/offload/offload_setup.hpp"
#include "scheduler/placers/offload/solver.hpp"

namespace placesim::scheduler::scheinfer {

struct Inputs {
  Hardware hw;
  std::vector<offload::FfnLayer> layers;
  std::vector<Block> now;         // per layer: its GEMMs for this graph's tokens
  std::vector<Block> generation;  // the same for one token per sequence (the rates' phase)
  int tokens = 0;                 // tokens of this graph's step (T of Eq. 15)
  bool prompt = false;            // more than one token per sequence: n_g applies
  double budget = 0;              // GPU bytes for the GG slices of every expert, idle ones too
  double active = 1;              // the share of the FFN weights this step's GEMMs read
  double ffn_bytes = 0;           // every expert's weights
};

// InputError (at the memory option) when the budget is below one layer's unsliced weights.
// `layer_launches`: each block's launch stream starts after the launches of its layer's other
// ops (every one a GPU kernel launched from the host), not free as in Eq. 5.
Inputs scheinfer_inputs(const Problem& p, const offload::SetupOptions::Setup& s, SourceLoc memory_loc,
                        bool layer_launches = false);

}  // namespace placesim::scheduler::scheinfer
