#include "sim/core/utf8.hpp"

#include <cstdint>
#include <cstring>
#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace placesim {

SourceLoc position_in_text(std::string_view text, std::size_t at, const std::string& name) {
  int line = 1, column = 1;
  for (std::size_t i = 0; i < at && i < text.size(); ++i) {
    if (text[i] == '\n') line += 1, column = 1;
    else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) column += 1;  // a character's first byte
  }
  return SourceLoc{name, line, column};
}

bool require_utf8(std::string_view text, const std::string& name) {
  constexpr std::uint64_t kHighBits = 0x8080808080808080u;
  bool ascii = true;
  for (size_t i = 0; i < text.size();) {
    // A large file is mostly ASCII: eight bytes at a time while none has its high bit set.
    std::uint64_t word;
    if (i + 8 <= text.size() && (std::memcpy(&word, text.data() + i, 8), (word & kHighBits) == 0)) {
      i += 8;
      continue;
    }
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
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
    if (!ok) throw InputError(position_in_text(text, i, name), fmt::format("byte 0x{:02X} is not UTF-8: inputs are UTF-8 text", c));
    ascii = false;
    i += static_cast<size_t>(extra) + 1;
  }
  return ascii;
}

}  // namespace placesim
