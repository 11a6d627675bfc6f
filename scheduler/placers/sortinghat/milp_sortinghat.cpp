// milp-sortinghat: SortingHat (Namkoong et al., "SortingHat: System Topology-aware Scheduling of
// DNN Models on Multi-GPU Systems", ICS 2025): dominator partition (3.1),
// per submodel the MILP of Eq. 1-23 (3.3: slots with and without DHA, parameter copies round
// robin per PCIe bus, parallel transmission, model parallelism), the constant adjustments of 3.4,
// and the ready-queue executor (3.2, Algorithm 1) as the plan's queues.
//
// efficientmip: the EfficientMIP baseline as SortingHat's 4.2 runs it: the same partition and
// contiguity MILP with model parallelism only (no DHA: every parameter copied), every transfer
// through DRAM at one speed (twice the host -> GPU speed), each submodel scheduled from time 0
// (no PrevDTFin / PrevSGFin), the merged submodels run one after another.
//
// Both are one builder (sortinghat_model.hpp) under a ShConfig; the files of this folder:
//   sortinghat_model      Eq. 1-23 from plain constants
//   sortinghat_constants  the constants from a Problem (T, P, m, buses, 3.4 adjustments)
//   sortinghat_solve      the submodel loop, chaining, memory infeasibility
//   sortinghat_schedule   the merged plan (Algorithm 1's queues)
//
// Weights resident: parameters are not in the model (no DT terms, no DHA); each op's memory
// counts the parameters it reads. Defaults: q = 4 (the paper: 6; even for milp-sortinghat, odd
// and even slots), time_limit 60 s for the whole placement, shared by the submodels, and at
// most submodel_limit (the paper's 30 s) for each, warm starts heft, single-device and deepplan.
// The result is the better of the MILP's plan and the warm start (milp_support.hpp).
#include <fmt/format.h>

#include "scheduler/placers/builtin.hpp"
#include "scheduler/placers/sortinghat/sortinghat_solve.hpp"

namespace placesim::scheduler {
namespace {

class SortingHatPlacer final : public Placer {
 public:
  SortingHatPlacer(const PlacerOptions& o, sortinghat::ShConfig cfg, std::string name)
      : settings_(o, name), cfg_(cfg), name_(std::move(name)) {
    const Yaml q = o.get("q");
    cfg_.q = static_cast<int>(q.integer());
    if (cfg_.q < 1 || (cfg_.dha && o.get("dha").boolean() && cfg_.q % 2 != 0))
      throw InputError(q.loc(), cfg_.dha ? "q must be an even number >= 2 (odd slots run with DHA, even without)"
                                         : "q must be >= 1");
    const Yaml ndom = o.get("ndom");
    cfg_.ndom = static_cast<int>(ndom.integer());
    if (cfg_.ndom < 1) throw InputError(ndom.loc(), "ndom must be >= 1");
    const Yaml gpus = o.get("gpus");
    cfg_.max_gpus = static_cast<int>(gpus.integer());
    if (cfg_.max_gpus < 0) throw InputError(gpus.loc(), "gpus must be >= 0 (0: every GPU)");
    const Yaml limit = o.get("submodel_limit");
    cfg_.submodel_limit_s = limit.number();
    if (!(cfg_.submodel_limit_s > 0)) throw InputError(limit.loc(), "submodel_limit must be > 0 seconds");
    if (cfg_.dha) {
      cfg_.dha = o.get("dha").boolean();
      cfg_.adjust = o.get("adjust").boolean();
      cfg_.topology_aware = o.get("topology_aware").boolean();
      cfg_.gpu_aware = o.get("gpu_aware").boolean();
      cfg_.bus_contention = o.get("bus_contention").boolean();
    }
  }

  PlacerResult place(const Problem& p) const override { return sortinghat::place(p, cfg_, settings_, name_); }

 private:
  MilpSettings settings_;
  sortinghat::ShConfig cfg_;
  std::string name_;
};

std::vector<OptionSpec> common_options() {
  std::vector<OptionSpec> o = milp_option_specs("60");
  // DeepPlan joins the warm starts: it is the paper's strongest baseline under weights: host.
  for (OptionSpec& spec : o)
    if (spec.name == "warm") spec.default_value = "[heft, single-device, deepplan]";
  o.push_back({"q", "4", "subgraph slots per GPU and submodel (SortingHat uses 6)"});
  o.push_back({"ndom", "1", "partition points (dominators) per submodel"});
  o.push_back({"gpus", "0", "use at most this many GPUs, of the MILP's choice (0: every GPU)"});
  o.push_back({"submodel_limit", "30", "wall-clock seconds for each submodel's solve, within time_limit (SortingHat uses 30)"});
  return o;
}

}  // namespace

void register_sortinghat(Registry<PlacerEntry>& r) {
  std::vector<OptionSpec> sh = common_options();
  sh.push_back({"dha", "true", "false: no DRAM subgraph, every parameter copied (ablation)"});
  sh.push_back({"adjust", "true", "3.4: P^DHA x 2 x GPUs on the bus; T between GPUs x 1.5 on a direct link, else x GPUs"});
  sh.push_back({"topology_aware", "true", "false: every transfer speed the average (SortingHat's ablation without topology)"});
  sh.push_back({"gpu_aware", "true", "false: every op's time the mean over the GPUs, as if they were alike (GPU performance, part of the topology in SortingHat 2.2)"});
  sh.push_back({"bus_contention", "true", "false: every GPU its own PCIe bus (no round robin shared between GPUs)"});
  r.add("milp-sortinghat",
        {"SortingHat: per dominator submodel, a MILP over subgraph slots with and without direct host access, "
         "parameter copies round robin per PCIe bus and model parallelism",
         sh, PlacerKind::Milp, [](const PlacerOptions& o) {
           return std::make_unique<SortingHatPlacer>(o, sortinghat::ShConfig{}, "milp-sortinghat");
         }});
  r.add("efficientmip",
        {"EfficientMIP as SortingHat evaluates it: the contiguity MILP per submodel, model parallelism only, every "
         "transfer through DRAM at one speed, submodels scheduled independently",
         common_options(), PlacerKind::Milp, [](const PlacerOptions& o) {
           sortinghat::ShConfig cfg;
           cfg.dha = false;
           cfg.chain = false;
           cfg.adjust = false;
           cfg.via_dram = true;
           cfg.bus_contention = false;
           return std::make_unique<SortingHatPlacer>(o, cfg, "efficientmip");
         }});
}

}  // namespace placesim::scheduler
