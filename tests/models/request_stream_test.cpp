// Request streams: the laws their draws follow, checked against their closed forms over many
// draws; the same seed, the same stream; trace files and specs read with located errors.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "models/request_stream.hpp"
#include "tests/support/run_cli.hpp"

namespace {

using namespace placesim;
using models::Request;
using models::RequestSpec;

std::vector<double> gaps(const std::vector<Request>& reqs) {
  std::vector<double> out;
  double t = 0;
  for (const Request& r : reqs) out.push_back(r.arrival_s - t), t = r.arrival_s;
  return out;
}

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

double cv(const std::vector<double>& v) {
  const double m = mean(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return std::sqrt(s / static_cast<double>(v.size())) / m;
}

// Poisson gaps: mean 1 / rate and cv 1 (the exponential law); gamma gaps: mean 1 / rate and the cv
// asked for. 10^5 gaps put the sample mean within 1% and the cv within 3% (their standard errors
// are cv / sqrt(n) and about cv sqrt((1 + 1.5 cv^2) / (2 n))... well under these).
TEST(RequestStream, GapsFollowTheirLaws) {
  RequestSpec spec;
  spec.rate = 20;
  spec.count = 100'000;
  const std::vector<double> poisson = gaps(models::make_requests(spec));
  EXPECT_NEAR(mean(poisson), 1.0 / 20, 0.01 / 20);
  EXPECT_NEAR(cv(poisson), 1.0, 0.03);
  for (double c : {0.5, 2.0}) {
    spec.arrival = RequestSpec::Arrival::Gamma;
    spec.cv = c;
    const std::vector<double> gamma = gaps(models::make_requests(spec));
    EXPECT_NEAR(mean(gamma), 1.0 / 20, 0.01 / 20) << "cv " << c;
    EXPECT_NEAR(cv(gamma), c, 0.03 * c) << "cv " << c;
  }
}

// Zipf on [A, B] with exponent s: P(A) / P(A + 1) = 2^s; uniform: every value equally likely.
TEST(RequestStream, TokenCountsFollowTheirLaws) {
  RequestSpec spec;
  spec.count = 200'000;
  spec.prompt = {models::TokenDist::Kind::Zipf, 100, 199, 1.0};
  spec.output = {models::TokenDist::Kind::Uniform, 1, 4, 1};
  int first = 0, second = 0, out_one = 0;
  for (const Request& r : models::make_requests(spec)) {
    ASSERT_GE(r.prompt, 100);
    ASSERT_LE(r.prompt, 199);
    ASSERT_GE(r.output, 1);
    ASSERT_LE(r.output, 4);
    first += r.prompt == 100;
    second += r.prompt == 101;
    out_one += r.output == 1;
  }
  EXPECT_NEAR(static_cast<double>(first) / second, 2.0, 0.05);
  EXPECT_NEAR(out_one / 200'000.0, 0.25, 0.005);
}

TEST(RequestStream, TheSameSeedGivesTheSameStream) {
  RequestSpec spec;
  spec.arrival = RequestSpec::Arrival::Gamma;
  spec.cv = 3;
  spec.count = 1000;
  spec.prompt = {models::TokenDist::Kind::Zipf, 1, 4096, 1.2};
  const auto a = models::make_requests(spec), b = models::make_requests(spec);
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i].arrival_s, b[i].arrival_s);  // bit for bit
    ASSERT_EQ(a[i].prompt, b[i].prompt);
  }
  spec.seed = 2;
  EXPECT_NE(models::make_requests(spec)[0].arrival_s, a[0].arrival_s);
}

TEST(RequestStream, TracesReadBackAndBadRowsAreLocated) {
  const std::string dir = placesim::testing::temp_dir("trace");
  const std::string good = placesim::testing::write_file(
      dir, "good.csv", "arrival_s,prompt_tokens,output_tokens\n0,128,16\n0.25,64,1\r\n0.25,1,300\n");
  const auto reqs = models::read_request_trace(good);
  ASSERT_EQ(reqs.size(), 3u);
  EXPECT_EQ(reqs[1].arrival_s, 0.25);
  EXPECT_EQ(reqs[2].output, 300);
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"arrival,prompt,output\n0,1,1\n", ":1: expected the header"},
      {"arrival_s,prompt_tokens,output_tokens\n0,1,1\n1,x,1\n", ":3: prompt_tokens must be a number; got 'x'"},
      {"arrival_s,prompt_tokens,output_tokens\n2,1,1\n1,1,1\n", ":3: arrivals must not decrease"},
      {"arrival_s,prompt_tokens,output_tokens\n0,0,1\n", ":2: token counts must be whole numbers"},
      {"arrival_s,prompt_tokens,output_tokens\n0,1.5,1\n", ":2: token counts must be whole numbers"},
      {"arrival_s,prompt_tokens,output_tokens\n0,1\n", ":2: missing field 3 (output_tokens)"},
      {"arrival_s,prompt_tokens,output_tokens\n-1,1,1\n", ":2: arrival_s must be >= 0"},
      {"", ": the request trace is empty"},
  };
  for (const auto& [text, expect] : bad) {
    const std::string file = placesim::testing::write_file(dir, "bad.csv", text);
    try {
      models::read_request_trace(file);
      ADD_FAILURE() << "accepted " << text;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("bad.csv" + expect), std::string::npos) << e.what();
    }
  }
}

TEST(RequestStream, SpecErrorsAreAtTheirKey) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"{rate: 0, prompt: 8, output: 8, count: 10}", "r.yaml:1:8"},
      {"{rate: 1, cv: 2, prompt: 8, output: 8, count: 10}", "r.yaml:1:15: cv applies to arrival: gamma only"},
      {"{rate: 1, prompt: -3, output: 8, count: 10}", "r.yaml:1:19: prompt must be a token count"},
      {"{rate: 1, prompt: {dist: uniform, min: 9, max: 3}, output: 8, count: 10}", "r.yaml:1:48: max (3) is below min"},
      {"{rate: 1, prompt: 8, output: {dist: pareto}, count: 10}", "r.yaml:1:37: dist must be fixed, uniform or zipf"},
      {"{rate: 1, prompt: 8, output: 8, count: 0}", "r.yaml:1:40: count must be from 1"},
      {"{arrival: burst, rate: 1}", "r.yaml:1:11: arrival must be poisson, gamma or trace"},
      {"{rate: 1, prompt: 8, output: 8, count: 1, qps: 3}", "r.yaml:1:43: unknown key 'qps'"},
  };
  for (const auto& [text, expect] : bad) {
    try {
      models::parse_request_spec(Yaml::load_string(text, "r.yaml"));
      ADD_FAILURE() << "accepted " << text;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(expect), std::string::npos) << e.what();
    }
  }
}

}  // namespace
