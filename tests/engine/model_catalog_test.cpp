// The shipped models' catalogue: the default pair's models at the top of a model folder, each
// other language pair's in a subfolder named for it.
#include <attnscope/model_catalog.h>
#include <attnscope/model_folders.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "engine/test_models.h"

namespace attnscope {
namespace {
namespace fs = std::filesystem;

TEST(ModelCatalog, LanguagePairsAreTwoCodes) {
  for (const char* pair : {"en-de", "en-fr", "eng-deu"})
    EXPECT_TRUE(is_language_pair(pair)) << pair;
  for (const char* bad : {"", "en", "en-", "-fr", "EN-FR", "en_fr", "../en-fr", "en-fr/..",
                          "en-fr-de", "e-f", "engl-fr", "en-f1"})
    EXPECT_FALSE(is_language_pair(bad)) << bad;
  EXPECT_EQ(shipped_model_name("additive", "en-de"), "additive");
  EXPECT_EQ(shipped_model_name("none", "en-fr"), "none (en→fr)");
}

class ModelCatalogFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = testing::temporary_folder();
    model_ = testing::random_model_file("none");
    fs::create_directories(folder_ + "/xx-yy");
    fs::create_directories(folder_ + "/notapair");
    fs::copy_file(model_, folder_ + "/xx-yy/none.attnmodel");
    fs::copy_file(model_, folder_ + "/notapair/none.attnmodel");
    ::setenv("ATTNSCOPE_MODEL_DIR", folder_.c_str(), 1);
  }
  void TearDown() override { ::unsetenv("ATTNSCOPE_MODEL_DIR"); }

  std::string folder_, model_;
};

TEST_F(ModelCatalogFolder, APairIsASubfolderOfAModelFolder) {
  const auto pairs = shipped_language_pairs();
  ASSERT_FALSE(pairs.empty());
  EXPECT_EQ(pairs.front(), kDefaultLanguagePair);
  EXPECT_NE(std::find(pairs.begin(), pairs.end(), "xx-yy"), pairs.end());
  EXPECT_EQ(std::find(pairs.begin(), pairs.end(), "notapair"), pairs.end());
  EXPECT_TRUE(std::is_sorted(pairs.begin() + 1, pairs.end()));
  EXPECT_EQ(std::adjacent_find(pairs.begin(), pairs.end()), pairs.end());  // each once

  const std::string expected = folder_ + "/xx-yy/none.attnmodel";
  EXPECT_EQ(resolve_model("none", "xx-yy"), expected);
  EXPECT_EQ(find_shipped_model("none", "../notapair"), "");  // never out of the folders
  EXPECT_EQ(resolve_model("my/own.attnmodel", "xx-yy"), "my/own.attnmodel");  // a path
  bool listed = false;
  for (const ModelInfo& info : installed_models()) listed = listed || info.path == expected;
  EXPECT_TRUE(listed);
}

TEST_F(ModelCatalogFolder, AMissingModelOrABadPairIsNamed) {
  try {
    resolve_model("dot", "xx-yy");
    FAIL() << "resolved";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "no shipped xx-yy model for score function 'dot' (xx-yy ships 'none')");
  }
  try {
    resolve_model("none", "../etc");
    FAIL() << "resolved";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("'../etc' is not two language codes"), std::string::npos)
        << e.what();
  }
}

// A broken file in ATTNSCOPE_MODEL_DIR gives way to a usable model of the same name further down
// the folders, and says why; when none is usable, the error is the broken file's.
TEST_F(ModelCatalogFolder, ABrokenModelDoesNotHideAUsableOneAndIsNamed) {
  // Broken, and the only one of its pair: its own problem is the error.
  fs::create_directories(folder_ + "/zz-ww");
  std::ofstream(folder_ + "/zz-ww/dot.attnmodel") << "not a model";
  ASSERT_EQ(shipped_model_candidates("dot", "zz-ww").size(), 1u);
  std::vector<std::string> skipped;
  EXPECT_EQ(find_usable_model("dot", "zz-ww", &skipped), "");
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_NE(skipped[0].find(folder_ + "/zz-ww/dot.attnmodel"), std::string::npos) << skipped[0];
  try {
    resolve_model("dot", "zz-ww");
    FAIL() << "resolved";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/zz-ww/dot.attnmodel"), std::string::npos) << e.what();
  }
  skipped.clear();
  installed_models(&skipped);
  EXPECT_EQ(skipped.size(), 1u);

  // The shipped additive model of the default pair, shadowed by a broken one: still found.
  if (find_shipped_model("additive").empty()) GTEST_SKIP() << "no shipped additive model";
  std::ofstream(folder_ + "/additive.attnmodel") << "broken";
  skipped.clear();
  const std::string found = find_usable_model("additive", kDefaultLanguagePair, &skipped);
  EXPECT_NE(found, "");
  EXPECT_NE(found, folder_ + "/additive.attnmodel");
  EXPECT_EQ(resolve_model("additive"), found);
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_NE(skipped[0].find(folder_ + "/additive.attnmodel"), std::string::npos) << skipped[0];
}

TEST(ModelCatalog, AModelFolderThatDoesNotExistIsSaid) {
  ::setenv("ATTNSCOPE_MODEL_DIR", "/no/such/folder", 1);
  EXPECT_NE(model_dir_environment_problem().find("'/no/such/folder' does not exist"),
            std::string::npos);
  ::setenv("ATTNSCOPE_MODEL_DIR", testing::temporary_folder().c_str(), 1);
  EXPECT_EQ(model_dir_environment_problem(), "");
  ::unsetenv("ATTNSCOPE_MODEL_DIR");
  EXPECT_EQ(model_dir_environment_problem(), "");
}

}  // namespace
}  // namespace attnscope
