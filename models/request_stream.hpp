// A stream of inference requests: when each arrives, how many tokens its prompt holds and how
// many it generates (docs/formats.md, "Request streams"). The serving loop
// (app/explore/serving/) replays it against a placed model.
//
//   requests: {arrival: poisson | gamma | trace, rate: QPS, cv: C, prompt: DIST, output: DIST,
//              count: N, seed: S}          or   requests: {arrival: trace, file: requests.csv}
//   DIST: N (fixed) | {dist: fixed, value: N} | {dist: uniform, min: A, max: B}
//         | {dist: zipf, min: A, max: B, s: E}   (P(n) proportional to (n - A + 1)^-E on [A, B])
//
// Arrivals: poisson has exponential gaps of mean 1 / rate; gamma has gamma gaps of mean 1 / rate
// and coefficient of variation cv (cv 1 is poisson's law, another draw); the first request
// arrives after one gap. Every draw maps std::mt19937_64(seed) through portable_random.hpp, so a
// seed gives the same stream, bit for bit, on every platform whose libm rounds log, sqrt and cos
// alike.
//
// A trace is a CSV file with the header `arrival_s,prompt_tokens,output_tokens` and one request
// per row, arrivals nondecreasing; a bad row is an InputError at file:line.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/yaml_doc.hpp"

namespace placesim::models {

struct Request {
  double arrival_s = 0;
  std::int64_t prompt = 1;  // tokens in the prompt, >= 1
  std::int64_t output = 1;  // tokens generated, the prefill's first included, >= 1
};

struct TokenDist {
  enum class Kind { Fixed, Uniform, Zipf } kind = Kind::Fixed;
  std::int64_t min = 1, max = 1;  // Fixed: min == max
  double s = 1;                   // Zipf's exponent, > 0
};

struct RequestSpec {
  enum class Arrival { Poisson, Gamma, Trace } arrival = Arrival::Poisson;
  double rate = 1;  // requests per second, > 0
  double cv = 1;    // gamma's coefficient of variation of the gaps, > 0
  TokenDist prompt, output;
  std::int64_t count = 1;
  std::uint64_t seed = 1;
  std::string file;  // trace: its path (relative to the scenario's folder, resolved by the reader)
};

// The `requests` map of a scenario, every value checked at its key (InputError with its location).
RequestSpec parse_request_spec(const Yaml& y);

// The stream: drawn from the spec, or read from its trace file.
std::vector<Request> make_requests(const RequestSpec& spec);

// A trace file's requests (header and format above); InputError at file:line for a bad row, a
// missing field, negative or zero tokens, or an arrival before the previous one.
std::vector<Request> read_request_trace(const std::string& path);

}  // namespace placesim::models
