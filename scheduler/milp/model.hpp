// A mixed-integer linear programme, built by name and solved elsewhere (milp.hpp).
//
//   minimise    sum_j c_j x_j
//   subject to  L_i <= sum_j a_ij x_j <= U_i     for every row i   (L_i may be -inf, U_i +inf)
//               l_j <= x_j <= u_j                for every variable j
//               x_j integer                      for j integer or binary (binary: [0, 1])
//
// The model holds plain data and knows no solver: the MILP placers build it, the CBC wrapper
// (cbc_solver.cpp) translates it, tests read it back. Names are unique per kind and valid LP
// names (letters, digits, _ . ( ) and a little more punctuation, no leading digit, no LP keyword;
// model.cpp has the rule), so the --dump-model files load back unchanged. A bad
// model (duplicate name, lower > upper, NaN coefficient) is a bug in the placer that built it:
// assertions, not InputError.
#pragma once

#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace placesim::scheduler::milp {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

enum class VarType { Continuous, Integer, Binary };

struct VarId {
  int index = -1;
  friend bool operator==(VarId, VarId) = default;
};
struct RowId {
  int index = -1;
  friend bool operator==(RowId, RowId) = default;
};

struct Term {
  VarId var;
  double coef = 0.0;
};

struct Variable {
  std::string name;
  VarType type = VarType::Continuous;
  double lower = 0.0;
  double upper = kInf;
  double objective = 0.0;
  // Branching order among integer variables: CBC branches on a lower value first. 1000 is
  // CBC's own default, so a model that sets none branches as CBC chooses. write_model drops
  // it (LP and MPS have no place for it): a model read back branches as CBC chooses.
  int priority = kDefaultPriority;
  static constexpr int kDefaultPriority = 1000;
  bool is_integer() const { return type != VarType::Continuous; }
};

// lower <= sum(terms) <= upper; each variable appears at most once (add_row merges repeats).
struct Row {
  std::string name;
  std::vector<Term> terms;
  double lower = -kInf;
  double upper = kInf;
};

class Model {
 public:
  VarId add_var(std::string name, VarType type, double lower, double upper, double objective = 0.0);
  VarId add_continuous(std::string name, double lower, double upper, double objective = 0.0) {
    return add_var(std::move(name), VarType::Continuous, lower, upper, objective);
  }
  VarId add_integer(std::string name, double lower, double upper, double objective = 0.0) {
    return add_var(std::move(name), VarType::Integer, lower, upper, objective);
  }
  VarId add_binary(std::string name, double objective = 0.0) {
    return add_var(std::move(name), VarType::Binary, 0.0, 1.0, objective);
  }

  // Range row lower <= sum(terms) <= upper (equal bounds: an equality). Terms on the same
  // variable are summed; zero coefficients are dropped.
  RowId add_row(std::string name, const std::vector<Term>& terms, double lower, double upper);
  RowId add_le(std::string name, const std::vector<Term>& terms, double rhs) {
    return add_row(std::move(name), terms, -kInf, rhs);
  }
  RowId add_ge(std::string name, const std::vector<Term>& terms, double rhs) {
    return add_row(std::move(name), terms, rhs, kInf);
  }
  RowId add_eq(std::string name, const std::vector<Term>& terms, double rhs) {
    return add_row(std::move(name), terms, rhs, rhs);
  }

  void set_objective(VarId v, double coef);
  void set_bounds(VarId v, double lower, double upper);
  void set_priority(VarId v, int priority);  // integer variables only

  int num_vars() const { return static_cast<int>(vars_.size()); }
  int num_rows() const { return static_cast<int>(rows_.size()); }
  int num_integer() const;
  const Variable& var(VarId v) const { return vars_.at(static_cast<std::size_t>(v.index)); }
  const Row& row(RowId r) const { return rows_.at(static_cast<std::size_t>(r.index)); }
  const std::vector<Variable>& vars() const { return vars_; }
  const std::vector<Row>& rows() const { return rows_; }
  std::optional<VarId> find_var(std::string_view name) const;
  std::optional<RowId> find_row(std::string_view name) const;

  // Objective of a full assignment (values[j] for variable j).
  double objective_value(const std::vector<double>& values) const;

  // How badly a full assignment breaks the model: the largest of its bound violations, its
  // distances to the nearest integer (integer variables), and its row violations divided by
  // max(1, |bound|). 0 for a feasible assignment.
  struct Violation {
    double amount = 0.0;
    std::string where;  // the variable or row name, empty when feasible
  };
  Violation max_violation(const std::vector<double>& values) const;

 private:
  std::vector<Variable> vars_;
  std::vector<Row> rows_;
  std::unordered_map<std::string, int> var_index_;
  std::unordered_map<std::string, int> row_index_;
};

}  // namespace placesim::scheduler::milp
