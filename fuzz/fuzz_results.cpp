// Results files (HDF5 images): read as `compare`, `export` and `run --resume` read them, then
// compared, exported as CSV and JSON and merged with themselves. HDF5 may crash or loop on a
// damaged image; the read runs in a child process under a time bound (sim/core/child_call.hpp),
// so what must hold here is placesim's side: the parent never crashes or hangs, and a file the
// reader accepts is one every consumer handles without a sanitizer report.
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>

#include <csignal>
#include <cstdlib>

#include "fuzz_support.hpp"
#include "app/explore/compare_files.hpp"
#include "app/explore/compare_summary.hpp"
#include "app/explore/report.hpp"
#include "app/explore/results_csv.hpp"
#include "app/explore/results_h5.hpp"

namespace {

// In the reading child, a fault inside HDF5 on a damaged image (what the child is there for) must
// end the child as a crash would, not the fuzzing: the sanitizer's report (HDF5's memcpy past a
// corrupt heap object's end) then aborts the child instead of handing the input to libFuzzer.
void child_dies() {
  std::signal(SIGABRT, SIG_DFL);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  ::pthread_atfork(nullptr, nullptr, [] { __sanitizer_set_death_callback(child_dies); });
  // The HDF5 module loaded here, once, rather than in every reading child (most of a read's time).
  placesim::explore::write_results_h5(placesim::fuzz::write_input(nullptr, 0, ".seed.h5"), placesim::explore::RunSet{});
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace placesim;
  const std::string path = fuzz::write_input(data, size, ".h5");
  try {
    const explore::RunSet set = explore::read_results_h5(path);
    (void)explore::results_csv(set);
    (void)explore::runs_to_json(set, true).dump();
    const explore::RunSet merged = explore::merge_results({{"a.h5", set}, {"b.h5", set}}, "");
    for (const explore::Metric metric : {explore::Metric::Makespan, explore::Metric::Predicted, explore::Metric::Ttft,
                                        explore::Metric::Tpot}) {
      const explore::Comparison c = explore::compare(merged, "", metric);
      const explore::CompareSummary s = explore::summarize(c, explore::kDefaultTie);
      (void)explore::format_comparison(c, explore::TableStyle::Text);
      (void)explore::format_summary(c, s, explore::TableStyle::Markdown);
      (void)explore::compare_document(merged.scenario, c, s).dump();
    }
  } catch (const InputError&) {
  }
  return 0;
}
