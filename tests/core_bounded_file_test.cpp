// The one reader of user-named files: regular files up to a limit, nothing else, never blocking.
#include "core/bounded_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace quax {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir() {
  const fs::path dir = fs::temp_directory_path() / ("quax_bounded_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string error_of(const std::string& path, std::uintmax_t limit) {
  try {
    read_regular_file(path, limit, "test file");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(BoundedFile, ReadsARegularFileWithinItsLimit) {
  const fs::path path = fresh_dir() / "a.txt";
  std::ofstream(path) << std::string(5000, 'x') << "end";
  EXPECT_EQ(read_regular_file(path.string(), 5003, "test file"), std::string(5000, 'x') + "end");
  EXPECT_EQ(regular_file_problem(path.string(), 5003, "test file"), "");
}

TEST(BoundedFile, RefusesAFileOverTheLimitNamingIt) {
  const fs::path path = fresh_dir() / "big.txt";
  std::ofstream(path) << std::string(2 * kMiB + 1, 'x');
  const std::string error = error_of(path.string(), 2 * kMiB);
  EXPECT_NE(error.find("2 MB limit for a test file"), std::string::npos) << error;
  EXPECT_NE(error.find(path.string()), std::string::npos) << error;
  EXPECT_NE(regular_file_problem(path.string(), 2 * kMiB, "test file"), "");
}

TEST(BoundedFile, RefusesAFifoWithoutBlocking) {
  const fs::path path = fresh_dir() / "fifo";
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  const std::string error = error_of(path.string(), kMiB);
  EXPECT_NE(error.find("is a FIFO, not a regular test file"), std::string::npos) << error;
  EXPECT_NE(regular_file_problem(path.string(), kMiB, "test file").find("FIFO"), std::string::npos);
}

TEST(BoundedFile, RefusesDevicesAndDirectories) {
  EXPECT_NE(error_of("/dev/zero", kMiB).find("character device"), std::string::npos);
  EXPECT_NE(error_of("/dev/full", kMiB).find("character device"), std::string::npos);
  EXPECT_NE(error_of(fresh_dir().string(), kMiB).find("a directory"), std::string::npos);
}

TEST(BoundedFile, NamesAMissingFile) {
  const std::string error = error_of("/nonexistent/quax.yaml", kMiB);
  EXPECT_NE(error.find("cannot open test file '/nonexistent/quax.yaml'"), std::string::npos) << error;
}

TEST(BoundedFile, SizesAreWrittenForPeople) {
  EXPECT_EQ(size_text(16 * kMiB), "16 MB");
  EXPECT_EQ(size_text(3 * kMiB / 2), "1.5 MB");
  EXPECT_EQ(size_text(2048), "2 KB");
  EXPECT_EQ(size_text(12), "12 bytes");
}

}  // namespace
}  // namespace quax
