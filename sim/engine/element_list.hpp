// A solver variable's elements (constraint, coefficient), kept inside the variable's record while
// there are at most eight, on the heap beyond: the constraint ids and the coefficients in two
// arrays, so that eight of them and the list's size take 104 bytes, and with the variable's bound
// the record is one 128-byte-aligned pair of cache lines (max_min_problem.hpp, MaxMinProblem::Var),
// which the processor fetches together. A fill and a part search meet thousands of variables in
// an order of their own (a constraint's), each at a cache miss. Four inline (one 64-byte line)
// held a flow of a two-level tree (host and switch links both ways) but not one of three levels
// (six links): on the mixed tree every flow between pods read its elements from a block of their
// own, a second miss; with eight, `placesim simulate` on its 10k set took 7% fewer first-level
// misses in cachegrind's model (34.8M -> 32.3M) and its simulating step 7% less time (medians of
// 25 alternating runs), and on the uniform tree's 10k set the same time (the model, which does not
// fetch line pairs, counts 1.8% more misses there).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace placesim::engine {

class ElementList {
 public:
  struct Element {
    std::int32_t c;
    double a;
  };
  // Holds the arrays' places, found once a loop: found at each element (an inline list or not),
  // they were read again after every store the loop made (which may alias them): 26M of
  // `placesim simulate`'s 1,930M instructions on the mixed tree at 10k flows.
  class Iterator {
   public:
    Iterator(const std::int32_t* c, const double* a) : c_(c), a_(a) {}
    Element operator*() const { return Element{*c_, *a_}; }
    Iterator& operator++() {
      ++c_;
      ++a_;
      return *this;
    }
    bool operator!=(const Iterator& o) const { return c_ != o.c_; }

   private:
    const std::int32_t* c_;
    const double* a_;
  };

  ElementList() {}
  ElementList(const ElementList& o) { copy_from(o); }
  ElementList& operator=(const ElementList& o) {
    if (this != &o) {
      release();
      copy_from(o);
    }
    return *this;
  }
  ~ElementList() { release(); }

  std::uint32_t size() const { return size_; }
  std::int32_t c(std::uint32_t k) const { return ids()[k]; }
  double a(std::uint32_t k) const { return coefs()[k]; }
  void set_a(std::uint32_t k, double a) { coefs()[k] = a; }
  Iterator begin() const { return Iterator(ids(), coefs()); }
  Iterator end() const { return Iterator(ids() + size_, coefs() + size_); }

  void push_back(Element e) {
    if (size_ == cap_) grow(2 * cap_);
    ids()[size_] = e.c;
    coefs()[size_] = e.a;
    ++size_;
  }
  void clear() {
    release();
    size_ = 0;
  }

 private:
  static constexpr std::uint32_t kInline = 8;
  bool on_heap() const { return cap_ > kInline; }
  // The two arrays, wherever they are now.
  std::int32_t* ids() { return on_heap() ? heap_.c : in_.c; }
  const std::int32_t* ids() const { return on_heap() ? heap_.c : in_.c; }
  double* coefs() { return on_heap() ? heap_.a : in_.a; }
  const double* coefs() const { return on_heap() ? heap_.a : in_.a; }
  // Room for `cap` elements, on the heap: one block, the coefficients first (aligned), then the ids.
  void grow(std::uint32_t cap) {
    void* block = std::malloc(cap * (sizeof(double) + sizeof(std::int32_t)));
    if (block == nullptr) throw std::bad_alloc();
    auto* a = static_cast<double*>(block);
    auto* c = reinterpret_cast<std::int32_t*>(a + cap);
    std::copy(ids(), ids() + size_, c);
    std::copy(coefs(), coefs() + size_, a);
    release();
    heap_.a = a;
    heap_.c = c;
    cap_ = cap;
  }
  void release() {
    if (on_heap()) std::free(heap_.a);
    cap_ = kInline;
  }
  void copy_from(const ElementList& o) {
    size_ = 0;
    cap_ = kInline;
    if (o.size_ > kInline) grow(o.cap_);
    std::copy(o.ids(), o.ids() + o.size_, ids());
    std::copy(o.coefs(), o.coefs() + o.size_, coefs());
    size_ = o.size_;
  }

  union {
    struct {
      double a[kInline];
      std::int32_t c[kInline];
    } in_;
    struct {
      double* a;
      std::int32_t* c;
    } heap_;
  };
  std::uint32_t size_ = 0;
  std::uint32_t cap_ = kInline;  // above kInline: the elements are on the heap
};

}  // namespace placesim::engine
