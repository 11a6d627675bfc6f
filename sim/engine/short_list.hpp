// A list of trivially copyable values kept inside the object while it holds at most N of them,
// on the heap beyond. A task's dependencies and resource uses are one or two entries almost
// always; a std::vector would cost 24 bytes plus a heap block of 32 or more for each, which
// at tens of millions of tasks (a 4096-rank ring all-reduce) is most of the TaskGraph
// (docs/engine-scale.md, "Collectives").
//
// A list may also borrow its elements: a view of a block owned elsewhere (the TaskGraph's
// shared use lists, task_graph.hpp), valid while that owner lives. It reads as any other; the
// first change to it (or non-const access to its elements) copies them into a block of its
// own, so no list ever writes into what it borrows. A copy of a borrowed list owns its copy.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <new>
#include <type_traits>
#include <vector>

namespace placesim::engine {

template <class T, std::uint32_t N>
class ShortList {
  static_assert(std::is_trivially_copyable_v<T> && N >= 1);

 public:
  static constexpr std::uint32_t kInline = N;  // held inline up to this many
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  ShortList() {}
  ShortList(std::initializer_list<T> v) { append(v.begin(), v.end()); }
  // Implicit, so that a list built in a std::vector is assigned as before (t.deps = deps).
  ShortList(const std::vector<T>& v) { append(v.data(), v.data() + v.size()); }
  ShortList(const ShortList& o) { append(o.begin(), o.end()); }
  ShortList(ShortList&& o) noexcept { steal(o); }
  ShortList& operator=(const ShortList& o) {
    if (this != &o) {
      if (borrowed()) release();
      size_ = 0;
      append(o.begin(), o.end());
    }
    return *this;
  }
  ShortList& operator=(ShortList&& o) noexcept {
    if (this != &o) {
      release();
      steal(o);
    }
    return *this;
  }
  ~ShortList() { release(); }

  // A list that reads the n elements at p without owning them; p must outlive it. At most N
  // elements are copied inline instead.
  static ShortList borrow(const T* p, std::uint32_t n) {
    ShortList l;
    if (n <= N) {
      l.append(p, p + n);
    } else {
      l.heap_ = const_cast<T*>(p);  // never written through: see data()
      l.size_ = n;
      l.cap_ = 0;
    }
    return l;
  }
  bool borrowed() const { return cap_ == 0; }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() {
    if (borrowed()) grow(size_);
    return on_heap() ? heap_ : inline_;
  }
  const T* data() const { return on_heap() ? heap_ : inline_; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }
  T& operator[](std::size_t i) { return data()[i]; }
  const T& operator[](std::size_t i) const { return data()[i]; }

  void push_back(const T& v) {
    if (size_ >= cap_) {
      const T copy = v;  // v may live in this list
      grow(size_ + 1);
      data()[size_++] = copy;
      return;
    }
    data()[size_++] = v;
  }
  // Appends [first, last), which must not point into this list.
  void append(const T* first, const T* last) {
    const auto n = static_cast<std::uint32_t>(last - first);
    if (size_ + n > cap_) grow(size_ + n);
    std::copy(first, last, data() + size_);
    size_ += n;
  }
  // Removes [first, last), shifting what follows.
  void erase(T* first, T* last) {  // first and last from begin(), which owns the elements
    std::copy(last, end(), first);
    size_ -= static_cast<std::uint32_t>(last - first);
  }

 private:
  bool on_heap() const { return cap_ != N; }  // owned (cap_ > N) or borrowed (cap_ == 0)
  // Moves the elements to an owned block of at least `need` (a borrowed list's first change).
  void grow(std::uint32_t need) {
    const std::uint32_t cap = std::max({need, 2 * cap_, N + 1});
    T* p = static_cast<T*>(std::malloc(sizeof(T) * cap));
    if (p == nullptr) throw std::bad_alloc();
    const T* from = static_cast<const ShortList&>(*this).data();
    std::copy(from, from + size_, p);
    release();
    heap_ = p;
    cap_ = cap;
  }
  void release() {
    if (cap_ > N) std::free(heap_);
    cap_ = N;
  }
  // Takes o's elements, leaving o empty.
  void steal(ShortList& o) {
    size_ = o.size_;
    cap_ = o.cap_;
    if (o.on_heap()) {
      heap_ = o.heap_;
    } else {
      std::copy(o.inline_, o.inline_ + o.size_, inline_);
    }
    o.size_ = 0;
    o.cap_ = N;
  }

  std::uint32_t size_ = 0;
  std::uint32_t cap_ = N;  // above N: the elements are on the heap
  union {
    T inline_[N];
    T* heap_;
  };
};

}  // namespace placesim::engine
