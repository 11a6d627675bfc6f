// A registry of named, documented, listable models (placers, workloads, cost models, ...), as
// SimGrid's module.hpp does. Filled by explicit register_builtin_*() calls (never static
// constructors: a static library's linker drops them). Entries iterate in name order, so every
// listing is deterministic.
#pragma once

#include <map>
#include <string>
#include <vector>
#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace placesim {

// One declared option of a registered model: its name, default (as YAML text; empty when the
// option must be given) and help.
struct OptionSpec {
  std::string name;
  std::string default_value;
  std::string help;
};

template <class Entry>
class Registry {
 public:
  explicit Registry(std::string kind) : kind_(std::move(kind)) {}

  void add(const std::string& name, Entry e) {
    PLACESIM_ASSERT(!entries_.count(name), "duplicate registration of " + kind_ + " " + name);
    entries_.emplace(name, std::move(e));
  }
  bool has(const std::string& name) const { return entries_.count(name) != 0; }
  const Entry& get(const std::string& name, const SourceLoc& where = {}) const {
    auto it = entries_.find(name);
    if (it == entries_.end()) {
      std::string known;
      for (auto& [n, _] : entries_) known += (known.empty() ? "" : ", ") + n;
      throw InputError(where, fmt::format("unknown {} '{}' (known: {})", kind_, name, known));
    }
    return it->second;
  }
  const std::map<std::string, Entry>& all() const { return entries_; }
  const std::string& kind() const { return kind_; }

 private:
  std::string kind_;
  std::map<std::string, Entry> entries_;
};

}  // namespace placesim
