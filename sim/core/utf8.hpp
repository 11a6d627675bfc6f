// Every input is UTF-8: a name with other bytes would reach the JSON writer, which refuses it
// only after the work is done. Both readers (Yaml, Json) check a file before parsing it.
#pragma once

#include <string_view>
#include <string>

#include "sim/core/error.hpp"

namespace placesim {

// InputError at the line and column (counted in characters) of the first byte that is not part
// of well-formed UTF-8: no overlong forms, surrogates or code points past U+10FFFF. Returns
// whether the text is ASCII (every character one byte), which a reader may use to count columns
// in bytes.
bool require_utf8(std::string_view text, const std::string& name);

// The line and column (in characters) of byte `at` of `text`, in file `name`: counted only when
// an error is reported.
SourceLoc position_in_text(std::string_view text, std::size_t at, const std::string& name);

}  // namespace placesim
