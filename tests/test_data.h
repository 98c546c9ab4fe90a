// Test helper: the files of tests/data (games, positions and figures transcribed from the
// original rule texts; tests/data/README.md names the source of each). QUAX_TEST_DATA_DIR is
// set by tests/CMakeLists.txt.
//
// A missing or malformed file throws std::runtime_error naming the file: the test fails
// (GoogleTest reports the exception), it is never skipped.
#pragma once

#include <cctype>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace quax::testing {

inline std::string test_data_path(const std::string& name) { return std::string(QUAX_TEST_DATA_DIR) + "/" + name; }

// The lines of tests/data/<name> that hold data: lines starting with `#` (the source notes)
// and blank lines are left out. Throws when the file cannot be read or holds no data.
inline std::vector<std::string> read_test_data(const std::string& name) {
  const std::string path = test_data_path(name);
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read test data file " + path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#' || line.find_first_not_of(" \t") == std::string::npos) continue;
    lines.push_back(line);
  }
  if (lines.empty()) throw std::runtime_error("test data file " + path + " holds no data");
  return lines;
}

// A square diagram written one row a line as `<row number> <n cells separated by spaces>`,
// rows in any order: returns rows[r - 1] = the n cell characters of row r. Throws unless rows
// 1..n each appear exactly once with n cells.
inline std::vector<std::string> read_numbered_rows(const std::string& name, int n) {
  std::vector<std::string> rows(n);
  for (const std::string& line : read_test_data(name)) {
    size_t i = 0;
    int row = 0;
    while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i]))) row = row * 10 + (line[i++] - '0');
    std::string cells;
    for (; i < line.size(); ++i)
      if (line[i] != ' ') cells += line[i];
    if (row < 1 || row > n || !rows[row - 1].empty() || static_cast<int>(cells.size()) != n)
      throw std::runtime_error(test_data_path(name) + ": bad row line '" + line + "' (expected a new row number 1.." +
                               std::to_string(n) + " and " + std::to_string(n) + " cells)");
    rows[row - 1] = cells;
  }
  for (int r = 0; r < n; ++r)
    if (rows[r].empty()) throw std::runtime_error(test_data_path(name) + ": row " + std::to_string(r + 1) + " is missing");
  return rows;
}

}  // namespace quax::testing
