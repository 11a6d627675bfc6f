#include "sim/core/utf8.hpp"

#include <cstdint>
#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace placesim {

void require_utf8(std::string_view text, const std::string& name) {
  int line = 1, column = 1;
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {  // the common case, kept short: a large file is mostly ASCII
      if (c == '\n') line += 1, column = 1;
      else column += 1;
      i += 1;
      continue;
    }
    const int extra = (c >> 5) == 0x6 ? 1 : (c >> 4) == 0xE ? 2 : (c >> 3) == 0x1E ? 3 : -1;
    bool ok = extra >= 0 && i + static_cast<size_t>(extra) < text.size();
    for (int k = 1; ok && k <= extra; ++k) ok = (static_cast<unsigned char>(text[i + k]) >> 6) == 0x2;
    if (ok) {
      std::uint32_t cp = c & (0x3F >> extra);
      for (int k = 1; k <= extra; ++k) cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
      const std::uint32_t least[] = {0, 0x80, 0x800, 0x10000};
      ok = cp >= least[extra] && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
    }
    if (!ok)
      throw InputError(SourceLoc{name, line, column}, fmt::format("byte 0x{:02X} is not UTF-8: inputs are UTF-8 text", c));
    column += 1;
    i += static_cast<size_t>(extra) + 1;
  }
}

}  // namespace placesim
