// Seeded mutations of valid files, for the fuzz tests (tests/fuzz_*_test.cpp): without a
// coverage-guided fuzzer (CI has g++ alone), hostile inputs are made from real files by the
// edits that break readers most often - flipped bits, cut or repeated ranges, two files spliced,
// numbers replaced by extremes, huge counts in binary headers, deep nesting and the format's
// own special tokens (YAML anchors and aliases, JSON brackets). Deterministic for a seed.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace quax::fuzz {

struct MutatorOptions {
  bool text = true;  // token-level edits (numbers, lines, nesting) besides the byte-level ones
  // Format words inserted at random places (e.g. "*a", "extends: ", "\"size\":").
  std::vector<std::string> dictionary;
  // Bracket pairs for deep nesting (e.g. {"[", "]"}); one is wrapped around a range many times.
  std::vector<std::pair<std::string, std::string>> nesting;
  // Bigger results are cut to this size: a reader must refuse a big file by its limit, which
  // is no business of a fuzzer that wants many inputs a second.
  size_t max_bytes = 64 * 1024;
  // Run on some results (half of them) after the edits: e.g. puts back a checksum the edits
  // broke, so that the reader gets past it to the fields behind.
  std::function<void(std::string*)> repair;
};

class Mutator {
 public:
  Mutator(uint64_t seed, std::vector<std::string> seeds, MutatorOptions options)
      : rng_(seed), corpus_(std::move(seeds)), seed_count_(corpus_.size()), options_(std::move(options)) {}

  // A new input: a corpus entry with 1 to 6 edits (rarely up to 30).
  std::string next() {
    std::string s = corpus_[pick(corpus_.size())];
    deepest_ = false;
    const int edits = chance(16) ? 1 + static_cast<int>(pick(30)) : 1 + static_cast<int>(pick(6));
    for (int i = 0; i < edits; ++i) mutate(&s);
    // The deepest nesting keeps its depth: cut at max_bytes it would stop short of it.
    const size_t cap = deepest_ ? std::max(options_.max_bytes, size_t{1} << 20) : options_.max_bytes;
    if (s.size() > cap) s.resize(cap);
    if (options_.repair && chance(2)) options_.repair(&s);
    return s;
  }

  // An input the reader accepted joins the corpus (a few hundred at most, the seeds kept):
  // edits of accepted inputs get deeper into a reader than edits of the seeds alone.
  void accepted(const std::string& input) {
    // The deepest nestings may pass max_bytes; kept, a few hundred of them would fill the
    // memory the harness allows the whole run.
    if (input.size() > options_.max_bytes) return;
    if (corpus_.size() < seed_count_ + 256) corpus_.push_back(input);
    else if (corpus_.size() > seed_count_) corpus_[seed_count_ + pick(corpus_.size() - seed_count_)] = input;
  }

 private:
  size_t pick(size_t n) { return n == 0 ? 0 : static_cast<size_t>(rng_() % n); }
  bool chance(int one_in) { return pick(static_cast<size_t>(one_in)) == 0; }

  void mutate(std::string* s) {
    const int kinds = options_.text ? 18 : 12;
    switch (pick(static_cast<size_t>(kinds))) {
      case 0: flip_bit(s); break;
      case 1: set_byte(s); break;
      case 2: insert_bytes(s); break;
      case 3: erase_range(s); break;
      case 4: repeat_range(s); break;
      case 5: copy_range(s); break;
      case 6: splice(s); break;
      case 7: truncate(s); break;
      case 8: case 9: put_integer(s); break;
      case 10: put_float(s); break;
      case 11: insert_word(s); break;
      case 12: case 13: replace_number(s); break;
      case 14: repeat_line(s); break;
      case 15: erase_or_swap_line(s); break;
      case 16: nest(s); break;
      default: insert_word(s); break;
    }
  }

  void flip_bit(std::string* s) {
    if (!s->empty()) (*s)[pick(s->size())] ^= static_cast<char>(1 << pick(8));
  }
  void set_byte(std::string* s) {
    static const char kBytes[] = {0, '\xff', '\x7f', '\x80', '\n', '\r', '"', '\'', '\\', '{', '}', '[', ']',
                                  ':', ',', '-', ' ', '\t', '&', '*', '#', '0', '9', '.', '/', '\xc3'};
    if (s->empty()) return;
    (*s)[pick(s->size())] = chance(2) ? kBytes[pick(sizeof kBytes)] : static_cast<char>(rng_());
  }
  void insert_bytes(std::string* s) {
    std::string bytes(1 + pick(8), '\0');
    for (char& c : bytes) c = static_cast<char>(rng_());
    s->insert(pick(s->size() + 1), bytes);
  }
  // A range of up to `most` bytes: [*at, *at + *len).
  void range(const std::string& s, size_t most, size_t* at, size_t* len) {
    *at = pick(s.size() + 1);
    *len = std::min(s.size() - *at, 1 + pick(most));
  }
  void erase_range(std::string* s) {
    size_t at, len;
    range(*s, chance(4) ? s->size() : 16, &at, &len);
    s->erase(at, len);
  }
  void repeat_range(std::string* s) {
    size_t at, len;
    range(*s, 64, &at, &len);
    const std::string part = s->substr(at, len);
    const size_t times = chance(4) ? 1 + pick(2000) : 1 + pick(4);
    std::string repeated;
    for (size_t i = 0; i < times && repeated.size() < options_.max_bytes; ++i) repeated += part;
    s->insert(at + len, repeated);
  }
  void copy_range(std::string* s) {
    size_t at, len;
    range(*s, 64, &at, &len);
    const std::string part = s->substr(at, len);
    const size_t to = pick(s->size() + 1);
    s->replace(to, std::min(part.size(), s->size() - to), part);
  }
  void splice(std::string* s) {
    const std::string& other = corpus_[pick(corpus_.size())];
    *s = s->substr(0, pick(s->size() + 1)) + other.substr(pick(other.size() + 1));
  }
  void truncate(std::string* s) { s->resize(pick(s->size() + 1)); }

  // Extremes of counts and lengths, little-endian, 1 to 8 bytes wide.
  void put_integer(std::string* s) {
    static const uint64_t kValues[] = {0,          1,          0x7f,       0x80,       0xff,       0x7fff,
                                       0x8000,     0xffff,     0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ull,
                                       ~0ull,      1ull << 62, 0x7fffffffffffffffull, 0x8000000000000000ull};
    static const int kWidths[] = {1, 2, 4, 8};
    const int width = kWidths[pick(4)];
    if (s->size() < static_cast<size_t>(width)) return;
    uint64_t v = kValues[pick(sizeof kValues / sizeof kValues[0])];
    if (chance(4)) v += pick(3) - 1;
    const size_t at = pick(s->size() - width + 1);
    for (int i = 0; i < width; ++i) (*s)[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
  }
  void put_float(std::string* s) {
    static const uint32_t kBits[] = {0x7fc00000, 0xffc00000, 0x7f800000, 0xff800000, 0x80000000,
                                     0x00000001, 0x7f7fffff, 0x3f800001, 0xbf800000, 0x4f000000};
    if (s->size() < 4) return;
    const uint32_t v = kBits[pick(sizeof kBits / sizeof kBits[0])];
    const size_t at = pick(s->size() - 3);
    for (int i = 0; i < 4; ++i) (*s)[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
  }
  void insert_word(std::string* s) {
    static const std::vector<std::string> kCommon = {"\n", " ", ",", "\"", "0", "-1", "\\u0000", "\xef\xbb\xbf"};
    const auto& words = options_.dictionary.empty() || chance(4) ? kCommon : options_.dictionary;
    s->insert(pick(s->size() + 1), words[pick(words.size())]);
  }

  // The number written at a random digit is replaced by an extreme.
  void replace_number(std::string* s) {
    static const char* const kNumbers[] = {
        "0", "-1", "1", "2147483647", "-2147483648", "2147483648", "4294967295", "4294967296",
        "9223372036854775807", "-9223372036854775808", "18446744073709551616", "1e308", "-1e308", "1e309",
        "1e-320", "nan", "NaN", ".nan", "inf", "-inf", ".inf", "-.inf", "0.0", "-0", "0x7fffffff", "1e9",
        "99999999999999999999999999999", "1.5", "3", "255", "256", "65535", "65536", "-32768"};
    std::vector<size_t> digits;
    for (size_t i = 0; i < s->size(); ++i)
      if ((*s)[i] >= '0' && (*s)[i] <= '9') digits.push_back(i);
    const char* number = kNumbers[pick(sizeof kNumbers / sizeof kNumbers[0])];
    if (digits.empty()) {
      s->insert(pick(s->size() + 1), number);
      return;
    }
    size_t begin = digits[pick(digits.size())], end = begin;
    auto in_number = [&](char c) { return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E'; };
    while (begin > 0 && (in_number((*s)[begin - 1]) || (*s)[begin - 1] == '-')) --begin;
    while (end < s->size() && in_number((*s)[end])) ++end;
    s->replace(begin, end - begin, number);
  }

  // Lines: [begin, end) of each, the newline included when there is one.
  std::vector<std::pair<size_t, size_t>> lines(const std::string& s) {
    std::vector<std::pair<size_t, size_t>> out;
    for (size_t begin = 0; begin < s.size();) {
      const size_t nl = s.find('\n', begin);
      const size_t end = nl == std::string::npos ? s.size() : nl + 1;
      out.emplace_back(begin, end);
      begin = end;
    }
    return out;
  }
  void repeat_line(std::string* s) {
    const auto all = lines(*s);
    if (all.empty()) return;
    const auto [begin, end] = all[pick(all.size())];
    std::string line = s->substr(begin, end - begin);
    if (line.empty() || line.back() != '\n') line += '\n';
    const size_t times = chance(4) ? 1 + pick(1000) : 1;
    std::string repeated;
    for (size_t i = 0; i < times && repeated.size() < options_.max_bytes; ++i) repeated += line;
    s->insert(chance(2) ? begin : all[pick(all.size())].first, repeated);
  }
  void erase_or_swap_line(std::string* s) {
    const auto all = lines(*s);
    if (all.size() < 2) return;
    const auto a = all[pick(all.size())], b = all[pick(all.size())];
    if (chance(2) || a == b) {
      s->erase(a.first, a.second - a.first);
      return;
    }
    const auto& [first, second] = a.first < b.first ? std::make_pair(a, b) : std::make_pair(b, a);
    std::string out = s->substr(0, first.first) + s->substr(second.first, second.second - second.first) +
                      s->substr(first.second, second.first - first.second) +
                      s->substr(first.first, first.second - first.first) + s->substr(second.second);
    *s = std::move(out);
  }
  // A range wrapped in up to 200,000 brackets: recursive readers run out of stack. The
  // deepest (one in 16) may pass max_bytes: 40,000 levels once passed where 100,000 crashed.
  void nest(std::string* s) {
    if (options_.nesting.empty()) return insert_word(s);
    const auto& [open, close] = options_.nesting[pick(options_.nesting.size())];
    size_t at, len;
    range(*s, 64, &at, &len);
    const bool deepest = chance(16);
    deepest_ = deepest_ || deepest;
    const size_t depth = deepest ? 100000 + pick(100000) : chance(2) ? 1 + pick(8) : 1 + pick(20000);
    const size_t cap = deepest ? depth * open.size() : options_.max_bytes / 2;
    std::string opens, closes;
    for (size_t i = 0; i < depth && opens.size() < cap; ++i) {
      opens += open;
      closes += close;
    }
    s->insert(at + len, closes);
    s->insert(at, opens);
  }

  std::mt19937_64 rng_;
  bool deepest_ = false;  // the input being made holds nesting of 100,000 levels or more
  std::vector<std::string> corpus_;
  size_t seed_count_;
  MutatorOptions options_;
};

}  // namespace quax::fuzz
