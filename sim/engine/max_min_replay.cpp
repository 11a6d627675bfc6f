// The record of a fill and its replay by the next fill of the same part (max_min.hpp, "Replay").
#include <algorithm>
#include <limits>

#include "sim/engine/max_min.hpp"

namespace placesim::engine {

void MaxMinSystem::start_record() {
  next_.id = ++rec_serial_;
  next_.made = solve_serial_;
  next_.steps.clear();
  next_.fixed.clear();
  next_.log.clear();
  touched_record_ = false;
}

void MaxMinSystem::record_step(double level, ConstraintId c, VariableId bounded) {
  next_.steps.push_back(Step{level, c, bounded, static_cast<std::uint32_t>(next_.fixed.size()),
                             static_cast<std::uint32_t>(next_.log.size())});
}

// The fill's record replaces the last one when it set the rate of any variable the last one
// had fixed (which that record no longer describes), or when it is at least as large; a smaller
// fill of another part leaves the record of the large part in place for that part's next fill.
// A fill whose clamp acted leaves none.
void MaxMinSystem::finish_record(bool clamp_free) {
  if (!clamp_free) {
    rec_.id = 0;
    return;
  }
  if (!touched_record_ && rec_.id != 0 && next_.fixed.size() < rec_.fixed.size()) return;
  std::swap(rec_, next_);
  modified_.clear();  // each changed before it was made
  modified_lost_ = false;
  for (ConstraintId c : part_cons_) cons_rec_[c] = rec_.id;
}

std::size_t MaxMinSystem::replay(double& level, std::uint32_t changed_at) {
  // Every part constraint's state before any step: its recorded initial U_c if it is in the
  // recorded part and unchanged since, else summed (and walked below).
  walks_.clear();
  walk_fixes_.clear();
  for (ConstraintId c : part_cons_) {
    const std::vector<Entry>& entries = cons_[c].entries;
    remaining_[c] = cons_[c].capacity;
    unfixed_[c] = static_cast<std::int32_t>(entries.size());
    if (rec_.id != 0 && cons_rec_[c] == rec_.id && cons_mod_[c] <= rec_.made) {
      usage_[c] = rec_usage_[c];
    } else {
      double u = 0;
      for (const Entry& en : entries) u += en.a;
      usage_[c] = rec_usage_[c] = u;
      walks_.push_back(Walk{c, 0, 0});
      cons_walked_[c] = part_epoch_;
    }
    if (!entries.empty()) update_ratio(c);
  }
  // Nothing to replay, or too little left unchanged to be worth it.
  if (rec_.id == 0 || rec_.steps.empty() || walks_.size() * 2 > part_cons_.size()) return 0;

  // A bounded variable the record did not fix (or that changed since) may be fixed by its bound
  // before a recorded step; a changed variable the record fixed ends the replay before its step
  // (at changed_at in the record's fix order).
  double limit = std::numeric_limits<double>::infinity();
  for (const auto& [bound, v] : bounded_) {
    if (var_rec_[v] != rec_.id || var_mod_[v] > rec_.made) {
      limit = bound;  // bounded_ is ascending
      break;
    }
  }
  // Each walked constraint's variables the record fixed (and unchanged since), in fix order.
  for (Walk& w : walks_) {
    w.begin = static_cast<std::uint32_t>(walk_fixes_.size());
    for (const Entry& en : cons_[w.c].entries) {
      if (var_rec_[en.v] == rec_.id && var_mod_[en.v] <= rec_.made) walk_fixes_.emplace_back(fix_pos_[en.v], en);
    }
    w.end = static_cast<std::uint32_t>(walk_fixes_.size());
    std::sort(walk_fixes_.begin() + w.begin, walk_fixes_.begin() + w.end,
              [](const auto& x, const auto& y) { return x.first < y.first; });
  }

  auto in_part = [&](ConstraintId c) { return cons_part_[c] == part_epoch_ && !slack_[c]; };
  std::size_t k = 0;
  std::uint32_t fixed_begin = 0, log_begin = 0;
  for (; k < rec_.steps.size(); ++k) {
    const Step& st = rec_.steps[k];
    // The new fill takes this step only if its constraint (or bounded variable) is the part's
    // and unchanged, and nothing that can differ from the record comes first.
    if (!(st.level < limit) || st.fixed_end > changed_at) break;
    if (st.c >= 0 ? !in_part(st.c) || cons_walked_[st.c] == part_epoch_
                  : var_part_[st.bounded] != part_epoch_ || var_mod_[st.bounded] > rec_.made) {
      break;
    }
    const bool first = std::all_of(walks_.begin(), walks_.end(), [&](const Walk& w) {
      return unfixed_[w.c] == 0 || ratio_[w.c] > st.level;
    });
    if (!first) break;

    // Taken: its variables are fixed at their recorded rates, which are their rates now.
    for (std::uint32_t pos = fixed_begin; pos < st.fixed_end; ++pos) {
      const VariableId v = rec_.fixed[pos];
      fixed_[v] = 1;
      fixed_by_[v] = st.c;     // what fixed it there fixes it now (-1: its bound)
      var_rec_[v] = next_.id;  // the same place in the new record
      next_.fixed.push_back(v);
    }
    for (std::uint32_t i = log_begin; i < st.log_end; ++i) {
      const LogEntry& e = rec_.log[i];
      if (!in_part(e.c) || cons_walked_[e.c] == part_epoch_) continue;
      remaining_[e.c] = e.remaining;
      usage_[e.c] = e.usage;
      unfixed_[e.c] = e.unfixed;
      ratio_[e.c] = e.ratio;
      next_.log.push_back(e);
    }
    for (Walk& w : walks_) {
      const std::uint32_t from = w.begin;
      for (; w.begin < w.end && walk_fixes_[w.begin].first < st.fixed_end; ++w.begin) {
        const Entry& en = walk_fixes_[w.begin].second;
        remaining_[w.c] -= en.a * rates_[en.v];
        usage_[w.c] -= en.a;
        --unfixed_[w.c];
      }
      if (w.begin == from) continue;
      if (unfixed_[w.c] > 0) update_ratio(w.c);
      next_.log.push_back(LogEntry{w.c, unfixed_[w.c], remaining_[w.c], usage_[w.c], ratio_[w.c]});
    }
    record_step(st.level, st.c, st.bounded);
    level = st.level;
    fixed_begin = st.fixed_end;
    log_begin = st.log_end;
  }
  touched_record_ = touched_record_ || k > 0;
  replayed_steps_ += k;
  return k;
}

}  // namespace placesim::engine
