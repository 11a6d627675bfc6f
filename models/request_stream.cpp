#include "models/request_stream.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <random>
#include <sstream>

#include "models/generators/portable_random.hpp"

namespace placesim::models {
namespace {

// Bounds that keep a stream in memory and its draws exact: 10^7 requests (about 240 MB), token
// counts up to 10^7, a zipf range of at most 10^6 values (its table).
constexpr std::int64_t kMaxRequests = 10'000'000, kMaxTokens = 10'000'000, kMaxZipfRange = 1'000'000;

std::int64_t tokens_at(const Yaml& v, const char* what) {
  const std::int64_t n = v.integer();
  if (n < 1 || n > kMaxTokens) v.fail(fmt::format("{} must be a token count from 1 to {}; got {}", what, kMaxTokens, n));
  return n;
}

TokenDist parse_tokens(const Yaml& y, const char* what) {
  TokenDist d;
  if (y.is_scalar()) {
    d.min = d.max = tokens_at(y, what);
    return d;
  }
  if (!y.is_map()) y.fail(fmt::format("{} must be a token count or a map with `dist`", what));
  const std::string dist = y.at("dist").str();
  if (dist == "fixed") {
    y.allow_keys({"dist", "value"});
    d.min = d.max = tokens_at(y.at("value"), what);
    return d;
  }
  if (dist != "uniform" && dist != "zipf") y.at("dist").fail("dist must be fixed, uniform or zipf; got " + dist);
  d.kind = dist == "uniform" ? TokenDist::Kind::Uniform : TokenDist::Kind::Zipf;
  if (d.kind == TokenDist::Kind::Uniform) y.allow_keys({"dist", "min", "max"});
  else y.allow_keys({"dist", "min", "max", "s"});
  d.min = tokens_at(y.at("min"), what);
  d.max = tokens_at(y.at("max"), what);
  if (d.max < d.min) y.at("max").fail(fmt::format("max ({}) is below min ({})", d.max, d.min));
  if (d.kind == TokenDist::Kind::Zipf) {
    d.s = y.at("s").positive_number();
    if (d.max - d.min >= kMaxZipfRange) y.at("max").fail(fmt::format("a zipf range holds at most {} values", kMaxZipfRange));
  }
  return d;
}

// Standard normal by Box-Muller (one of the pair), from two uniforms.
double normal(std::mt19937_64& rng) {
  const double u = 1.0 - uniform01(rng);  // (0, 1]: log is finite
  const double v = uniform01(rng);
  return std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * M_PI * v);
}

// Gamma(shape k, scale 1) by Marsaglia and Tsang (2000); k < 1 through Gamma(k + 1) U^(1/k).
double gamma_unit(std::mt19937_64& rng, double k) {
  if (k < 1) return gamma_unit(rng, k + 1) * std::pow(1.0 - uniform01(rng), 1.0 / k);
  const double d = k - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    const double x = normal(rng), v0 = 1.0 + c * x;
    if (v0 <= 0) continue;
    const double v = v0 * v0 * v0, u = 1.0 - uniform01(rng);
    if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v)) return d * v;
  }
}

// One draw of a token distribution; `cdf` holds a zipf's cumulative weights.
std::int64_t draw_tokens(std::mt19937_64& rng, const TokenDist& d, const std::vector<double>& cdf) {
  switch (d.kind) {
    case TokenDist::Kind::Fixed: return d.min;
    case TokenDist::Kind::Uniform: return d.min + static_cast<std::int64_t>(uniform_index(rng, d.max - d.min + 1));
    case TokenDist::Kind::Zipf: {
      const double u = uniform01(rng) * cdf.back();
      return d.min + (std::upper_bound(cdf.begin(), cdf.end(), u) - cdf.begin());
    }
  }
  return d.min;
}

std::vector<double> zipf_cdf(const TokenDist& d) {
  std::vector<double> cdf;
  if (d.kind != TokenDist::Kind::Zipf) return cdf;
  double sum = 0;
  for (std::int64_t n = 1; n <= d.max - d.min + 1; ++n) cdf.push_back(sum += std::pow(static_cast<double>(n), -d.s));
  return cdf;
}

// The CSV field `i` of `line` as a number, or an InputError at file:line naming it.
double field(const std::vector<std::string>& fields, size_t i, const SourceLoc& at, const char* name) {
  if (i >= fields.size()) throw InputError(at, fmt::format("missing field {} ({})", i + 1, name));
  const std::string& f = fields[i];
  size_t used = 0;
  double v = 0;
  try {
    v = std::stod(f, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != f.size() || !std::isfinite(v))
    throw InputError(at, fmt::format("{} must be a number; got '{}'", name, f));
  return v;
}

}  // namespace

RequestSpec parse_request_spec(const Yaml& y) {
  if (!y.is_map()) y.fail("requests must be a map: {arrival: poisson, rate: QPS, prompt: N, output: N, count: N}");
  RequestSpec s;
  const std::string arrival = y.str_or("arrival", "poisson");
  if (arrival == "trace") {
    y.allow_keys({"arrival", "file"});
    s.arrival = RequestSpec::Arrival::Trace;
    s.file = y.at("file").str();
    if (s.file.empty()) y.at("file").fail("file must name a CSV trace");
    return s;
  }
  if (arrival != "poisson" && arrival != "gamma") y.at("arrival").fail("arrival must be poisson, gamma or trace; got " + arrival);
  y.allow_keys({"arrival", "rate", "cv", "prompt", "output", "count", "seed"});
  s.arrival = arrival == "poisson" ? RequestSpec::Arrival::Poisson : RequestSpec::Arrival::Gamma;
  s.rate = y.at("rate").positive_number();
  if (y.has("cv")) {
    if (s.arrival != RequestSpec::Arrival::Gamma) y.at("cv").fail("cv applies to arrival: gamma only");
    s.cv = y.at("cv").positive_number();
  }
  s.prompt = parse_tokens(y.at("prompt"), "prompt");
  s.output = parse_tokens(y.at("output"), "output");
  s.count = y.at("count").integer();
  if (s.count < 1 || s.count > kMaxRequests)
    y.at("count").fail(fmt::format("count must be from 1 to {} requests; got {}", kMaxRequests, s.count));
  s.seed = static_cast<std::uint64_t>(y.integer_or("seed", 1));
  return s;
}

std::vector<Request> make_requests(const RequestSpec& spec) {
  if (spec.arrival == RequestSpec::Arrival::Trace) return read_request_trace(spec.file);
  std::mt19937_64 rng(spec.seed);
  const std::vector<double> prompt_cdf = zipf_cdf(spec.prompt), output_cdf = zipf_cdf(spec.output);
  const double shape = 1.0 / (spec.cv * spec.cv);
  std::vector<Request> out(static_cast<size_t>(spec.count));
  double t = 0;
  for (Request& r : out) {
    const double gap = spec.arrival == RequestSpec::Arrival::Poisson ? -std::log(1.0 - uniform01(rng)) / spec.rate
                                                                     : gamma_unit(rng, shape) / (shape * spec.rate);
    r.arrival_s = t += gap;
    r.prompt = draw_tokens(rng, spec.prompt, prompt_cdf);
    r.output = draw_tokens(rng, spec.output, output_cdf);
  }
  return out;
}

std::vector<Request> read_request_trace(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(SourceLoc{FileName(path), 0, 0}, "cannot open the request trace");
  std::vector<Request> out;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const SourceLoc at{FileName(path), number, 0};
    if (number == 1) {
      if (line != "arrival_s,prompt_tokens,output_tokens")
        throw InputError(at, "expected the header arrival_s,prompt_tokens,output_tokens; got '" + line + "'");
      continue;
    }
    if (line.empty()) continue;
    std::vector<std::string> fields;
    std::stringstream row(line);
    for (std::string f; std::getline(row, f, ',');) fields.push_back(f);
    if (fields.size() > 3) throw InputError(at, fmt::format("expected 3 fields, got {}", fields.size()));
    Request r;
    r.arrival_s = field(fields, 0, at, "arrival_s");
    const double prompt = field(fields, 1, at, "prompt_tokens"), output = field(fields, 2, at, "output_tokens");
    if (r.arrival_s < 0) throw InputError(at, fmt::format("arrival_s must be >= 0; got {}", r.arrival_s));
    for (double n : {prompt, output})
      if (n < 1 || n > kMaxTokens || n != std::floor(n))
        throw InputError(at, fmt::format("token counts must be whole numbers from 1 to {}; got {}", kMaxTokens, n));
    if (!out.empty() && r.arrival_s < out.back().arrival_s)
      throw InputError(at, fmt::format("arrivals must not decrease: {} s after {} s on the row before", r.arrival_s,
                                       out.back().arrival_s));
    if (out.size() >= static_cast<size_t>(kMaxRequests)) throw InputError(at, fmt::format("more than {} requests", kMaxRequests));
    r.prompt = static_cast<std::int64_t>(prompt);
    r.output = static_cast<std::int64_t>(output);
    out.push_back(r);
  }
  if (number == 0) throw InputError(SourceLoc{FileName(path), 0, 0}, "the request trace is empty (no header)");
  return out;
}

}  // namespace placesim::models
