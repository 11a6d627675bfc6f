#include "app/explore/text_table.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace placesim::explore {

// A head wider than both its column's figures and kHeadWidth is broken after ',' and '{' into
// lines no wider than the larger of the two (a piece without a break stays whole): a MILP
// placer's label with its options would otherwise widen the table by its whole length.
constexpr size_t kHeadWidth = 24;

static std::vector<std::string> wrap_head(const std::string& head, size_t width) {
  std::vector<std::string> lines{""};
  size_t start = 0;
  while (start < head.size()) {
    size_t end = head.find_first_of(",{", start);
    end = end == std::string::npos ? head.size() : end + 1;
    const std::string piece = head.substr(start, end - start);
    if (!lines.back().empty() && lines.back().size() + piece.size() > width) lines.emplace_back();
    lines.back() += piece;
    start = end;
  }
  return lines;
}

static std::string render_text(const std::vector<std::vector<std::string>>& table, bool rule_before_last) {
  const size_t columns = table[0].size();
  std::vector<size_t> width(columns, 0);
  for (size_t i = 1; i < table.size(); ++i)
    for (size_t k = 0; k < table[i].size(); ++k) width[k] = std::max(width[k], table[i][k].size());
  std::vector<std::vector<std::string>> head(columns);
  size_t head_lines = 1;
  for (size_t k = 0; k < columns; ++k) {
    head[k] = k == 0 ? std::vector<std::string>{table[0][k]} : wrap_head(table[0][k], std::max(width[k], kHeadWidth));
    for (const std::string& line : head[k]) width[k] = std::max(width[k], line.size());
    head_lines = std::max(head_lines, head[k].size());
  }
  std::string out;
  for (size_t j = 0; j < head_lines; ++j) {  // heads end on the last head line
    for (size_t k = 0; k < columns; ++k) {
      const size_t from = head_lines - head[k].size();
      const std::string& text = j >= from ? head[k][j - from] : std::string();
      out += k == 0 ? fmt::format("{:<{}}", text, width[k]) : fmt::format("  {:>{}}", text, width[k]);
    }
    out.erase(out.find_last_not_of(' ') + 1);  // a line of shorter heads ends in padding
    out += "\n";
  }
  for (size_t i = 0; i < table.size(); ++i) {
    if (i > 0) {
      for (size_t k = 0; k < table[i].size(); ++k)
        out += k == 0 ? fmt::format("{:<{}}", table[i][k], width[k]) : fmt::format("  {:>{}}", table[i][k], width[k]);
      out += "\n";
    }
    if (i == 0 || (i + 2 == table.size() && rule_before_last)) {
      size_t total = 0;
      for (size_t w : width) total += w + 2;
      out += std::string(total - 2, '-') + "\n";
    }
  }
  return out;
}

// A cell's own '|' would end it early.
static std::string markdown_cell(const std::string& s) {
  std::string out;
  for (char ch : s) {
    if (ch == '|') out += '\\';
    out += ch;
  }
  return out;
}

static std::string render_markdown(const std::vector<std::vector<std::string>>& table) {
  std::string out;
  for (size_t i = 0; i < table.size(); ++i) {
    out += "|";
    for (const std::string& c : table[i]) out.append(" ").append(markdown_cell(c)).append(" |");
    out += "\n";
    if (i == 0) {
      out += "|";
      for (size_t k = 0; k < table[0].size(); ++k) out += k == 0 ? " --- |" : " ---: |";
      out += "\n";
    }
  }
  return out;
}

std::string render_table(const std::vector<std::vector<std::string>>& table, TableStyle style, bool rule_before_last) {
  return style == TableStyle::Markdown ? render_markdown(table) : render_text(table, rule_before_last);
}

std::string table_title(const std::string& title, TableStyle style) {
  return style == TableStyle::Markdown ? "### " + title + "\n\n" : title + "\n";
}

}  // namespace placesim::explore
