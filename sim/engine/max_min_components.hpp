// The connected components of the solver's problem, searched only to order the variables one
// solve listed when it filled several parts (MaxMinSystem::solve): solved_variables() lists
// them as a solve of whole components would.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/engine/max_min_problem.hpp"

namespace placesim::engine {

class ComponentOrder {
 public:
  void add_variable() { var_seen_.push_back(0); }
  void add_constraint() { cons_seen_.push_back(0); }
  // Puts `vars` in the order of a solve by components: component by component, in the order of
  // their seeds (the variables, then the constraints, that changed), each in ascending id.
  void order(const MaxMinProblem& problem, const std::vector<VariableId>& seed_vars,
             const std::vector<ConstraintId>& seed_cons, std::vector<VariableId>& vars);

 private:
  void collect(const MaxMinProblem& problem, VariableId seed_var, ConstraintId seed_cons);

  // Each search gets the next epoch; the stamps equal to epoch_ are the current component's.
  std::uint64_t epoch_ = 0;
  std::vector<std::uint64_t> var_seen_;
  std::vector<std::uint64_t> cons_seen_;
  std::vector<VariableId> comp_vars_;
  std::vector<ConstraintId> comp_cons_;
};

}  // namespace placesim::engine
