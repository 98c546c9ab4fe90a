// `quax balance compare DIR...`: the balance reports of several runs of `quax balance` side
// by side: a table on stdout (one row per figure, one column per report) and the same as
// Markdown, with the opening maps next to each other, in --out (default balance-compare.md).
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "arena/balance_report.h"
#include "command/command.h"
#include "core/bounded_json.h"
#include "core/atomic_file.h"
#include "core/bounded_file.h"

namespace quax {
namespace {

namespace fs = std::filesystem;

void setup_balance_compare(CLI::App& app) {
  struct Options {
    std::vector<std::string> dirs;
    std::string out = "balance-compare.md";
  };
  auto opt = std::make_shared<Options>();
  auto* cmd = app.get_subcommand("balance")->add_subcommand(
      "compare", "The balance reports of several `quax balance --out` directories side by side");
  cmd->add_option("dirs", opt->dirs, "Directories holding balance.json")->required();
  cmd->add_option("--out", opt->out, "Markdown file with the table and the opening maps");
  cmd->callback([opt] {
    std::vector<std::pair<std::string, nlohmann::json>> reports;
    std::vector<std::string> maps;
    const fs::path base = fs::absolute(fs::path(opt->out)).parent_path();
    for (const std::string& dir : opt->dirs) {
      const std::string path = dir + "/balance.json";
      nlohmann::json report;
      try {
        report = parse_json(read_regular_file(path, kMetricsFileLimit, "balance report"), "the report");
      } catch (const std::exception& e) {
        throw CommandError(path + ": " + first_line(e.what()));
      }
      if (!report.is_object()) throw CommandError(path + ": not a balance report (a JSON object)");
      reports.emplace_back(dir, report);
      maps.push_back(fs::proximate(fs::absolute(fs::path(dir) / "openings.svg"), base).generic_string());
    }
    const auto rows = compare_rows(reports);
    std::vector<size_t> width(reports.size() + 1, 0);
    for (const auto& [name, cells] : rows) {
      width[0] = std::max(width[0], name.size());
      for (size_t i = 0; i < cells.size(); ++i) width[i + 1] = std::max(width[i + 1], cells[i].size());
    }
    for (const auto& [name, cells] : rows) {
      std::string line = fmt::format("{:<{}}", name, width[0]);
      for (size_t i = 0; i < cells.size(); ++i) line += fmt::format("  {:<{}}", cells[i], width[i + 1]);
      while (!line.empty() && line.back() == ' ') line.pop_back();
      std::puts(line.c_str());
    }
    write_file_atomically(opt->out, compare_markdown(reports, maps));
    std::printf("written: %s\n", opt->out.c_str());
  });
}

REGISTER_COMMAND("balance.compare", setup_balance_compare);

}  // namespace
}  // namespace quax
