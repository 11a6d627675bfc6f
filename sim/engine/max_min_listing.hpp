// What a solve lists as solved (MaxMinSystem::solved_variables, solved_constraints), each once a
// solve. The variables whose rate changed since the part's last listing are marked one bit each,
// with the range of ids holding set bits (empty when lo > hi), and listed from the set bits in id
// order: a scan of the part's variables for a stamp each mispredicted a branch on about every
// second one, since about half of them change (the listing was 6% of the 30k tree). Inline:
// a solve of thousands of lone parts lists each.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "sim/engine/max_min_problem.hpp"

namespace placesim::engine {

class SolvedListing {
 public:
  // `variables`: how many there are with the new one.
  void add_variable(std::size_t variables) {
    var_listed_.push_back(0);
    if (variables > changed_bits_.size() * 64) changed_bits_.push_back(0);
  }
  void add_constraint() { cons_listed_.push_back(0); }

  // A new solve's listing, empty; `solve` numbers it (a new number each time).
  void start(std::uint64_t solve) {
    vars_.clear();
    cons_.clear();
    solve_ = solve;
  }
  void mark_changed(VariableId v) {
    changed_bits_[static_cast<std::size_t>(v) >> 6] |= std::uint64_t{1} << (v & 63);
    changed_lo_ = std::min(changed_lo_, v);
    changed_hi_ = std::max(changed_hi_, v);
  }
  // Lists the variables marked since the last call, in id order, those listed already in this
  // solve left out.
  void list_changed() {
    if (changed_lo_ <= changed_hi_) {
      const auto hi_word = static_cast<std::size_t>(changed_hi_) >> 6;
      for (std::size_t w = static_cast<std::size_t>(changed_lo_) >> 6; w <= hi_word; ++w) {
        for (std::uint64_t bits = std::exchange(changed_bits_[w], 0); bits != 0; bits &= bits - 1) {
          const auto v = static_cast<VariableId>(w * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
          if (var_listed_[v] == solve_) continue;
          var_listed_[v] = solve_;
          vars_.push_back(v);
        }
      }
      changed_lo_ = std::numeric_limits<VariableId>::max();
      changed_hi_ = -1;
    }
  }
  void list_constraints(const std::vector<ConstraintId>& cons) {
    for (ConstraintId c : cons) {
      if (cons_listed_[c] == solve_) continue;
      cons_listed_[c] = solve_;
      cons_.push_back(c);
    }
  }

  const std::vector<VariableId>& variables() const { return vars_; }
  const std::vector<ConstraintId>& constraints() const { return cons_; }

 private:
  std::uint64_t solve_ = 0;
  std::vector<std::uint64_t> var_listed_;   // == solve_: in vars_
  std::vector<std::uint64_t> cons_listed_;  // == solve_: in cons_
  std::vector<VariableId> vars_;
  std::vector<ConstraintId> cons_;
  std::vector<std::uint64_t> changed_bits_;
  VariableId changed_lo_ = std::numeric_limits<VariableId>::max(), changed_hi_ = -1;
};

}  // namespace placesim::engine
