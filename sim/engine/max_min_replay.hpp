// The record of a fill and its replay by the next fill of the same part: most of a fill of
// thousands of flows redoes the steps of the last one, and a step replayed costs its log, not its
// variables.
//
// Replay. A fill records its steps (the constraint or bound each one fixed its variables by, and
// its level), the variables in the order it fixed them, and after each step the state (R_c,
// U_c, unfixed count, R_c / U_c) of every part constraint the step touched. The next fill, of the
// part a change reaches, starts by replaying that record: as long as each recorded step is the
// one the new fill would take, the new fill would fix the same variables at the same levels,
// bit for bit, so the state after the step is the recorded one. A recorded step is the new
// fill's when its constraint is in the new part and unchanged (the same variables, none added,
// removed or expanded since), and every constraint whose state can differ from the record (one
// that changed, or was not in the recorded part) has a current R_c / U_c strictly above the
// step's level, as has every changed bounded variable's bound. Those few constraints are walked
// step by step through the recorded fixes of their own variables, in fix order (the order the
// fill subtracts in). At the first step that fails, the state is rebuilt from the record (the
// last logged state of each constraint, or its recorded initial U_c) and the fill goes on as
// usual. Stopping early is always exact; replaying is exact by the argument above. A variable
// fixed in the replayed steps keeps its rate: it is neither touched nor listed as solved. Only
// a clamp-free fill is recorded, and solve_all() drops the record (it is the reference).
//
// Changes between solves are stamped with the solve they come before (`solve` arguments: the
// number of the solve they follow).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/engine/max_min_fill_state.hpp"
#include "sim/engine/max_min_parts.hpp"
#include "sim/engine/max_min_problem.hpp"

namespace placesim::engine {

class ReplayRecord {
 public:
  void add_variable() {
    var_mod_.push_back(0);
    var_rec_.push_back(0);
    fix_pos_.push_back(0);
  }
  void add_constraint() {
    cons_.emplace_back();
  }

  // v added or expanded (`variables`: how many there are): stamped, and listed among the
  // modified while they are fewer than the variables.
  void note_modified(VariableId v, std::uint64_t solve, std::size_t variables) {
    var_mod_[v] = solve + 1;
    if (modified_lost_) return;
    if (modified_.size() >= variables) {
      modified_lost_ = true;
      modified_.clear();
      return;
    }
    modified_.push_back(v);
  }
  // c gained or lost a variable, or a coefficient.
  void note_changed(ConstraintId c, std::uint64_t solve) { cons_[c].mod = solve + 1; }
  void drop() { rec_.id = 0; }  // the next fill replays nothing
  std::uint64_t replayed_steps() const { return replayed_steps_; }

  // The first place in the record's fix order of one of the part's variables that changed since
  // the record was made: the replay stops before it.
  std::uint32_t first_changed(const Parts& parts) const;
  // A new record, for the fill of the current part in solve `solve`.
  void start(std::uint64_t solve);
  // The state of the part's constraints after the recorded steps the new fill would take too,
  // none at or past `changed_at` in the record's fix order, into `fill`; the steps replayed into
  // the new record, their variables marked fixed (by what fixed them in the record, into
  // `fixed_by`). `level` is the last replayed step's. The steps replayed.
  std::size_t replay(const MaxMinProblem& problem, const std::vector<double>& rates,
                     const Parts& parts, FillState& fill, std::vector<ConstraintId>& fixed_by,
                     double& level, std::uint32_t changed_at);
  // What the fill does after the replay: v fixed, the constraints' states after a step, the step
  // (by c, or by the bound of `bounded` when c is -1).
  void record_fix(VariableId v) {
    fix_pos_[v] = static_cast<std::uint32_t>(next_.fixed.size());
    refix(v);
  }
  void log(const FillState::Snapshot& s) { next_.log.push_back(s); }
  void record_step(double level, ConstraintId c, VariableId bounded) {
    next_.steps.push_back(Step{level, c, bounded, static_cast<std::uint32_t>(next_.fixed.size()),
                               static_cast<std::uint32_t>(next_.log.size())});
  }
  std::size_t fixed_count() const { return next_.fixed.size(); }  // in the current fill so far
  // v's rate is set by the current fill: the record may no longer describe it.
  void note_rate_set(VariableId v) { touched_record_ = touched_record_ || var_rec_[v] == rec_.id; }
  // The fill is over (its clamp acted unless `clamp_free`): its record replaces the last one, or
  // not; `part_cons`: the part's constraints.
  void finish(bool clamp_free, const std::vector<ConstraintId>& part_cons);

 private:
  using Entry = MaxMinProblem::Entry;
  using LogEntry = FillState::Snapshot;
  struct Step {
    double level;
    ConstraintId c;           // the constraint that saturated, or -1: a variable's bound
    VariableId bounded;       // when c == -1
    std::uint32_t fixed_end;  // its variables: Record::fixed[previous step's fixed_end, fixed_end)
    std::uint32_t log_end;    // its log entries: Record::log[previous step's log_end, log_end)
  };
  struct Record {
    std::uint64_t id = 0;    // 0: none
    std::uint64_t made = 0;  // the solve of the fill
    std::vector<Step> steps;
    std::vector<VariableId> fixed;  // in fix order
    std::vector<LogEntry> log;
  };
  // Constraints whose state can differ from the record's, and their recorded fixes in fix order.
  struct Walk {
    ConstraintId c;
    std::uint32_t begin, end;  // in walk_fixes_
  };

  // v, replayed, fixed at the place the record fixed it, where its fix_pos_ is already.
  void refix(VariableId v) {
    next_.fixed.push_back(v);
    var_rec_[v] = next_.id;
  }
  void start_constraints(const MaxMinProblem& problem, const Parts& parts, FillState& fill);
  double bound_limit(const std::vector<std::pair<double, VariableId>>& bounded) const;
  void start_walks(const MaxMinProblem& problem);
  bool takes(const Step& st, const Parts& parts, const FillState& fill, double limit,
             std::uint32_t changed_at) const;
  void take(const Step& st, std::uint32_t fixed_begin, std::uint32_t log_begin, const Parts& parts,
            FillState& fill, std::vector<ConstraintId>& fixed_by);
  void walk(const Step& st, const MaxMinProblem& problem, const std::vector<double>& rates,
            FillState& fill);

  Record rec_;   // the last fill's
  Record next_;  // the current fill's, built as it goes
  std::uint64_t rec_serial_ = 0;
  bool touched_record_ = false;
  std::uint64_t replayed_steps_ = 0;  // the current fill fixed a variable the record had fixed
  std::vector<std::uint64_t> var_mod_;  // the solve before which it last changed
  // Per constraint, read together as a fill starts: one line, not one per array (on the mixed
  // tree at 10k flows, 8% fewer first-level cache misses in `placesim simulate`: 40.8M -> 37.7M).
  struct alignas(32) ConsRecord {
    std::uint64_t mod = 0;     // the solve before which it last changed
    std::uint64_t rec = 0;     // the record whose part holds it
    std::uint64_t walked = 0;  // == the part's epoch: in walks_
    double usage = 0;          // its initial U_c in that record
  };
  std::vector<ConsRecord> cons_;
  std::vector<std::uint64_t> var_rec_;             // the record that fixed it
  std::vector<std::uint32_t> fix_pos_;             // its place in that record's fixed
  // Variables added or expanded since the record was made (repeats and removed ones included):
  // where a fill looks for the first recorded fix that changed, instead of in each variable of
  // the part. Given up (modified_lost_), and the part's variables read, once it outgrows them.
  std::vector<VariableId> modified_;
  bool modified_lost_ = false;
  std::vector<Walk> walks_;
  std::vector<std::pair<std::uint32_t, Entry>> walk_fixes_;  // (fix position, entry)
};

}  // namespace placesim::engine
