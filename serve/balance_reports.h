// What the browser's Balance tab may open: the reports of `quax balance --out DIR`
// (docs/BALANCE.md) under the served balance directories. A served directory is a report when
// it holds balance.json itself, and each of its subdirectories that holds one is a report too
// (`docs/balance/` serves every shipped model's report). Nothing outside them is read,
// whatever a request names or a link in them points at: a request names a listed report, never
// a path, and every file is read inside its served directory (serve/served_folder.h: a report
// directory, balance.json, report.txt or openings.svg that resolves outside it is not served).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "serve/served_folder.h"

namespace quax {

// Reports listed at most (the first ones by name), and reports one comparison may hold.
inline constexpr size_t kMaxBalanceReports = 500;
inline constexpr size_t kMaxComparedReports = 8;

struct BalanceReportEntry {
  std::string name;   // the report directory's name: what requests use
  std::string dir;    // the directory, as found under a served directory
  size_t served = 0;  // the served directory it lies in (an index of dirs())
};

class BalanceReports {
 public:
  explicit BalanceReports(const std::vector<std::string>& dirs);

  const std::vector<std::string>& dirs() const { return dirs_; }

  // The reports now on disk (scanned at each call: a running `quax balance` adds one), sorted
  // by name; a name met twice keeps the first served directory's, at most kMaxBalanceReports.
  std::vector<BalanceReportEntry> list() const;

  // The listed report `name`: {"name", "path", "report": balance.json, "text": its text report
  // (arena/balance_report.h)}. Returns false with *error (one line) when `name` is not listed
  // or its balance.json is unreadable, too large or not a report (a JSON object).
  bool read(const std::string& name, nlohmann::json* out, std::string* error) const;

  // The reports `names` side by side as `quax balance compare` prints them: {"reports":
  // [names], "rows": [[figure, [cell per report]]...]}. Returns false with *error when a name
  // is not readable (as read()), is given twice, or when there are none or more than
  // kMaxComparedReports.
  bool compare(const std::vector<std::string>& names, nlohmann::json* out, std::string* error) const;

  // The opening map (openings.svg) of the listed report `name`. Returns false with *error when
  // `name` is not listed or the map is missing, not a regular file or too large.
  bool map_svg(const std::string& name, std::string* out, std::string* error) const;

 private:
  // The listed entry `name`, or false with *error.
  bool find(const std::string& name, BalanceReportEntry* entry, std::string* error) const;

  // The whole of `file` of the report `entry` (through ServedFolder::read).
  std::string read_file(const BalanceReportEntry& entry, const char* file, std::uintmax_t max_bytes,
                        const std::string& what) const;

  std::vector<std::string> dirs_;
  std::vector<ServedFolder> folders_;  // dirs_, one each
};

}  // namespace quax
