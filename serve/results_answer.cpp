#include "serve/results_answer.h"

#include <malloc.h>
#include <sys/stat.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "arena/results_log.h"
#include "core/bounded_file.h"

namespace quax {

std::shared_ptr<const std::string> ResultsAnswers::answer(const std::string& path, const GameSpec& spec) {
  if (std::string problem = regular_file_problem(path, max_file_bytes_, "results file"); !problem.empty())
    throw std::runtime_error(problem);
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw std::runtime_error("cannot open results file '" + path + "'");
  const std::string key = path + '\n' + std::to_string(st.st_size) + '\n' + std::to_string(st.st_mtim.tv_sec) + '.' +
                          std::to_string(st.st_mtim.tv_nsec) + '\n' + std::to_string(static_cast<int>(spec.variant)) + ' ' +
                          std::to_string(spec.size) + (spec.swap ? " swap" : "");
  std::lock_guard<std::mutex> lock(mu_);
  if (cached_ && key == key_) return cached_;
  cached_.reset();  // before the parse: the old answer and the new one are never held together
  std::shared_ptr<std::string> text;
  {
    const ResultsFileContents contents = read_results_file(path, spec);
    // Written game by game rather than as one json array: a json value per game costs many
    // times the text it becomes.
    text = std::make_shared<std::string>("{\"games\":[");
    for (size_t i = 0; i < contents.results.size(); ++i) {
      const GameResult& r = contents.results[i];
      if (i) *text += ',';
      *text += nlohmann::json{{"index", i}, {"black", r.black}, {"white", r.white}, {"winner", outcome_name(r.outcome)},
                              {"variant", variant_info(r.spec.variant).name}, {"size", r.spec.size},
                              {"swap", r.spec.swap}, {"moves", r.moves}, {"record", r.record}}
                   .dump();
    }
    *text += "],\"skipped_lines\":" + std::to_string(contents.cut_lines.size() + contents.malformed.size()) + "}";
  }
  // The parse's many small blocks are free now; give the pages back to the system (glibc
  // keeps them otherwise, and the process would stay at its peak).
  ::malloc_trim(0);
  key_ = key;
  cached_ = std::move(text);
  return cached_;
}

}  // namespace quax
