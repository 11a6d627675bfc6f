// `placesim run` on a 1000-point sweep of heuristic placers (single-device, round-robin, HEFT
// and the critical-path bound on the SortingHat V100 station; gpt2-large of 1 to 10 layers,
// batch 1 to 10, seq 16 to 160), results file written as points finish, as a user runs it:
//   BM_Sweep/0/<jobs>   one process, -j jobs threads
//   BM_Sweep/<ranks>/1  under mpirun -n ranks (Open MPI builds only), -j 1 on each rank, unbound
//                       (a core shared with other work slows a rank bound to it)
// Counter points_per_min: sweep points finished per minute of wall time, start-up included.
// The goal: 500 or more on a 2-core machine.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;

constexpr int kPoints = 1000;

const std::string& scenario() {
  static const std::string path = [] {
    const fs::path dir = fs::temp_directory_path() / "placesim-bench-sweep";
    fs::create_directories(dir);
    const std::string p = (dir / "sweep.yaml").string();
    std::ofstream(p) << "name: bench-sweep\n"
                        "hardware: sortinghat-v100\n"
                        "model: {generator: transformer, arch: gpt2-large, layers: 4, batch: 1, seq: 32, phase: prefill}\n"
                        "placers: [single-device, round-robin, heft, critical-path]\n"
                        "baseline: single-device\n"
                        "sweep:\n"
                        "  model.seq: [16, 32, 48, 64, 80, 96, 112, 128, 144, 160]\n"
                        "  model.batch: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n"
                        "  model.layers: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n";
    return p;
  }();
  return path;
}

void BM_Sweep(benchmark::State& state) {
  const int ranks = static_cast<int>(state.range(0)), jobs = static_cast<int>(state.range(1));
  const std::string out = fs::path(scenario()).parent_path() / "sweep.h5";
  std::string cmd = std::string(PLACESIM_BINARY) + " run " + scenario() + " -j " + std::to_string(jobs) + " -o " + out +
                    " >/dev/null";
  if (ranks > 0)
    cmd = "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none "
          "mpirun --allow-run-as-root --oversubscribe --bind-to none -n " +
          std::to_string(ranks) + " " + cmd;
  double seconds = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    if (std::system(cmd.c_str()) != 0) {
      state.SkipWithError(("failed: " + cmd).c_str());
      return;
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    state.SetIterationTime(s);
    seconds += s;
  }
  state.counters["points_per_min"] = kPoints * static_cast<double>(state.iterations()) * 60 / seconds;
}

BENCHMARK(BM_Sweep)->Args({0, 1})->Args({0, 2})->UseManualTime()->Iterations(1)->Unit(benchmark::kSecond);
#ifdef PLACESIM_HAVE_MPI
BENCHMARK(BM_Sweep)->Args({1, 1})->Args({2, 1})->UseManualTime()->Iterations(1)->Unit(benchmark::kSecond);
#endif

}  // namespace

BENCHMARK_MAIN();
