// Every placesim program's operator new (placesim_program() in cmake/placesim_helpers.cmake):
// an allocation of 4 MiB or more asks the kernel for transparent huge pages over its 2 MiB-
// aligned interior (madvise MADV_HUGEPAGE), as glibc does for every allocation when started
// with GLIBC_TUNABLES=glibc.malloc.hugetlb=1.
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
#include <sys/mman.h>

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
  if (n >= kAdviseFrom) advise_huge_pages(p, n);
  return p;
}
