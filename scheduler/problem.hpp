// A placement problem: what runs (graph), on what (topology), at what cost (cost model), and
// where the weights start (docs/scenarios.md).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "hw/topology.hpp"
#include "models/cost/cost_model.hpp"
#include "models/graph.hpp"
#include "sim/engine/collectives/collective.hpp"

namespace placesim::scheduler {

// host: weights start in host memory and must be copied before use (SortingHat, DeepPlan).
// resident: weights already sit on the device of every op that reads them (MOIRAI, HEFT).
enum class WeightsMode { Host, Resident };
WeightsMode parse_weights(const std::string& s);  // InputError (no location) when unknown
const char* to_string(WeightsMode m);
engine::Fidelity parse_fidelity(const std::string& s);  // flow | link | analytic | ideal; InputError (no location)

// What a tensor-parallel linear's collectives carry. exact: the linear's own input (gathered
// before it) and output (reduced after it), so a block's QKV gives 3h and its MLP 4h-wide
// activations. per-linear: the block's activation b h on both sides of every linear, the volume
// AsymGroup's Eq. 1 and Eq. 5 count (a paper's assumption, docs/execution.md).
enum class LinearVolume { Exact, PerLinear };
LinearVolume parse_linear_volume(const std::string& s);  // exact | per-linear; InputError (no location)

// "" when every op's explicit durations name devices of `topo`, else what names none: a typo
// there would otherwise show only as the op being unable to run where it is placed. The
// caller adds where the graph came from.
std::string check_duration_devices(const models::Graph& g, const hw::Topology& topo);

struct Problem {
  std::shared_ptr<const models::Graph> graph;
  std::shared_ptr<const hw::Topology> topo;
  std::shared_ptr<const models::CostModel> cost;
  WeightsMode weights = WeightsMode::Host;
  std::uint64_t seed = 1;
  // How every plan's collectives are lowered: per-rank flows, or the alpha-beta closed form.
  engine::Fidelity collectives = engine::Fidelity::Flow;
  LinearVolume linear_volume = LinearVolume::Exact;

  // Seconds op `node` takes on device `dev` (models::kCannotRun when it cannot run there); on a
  // CPU, on `cores` of its cores (0: all of them) as models::on_cores says.
  double duration(int node, int dev, int cores = 0) const;
  // Seconds op `node` keeps one core of CPU `dev` busy while `cores` of its cores are busy (0:
  // all of them), as models::on_one_core says (Chrion's W); on any other device, duration().
  double core_duration(int node, int dev, int cores) const;

 private:
  double on_device_dispatch(int node, const hw::Device& d, double t) const;
};

}  // namespace placesim::scheduler
