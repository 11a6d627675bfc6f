// The problem the max-min solver works on (max_min.hpp): variables with their bounds and
// elements, constraints with their capacities, each element listed both ways. It is a class of
// its own so that every part of the solver (the part search, the fill, the kept part, the replay
// record) reads the same problem through one type; only MaxMinSystem changes it. Inline: each
// change of the executor's is a few of its calls.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "sim/engine/element_list.hpp"

namespace placesim::engine {

using ConstraintId = std::int32_t;
using VariableId = std::int32_t;

class MaxMinProblem {
 public:
  using Element = ElementList::Element;
  struct Entry {
    VariableId v;
    double a;
  };
  // One pair of cache lines, fetched together (element_list.hpp).
  struct alignas(128) Var {
    double bound = 0;  // > 0 while the variable is alive, 0 once removed
    ElementList elems;  // in expand order
  };
  static_assert(sizeof(Var) == 128);
  struct Cons {
    double capacity = 0;
    std::vector<Entry> entries;  // ascending variable id: the order sums are taken in
  };

  std::size_t variable_count() const { return vars_.size(); }  // ids given, alive or not
  std::size_t constraint_count() const { return cons_.size(); }
  bool alive(VariableId v) const { return vars_[v].bound > 0; }
  const Var& var(VariableId v) const { return vars_[v]; }
  const Cons& cons(ConstraintId c) const { return cons_[c]; }
  // Live variables with a bound: while there are none (the tree's flows), a fill reads no
  // variable's record to find them.
  std::size_t bounded_live() const { return bounded_live_; }

  ConstraintId add_constraint(double capacity) {
    cons_.push_back(Cons{capacity, {}});
    return static_cast<ConstraintId>(cons_.size() - 1);
  }
  // The id of the variable last freed, if any (memory reuse), else a new one: variable_count()
  // grows by one.
  VariableId add_variable(double bound) {
    VariableId v;
    if (!free_vars_.empty()) {
      v = free_vars_.back();
      free_vars_.pop_back();
    } else {
      v = static_cast<VariableId>(vars_.size());
      vars_.emplace_back();
    }
    vars_[v].bound = bound;
    bounded_live_ += bound < kInf;
    return v;
  }
  // Whether (v, c) is a new element; else its coefficient grows by `coefficient`.
  bool expand(VariableId v, ConstraintId c, double coefficient) {
    ElementList& elems = vars_[v].elems;
    for (std::uint32_t k = 0; k < elems.size(); ++k) {
      if (elems.c(k) == c) {
        elems.set_a(k, elems.a(k) + coefficient);
        entry(c, v)->a = elems.a(k);
        return false;
      }
    }
    elems.push_back(Element{c, coefficient});
    std::vector<Entry>& entries = cons_[c].entries;
    entries.insert(entry(c, v), Entry{v, coefficient});
    return true;
  }
  // v leaves its constraints' variables; its own elements stay until clear_elements(v).
  void leave_constraints(VariableId v) {
    for (const Element& e : vars_[v].elems) cons_[e.c].entries.erase(entry(e.c, v));
  }
  void clear_elements(VariableId v) { vars_[v].elems.clear(); }
  // v, without elements, is dead; its id is the next that add_variable() gives.
  void free_variable(VariableId v) {
    Var& var = vars_[v];
    bounded_live_ -= var.bound < kInf;
    var.bound = 0;
    free_vars_.push_back(v);
  }
  // sum_{v in c} a_vc * rates[v], summed in variable id order.
  double load(ConstraintId c, const std::vector<double>& rates) const {
    double load = 0;
    for (const Entry& en : cons_[c].entries) load += en.a * rates[en.v];
    return load;
  }
  // out[i] = load(cs[i], rates) for each i, bit for bit: each sum still in its own order, but
  // four sums advance together, so that their additions (each waiting for the one before it in
  // its own sum) overlap: a trace's tens of millions of loads are that chain of additions.
  void loads(const ConstraintId* cs, std::size_t n, const std::vector<double>& rates, double* out) const {
    std::size_t i = 0;
    for (; i + 4 <= n; i += 4) {
      const std::vector<Entry>* e[4] = {&cons_[cs[i]].entries, &cons_[cs[i + 1]].entries, &cons_[cs[i + 2]].entries,
                                        &cons_[cs[i + 3]].entries};
      double sum[4] = {0, 0, 0, 0};
      const std::size_t common = std::min({e[0]->size(), e[1]->size(), e[2]->size(), e[3]->size()});
      for (std::size_t k = 0; k < common; ++k)
        for (int j = 0; j < 4; ++j) sum[j] += (*e[j])[k].a * rates[(*e[j])[k].v];
      for (int j = 0; j < 4; ++j) {
        for (std::size_t k = common; k < e[j]->size(); ++k) sum[j] += (*e[j])[k].a * rates[(*e[j])[k].v];
        out[i + j] = sum[j];
      }
    }
    for (; i < n; ++i) out[i] = load(cs[i], rates);
  }

 private:
  static constexpr double kInf = std::numeric_limits<double>::infinity();

  // Where v's entry is, or goes, in c's variables.
  std::vector<Entry>::iterator entry(ConstraintId c, VariableId v) {
    std::vector<Entry>& entries = cons_[c].entries;
    return std::lower_bound(entries.begin(), entries.end(), v, [](const Entry& e, VariableId id) { return e.v < id; });
  }

  std::vector<Var> vars_;
  std::vector<Cons> cons_;
  std::vector<VariableId> free_vars_;
  std::size_t bounded_live_ = 0;
};

}  // namespace placesim::engine
