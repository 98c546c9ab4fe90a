#include "serve/balance_reports.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "arena/balance_report.h"
#include "core/bounded_file.h"

namespace quax {

namespace fs = std::filesystem;

namespace {

constexpr const char* kReportFile = "balance.json";
constexpr const char* kTextFile = "report.txt";
constexpr const char* kMapFile = "openings.svg";
constexpr std::uintmax_t kMapFileLimit = 4 * kMiB;  // a 26x26 map is about 300 KB

bool holds_report(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / kReportFile, ec);
}

// The report's balance.json, parsed; throws std::runtime_error (one line) when it is not a report.
nlohmann::json load_report(const BalanceReportEntry& entry) {
  const std::string path = (fs::path(entry.dir) / kReportFile).string();
  auto report = nlohmann::json::parse(read_regular_file(path, kMetricsFileLimit, "balance report"), nullptr, false);
  if (report.is_discarded() || !report.is_object())
    throw std::runtime_error(path + ": not a balance report (a JSON object)");
  return report;
}

}  // namespace

std::vector<BalanceReportEntry> BalanceReports::list() const {
  std::vector<BalanceReportEntry> found;
  std::set<std::string> names;
  auto add = [&](const fs::path& dir) {
    const std::string name = dir.filename().string();
    if (!name.empty() && names.insert(name).second) found.push_back({name, dir.string()});
  };
  for (const std::string& served : dirs_) {
    // A path ending in '/' has an empty file name: the directory's own name names its report.
    const fs::path dir = fs::path(served).lexically_normal();
    const fs::path named = dir.filename().empty() ? dir.parent_path() : dir;
    if (holds_report(named)) add(named);
    std::error_code ec;
    std::vector<fs::path> subdirs;
    for (const auto& entry : fs::directory_iterator(named, ec))
      if (entry.is_directory(ec) && holds_report(entry.path())) subdirs.push_back(entry.path());
    std::sort(subdirs.begin(), subdirs.end());
    for (const fs::path& sub : subdirs) add(sub);
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  if (found.size() > kMaxBalanceReports) found.resize(kMaxBalanceReports);
  return found;
}

bool BalanceReports::find(const std::string& name, BalanceReportEntry* entry, std::string* error) const {
  for (const BalanceReportEntry& e : list())
    if (e.name == name) {
      *entry = e;
      return true;
    }
  *error = "no balance report '" + name + "'";
  return false;
}

bool BalanceReports::read(const std::string& name, nlohmann::json* out, std::string* error) const {
  BalanceReportEntry entry;
  if (!find(name, &entry, error)) return false;
  try {
    nlohmann::json report = load_report(entry);
    // The text as `quax balance` would print it now; the file beside it when the report is
    // one this build cannot read (written by another version).
    std::string text;
    try {
      text = balance_text(report);
    } catch (const std::exception&) {
      const fs::path path = fs::path(entry.dir) / kTextFile;
      if (regular_file_problem(path.string(), kMetricsFileLimit, "text report").empty())
        text = read_regular_file(path.string(), kMetricsFileLimit, "text report");
    }
    *out = {{"name", entry.name}, {"path", entry.dir}, {"report", std::move(report)}, {"text", std::move(text)}};
    return true;
  } catch (const std::exception& e) {
    *error = e.what();
    return false;
  }
}

bool BalanceReports::compare(const std::vector<std::string>& names, nlohmann::json* out, std::string* error) const {
  if (names.empty() || names.size() > kMaxComparedReports) {
    *error = "name from 1 to " + std::to_string(kMaxComparedReports) + " balance reports to compare";
    return false;
  }
  std::vector<std::pair<std::string, nlohmann::json>> reports;
  for (const std::string& name : names) {
    for (const auto& [seen, report] : reports)
      if (seen == name) {
        *error = "balance report '" + name + "' is named twice";
        return false;
      }
    BalanceReportEntry entry;
    if (!find(name, &entry, error)) return false;
    try {
      reports.emplace_back(name, load_report(entry));
    } catch (const std::exception& e) {
      *error = e.what();
      return false;
    }
  }
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& [figure, cells] : compare_rows(reports)) rows.push_back({figure, cells});
  *out = {{"reports", names}, {"rows", std::move(rows)}};
  return true;
}

bool BalanceReports::map_svg(const std::string& name, std::string* out, std::string* error) const {
  BalanceReportEntry entry;
  if (!find(name, &entry, error)) return false;
  try {
    *out = read_regular_file((fs::path(entry.dir) / kMapFile).string(), kMapFileLimit, "opening map");
    return true;
  } catch (const std::exception& e) {
    *error = e.what();
    return false;
  }
}

}  // namespace quax
