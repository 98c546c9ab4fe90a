#include "serve/balance_reports.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "arena/balance_report.h"
#include "core/bounded_file.h"
#include "core/bounded_json.h"

namespace quax {

namespace fs = std::filesystem;

namespace {

constexpr const char* kReportFile = "balance.json";
constexpr const char* kTextFile = "report.txt";
constexpr const char* kMapFile = "openings.svg";
constexpr std::uintmax_t kMapFileLimit = 4 * kMiB;  // a 26x26 map is about 300 KB

// The report's balance.json text, parsed (nesting bounded: core/bounded_json.h); throws
// std::runtime_error (one line) when it is not a report.
nlohmann::json parse_report(const std::string& text, const std::string& path) {
  nlohmann::json report;
  try {
    report = parse_json(text, path);
  } catch (const JsonError& e) {
    if (e.byte == 0) throw;  // nested too deep: that line says so
    report = nlohmann::json(nlohmann::json::value_t::discarded);
  }
  if (!report.is_object()) throw std::runtime_error(path + ": not a balance report (a JSON object)");
  return report;
}

}  // namespace

BalanceReports::BalanceReports(const std::vector<std::string>& dirs) : dirs_(dirs) {
  for (const std::string& dir : dirs_) folders_.emplace_back(dir);
}

std::vector<BalanceReportEntry> BalanceReports::list() const {
  std::vector<BalanceReportEntry> found;
  std::set<std::string> names;
  for (size_t served = 0; served < folders_.size(); ++served) {
    const ServedFolder& folder = folders_[served];
    // A report: a directory inside the served one (or the served one itself) whose
    // balance.json is a regular file inside it too.
    auto add = [&](const fs::path& dir) {
      const std::string name = dir.filename().string();
      if (!name.empty() && folder.is_folder(dir.string()) && folder.is_file((dir / kReportFile).string()) &&
          names.insert(name).second)
        found.push_back({name, dir.string(), served});
    };
    // A path ending in '/' has an empty file name: the directory's own name names its report.
    const fs::path dir = fs::path(folder.dir()).lexically_normal();
    const fs::path named = dir.filename().empty() ? dir.parent_path() : dir;
    add(named);
    for (const std::string& sub : folder.names()) add(named / sub);
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  if (found.size() > kMaxBalanceReports) found.resize(kMaxBalanceReports);
  return found;
}

std::string BalanceReports::read_file(const BalanceReportEntry& entry, const char* file, std::uintmax_t max_bytes,
                                      const std::string& what) const {
  return folders_[entry.served].read((fs::path(entry.dir) / file).string(), max_bytes, what);
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
    nlohmann::json report = parse_report(read_file(entry, kReportFile, kMetricsFileLimit, "balance report"),
                            (fs::path(entry.dir) / kReportFile).string());
    // The text as `quax balance` would print it now; the file beside it when the report is
    // one this build cannot read (written by another version), "" when that is not readable.
    std::string text;
    try {
      text = balance_text(report);
    } catch (const std::exception&) {
      try {
        text = read_file(entry, kTextFile, kMetricsFileLimit, "text report");
      } catch (const std::exception&) {
      }
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
      reports.emplace_back(name, parse_report(read_file(entry, kReportFile, kMetricsFileLimit, "balance report"),
                            (fs::path(entry.dir) / kReportFile).string()));
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
    *out = read_file(entry, kMapFile, kMapFileLimit, "opening map");
    return true;
  } catch (const std::exception& e) {
    *error = e.what();
    return false;
  }
}

}  // namespace quax
