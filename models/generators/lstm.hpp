// Unfolded LSTM (chrion.md, Fig. 4b): `layers` x `seq` cells, each one `lstm_cell` op.
//
// Cell (l, t) reads x_t from cell (l-1, t) (layer 0 reads the model input) and (h, c) from
// cell (l, t-1); so cells on one anti-diagonal l + t are independent, the parallelism Chrion
// spreads over CPU cores. Layer l's weights are one Param node "l<l>.w" read by all its cells
// (shared across time steps), I_0 = io, I_l = H for l > 0:
//
//   params(layer)  = 4H(I + H) + 8H elements  (W: 4H x I, R: 4H x H, biases b_W and b_R: 4H
//                                               each, the ONNX / PyTorch layout)
//   flops(cell)    = 8BH(I + H) + 21BH         (gate matmuls x W^T and h R^T: 2B*4H*(I+H);
//                                               gate sums x W^T + h R^T + b_W + b_R: 3*4BH;
//                                               3 sigmoids and 2 tanh, one flop each: 5BH;
//                                               c' = f*c + i*g: 3BH; h' = o*tanh(c'): 1BH)
//   bytes(cell)    = w * params(layer) + a * (B*I + 2BH)  read (weights, x, h, c)
//                  + a * 2BH                                written (h', c')
//   output_bytes   = a * 2BH (h' and c')
//   edges          (l, t) -> (l+1, t): h, a*BH bytes; (l, t) -> (l, t+1): h and c, a*2BH bytes
//   shape          lstm {batch B, input I, hidden H} (models/op_shape.hpp, the same formulas)
//
// w is the bytes of a weight element (the model dtype) and a of an activation (the compute
// dtype: fp32 for fp32, else fp16; int8/int4 are weight-only quantisation, as in transformer.hpp).
#pragma once

#include "models/graph.hpp"
#include "sim/core/yaml_doc.hpp"

namespace placesim::models {

struct LstmSpec {
  int layers = 2;
  int seq = 8;     // time steps
  int batch = 1;
  int io = 256;    // input feature size (Chrion's "io size")
  int hidden = 0;  // hidden size; 0 means equal to io
  DType dtype = DType::FP32;
};

double lstm_cell_flops(double batch, double input, double hidden);  // 8BH(I+H) + 21BH
double lstm_layer_params(double input, double hidden);              // 4H(I+H) + 8H elements

// Keys: generator (optional, must be "lstm"), layers, seq, batch, io, hidden, dtype; errors are
// located at the offending key or value.
LstmSpec parse_lstm_spec(const Yaml& model);
// The graph, validated, named "lstm-<layers>l-s<seq>-b<batch>-io<io>-h<H>-<dtype>". InputError
// (no location) for a non-positive size.
Graph generate_lstm(const LstmSpec& spec);

}  // namespace placesim::models
