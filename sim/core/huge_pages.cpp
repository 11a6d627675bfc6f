// Every placesim program's operator new (placesim_program() in cmake/placesim_helpers.cmake):
// an allocation of 4 MiB or more asks the kernel for transparent huge pages over its 2 MiB-
// aligned interior (madvise MADV_HUGEPAGE), and the heap that smaller ones come from is advised
// as it grows, as glibc does for every allocation when started with
// GLIBC_TUNABLES=glibc.malloc.hugetlb=1.
//
// Why: Debian's kernels default to THP mode "madvise", so memory nobody advised is faulted in
// and zeroed 4 KiB at a time. The arrays that grow with the task count (a graph's tasks, names
// and traffic; a run's per-task state and trace) are touched once, front to back: at 33.5
// million tasks (a 4096-rank ring all-reduce, bench_collectives' at_scale) the kernel's page
// faults and zeroing were about a quarter of the whole run (docs/engine-scale.md).
//
// Allocation and release stay glibc's malloc and free (the default operator delete frees),
// so only the kernel's page size changes, and the advice is a hint the kernel may ignore
// (THP "never"). Smaller allocations pay one comparison. Left out of the sanitizer and fuzz
// builds (CMake), whose runtime replaces operator new itself.
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;
constexpr std::size_t kAdviseFrom = std::size_t{4} << 20;

void advise_huge_pages(void* p, std::size_t n) {
  const auto begin = (reinterpret_cast<std::uintptr_t>(p) + kHugePage - 1) & ~(kHugePage - 1);
  const auto end = (reinterpret_cast<std::uintptr_t>(p) + n) & ~(kHugePage - 1);
  // A failure (a kernel without THP) leaves ordinary pages: nothing to report.
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

// The heap's end as far as it was advised (0 until the heap is set up). Threads allocate at once
// (a sweep's workers): the thread that moves it advises the range it moved over.
std::atomic<std::uintptr_t> g_heap_advised{0};

// Smaller blocks come from glibc's heap, which grows at its end (brk) a little past each request.
// Advised as it grows, the heap's pages come 2 MiB at a time too, as glibc does itself with
// the tunable: on the uniform tree at 10k flows `placesim simulate` took 6,200 page faults, 900
// with this, and 11% less CPU time (medians of 21 alternating runs; 3% at 1k flows, 5% on the
// mixed tree at 10k; peak RSS 33 -> 36 MB). So the heap grows
// by at least 16 MiB (M_TOP_PAD), is not trimmed below 64 MiB free, and blocks up to 32 MiB come
// from it (setting M_TOP_PAD stops glibc from raising that threshold itself; 32 MiB is the most
// it would raise it to). Blocks of 4 MiB and more are advised on their own either way.
//
// Advice after a growth comes too late for the 2 MiB that malloc touched first (the block's
// header, the new top's) and for the region the old end lay in: those fill with 4 KiB pages, a
// fault each, and a fault costs 7-13 us on the virtual machines placesim is built and run on
// (zeroing a whole 2 MiB page costs about as much as one). At 10k flows that was 770 of the
// 1,200 faults of `placesim simulate`. So the heap's first kPreGrow are taken at once, before
// anything lives there: a block that size is allocated with no top pad (the heap ends just past
// it, and malloc touches only the block's two ends), the span is advised, and the block is
// given back to the top, where the next allocations find it. Only its head is kept: the rest of
// the 2 MiB region the heap began in, which libstdc++'s start-up allocations had filled with
// 4 KiB pages already (240 faults at 10k flows had been there), and which is never touched.
// Nothing else is touched that was not (the peak resident size is unchanged); the address space
// is reserved a little earlier.
constexpr std::size_t kPreGrow = std::size_t{30} << 20;

// The head kept: reachable, never freed (the process's heap starts past it).
void* g_heap_head = nullptr;

struct HeapSetup {
  HeapSetup() {
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
    mallopt(M_TOP_PAD, 0);
    const auto start = reinterpret_cast<std::uintptr_t>(sbrk(0));
    void* block = std::malloc(kPreGrow);
    const auto end = reinterpret_cast<std::uintptr_t>(sbrk(0));
    const auto at = reinterpret_cast<std::uintptr_t>(block);
    const std::uintptr_t boundary = (at + kHugePage - 1) & ~(kHugePage - 1);
    // Only a block from the heap (the heap grew: it may also have come from mmap) is advised and
    // shrunk: in place, to end 16 bytes below the first 2 MiB boundary (glibc's chunks: a 16-byte
    // header before the block, a request of n bytes takes n + 8 rounded up to 16), the rest goes
    // back to the top, whose first block then starts at the boundary. Were glibc's layout
    // another, the next blocks would start a little off the boundary: a few small pages more.
    if (block != nullptr && end > start) advise_huge_pages(reinterpret_cast<void*>(start), end - start);
    if (block != nullptr && end > start && boundary - at >= 64) {
      g_heap_head = std::realloc(block, boundary - at - 8);
    } else {
      std::free(block);
    }
    mallopt(M_TOP_PAD, 16 << 20);
    g_heap_advised.store(reinterpret_cast<std::uintptr_t>(sbrk(0)), std::memory_order_relaxed);
  }
};
const HeapSetup g_heap_setup;

// What the heap grew by since it was last advised (sbrk(0) reads glibc's cached end: no call
// into the kernel).
void advise_heap_growth() {
  const auto end = reinterpret_cast<std::uintptr_t>(sbrk(0));
  std::uintptr_t advised = g_heap_advised.load(std::memory_order_relaxed);
  if (advised == 0 || end < advised + kHugePage) return;
  if (g_heap_advised.compare_exchange_strong(advised, end, std::memory_order_relaxed)) {
    advise_huge_pages(reinterpret_cast<void*>(advised), end - advised);
  }
}

}  // namespace

// libstdc++'s operator new[] and the nothrow forms call this one; the aligned forms are
// libstdc++'s own (nothing placesim allocates with extended alignment is large).
void* operator new(std::size_t n) {
  void* p;
  while ((p = std::malloc(n == 0 ? 1 : n)) == nullptr) {
    const std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
  if (n >= kAdviseFrom) {
    advise_huge_pages(p, n);
  } else {
    advise_heap_growth();
  }
  return p;
}
