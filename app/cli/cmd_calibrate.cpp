// placesim calibrate: microbenchmarks of this machine fitted as t = alpha + beta * x
// (ScheInfer Table I), written as a hardware file that `placesim run` and `validate` accept.
// A calibration whose fits are unusable (a negative intercept, r^2 below 0.95) writes nothing
// and exits with code 1, naming the fit.
#include <algorithm>
#include <cstdio>
#include <fmt/format.h>
#include <optional>

#include "backend/backend.hpp"
#include "backend/calibrate/cpu_calibrate.hpp"
#include "backend/calibrate/cpu_hardware_file.hpp"
#include "backend/cuda_api.hpp"
#include "app/cli/command.hpp"
#include "sim/core/error.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/progress.hpp"

namespace placesim::cli {
namespace {

nlohmann::ordered_json fit_json(const backend::LinearFit& f) {
  return {{"alpha_s", f.alpha}, {"alpha_se_s", f.alpha_se}, {"beta", f.beta}, {"beta2", f.beta2}, {"r2", f.r2},
          {"samples", f.samples}};
}

}  // namespace

int cmd_calibrate(const std::vector<std::string>& args) {
  po::options_description opts("options");
  opts.add_options()("backend", po::value<std::string>()->default_value("cpu"), "cpu or cuda")(
      "output,o", po::value<std::string>()->required(), "hardware YAML file to write")(
      "name", po::value<std::string>()->default_value("local"), "the hardware's name in the file")(
      "cores", po::value<int>()->default_value(0), "cpu: cores to calibrate (0: all)")(
      "repeats", po::value<int>()->default_value(7),
      "cpu: interleaved rounds, each measuring every point once (the median is used); cuda: timings per measurement");
  Parsed a;
  if (!parse_args(command_named("calibrate"), args, opts, {}, a)) return 0;
  const std::string backend_name = a.vm["backend"].as<std::string>();
  backend::require_backend(backend_name);
  const std::string out = a.vm["output"].as<std::string>();
  check_writable(out);  // before the measurements, which take minutes
  backend::CalibrateOptions co;
  co.cores = a.vm["cores"].as<int>();
  co.repeats = a.vm["repeats"].as<int>();
  if (co.cores < 0 || co.repeats < 1) throw InputError(SourceLoc{"placesim calibrate"}, "--cores must be >= 0 and --repeats >= 1");
  std::string command = "placesim calibrate";
  for (const std::string& w : args) command += " " + w;

  nlohmann::ordered_json j;
  std::string rejected;  // why a calibration's fits are unusable: nothing is written
  // The hardware file, unless the fits are unusable (require_usable_fits): then nothing.
  const auto write_usable = [&](const auto& c, auto hardware_yaml) {
    try {
      backend::require_usable_fits(c);
      write_file_atomic(out, hardware_yaml(c, a.vm["name"].as<std::string>(), command));
    } catch (const backend::CalibrationError& e) {
      rejected = e.what();
      j["rejected"] = rejected;
    }
  };
  j["backend"] = backend_name;
  j["output"] = out;
  if (backend_name == "cuda") {
    std::string why;  // require_backend has made sure the module loads
    const backend::CudaCalibration c = backend::load_cuda(why)->calibrate(co);
    j["gemm_fp32"] = fit_json(c.gemm_fp32);
    j["gemm_fp16"] = fit_json(c.gemm_fp16);
    j["gemm_fp16_grid"] = fit_json(c.gemm_grid_fp16);
    j["gemm_fp16_unaligned"] = fit_json(c.gemm_unaligned_fp16);
    j["stream"] = fit_json(c.stream);
    j["h2d_pinned"] = fit_json(c.h2d_pinned);
    j["h2d_pageable"] = fit_json(c.h2d_pageable);
    j["d2h_pinned"] = fit_json(c.d2h_pinned);
    j["launch_s"] = c.launch_s;
    j["launch_sd_s"] = c.launch_sd_s;
    write_usable(c, backend::cuda_hardware_yaml);
  }
  if (backend_name == "cpu") {
    // The measurements' count is known once calibration has set them up.
    std::optional<Progress> progress(std::in_place, "measurements", 0);
    co.progress = [&](int done, int total) { progress->done(done, total); };
    const backend::CpuCalibration c = backend::calibrate_cpu(co);
    progress.reset();
    j["cores"] = c.cores;
    j["rounds"] = c.rounds;
    j["core_share"] = c.core_share;
    j["cache_bytes"] = c.cache_bytes;
    j["gemm_fp32"] = fit_json(c.gemm);
    j["gemm_fp32_all_cores"] = fit_json(c.gemm_all);
    j["stream_cache"] = fit_json(c.stream_cache);
    j["copy"] = fit_json(c.copy);
    j["copy_all_bw"] = c.copy_all_bw;
    j["handoff_s"] = c.handoff_s;
    j["dispatch_s"] = c.dispatch_s;
    j["launch_s"] = c.launch_s;
    j["launch_sd_s"] = c.launch_sd_s;
    j["contention"] = c.contention;
    write_usable(c, backend::cpu_hardware_yaml);
  }
  if (a.json) {
    print_json(j);
  } else {
    std::string text = fmt::format("calibrated backend {} -> {}\n", backend_name, rejected.empty() ? out : "nothing");
    for (auto& [key, value] : j.items())
      if (key != "backend" && key != "output" && key != "rejected")
        text += fmt::format("  {:<14} {}\n", key, value.dump());
    std::fputs(text.c_str(), stdout);
  }
  // Unusable fits are refused like bad input (exit 2): the figures they would write are wrong.
  if (!rejected.empty()) {
    std::fprintf(stderr, "placesim: calibration rejected, nothing written: %s\n", rejected.c_str());
    return 2;
  }
  return 0;
}

}  // namespace placesim::cli
