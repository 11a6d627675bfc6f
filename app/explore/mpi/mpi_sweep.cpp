#include "app/explore/mpi/mpi_sweep.hpp"

#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <thread>

#include <nlohmann/json.hpp>

#include "sim/core/error.hpp"
#include "sim/core/module.hpp"
#include "app/explore/mpi/mpi_transport.hpp"
#include "app/explore/run_result_wire.hpp"

namespace placesim::explore::mpi {

namespace {

// A rank asks with its last point's runs, its failure, or nothing on its first ask; rank 0
// answers with a position in Scenario::points, or -1 for "no more".
// What a rank sends with its ask: CBOR {"runs": wire bytes} or {"error": text, "input": bool}.
using Json = nlohmann::json;

const MpiApi& mpi() { return module_api<MpiApi>("mpi"); }

bool launched_by_mpirun() {
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK"})
    if (std::getenv(var)) return true;
  return false;
}

// A failure a rank sent, as the exception it was there.
std::exception_ptr failure_of(const Json& msg) {
  const std::string text = msg.at("error").get<std::string>();
  if (msg.at("input").get<bool>()) return std::make_exception_ptr(InputError(text));
  return std::make_exception_ptr(std::runtime_error(text));
}

}  // namespace

Session::Session() {
  if (!launched_by_mpirun()) return;
  mpi().init(rank_, size_);
  started_ = true;
}

Session::~Session() {
  if (!started_) return;
  // Rank 0 failed before serving (bad -o, --resume refused): the others still wait for points.
  if (rank_ == 0 && !served_ && size_ > 1) {
    struct Empty final : PointQueue {
      std::optional<size_t> next() override { return std::nullopt; }
      void finished(std::vector<RunResult>) override {}
      void failed(std::exception_ptr) override {}
    } none;
    try {
      serve(none);
    } catch (...) {  // a destructor reports nothing; MPI_Finalize below still ends the job
    }
  }
  mpi().finalize();
}

void Session::serve(PointQueue& queue) {
  served_ = true;
  int running = size_ - 1;  // ranks not yet told "no more"
  while (running > 0) {
    int from = 0;
    std::vector<std::uint8_t> bytes;
    if (!mpi().poll_ask(from, bytes)) {
      // Polling with a pause leaves this rank's core to its own threads (a blocking receive
      // would spin).
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      continue;
    }
    if (!bytes.empty()) {
      const Json msg = Json::from_cbor(bytes);
      if (msg.contains("error")) queue.failed(failure_of(msg));
      else queue.finished(runs_from_wire(msg.at("runs").get_binary()));
    }
    const std::optional<size_t> next = queue.next();
    const long long point = next ? static_cast<long long>(*next) : -1;
    mpi().answer(from, point);
    if (!next) --running;
  }
}

void Session::work(const Scenario& s, const TraceRequest& trace) {
  std::vector<std::uint8_t> answer;  // empty: the first ask
  for (;;) {
    const long long point = mpi().ask(answer);
    if (point < 0) return;
    try {
      answer = Json::to_cbor(Json{{"runs", Json::binary(runs_to_wire(run_point(s, s.points[static_cast<size_t>(point)], trace)))}});
    } catch (const InputError& e) {
      answer = Json::to_cbor(Json{{"error", e.what()}, {"input", true}});
    } catch (const std::exception& e) {
      answer = Json::to_cbor(Json{{"error", e.what()}, {"input", false}});
    }
  }
}

}  // namespace placesim::explore::mpi
