// mpi_transport.hpp on Open MPI: the MPI module's code and entry.
#include "app/explore/mpi/mpi_transport.hpp"

#include <mpi.h>

#include <stdexcept>
#include <string>

#include "sim/core/module.hpp"

namespace placesim::explore::mpi {
namespace {

// A rank asks with kAsk; rank 0 answers with kPoint.
constexpr int kAsk = 1;
constexpr int kPoint = 2;

void check(int status, const char* what) {
  if (status != MPI_SUCCESS) throw std::runtime_error(std::string("MPI: ") + what + " failed");
}

void init(int& rank, int& size) {
  int provided = 0;  // rank 0 runs points on threads of its own; only the calling thread talks MPI
  check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "init");
  check(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "rank");
  check(MPI_Comm_size(MPI_COMM_WORLD, &size), "size");
}

void finalize() { MPI_Finalize(); }

bool poll_ask(int& from, std::vector<std::uint8_t>& bytes) {
  int arrived = 0;
  MPI_Status st;
  check(MPI_Iprobe(MPI_ANY_SOURCE, kAsk, MPI_COMM_WORLD, &arrived, &st), "probe");
  if (!arrived) return false;
  int n = 0;
  check(MPI_Get_count(&st, MPI_BYTE, &n), "count");
  bytes.resize(static_cast<size_t>(n));
  check(MPI_Recv(bytes.data(), n, MPI_BYTE, st.MPI_SOURCE, kAsk, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "receive");
  from = st.MPI_SOURCE;
  return true;
}

void answer(int to, long long point) { check(MPI_Send(&point, 1, MPI_LONG_LONG, to, kPoint, MPI_COMM_WORLD), "send"); }

long long ask(const std::vector<std::uint8_t>& bytes) {
  // MPI_Send takes a non-const buffer in older MPI versions' bindings; it does not write it.
  check(MPI_Send(const_cast<std::uint8_t*>(bytes.data()), static_cast<int>(bytes.size()), MPI_BYTE, 0, kAsk,
                 MPI_COMM_WORLD),
        "send");
  long long point = -1;
  check(MPI_Recv(&point, 1, MPI_LONG_LONG, 0, kPoint, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "receive");
  return point;
}

}  // namespace
}  // namespace placesim::explore::mpi

PLACESIM_MODULE_ENTRY const void* placesim_module_mpi() {
  using namespace placesim::explore::mpi;
  static const MpiApi api{&init, &finalize, &poll_ask, &answer, &ask};
  return &api;
}
