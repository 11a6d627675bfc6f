// Human units in one place (STYLE.md: "unit parsing in one place").
//
// Every quantity is returned in SI base units as a double: bytes, bytes/s, seconds, flop/s.
// Decimal prefixes (k, M, G, T, P) are powers of 1000; binary prefixes (Ki, Mi, Gi, Ti) powers
// of 1024. Bits are accepted for rates ("100Gb/s" = 12.5e9 bytes/s). A bare number is taken
// in base units. Anything else throws InputError (without a location: the caller adds it).
#pragma once

#include <string>
#include <string_view>

namespace placesim::units {

double parse_bytes(std::string_view text);       // "32GiB", "1.5GB", "4096"
double parse_bandwidth(std::string_view text);   // "16GB/s", "100Gb/s", "900GBps"
double parse_duration(std::string_view text);    // "5us", "1.2ms", "30s", "200ns", "1ps", "2min"
double parse_flops(std::string_view text);       // "125TFLOPS", "15.7 TFLOP/s"
double parse_frequency(std::string_view text);   // "1500MHz", "1.5GHz"

// "1.5 GiB", "12.0 GB/s", "3.2 ms": for tables and messages. A duration takes the unit (ns, us,
// ms, s) its magnitude reads best in, with four significant digits, or with `decimals` fixed
// decimals in that unit (tables, where a column's figures should line up to the same digit).
std::string format_bytes(double bytes);
std::string format_seconds(double seconds, int decimals = -1);

}  // namespace placesim::units
