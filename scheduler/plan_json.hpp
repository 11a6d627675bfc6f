// Plans as JSON, so a plan can be saved, inspected, edited and re-scored:
//
//   {"placer": "round-robin",
//    "devices": {"layer0.qkv": "gpu0", "layer1.qkv": "gpu1", ...},     // every op -> device id
//    "queues": [{"name": "gpu0.compute", "tasks": ["layer0.qkv", ...]},  // op names
//               {"name": "gpu0.h2d", "tasks": ["layer0.w_qkv@gpu0"]},    // node@device deliveries
//               {"name": "gpu0->gpu1", "tasks": ["layer0.out@gpu1"]}]}
//
// Names are resolved against the graph and topology; every error has its file:line:column.
#pragma once

#include <string>

#include "hw/topology.hpp"
#include "models/graph.hpp"
#include "scheduler/plan.hpp"
#include "sim/core/yaml_doc.hpp"

namespace placesim::scheduler {

std::string plan_to_json(const Plan& plan, const models::Graph& g, const hw::Topology& topo);
Plan parse_plan(const Yaml& doc, const models::Graph& g, const hw::Topology& topo);
Plan load_plan_json(const std::string& path, const models::Graph& g, const hw::Topology& topo);

}  // namespace placesim::scheduler
