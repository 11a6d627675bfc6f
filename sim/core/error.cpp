#include "sim/core/error.hpp"

#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>

namespace placesim {

std::string SourceLoc::str() const {
  if (file.empty() && line == 0) return "";
  const std::string name = file.empty() ? std::string("<input>") : file.str();
  if (line <= 0) return name;
  return column > 0 ? fmt::format("{}:{}:{}", name, line, column) : fmt::format("{}:{}", name, line);
}

std::string show_controls(const std::string& s, bool keep_lines) {
  std::string out;
  out.reserve(s.size());
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c < 0x20 && !(keep_lines && (c == '\n' || c == '\t'))) || c == 0x7f) out += fmt::format("\\x{:02x}", c);
    else out += ch;
  }
  return out;
}

// A message quotes what the user wrote: a control byte in it (a NUL, an escape sequence) is shown
// as \xNN, so that what() is text that no C string cuts short and no terminal interprets. A
// message rebuilt from detail() is not escaped twice (the escape is printable).
static std::string with_loc(const SourceLoc& loc, const std::string& what) {
  const std::string where = loc.str();
  return show_controls(where.empty() ? what : where + ": " + what, true);
}

InputError::InputError(SourceLoc loc, const std::string& what)
    : std::runtime_error(with_loc(loc, what)), loc_(std::move(loc)), detail_(show_controls(what, true)) {}

void assertion_failed(const char* expr, const char* file, int line, const std::string& msg) {
  std::fprintf(stderr, "placesim: internal error at %s:%d: %s (%s)\n", file, line, msg.c_str(), expr);
  std::abort();
}

}  // namespace placesim
