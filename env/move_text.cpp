#include "env/move_text.h"
#include "core/quoted_input.h"

#include <algorithm>
#include <cctype>

namespace quax {

std::string lower_case(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

std::string move_text(std::string_view text) {
  std::string t;
  for (char ch : text)
    if (!std::isspace(static_cast<unsigned char>(ch))) t += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return t;
}

std::string column_letter(int column) { return std::string(1, static_cast<char>('a' + column)); }

std::string cell_name(int cell, int n) { return column_letter(cell % n) + std::to_string(cell / n + 1); }

bool read_cell(std::string_view t, size_t* i, int* column, int* row) {
  if (*i >= t.size() || t[*i] < 'a' || t[*i] > 'z') return false;
  *column = t[(*i)++] - 'a';
  const size_t start = *i;
  int number = 0;
  while (*i < t.size() && std::isdigit(static_cast<unsigned char>(t[*i])) && *i - start < 3)
    number = number * 10 + (t[(*i)++] - '0');
  *row = number - 1;
  return *i > start;
}

std::string off_board(std::string_view text, int n) {
  return quoted_input(text) + " is off the " + std::to_string(n) + "x" + std::to_string(n) + " board";
}

int not_a_move(std::string* error, const std::string& why) {
  if (error) *error = why;
  return -1;
}

}  // namespace quax
