// plan-file: the plan saved in a JSON file (by `placesim plan --out`, or written by hand), as it
// is. It lets a scenario run, compare, sweep and validate a hand-made plan, such as one that
// splits ops, beside the placers; it predicts nothing of its own. A relative path is taken from
// the scenario file's directory.
#include <filesystem>

#include "scheduler/placers/builtin.hpp"
#include "scheduler/plan/builder.hpp"
#include "scheduler/plan/json.hpp"

namespace placesim::scheduler {
namespace {

class PlanFile final : public Placer {
 public:
  explicit PlanFile(const PlacerOptions& o) {
    const Yaml y = o.get("path");
    path_ = y.str();
    if (path_.empty()) y.fail("plan-file needs a path: {name: plan-file, path: plan.json}");
    const std::filesystem::path file(path_);
    if (file.is_relative() && !y.loc().file.empty())
      path_ = (std::filesystem::path(y.loc().file.str()).parent_path() / file).string();
  }

  PlacerResult place(const Problem& p) const override {
    PlacerResult r;
    r.plan = complete_plan(p, load_plan_json(path_, *p.graph, *p.topo, p.collectives));
    return r;
  }

 private:
  std::string path_;  // a plain value: place() runs on many threads at once
};

}  // namespace

void register_plan_file(Registry<PlacerEntry>& r) {
  r.add("plan-file", {"the plan in a JSON file (placesim plan --out, or hand-made, e.g. with split ops), as it is; "
                      "no prediction of its own",
                      {{"path", "\"\"", "plan JSON file; relative paths are from the scenario's directory"}},
                      PlacerKind::Given,
                      [](const PlacerOptions& o) { return std::make_unique<PlanFile>(o); },
                      PlacerFacts{.predicts = false}});
}

}  // namespace placesim::scheduler
