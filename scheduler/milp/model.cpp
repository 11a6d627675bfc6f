// Model builder: validation of names, bounds and coefficients, and merging of repeated terms.
#include "scheduler/milp/model.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include "sim/core/error.hpp"

namespace placesim::scheduler::milp {
namespace {

// Names must survive an LP dump (CoinLpIO::is_invalid_name): at most 96 characters (a range row
// gains "_low"), no leading digit, only letters, digits and the punctuation below, and no LP
// keyword ("obj" names the objective).
bool valid_name(const std::string& name) {
  static constexpr std::string_view kPunct = "_.()!#$%&;?@{}~";
  static const char* const kKeywords[] = {"min",      "max",      "minimize", "maximize", "minimise", "maximise",
                                          "s.t.",     "st",       "subject",  "bound",    "bounds",   "integer",
                                          "integers", "general",  "generals", "binary",   "binaries", "semi",
                                          "semis",    "end",      "free",     "inf",      "infinity", "obj"};
  if (name.empty() || name.size() > 96 || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  for (const char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && kPunct.find(c) == std::string_view::npos) return false;
  }
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  return std::none_of(std::begin(kKeywords), std::end(kKeywords), [&](const char* k) { return lower == k; });
}

void check_bounds(const std::string& what, double lower, double upper) {
  PLACESIM_ASSERT(!std::isnan(lower) && !std::isnan(upper) && lower <= upper && lower < kInf && upper > -kInf,
                  what + ": bounds [" + std::to_string(lower) + ", " + std::to_string(upper) + "]");
}

}  // namespace

VarId Model::add_var(std::string name, VarType type, double lower, double upper, double objective) {
  PLACESIM_ASSERT(valid_name(name), "MILP variable name '" + name + "' is not a valid LP name");
  check_bounds("MILP variable " + name, lower, upper);
  PLACESIM_ASSERT(std::isfinite(objective), "MILP variable " + name + ": objective not finite");
  if (type == VarType::Binary) {
    PLACESIM_ASSERT(lower >= 0.0 && upper <= 1.0, "MILP binary " + name + " bounds outside [0, 1]");
  }
  const int index = num_vars();
  PLACESIM_ASSERT(var_index_.emplace(name, index).second, "MILP variable " + name + " defined twice");
  vars_.push_back(Variable{std::move(name), type, lower, upper, objective});
  return VarId{index};
}

RowId Model::add_row(std::string name, const std::vector<Term>& terms, double lower, double upper) {
  PLACESIM_ASSERT(valid_name(name), "MILP row name '" + name + "' is not a valid LP name");
  check_bounds("MILP row " + name, lower, upper);
  std::map<int, double> merged;  // ordered, so the row reads the same on every run
  for (const Term& t : terms) {
    PLACESIM_ASSERT(t.var.index >= 0 && t.var.index < num_vars(), "MILP row " + name + ": unknown variable");
    PLACESIM_ASSERT(std::isfinite(t.coef), "MILP row " + name + ": coefficient not finite");
    merged[t.var.index] += t.coef;
  }
  Row row{std::move(name), {}, lower, upper};
  for (const auto& [index, coef] : merged) {
    if (coef != 0.0) row.terms.push_back(Term{VarId{index}, coef});
  }
  const int index = num_rows();
  PLACESIM_ASSERT(row_index_.emplace(row.name, index).second, "MILP row " + row.name + " defined twice");
  rows_.push_back(std::move(row));
  return RowId{index};
}

void Model::set_objective(VarId v, double coef) {
  PLACESIM_ASSERT(std::isfinite(coef), "MILP objective coefficient not finite");
  vars_.at(static_cast<std::size_t>(v.index)).objective = coef;
}

void Model::set_priority(VarId v, int priority) {
  Variable& var = vars_.at(static_cast<std::size_t>(v.index));
  PLACESIM_ASSERT(var.is_integer(), "MILP priority on continuous " + var.name);
  var.priority = priority;
}

void Model::set_bounds(VarId v, double lower, double upper) {
  Variable& var = vars_.at(static_cast<std::size_t>(v.index));
  check_bounds("MILP variable " + var.name, lower, upper);
  if (var.type == VarType::Binary) {
    PLACESIM_ASSERT(lower >= 0.0 && upper <= 1.0, "MILP binary " + var.name + " bounds outside [0, 1]");
  }
  var.lower = lower;
  var.upper = upper;
}

int Model::num_integer() const {
  return static_cast<int>(std::count_if(vars_.begin(), vars_.end(), [](const Variable& v) { return v.is_integer(); }));
}

std::optional<VarId> Model::find_var(std::string_view name) const {
  const auto it = var_index_.find(std::string(name));
  if (it == var_index_.end()) return std::nullopt;
  return VarId{it->second};
}

std::optional<RowId> Model::find_row(std::string_view name) const {
  const auto it = row_index_.find(std::string(name));
  if (it == row_index_.end()) return std::nullopt;
  return RowId{it->second};
}

double Model::objective_value(const std::vector<double>& values) const {
  PLACESIM_ASSERT(values.size() == vars_.size(), "MILP objective_value: one value per variable expected");
  double sum = 0.0;
  for (std::size_t j = 0; j < vars_.size(); ++j) sum += vars_[j].objective * values[j];
  return sum;
}

Model::Violation Model::max_violation(const std::vector<double>& values) const {
  PLACESIM_ASSERT(values.size() == vars_.size(), "MILP max_violation: one value per variable expected");
  Violation worst;
  const auto note = [&worst](double amount, const std::string& where) {
    if (amount > worst.amount) worst = Violation{amount, where};
  };
  for (std::size_t j = 0; j < vars_.size(); ++j) {
    const Variable& v = vars_[j];
    const double x = values[j];
    note(std::max(v.lower - x, x - v.upper), v.name);
    if (v.is_integer()) note(std::abs(x - std::round(x)), v.name);
  }
  for (const Row& r : rows_) {
    double sum = 0.0;
    for (const Term& t : r.terms) sum += t.coef * values[static_cast<std::size_t>(t.var.index)];
    if (sum < r.lower) note((r.lower - sum) / std::max(1.0, std::abs(r.lower)), r.name);
    if (sum > r.upper) note((sum - r.upper) / std::max(1.0, std::abs(r.upper)), r.name);
  }
  return worst;
}

}  // namespace placesim::scheduler::milp
