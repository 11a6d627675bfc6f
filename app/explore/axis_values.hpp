// Sweep axes as typed columns: a value (YAML text) is a number when it reads as one, and an
// axis is numeric when every point's value is, so the results file stores it as numbers
// (results_h5.hpp, group `point`) and `placesim export --csv` prints it unquoted.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/explore/scenario.hpp"

namespace placesim::explore {

// "32", "-1.5e3", "0.25" -> the number; "inf", ".nan", "[1, 32]", "'32'", "gpt2-large" -> none.
std::optional<double> axis_number(const std::string& text);

// Per axis of `s`, in axis order: whether every point's value of it is a number. Decided over
// all points, so a partial file and a whole one type an axis alike.
std::vector<bool> numeric_axes(const Scenario& s);

// A point's values as JSON, typed as the results file types them: on a numeric axis (`numeric`
// per axis of `axes`) a number (a whole one as an integer: "8" -> 8), else the text. JSON, CSV
// and HDF5 then agree.
nlohmann::ordered_json point_json(const std::vector<std::pair<std::string, std::string>>& point,
                                  const std::vector<std::string>& axes, const std::vector<bool>& numeric);

}  // namespace placesim::explore
