// remove_tree: the removal of scratch and run directories that does not go through
// std::filesystem::remove_all (core/remove_tree.h says why).
#include "core/remove_tree.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace quax {
namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("quax_remove_tree_" + name + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write(const fs::path& p) { std::ofstream(p) << "x"; }

TEST(RemoveTree, RemovesADeepTreeOfFilesAndDirectories) {
  const fs::path root = scratch("deep");
  fs::path d = root;
  for (int i = 0; i < 40; ++i) {  // deeper than the directories nftw keeps open at once (16)
    d /= "d" + std::to_string(i);
    fs::create_directories(d);
    write(d / "f");
  }
  fs::create_directories(root / "empty");
  remove_tree(root.string());
  EXPECT_FALSE(fs::exists(root));
}

TEST(RemoveTree, RemovesALinkNotWhatItPointsTo) {
  const fs::path outside = scratch("outside");
  write(outside / "kept");
  const fs::path root = scratch("links");
  fs::create_directory_symlink(outside, root / "to_dir");
  fs::create_symlink(outside / "kept", root / "to_file");
  remove_tree(root.string());
  EXPECT_FALSE(fs::exists(root));
  EXPECT_TRUE(fs::exists(outside / "kept"));
  fs::remove_all(outside);
}

TEST(RemoveTree, AMissingPathIsNotAnErrorAndAFileIsRemoved) {
  const fs::path root = scratch("file");
  EXPECT_NO_THROW(remove_tree((root / "absent").string()));
  write(root / "f");
  remove_tree((root / "f").string());
  EXPECT_FALSE(fs::exists(root / "f"));
  EXPECT_TRUE(fs::exists(root));
  fs::remove_all(root);
}

TEST(RemoveTree, APathThroughAFileNamesItInTheError) {
  const fs::path root = scratch("notdir");
  write(root / "f");
  const std::string path = (root / "f" / "sub").string();
  try {
    remove_tree(path);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot remove '" + path + "': Not a directory");
  }
  EXPECT_TRUE(fs::exists(root / "f"));
  fs::remove_all(root);
}

}  // namespace
}  // namespace quax
