#include "app/explore/serving/capacity.hpp"

#include <fmt/format.h>
#include <sstream>

#include "sim/core/units.hpp"

namespace placesim::explore {
namespace {

constexpr int kBisections = 10;  // the bracket narrowed to 1/1024 of its width
constexpr int kMaxDoublings = 30;

double value_of(const Percentiles& p, int percentile) {
  return percentile == 50 ? p.p50 : percentile == 90 ? p.p90 : percentile == 99 ? p.p99 : p.mean;
}

CapacityRun search(Replica& replica, models::RequestSpec spec, const std::vector<SloBound>& slo, const Yaml& where,
                   const models::TransformerSpec& model) {
  CapacityRun out;
  out.placer = replica.head.placer;
  out.status = replica.head.status;
  out.message = replica.head.message;
  if (!replica.times) return out;
  auto serve_at = [&](double rate) {
    spec.rate = rate;
    ++out.evaluations;
    return replay(replica, requests_for(spec, where, model), {}, false);
  };
  auto ok = [&](const ServedRun& r) { return r.status == "ok" && meets(r.metrics, slo); };
  double lo = spec.rate, hi = spec.rate;
  ServedRun at_lo = serve_at(lo);
  if (ok(at_lo)) {
    for (int i = 0; i < kMaxDoublings; ++i) {
      ServedRun r = serve_at(hi = 2 * lo);
      if (!ok(r)) break;
      lo = hi, at_lo = std::move(r);
    }
  } else {
    int i = 0;
    for (; i < kMaxDoublings && !ok(at_lo); ++i) at_lo = serve_at(lo = (hi = lo) / 2);
    if (!ok(at_lo)) {
      out.status = "none";
      // So far down the requests barely overlap: what misses is the plans' own latency.
      const ServingMetrics& m = at_lo.metrics;
      out.message = at_lo.status != "ok"
                        ? fmt::format("no rate down to {:.3g} requests/s serves ({})", lo, at_lo.message)
                        : fmt::format("no rate down to {:.3g} requests/s meets the targets: there, TTFT p99 {}, "
                                      "TPOT p99 {}, E2E p99 {}",
                                      lo, units::format_seconds(m.ttft.p99, 2), units::format_seconds(m.tpot.p99, 2),
                                      units::format_seconds(m.e2e.p99, 2));
      return out;
    }
  }
  for (int i = 0; i < kBisections && hi > lo; ++i) {
    const double mid = (lo + hi) / 2;
    ServedRun r = serve_at(mid);
    if (ok(r)) {
      lo = mid, at_lo = std::move(r);
    } else {
      hi = mid;
    }
  }
  out.max_rate = lo;
  out.at = std::move(at_lo);
  return out;
}

}  // namespace

std::vector<SloBound> parse_slo_bounds(const std::string& text, const SourceLoc& where) {
  std::vector<SloBound> out;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, ',');) {
    SloBound b;
    b.text = part;
    const size_t eq = part.find('='), us = part.find('_');
    if (eq == std::string::npos || us == std::string::npos || us > eq)
      throw InputError(where, fmt::format("'{}': expected METRIC_STAT=DURATION, e.g. ttft_p99=2s", part));
    b.metric = part.substr(0, us);
    const std::string stat = part.substr(us + 1, eq - us - 1);
    if (b.metric != "ttft" && b.metric != "tpot" && b.metric != "e2e")
      throw InputError(where, fmt::format("'{}': the metric is ttft, tpot or e2e", part));
    if (stat == "mean") b.percentile = 0;
    else if (stat == "p50" || stat == "p90" || stat == "p99") b.percentile = std::stoi(stat.substr(1));
    else throw InputError(where, fmt::format("'{}': the statistic is p50, p90, p99 or mean", part));
    try {
      b.seconds = units::parse_duration(part.substr(eq + 1));
    } catch (const InputError& e) {
      throw InputError(where, fmt::format("'{}': {}", part, e.detail()));
    }
    out.push_back(b);
  }
  if (out.empty()) throw InputError(where, "expected targets such as ttft_p99=2s,tpot_p99=100ms");
  return out;
}

bool meets(const ServingMetrics& m, const std::vector<SloBound>& slo) {
  for (const SloBound& b : slo) {
    const Percentiles& p = b.metric == "ttft" ? m.ttft : b.metric == "tpot" ? m.tpot : m.e2e;
    if (value_of(p, b.percentile) > b.seconds) return false;
  }
  return true;
}

std::vector<CapacityRun> capacity_point(const Scenario& s, const Point& p, const std::vector<SloBound>& slo) {
  const Yaml root = point_yaml(s, p);
  const models::TransformerSpec model = serving_model(root.at("model"), s.seed);
  const ServingOptions opts = parse_serving(root.get("serving"));
  const Yaml where = root.at("requests");
  const models::RequestSpec spec = request_spec(s, where);
  if (spec.arrival == models::RequestSpec::Arrival::Trace)
    where.fail("capacity varies a drawn stream's rate; a trace has no rate to vary");
  const std::vector<models::Request> reqs = requests_for(spec, where, model);
  std::vector<CapacityRun> out;
  for (const scheduler::PlacerSpec& placer : s.placers) {
    Replica replica = prepare_replica(s, p, placer, model, opts, reqs);
    out.push_back(search(replica, spec, slo, where, model));
  }
  return out;
}

}  // namespace placesim::explore
