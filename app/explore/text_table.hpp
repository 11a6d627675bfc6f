// Tables as `run` and `compare` print them: aligned plain text for a terminal, or Markdown
// (`compare --markdown`) to paste into a report.
#pragma once

#include <string>
#include <vector>

namespace placesim::explore {

enum class TableStyle { Text, Markdown };

// table[0] is the head row. Text: columns aligned (the first left, the rest right), a rule
// under the head and, with rule_before_last, above the last row (a total); a head much wider
// than its column's figures is broken over several lines after ',' and '{'. Markdown: a pipe
// table, the last row set apart only by its content.
std::string render_table(const std::vector<std::vector<std::string>>& table, TableStyle style,
                         bool rule_before_last = false);

// A table's title line: "title\n" as text, "### title\n\n" as Markdown.
std::string table_title(const std::string& title, TableStyle style);

}  // namespace placesim::explore
