// The shipped models' catalogue: the default pair's models at the top of a model folder, each
// other language pair's in a subfolder named for it.
#include <attnscope/model_catalog.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

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

}  // namespace
}  // namespace attnscope
