// A MILP as text, every variable (type, bounds, objective, branching priority) and every row
// (bounds, terms in order) with its numbers at full precision, and a check of that text against a
// file kept in the repository: a change to how a placer builds its model must leave the model
// byte-identical unless it means to change it. Then PLACESIM_WRITE_MODELS=1 rewrites the files,
// and the diff shows what the change did.
#pragma once

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "scheduler/milp/model.hpp"

namespace placesim::testing {

inline std::string model_text(const scheduler::milp::Model& m) {
  using scheduler::milp::VarType;
  std::string out;
  for (const auto& v : m.vars())
    out += fmt::format("var {} {} [{:.17g}, {:.17g}] obj {:.17g} priority {}\n", v.name,
                       v.type == VarType::Binary ? "binary" : v.type == VarType::Integer ? "integer" : "continuous",
                       v.lower, v.upper, v.objective, v.priority);
  for (const auto& r : m.rows()) {
    out += fmt::format("row {} [{:.17g}, {:.17g}]:", r.name, r.lower, r.upper);
    for (const auto& t : r.terms) out += fmt::format(" {:+.17g} {}", t.coef, m.vars()[t.var.index].name);
    out += "\n";
  }
  return out;
}

// EXPECTs that `m`'s text is the file `path` holds (or writes it, under PLACESIM_WRITE_MODELS=1).
inline void expect_model_file(const scheduler::milp::Model& m, const std::string& path) {
  const std::string text = model_text(m);
  if (std::getenv("PLACESIM_WRITE_MODELS")) {
    std::ofstream(path) << text;
    return;
  }
  std::ifstream in(path);
  ASSERT_TRUE(in) << path << " is missing (PLACESIM_WRITE_MODELS=1 writes it)";
  std::stringstream kept;
  kept << in.rdbuf();
  EXPECT_TRUE(kept.str() == text) << path << " differs from the model built now (" << text.size() << " bytes, "
                                  << kept.str().size() << " kept)";
}

}  // namespace placesim::testing
