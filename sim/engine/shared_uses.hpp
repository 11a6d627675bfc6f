// The resource-use lists that many tasks of a graph hold alike, kept once per graph.
//
// Every transfer over one route moves its bytes over each link of it: the flows of a
// collective on a cluster are millions of lists of five or six (link, bytes) uses, nearly all
// equal to one another (a ring's steps all send S/n over the same routes). Each such list held
// on the heap of its own task cost about 100 bytes a task; a task now borrows the graph's one
// copy (ShortList::borrow). Lists short enough to be held inline are left alone.
#pragma once

#include <cstddef>
#include <memory>
#include <unordered_set>
#include <vector>

#include "sim/engine/short_list.hpp"

namespace placesim::engine {

struct Use;  // task_graph.hpp
using UseList = ShortList<Use, 1>;

class SharedUses {
 public:
  SharedUses() = default;
  // A copied graph's tasks own copies of their lists (ShortList's copy): nothing to share.
  SharedUses(const SharedUses&) {}
  SharedUses& operator=(const SharedUses&);
  SharedUses(SharedUses&&) noexcept;
  SharedUses& operator=(SharedUses&&) noexcept;
  ~SharedUses();

  // Makes `uses`, when it does not fit inline, borrow this graph's copy of the same list,
  // adding one if there is none; uses that read another graph's copy get one here.
  void share(UseList& uses);

 private:
  struct Span {
    const Use* first;
    std::size_t size;
  };
  struct Hash {
    std::size_t operator()(const Span& s) const;
  };
  struct Equal {
    bool operator()(const Span& a, const Span& b) const;
  };
  const Use* keep(const Use* first, std::size_t size);

  std::unordered_set<Span, Hash, Equal> lists_;
  std::vector<std::unique_ptr<Use[]>> blocks_;  // the lists, end to end; a block never moves
  Use* free_ = nullptr;                         // the last block's first free entry
  std::size_t block_left_ = 0;                  // and how many are free
};

}  // namespace placesim::engine
