// Reading JSON files (graphs, plans) with the location of every value, in linear time.
//
// `Json` offers the accessors `Yaml` does (yaml_doc.hpp), so a reader is written once against
// either, and every error names the file, line and column and what was expected. A scalar is a
// string, a number or true/false; its text is what str() returns and what number(), integer(),
// boolean() and the unit parsers read (so "4MB" and 4000000 are both bytes). null is a value
// that is not defined(), as in Yaml.
//
// The document is parsed once into a flat array of values (a 40 MB graph in well under a
// second); the text of a string without escapes is the file's own, kept alive by the
// handles. Malformed JSON, a key given twice in one object (an error at the second, naming the
// first) and bytes that are not UTF-8 are errors at their line and column; columns count
// characters, as in Yaml.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/core/located_value.hpp"

namespace placesim {

class Json : public LocatedValue<Json> {
 public:
  struct Doc;  // the parsed values (json_doc.cpp)

  Json() = default;
  static Json load_file(const std::string& path);  // InputError if unreadable or malformed
  static Json load_string(std::string text, const std::string& name);

  const std::string& file() const;
  SourceLoc loc() const;
  // loc()'s line and column (0 for an absent value), without copying the file's name.
  int line() const;
  int column() const;
  [[noreturn]] void fail(const std::string& what) const;

  bool defined() const;  // present and not null
  bool is_map() const;
  bool is_seq() const;
  bool is_scalar() const;

  // Objects. `at` requires the key; `get` returns an undefined Json when absent.
  bool has(std::string_view key) const;
  Json at(std::string_view key) const;
  Json get(std::string_view key) const;
  // Fails on the first key not in `allowed`, at that key.
  void allow_keys(std::initializer_list<std::string_view> allowed) const;
  void allow_keys(const std::vector<std::string>& allowed) const;
  std::vector<std::pair<std::string, Json>> entries() const;  // members in file order
  std::vector<Json> items() const;                            // array items

  // Scalars. Each fails with "expected ..." at this value's location.
  std::string str() const;
  std::string_view view() const;  // str() without a copy: valid while a handle to the document lives
  double number() const;
  std::int64_t integer() const;
  bool boolean() const;

 private:
  Json(std::shared_ptr<const Doc> doc, std::uint32_t value) : doc_(std::move(doc)), value_(value) {}
  template <class Keys>
  void allow_keys_in(const Keys& allowed) const;
  // The value of member `key`, or kAbsent.
  std::uint32_t find(std::string_view key) const;

  static constexpr std::uint32_t kAbsent = 0xFFFFFFFFu;
  std::shared_ptr<const Doc> doc_;
  std::uint32_t value_ = kAbsent;
};

}  // namespace placesim
