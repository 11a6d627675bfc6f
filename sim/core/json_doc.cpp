// A recursive-descent JSON parser (RFC 8259) that records where each value starts.
//
// Values live in one array; an object's members are a chain of key values (`next`), each
// pointing at its value (`first`); an array's items are a chain too. Columns are counted
// lazily and only forwards (positions are asked for in file order), so a file on one line of
// 400 MB costs no more than one on many lines.
//
// The array is reserved once, for a bound on the values counted in one pass over the text: it
// never grows by copying (a 40 MB graph has some 3M values, and fresh memory is the dearest
// part of reading it), and what the bound over-counts is never touched. A value is 24 bytes: a
// scalar's text or a key's name is an offset and a length, into the file's text or into the
// decoded strings; an array or object has a count of items or members instead. What follows a
// value in the array is where its first child was parsed: an object's first key, an array's first
// item, a key's value. So they are not stored.
#include "sim/core/json_doc.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <charconv>
#include <cmath>
#include <fmt/format.h>

#include "sim/core/file_io.hpp"
#include "sim/core/name_index.hpp"
#include "sim/core/utf8.hpp"

namespace placesim {

namespace {

enum class Kind : std::uint8_t { Null, Bool, Number, String, Array, Object, Key };
constexpr std::uint32_t kNone = 0xFFFFFFFFu;
// Deeper nesting is refused rather than recursed into (no graph or plan nests past a handful).
constexpr int kMaxDepth = 256;
// Objects with more members check for a key given twice with a hash map, smaller ones pairwise.
constexpr std::uint32_t kPairwiseKeys = 16;

struct Value {
  Kind kind = Kind::Null;
  bool decoded = false;  // the text is in Doc::decoded (a string with escapes), else in the file
  std::uint32_t line = 0, column = 0;
  std::uint32_t next = kNone;  // the next item of an array, or the next key of an object
  union {
    std::uint32_t offset = 0;  // a scalar's text, a key's name: from here, `length` bytes
    std::uint32_t count;       // an array's items, an object's members
  };
  std::uint32_t length = 0;
};
static_assert(sizeof(Value) == 24);

// An array's first item, an object's first key, or kNone when it has none; a key's value. Each
// was the next value parsed.
std::uint32_t first_child(const std::vector<Value>& values, std::uint32_t v) { return values[v].count > 0 ? v + 1 : kNone; }
std::uint32_t key_value(std::uint32_t key) { return key + 1; }

}  // namespace

struct Json::Doc {
  FileName file;  // shared: every node and edge read from it carries it (file_name.hpp)
  std::string text;
  std::string decoded;  // strings with escapes, decoded, one after another
  std::vector<Value> values;

  std::string_view text_of(const Value& v) const {
    return std::string_view(v.decoded ? decoded : text).substr(v.offset, v.length);
  }
};

namespace {

// Room for the values of `text` reserved before parsing, so that the array is not copied as it
// grows: a value takes four bytes or more of nearly every graph or plan (a member is a key, a
// value, quotes, ':' and ','; 7 bytes a value at 10k flows), and a file of smaller ones grows
// the array. An exact bound (a pass counting ':', ',' and '[') was a tenth of parsing.
size_t values_expected(std::string_view text) { return text.size() / 4 + 16; }

class Parser {
 public:
  // `ascii`: the text has no byte past 0x7F (require_utf8), so a column is counted in bytes.
  Parser(Json::Doc& d, bool ascii) : d_(d), p_(d.text.data()), end_(p_ + d.text.size()), column_at_(p_), ascii_(ascii) {}

  // The text's size, checked: offsets into it are 32 bits.
  static void check_size(const Json::Doc& d) {
    if (d.text.size() >= kNone)
      throw InputError(SourceLoc{d.file}, "a JSON file of 4 GiB or more (placesim reads files below that size)");
  }

  void parse() {
    if (end_ - p_ >= 3 && std::string_view(p_, 3) == "\xEF\xBB\xBF") p_ += 3, column_at_ = p_;  // a BOM
    d_.values.reserve(values_expected(d_.text));
    value(0);
    skip_space();
    if (p_ != end_) fail(p_, "expected the end of the file after the document's value");
  }

 private:
  [[noreturn]] void fail(const char* at, const std::string& what) {
    const auto [line, column] = position(at);
    throw InputError(SourceLoc{d_.file, static_cast<int>(line), static_cast<int>(column)}, "malformed JSON: " + what);
  }

  // Line and column of `at`, which is never before the last position asked for. Every value is
  // asked for: counting characters byte by byte was a fifth of parsing a graph of minified JSON
  // (one line of 1.75 MB), which is ASCII, as nearly every graph and plan is.
  std::pair<std::uint32_t, std::uint32_t> position(const char* at) {
    if (ascii_) {
      column_ += static_cast<std::uint32_t>(at - column_at_);
      column_at_ = at;
    }
    for (; column_at_ < at; ++column_at_)
      if ((static_cast<unsigned char>(*column_at_) & 0xC0) != 0x80) ++column_;  // a character's first byte
    return {line_, column_};
  }

  void skip_space() {
    if (p_ != end_ && static_cast<unsigned char>(*p_) > ' ') return;  // minified JSON: no space at all
    for (; p_ != end_; ++p_) {
      if (*p_ == '\n') {
        ++line_;
        column_ = 1;
        column_at_ = p_ + 1;
      } else if (*p_ != ' ' && *p_ != '\t' && *p_ != '\r') {
        return;
      }
    }
  }

  std::uint32_t add(Kind kind, const char* at) {
    const auto [line, column] = position(at);
    Value v;
    v.kind = kind;
    v.line = line;
    v.column = column;
    if (d_.values.size() >= kNone) fail(at, "more values than a document may hold");
    d_.values.push_back(v);
    return static_cast<std::uint32_t>(d_.values.size() - 1);
  }

  std::string got(const char* at) const {
    if (at == end_) return "the end of the file";
    const auto c = static_cast<unsigned char>(*at);
    return c >= 0x20 && c < 0x7F ? fmt::format("'{}'", static_cast<char>(c)) : fmt::format("byte 0x{:02X}", c);
  }

  std::uint32_t value(int depth) {
    skip_space();
    if (depth > kMaxDepth) fail(p_, fmt::format("values nested deeper than {} levels", kMaxDepth));
    if (p_ == end_) fail(p_, "expected a value, got the end of the file");
    switch (*p_) {
      case '{': return object(depth);
      case '[': return array(depth);
      case '"': {
        const std::uint32_t v = add(Kind::String, p_);
        string(v);
        return v;
      }
      case 't': return literal("true", Kind::Bool);
      case 'f': return literal("false", Kind::Bool);
      case 'n': return literal("null", Kind::Null);
      default:
        if (*p_ == '-' || (*p_ >= '0' && *p_ <= '9')) return number();
        fail(p_, "expected a value (an object, array, string, number, true, false or null), got " + got(p_));
    }
  }

  std::uint32_t literal(std::string_view word, Kind kind) {
    if (static_cast<size_t>(end_ - p_) < word.size() || std::string_view(p_, word.size()) != word)
      fail(p_, fmt::format("expected a value, got {} (did you mean {}?)", got(p_), word));
    const std::uint32_t v = add(kind, p_);
    in_file(v, p_, word.size());
    p_ += word.size();
    return v;
  }

  std::uint32_t number() {
    const char* start = p_;
    auto digits = [&] {
      const char* from = p_;
      while (p_ != end_ && *p_ >= '0' && *p_ <= '9') ++p_;
      return p_ != from;
    };
    if (*p_ == '-') ++p_;
    if (p_ != end_ && *p_ == '0') ++p_;
    else if (!digits()) fail(p_, "expected a digit in a number, got " + got(p_));
    if (p_ != end_ && *p_ == '.') {
      ++p_;
      if (!digits()) fail(p_, "expected a digit after the decimal point, got " + got(p_));
    }
    if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) {
      ++p_;
      if (p_ != end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (!digits()) fail(p_, "expected a digit in the exponent, got " + got(p_));
    }
    const std::uint32_t v = add(Kind::Number, start);
    in_file(v, start, static_cast<size_t>(p_ - start));
    return v;
  }

  int hex4(const char* at) {
    if (end_ - at < 4) fail(at, "expected four hex digits after \\u");
    int v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = at[i];
      const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
      if (d < 0) fail(at + i, "expected four hex digits after \\u, got " + got(at + i));
      v = v * 16 + d;
    }
    return v;
  }

  // Value `v`'s text is `size` bytes of the file from `at`.
  void in_file(std::uint32_t v, const char* at, size_t size) {
    d_.values[v].offset = static_cast<std::uint32_t>(at - d_.text.data());
    d_.values[v].length = static_cast<std::uint32_t>(size);
  }

  // At the opening quote; value `v`'s text is the string's (in the file, or decoded when it has
  // escapes).
  void string(std::uint32_t v) {
    const char* open = p_++;
    const char* start = p_;
    skip_plain();
    if (p_ != end_ && *p_ == '"') return in_file(v, start, static_cast<size_t>(p_++ - start));
    std::string out(start, p_);
    while (true) {
      if (p_ == end_) fail(open, "a string that is never closed (no '\"' after it)");
      const char c = *p_;
      if (c == '"') break;
      if (static_cast<unsigned char>(c) < 0x20) fail(p_, "a control character in a string (write it as an escape, e.g. \\n)");
      if (c != '\\') {
        out += c;
        ++p_;
        continue;
      }
      if (end_ - p_ < 2) fail(p_, "an escape at the end of the file");
      const char e = p_[1];
      p_ += 2;
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          const char* at = p_ - 2;
          std::uint32_t cp = static_cast<std::uint32_t>(hex4(p_));
          p_ += 4;
          if (cp >= 0xDC00 && cp <= 0xDFFF) fail(at, "\\u escape of a lone low surrogate (not a character)");
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (end_ - p_ < 6 || p_[0] != '\\' || p_[1] != 'u') fail(at, "\\u escape of a high surrogate without its low half");
            const std::uint32_t low = static_cast<std::uint32_t>(hex4(p_ + 2));
            if (low < 0xDC00 || low > 0xDFFF) fail(at, "\\u escape of a high surrogate without its low half");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            p_ += 6;
          }
          append_utf8(out, cp);
          break;
        }
        default: fail(p_ - 2, fmt::format("unknown escape \\{} in a string", e));
      }
    }
    ++p_;
    if (d_.decoded.size() + out.size() >= kNone) fail(open, "more decoded string text than a document may hold");
    Value& val = d_.values[v];
    val.decoded = true;
    val.offset = static_cast<std::uint32_t>(d_.decoded.size());
    val.length = static_cast<std::uint32_t>(out.size());
    d_.decoded += out;
  }

  // Moves p_ to the first byte that ends a string's plain run: '"', '\\', a control character or
  // the end. Eight bytes at a time where bytes are little-endian: a lane of w that equals '"' or
  // '\\', or is below 0x20, sets its high bit in `hit` (a borrow may also set it in lanes above
  // one that does, never below), so the lowest set bit is the first such byte. Names are most
  // of a graph's and a plan's text, and the byte-by-byte loop was a sixth of parsing them.
  void skip_plain() {
    if constexpr (std::endian::native == std::endian::little) {
      constexpr std::uint64_t kOnes = 0x0101010101010101u, kHighs = 0x8080808080808080u;
      while (end_ - p_ >= 8) {
        std::uint64_t w;
        std::memcpy(&w, p_, 8);
        const std::uint64_t quote = w ^ (kOnes * '"'), slash = w ^ (kOnes * '\\');
        const std::uint64_t hit = (((quote - kOnes) & ~quote) | ((slash - kOnes) & ~slash) | ((w - kOnes * 0x20) & ~w)) & kHighs;
        if (hit != 0) {
          p_ += std::countr_zero(hit) / 8;
          return;
        }
        p_ += 8;
      }
    }
    while (p_ != end_ && *p_ != '"' && *p_ != '\\' && static_cast<unsigned char>(*p_) >= 0x20) ++p_;
  }

  static void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  std::uint32_t array(int depth) {
    const std::uint32_t a = add(Kind::Array, p_++);
    skip_space();
    if (p_ != end_ && *p_ == ']') return ++p_, a;
    std::uint32_t last = kNone;
    while (true) {
      const std::uint32_t item = value(depth + 1);
      if (last != kNone) d_.values[last].next = item;
      last = item;
      ++d_.values[a].count;
      skip_space();
      if (p_ != end_ && *p_ == ',') {
        ++p_;
        continue;
      }
      if (p_ != end_ && *p_ == ']') return ++p_, a;
      fail(p_, "expected ',' or ']' after an item of a list, got " + got(p_));
    }
  }

  std::uint32_t object(int depth) {
    const std::uint32_t o = add(Kind::Object, p_++);
    skip_space();
    if (p_ != end_ && *p_ == '}') return ++p_, o;
    std::uint32_t last = kNone;
    while (true) {
      skip_space();
      if (p_ == end_ || *p_ != '"') fail(p_, "expected a key (a string in double quotes), got " + got(p_));
      const std::uint32_t key = add(Kind::Key, p_);
      string(key);
      skip_space();
      if (p_ == end_ || *p_ != ':') fail(p_, "expected ':' after a key, got " + got(p_));
      ++p_;
      value(depth + 1);  // at key_value(key)
      if (last != kNone) d_.values[last].next = key;
      last = key;
      ++d_.values[o].count;
      skip_space();
      if (p_ != end_ && *p_ == ',') {
        ++p_;
        continue;
      }
      if (p_ != end_ && *p_ == '}') break;
      fail(p_, "expected ',' or '}' after a member of an object, got " + got(p_));
    }
    ++p_;
    refuse_duplicate_keys(o);
    return o;
  }

  // A key given twice would have one of its values silently ignored: an error at the second.
  void refuse_duplicate_keys(std::uint32_t o) {
    const std::vector<Value>& v = d_.values;
    auto name = [&](std::uint32_t k) { return d_.text_of(v[k]); };
    auto twice = [&](std::uint32_t first, std::uint32_t second) {
      const Value& k = v[second];
      throw InputError(SourceLoc{d_.file, static_cast<int>(k.line), static_cast<int>(k.column)},
                       fmt::format("key '{}' is given twice (first at line {}, column {}); give it once", name(second),
                                   v[first].line, v[first].column));
    };
    if (v[o].count <= kPairwiseKeys) {
      for (std::uint32_t k = first_child(v, o); k != kNone; k = v[k].next)
        for (std::uint32_t before = first_child(v, o); before != k; before = v[before].next)
          if (name(before) == name(k)) twice(before, k);
      return;
    }
    // A plan's `devices` has a key per op (100k): a flat index of the keys' value ids.
    NameIndex seen;
    seen.reserve(v[o].count);
    for (std::uint32_t k = first_child(v, o); k != kNone; k = v[k].next)
      if (const std::int64_t first = seen.insert(name(k), k, name); first >= 0) twice(static_cast<std::uint32_t>(first), k);
  }

  Json::Doc& d_;
  const char* p_;
  const char* end_;
  std::uint32_t line_ = 1, column_ = 1;
  const char* column_at_;  // the byte column_ is the column of
  bool ascii_;
};

const Value& value_of(const std::shared_ptr<const Json::Doc>& d, std::uint32_t v) { return d->values[v]; }

// A key against a key, as string_view's == but without a call to memcmp: keys are a few bytes,
// and a graph's half million nodes and edges each look up and check their handful of members
// by scans of such compares (memcmp was 7% of loading a 100k-op graph and its plan).
bool same_key(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}
std::string_view text_of(const std::shared_ptr<const Json::Doc>& d, std::uint32_t v) { return d->text_of(d->values[v]); }

}  // namespace

Json Json::load_file(const std::string& path) { return load_string(read_input_file(path), path); }

Json Json::load_string(std::string text, const std::string& name) {
  const bool ascii = require_utf8(text, name);
  auto doc = std::make_shared<Doc>();
  doc->file = name;
  doc->text = std::move(text);
  Parser::check_size(*doc);
  Parser(*doc, ascii).parse();
  return Json(std::move(doc), 0);
}

const std::string& Json::file() const {
  static const std::string none;
  return doc_ ? doc_->file.str() : none;
}

SourceLoc Json::loc() const {
  if (value_ == kAbsent) return SourceLoc{file()};
  const Value& v = value_of(doc_, value_);
  return SourceLoc{doc_->file, static_cast<int>(v.line), static_cast<int>(v.column)};
}

int Json::line() const { return value_ == kAbsent ? 0 : static_cast<int>(value_of(doc_, value_).line); }
int Json::column() const { return value_ == kAbsent ? 0 : static_cast<int>(value_of(doc_, value_).column); }

void Json::fail(const std::string& what) const { throw InputError(loc(), what); }

bool Json::defined() const { return value_ != kAbsent && value_of(doc_, value_).kind != Kind::Null; }
bool Json::is_map() const { return value_ != kAbsent && value_of(doc_, value_).kind == Kind::Object; }
bool Json::is_seq() const { return value_ != kAbsent && value_of(doc_, value_).kind == Kind::Array; }
bool Json::is_scalar() const {
  if (value_ == kAbsent) return false;
  const Kind k = value_of(doc_, value_).kind;
  return k == Kind::String || k == Kind::Number || k == Kind::Bool;
}

std::uint32_t Json::find(std::string_view key) const {
  if (!is_map()) return kAbsent;
  for (std::uint32_t k = first_child(doc_->values, value_); k != kNone; k = value_of(doc_, k).next)
    if (same_key(text_of(doc_, k), key)) return key_value(k);
  return kAbsent;
}

bool Json::has(std::string_view key) const { return find(key) != kAbsent; }

Json Json::at(std::string_view key) const {
  if (!is_map()) fail(fmt::format("expected a map with key '{}'", key));
  const std::uint32_t v = find(key);
  if (v == kAbsent) fail(fmt::format("missing key '{}'", key));
  return Json(doc_, v);
}

Json Json::get(std::string_view key) const { return Json(doc_, find(key)); }

// Called for every node of a graph: compares views, and makes strings only for the message.
template <class Keys>
void Json::allow_keys_in(const Keys& allowed) const {
  if (!is_map()) fail("expected a map");
  for (std::uint32_t k = first_child(doc_->values, value_); k != kNone; k = value_of(doc_, k).next) {
    const std::string_view name = text_of(doc_, k);
    if (std::none_of(allowed.begin(), allowed.end(), [&](std::string_view a) { return same_key(a, name); }))
      Json(doc_, k).fail(unknown_key_message(name, std::vector<std::string>(allowed.begin(), allowed.end())));
  }
}

void Json::allow_keys(std::initializer_list<std::string_view> allowed) const { allow_keys_in(allowed); }
void Json::allow_keys(const std::vector<std::string>& allowed) const { allow_keys_in(allowed); }

std::vector<std::pair<std::string, Json>> Json::entries() const {
  if (!is_map()) fail("expected a map");
  std::vector<std::pair<std::string, Json>> out;
  out.reserve(value_of(doc_, value_).count);
  for (std::uint32_t k = first_child(doc_->values, value_); k != kNone; k = value_of(doc_, k).next)
    out.emplace_back(std::string(text_of(doc_, k)), Json(doc_, key_value(k)));
  return out;
}

std::vector<Json> Json::items() const {
  if (!is_seq()) fail("expected a list");
  std::vector<Json> out;
  out.reserve(value_of(doc_, value_).count);
  for (std::uint32_t i = first_child(doc_->values, value_); i != kNone; i = value_of(doc_, i).next) out.push_back(Json(doc_, i));
  return out;
}

std::string Json::str() const { return std::string(view()); }

std::string_view Json::view() const {
  if (!is_scalar()) fail("expected a string");
  return text_of(doc_, value_);
}

double Json::number() const {
  if (!is_scalar()) fail("expected a number");
  const std::string_view t = text_of(doc_, value_);
  double v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || end != t.data() + t.size() || t.empty() || !std::isfinite(v))
    fail(fmt::format("expected a number, got '{}'", t));
  return v;
}

std::int64_t Json::integer() const {
  if (!is_scalar()) fail("expected an integer");
  const std::string_view t = text_of(doc_, value_);
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || end != t.data() + t.size() || t.empty()) fail(fmt::format("expected an integer, got '{}'", t));
  return v;
}

bool Json::boolean() const {
  if (!is_scalar()) fail("expected true or false");
  const std::string_view t = text_of(doc_, value_);
  if (t != "true" && t != "false") fail(fmt::format("expected true or false, got '{}'", t));
  return t == "true";
}

}  // namespace placesim
