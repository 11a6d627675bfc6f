#include "sim/core/yaml_reader.hpp"

#include <yaml.h>

#include <fmt/format.h>
#include <memory>
#include <new>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/core/utf8.hpp"

namespace placesim {
struct YamlNodes;  // the key to the door below
}  // namespace placesim

// yaml-cpp builds the nodes of a document it parses with a class it does not install
// (NodeBuilder); the node API that class uses is in its installed headers, but the Node that
// wraps a built node has a private constructor. Node befriends every specialization of as_if,
// so this one makes that Node.
namespace YAML {
template <>
struct as_if<placesim::YamlNodes, void> {
  static Node wrap(detail::node& n, const detail::shared_memory_holder& memory) { return Node(n, memory); }
};
}  // namespace YAML

namespace placesim {

namespace {

// As json_doc.cpp: deeper nesting is refused (no scenario or hardware file nests past a handful,
// and the nodes' users recurse).
constexpr std::size_t kMaxDepth = 256;

struct Event {
  yaml_event_t e{};
  Event() = default;
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  ~Event() { yaml_event_delete(&e); }
};

YAML::Mark mark_of(const yaml_mark_t& m) {
  YAML::Mark mark;
  mark.pos = static_cast<int>(m.index);
  mark.line = static_cast<int>(m.line);
  mark.column = static_cast<int>(m.column);
  return mark;
}

// yaml-cpp's null: a plain scalar without a tag that reads so.
bool null_text(std::string_view s) { return s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL"; }

// yaml-cpp's tag for a node without one: "!" for a quoted scalar, "?" for any other.
std::string tag_of(const yaml_char_t* tag, bool plain) {
  if (tag != nullptr) return reinterpret_cast<const char*>(tag);
  return plain ? "?" : "!";
}

class Reader {
 public:
  Reader(std::string_view text, const std::string& name) : text_(text), name_(name) {
    if (!yaml_parser_initialize(&parser_)) throw std::bad_alloc();
    yaml_parser_set_input_string(&parser_, reinterpret_cast<const unsigned char*>(text.data()), text.size());
  }
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;
  ~Reader() { yaml_parser_delete(&parser_); }

  // The first document; every other must be empty (a `---` with nothing after it), as a second
  // one would otherwise be silently ignored.
  YAML::Node document() {
    Event stream;
    next(stream);
    YAML::Node root;
    for (;;) {
      Event start;
      next(start);
      if (start.e.type == YAML_STREAM_END_EVENT) return root;
      YAML::detail::node& n = node();
      if (ended_one_ && n.type() != YAML::NodeType::Null) fail(n.mark(), kSecondDocument);
      Event end;
      next(end);
      if (!ended_one_) root = YAML::as_if<YamlNodes, void>::wrap(n, memory_);
      ended_one_ = true;
    }
  }

 private:
  static constexpr const char* kSecondDocument =
      "a second YAML document: a file holds one (remove the `---` or `...` before it, or this text)";

  void next(Event& ev) {
    if (!yaml_parser_parse(&parser_, &ev.e)) fail_parse();
  }

  [[noreturn]] void fail(const YAML::Mark& at, const std::string& what) const {
    throw InputError(SourceLoc{name_, at.line + 1, at.column + 1}, what);
  }

  // The parser's error where it names it; after a document, any error is in a second one.
  [[noreturn]] void fail_parse() const {
    if (parser_.error == YAML_MEMORY_ERROR) throw std::bad_alloc();
    std::string what = parser_.problem != nullptr ? parser_.problem : "unreadable text";
    SourceLoc at;
    if (parser_.error == YAML_READER_ERROR) {  // located by a byte offset only
      at = position_in_text(text_, parser_.problem_offset, name_);
      if (parser_.problem_value >= 0) what += fmt::format(" (U+{:04X})", parser_.problem_value);
    } else {
      const yaml_mark_t& m = parser_.problem_mark;
      at = SourceLoc{name_, static_cast<int>(m.line) + 1, static_cast<int>(m.column) + 1};
      const yaml_mark_t& from = parser_.context_mark;
      if (parser_.context != nullptr && (from.line != m.line || from.column != m.column))
        what += fmt::format(" ({}, from line {}, column {})", parser_.context, from.line + 1, from.column + 1);
    }
    throw InputError(at, ended_one_ ? kSecondDocument : "malformed YAML/JSON: " + what);
  }

  YAML::detail::node& new_node(const yaml_event_t& e) {
    YAML::detail::node& n = memory_->create_node();
    n.set_mark(mark_of(e.start_mark));
    return n;
  }

  // A name for a finished node: an alias after it is that node (yaml-cpp's sharing). A node is
  // named when it ends, so an alias inside the node it names is one to an unknown anchor.
  void name(const std::string& anchor, YAML::detail::node& n) {
    if (!anchor.empty()) anchors_.insert_or_assign(anchor, &n);
  }

  // One whole node, its children's events read: without recursion, since a file may nest deeply.
  YAML::detail::node& node() {
    struct Open {
      YAML::detail::node* node;
      YAML::detail::node* key;  // a map's key read, its value not yet
      std::string anchor;
    };
    std::vector<Open> open;
    YAML::detail::node* root = nullptr;
    const auto attach = [&](YAML::detail::node& n) {
      if (open.empty()) {
        root = &n;
      } else if (Open& o = open.back(); o.node->type() == YAML::NodeType::Sequence) {
        o.node->push_back(n, memory_);
      } else if (o.key == nullptr) {
        o.key = &n;
      } else {
        o.node->insert(*o.key, n, memory_);
        o.key = nullptr;
      }
    };
    const auto text = [](const yaml_char_t* s) { return s == nullptr ? std::string() : reinterpret_cast<const char*>(s); };
    do {
      Event ev;
      next(ev);
      const yaml_event_t& e = ev.e;
      switch (e.type) {
        case YAML_SCALAR_EVENT: {
          YAML::detail::node& n = new_node(e);
          const std::string_view value(reinterpret_cast<const char*>(e.data.scalar.value), e.data.scalar.length);
          const bool plain = e.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
          if (plain && e.data.scalar.tag == nullptr && null_text(value)) {
            n.set_null();
          } else {
            n.set_scalar(std::string(value));
            n.set_tag(tag_of(e.data.scalar.tag, plain));
          }
          name(text(e.data.scalar.anchor), n);
          attach(n);
          break;
        }
        case YAML_ALIAS_EVENT: {
          const auto it = anchors_.find(text(e.data.alias.anchor));
          if (it == anchors_.end())
            fail(mark_of(e.start_mark), fmt::format("malformed YAML/JSON: alias '*{}' names no anchor defined before it",
                                                    text(e.data.alias.anchor)));
          attach(*it->second);
          break;
        }
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT: {
          const bool seq = e.type == YAML_SEQUENCE_START_EVENT;
          if (open.size() >= kMaxDepth)
            fail(mark_of(e.start_mark), fmt::format("malformed YAML/JSON: values nested deeper than {} levels", kMaxDepth));
          YAML::detail::node& n = new_node(e);
          n.set_type(seq ? YAML::NodeType::Sequence : YAML::NodeType::Map);
          n.set_tag(tag_of(seq ? e.data.sequence_start.tag : e.data.mapping_start.tag, true));
          const bool flow = seq ? e.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE
                                : e.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE;
          n.set_style(flow ? YAML::EmitterStyle::Flow : YAML::EmitterStyle::Block);
          attach(n);
          open.push_back({&n, nullptr, text(seq ? e.data.sequence_start.anchor : e.data.mapping_start.anchor)});
          break;
        }
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
          if (e.type == YAML_MAPPING_END_EVENT) refuse_duplicate_keys(*open.back().node);
          name(open.back().anchor, *open.back().node);
          open.pop_back();
          break;
        default:
          PLACESIM_ASSERT(false, "libyaml sent a stream or document event inside a node");
      }
    } while (!open.empty());
    return *root;
  }

  // yaml-cpp keeps both entries of a key given twice and answers lookups with the first, so the
  // second value would be silently ignored: an error at the second, naming the first. Checked as
  // each map ends (an alias is a node checked already).
  void refuse_duplicate_keys(YAML::detail::node& map) {
    constexpr std::size_t kPairwise = 16;  // keys; more are looked up in a hash map
    keys_.clear();
    for (auto it = map.begin(); it != map.end(); ++it) {
      const YAML::detail::node& key = *it->first;
      keys_.emplace_back(key.type() == YAML::NodeType::Scalar ? key.scalar()
                                                              : YAML::Dump(YAML::as_if<YamlNodes, void>::wrap(*it->first, memory_)),
                         &key);
    }
    const auto refuse = [&](const std::pair<std::string, const YAML::detail::node*>& second, const YAML::detail::node& first) {
      fail(second.second->mark(), fmt::format("key '{}' is given twice (first at line {}, column {}); give it once",
                                              second.first, first.mark().line + 1, first.mark().column + 1));
    };
    if (keys_.size() <= kPairwise) {
      for (std::size_t i = 1; i < keys_.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
          if (keys_[i].first == keys_[j].first) refuse(keys_[i], *keys_[j].second);
      return;
    }
    std::unordered_map<std::string_view, const YAML::detail::node*> first;
    for (const auto& k : keys_)
      if (const auto [at, added] = first.emplace(k.first, k.second); !added) refuse(k, *at->second);
  }

  std::string_view text_;
  const std::string& name_;
  yaml_parser_t parser_{};
  YAML::detail::shared_memory_holder memory_ = std::make_shared<YAML::detail::memory_holder>();
  std::unordered_map<std::string, YAML::detail::node*> anchors_;
  bool ended_one_ = false;  // the first document was read: what follows is a second one
  std::vector<std::pair<std::string, const YAML::detail::node*>> keys_;  // a map's, as text
};

}  // namespace

YAML::Node read_yaml(std::string_view text, const std::string& name) { return Reader(text, name).document(); }

}  // namespace placesim
