#include "sim/explore/text_table.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace placesim::explore {

static std::string render_text(const std::vector<std::vector<std::string>>& table, bool rule_before_last) {
  std::vector<size_t> width(table[0].size(), 0);
  for (auto& line : table)
    for (size_t k = 0; k < line.size(); ++k) width[k] = std::max(width[k], line[k].size());
  std::string out;
  for (size_t i = 0; i < table.size(); ++i) {
    for (size_t k = 0; k < table[i].size(); ++k)
      out += k == 0 ? fmt::format("{:<{}}", table[i][k], width[k]) : fmt::format("  {:>{}}", table[i][k], width[k]);
    out += "\n";
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
