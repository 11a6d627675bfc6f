// Communication volume of a simulated plan (the tensor-parallelism issue): the bytes its
// transfers move between devices, summed from the traffic lower() records (engine::Traffic).
//
//   * every byte a finished Transfer task moves between two devices counts once, for its sending
//     device: the source of the data (a GPU, a CPU, a host memory);
//   * total: all of them;
//   * inter_node: those whose source and destination are in different cluster nodes
//     (hw::Device::node; the devices of a topology without nodes are all in one);
//   * per_gpu: per sending compute device, by id: every GPU (0 when it sends nothing) and every
//     CPU that sends; what host memories send counts in the total and its kind only;
//   * by_kind: per what moved them, kinds that moved nothing left out: the operation of the
//     plan collective that sent them ("all-reduce", "all-gather", "reduce-scatter", "broadcast",
//     "all-to-all", "point-to-point"), "activation" (an op's output delivered to another device)
//     or "parameter" (a weight copy from host memory; each leg of a parallel transmission counts,
//     so the staged share counts twice: host to neighbour, and neighbour to device).
//
// A collective counts what its algorithm sends at either fidelity (the analytic one records the
// flow lowering's bytes): a ring all-reduce of S bytes over n GPUs, 2(n-1)/n S per GPU. Not
// counted: a kernel's direct host access reads (a Dha task reads its weights where they are,
// no copy), and edges with a fixed time (they take a time and move no bytes). An ideal network
// still moves the bytes, for free: they count.
#pragma once

#include <map>
#include <string>

#include "hw/topology.hpp"
#include "sim/engine/task_graph.hpp"
#include "sim/engine/trace.hpp"

namespace placesim::scheduler {

struct CommBytes {
  double total = 0;
  double inter_node = 0;
  std::map<std::string, double> per_gpu;  // sending compute device id -> bytes
  std::map<std::string, double> by_kind;  // kind -> bytes
  bool operator==(const CommBytes&) const = default;
};

// g: lowered on topo (its traffic names topo's devices); t: a run of g.
CommBytes comm_bytes(const hw::Topology& topo, const engine::TaskGraph& g, const engine::Trace& t);

}  // namespace placesim::scheduler
