// The constants of SortingHat's MILP (sortinghat.md Table 1, 3.4) from a Problem: what one
// submodel's ShInput holds, for milp-sortinghat and efficientmip alike (ShConfig says which).
//
//   T_{0,i}      seconds per byte host memory -> GPU i: 1 / (slowest hop bandwidth of the route
//                from the GPU's host memory), plus the route latency once per copy
//   T_{i1,i2}    the same over the route GPU i1 -> GPU i2
//   P^GPU_{v,i}  p.duration(v, i)
//   P^DHA_{v,i}  route latency + max(P^GPU, bytes v reads of its parameters x T_{0,i}; an
//                embedding's rows, not its table: models::param_read_bytes): a Dha task in the
//                engine (scheduler/lower/lower.hpp) reads them while it computes; = P^GPU for an op
//                that reads no parameter
//   m_v          param_bytes of a parameter, output_bytes + state_bytes of an op (Eq. 11); a
//                copy moves the bytes the engine moves (the largest edge it serves)
//   buses        GPUs whose host routes share a link are on one bus (union of such pairs);
//                bus_contention false: each GPU its own bus
//   adjust (3.4) P^DHA x 2 x (GPUs on the bus) for ops that read parameters; T_{i1,i2} x 1.5 over
//                one direct link, x (number of GPUs) otherwise
//   topology_aware false (paper 4.4): every T_{0,i} the mean over GPUs, every T_{i1,i2} the
//                mean over pairs
//   gpu_aware false: every P^GPU_{v,i} and P^DHA_{v,i} the mean over the GPUs v can run on, as if
//                the GPUs were alike (section 2.2 counts each GPU's performance as part of the
//                system topology; the heterogeneous server is where it differs)
//   via_dram (efficientmip, 4.2): every transfer, parameter copies included, through DRAM at
//                one speed, twice the mean host -> GPU speed
//
// Weights not copied (weights: resident, `network: ideal`, or no host memory): parameters
// leave the model (no DT terms) and each op's m_v counts the parameters it reads.
#pragma once

#include <vector>

#include "models/transform/dominators.hpp"
#include "scheduler/placers/sortinghat/sortinghat_model.hpp"
#include "scheduler/problem.hpp"

namespace placesim::scheduler::sortinghat {

struct ShConfig {
  bool dha = true;             // subgraph 0 and DHA slots (efficientmip: false)
  bool chain = true;           // PrevDTFin / PrevSGFin from the previous submodel (efficientmip: false)
  bool adjust = true;
  bool topology_aware = true;
  bool gpu_aware = true;
  bool bus_contention = true;
  bool via_dram = false;       // efficientmip
  int q = 4;
  int ndom = 1;
  int max_gpus = 0;            // 0: every GPU
  double submodel_limit_s = 30;  // wall seconds per submodel solve, within time_limit (the paper's 30)
  ShStrength strength;         // the model's additions (all on; benches switch them)
};

// The machine as the MILP sees it.
struct Machine {
  std::vector<int> gpus;       // topology indices; the model's GPU i is gpus[i]
  bool copies_params = false;  // weights: host with real routes from host memory
  std::vector<int> bus_of;
  int buses = 0;
  std::vector<double> t0, lat0;                  // [i]
  std::vector<std::vector<double>> t, lat;       // [i1][i2]
  std::vector<int> on_bus;                       // [i] GPUs sharing i's bus
  std::vector<double> capacity;                  // [i], 0: unlimited
};

Machine machine(const Problem& p, const ShConfig& cfg);

// ShInput of submodel `sm` (q, dha and max_gpus from cfg; the Prev* values, FixedNodes and
// used_before are the caller's). Node v of the input is node v of sm.graph, except that
// parameters leave it when the machine copies none (node_of maps input nodes to sm nodes).
struct SubInput {
  ShInput in;
  std::vector<int> node_of;  // input node -> sm.graph node
};
SubInput submodel_input(const Problem& p, const Machine& mc, const ShConfig& cfg, const models::Submodel& sm);

}  // namespace placesim::scheduler::sortinghat
