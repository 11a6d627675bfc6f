#include "sim/engine/shared_uses.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <utility>

#include "sim/engine/task_graph.hpp"

namespace placesim::engine {

namespace {

constexpr std::size_t kBlockUses = 4096;  // 64 KiB a block: the lists of a cluster's routes

}  // namespace

SharedUses& SharedUses::operator=(const SharedUses&) {
  // The graph's tasks were assigned first (declared before) and own copies now.
  lists_.clear();
  blocks_.clear();
  free_ = nullptr;
  block_left_ = 0;
  return *this;
}

SharedUses::SharedUses(SharedUses&& o) noexcept { *this = std::move(o); }

SharedUses& SharedUses::operator=(SharedUses&& o) noexcept {
  // The graph's tasks moved first and borrow o's blocks, which move here without moving.
  lists_ = std::move(o.lists_);
  blocks_ = std::move(o.blocks_);
  free_ = std::exchange(o.free_, nullptr);
  block_left_ = std::exchange(o.block_left_, 0);
  o.lists_.clear();
  o.blocks_.clear();
  return *this;
}

SharedUses::~SharedUses() = default;

std::size_t SharedUses::Hash::operator()(const Span& s) const {
  std::uint64_t h = s.size;
  for (const Use* u = s.first; u != s.first + s.size; ++u) {
    h = (h ^ static_cast<std::uint32_t>(u->resource)) * 0x100000001b3ULL;
    h = (h ^ std::bit_cast<std::uint64_t>(u->amount)) * 0x100000001b3ULL;
  }
  return static_cast<std::size_t>(h ^ (h >> 29));
}

bool SharedUses::Equal::operator()(const Span& a, const Span& b) const {
  return a.size == b.size && std::equal(a.first, a.first + a.size, b.first, [](const Use& x, const Use& y) {
           return x.resource == y.resource && std::bit_cast<std::uint64_t>(x.amount) == std::bit_cast<std::uint64_t>(y.amount);
         });
}

const Use* SharedUses::keep(const Use* first, std::size_t size) {
  if (size > block_left_) {
    const std::size_t n = std::max(size, kBlockUses);
    blocks_.push_back(std::make_unique_for_overwrite<Use[]>(n));
    free_ = blocks_.back().get();
    block_left_ = n;
  }
  Use* at = free_;
  std::copy(first, first + size, at);
  free_ += size;
  block_left_ -= size;
  return at;
}

void SharedUses::share(UseList& uses) {
  if (uses.size() <= UseList::kInline) return;
  const UseList& read = uses;
  const Span s{read.data(), read.size()};
  auto found = lists_.find(s);
  if (found == lists_.end()) found = lists_.insert(Span{keep(s.first, s.size), s.size}).first;
  uses = UseList::borrow(found->first, static_cast<std::uint32_t>(found->size));
}

}  // namespace placesim::engine
