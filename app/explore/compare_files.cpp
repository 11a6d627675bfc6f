#include "app/explore/compare_files.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace placesim::explore {
namespace {

// The words of a command as the results header records it (cli command_line: plain words, or
// single-quoted with '\'' for a quote inside).
std::vector<std::string> words(const std::string& command) {
  std::vector<std::string> out;
  std::string word;
  bool in_word = false, quoted = false, escaped = false;
  for (const char c : command) {
    if (escaped) {
      word += c;
      escaped = false;
    } else if (quoted) {
      if (c == '\'') quoted = false;
      else word += c;
    } else if (c == '\'' || c == '\\') {
      (c == '\'' ? quoted : escaped) = true;
      in_word = true;
    } else if (c == ' ') {
      if (in_word) out.push_back(word);
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word) out.push_back(word);
  return out;
}

// The --set and --dim overrides of a recorded command, as they were typed: "--set model.batch=2".
std::string overrides_of(const std::string& command) {
  const std::vector<std::string> w = words(command);
  std::string out;
  for (size_t i = 0; i < w.size(); ++i) {
    for (const std::string flag : {"--set", "--dim"}) {
      std::string value;
      if (w[i] == flag && i + 1 < w.size()) value = w[++i];
      else if (w[i].rfind(flag + "=", 0) == 0) value = w[i].substr(flag.size() + 1);
      else continue;
      out += (out.empty() ? "" : " ") + flag + " " + value;
    }
  }
  return out;
}

}  // namespace

RunSet merge_results(const std::vector<NamedRunSet>& files, const std::string& baseline) {
  if (files.size() == 1) return files[0].set;
  std::string base = baseline;
  if (base.empty())
    for (const NamedRunSet& f : files) {
      if (f.set.baseline.empty() || f.set.baseline == base) continue;
      if (!base.empty())
        throw InputError(SourceLoc{f.path}, fmt::format("its baseline is {}, an earlier file's {}: name one with --baseline",
                                                        f.set.baseline, base));
      base = f.set.baseline;
    }
  RunSet out;
  out.baseline = base;
  out.axes = {"scenario"};
  // A file's label: its scenario's name; where files share it, the name and the file's
  // overrides; where those are the same too, its path.
  std::vector<std::string> labels;
  for (const NamedRunSet& f : files) {
    const std::string& name = f.set.scenario;
    auto count = [&](auto same) { return std::count_if(files.begin(), files.end(), same); };
    std::string label = name;
    if (count([&](const NamedRunSet& g) { return g.set.scenario == name; }) > 1) {
      const std::string overrides = overrides_of(f.set.command);
      label = overrides.empty() ? name : name + " " + overrides;
      if (count([&](const NamedRunSet& g) {
            return g.set.scenario == name && overrides_of(g.set.command) == overrides_of(f.set.command);
          }) > 1)
        label = f.path;
    }
    labels.push_back(label);
  }
  int offset = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    const NamedRunSet& f = files[i];
    const std::string& label = labels[i];
    out.scenario += (out.scenario.empty() ? "" : ", ") + label;
    for (const std::string& a : f.set.axes)
      if (std::find(out.axes.begin(), out.axes.end(), a) == out.axes.end()) out.axes.push_back(a);
    int points = 0;
    for (RunResult r : f.set.runs) {
      points = std::max(points, r.point_index + 1);
      r.point_index += offset;
      r.point.insert(r.point.begin(), {"scenario", label});
      out.runs.push_back(std::move(r));
    }
    offset += points;
  }
  // An axis is numeric in the merge when it is in every file that has it; `scenario` is a name.
  for (const std::string& a : out.axes) {
    bool numeric = a != "scenario";
    for (const NamedRunSet& f : files) {
      const auto it = std::find(f.set.axes.begin(), f.set.axes.end(), a);
      const size_t k = static_cast<size_t>(it - f.set.axes.begin());
      if (it != f.set.axes.end()) numeric = numeric && k < f.set.axis_numeric.size() && f.set.axis_numeric[k];
    }
    out.axis_numeric.push_back(numeric);
  }
  return out;
}

}  // namespace placesim::explore
