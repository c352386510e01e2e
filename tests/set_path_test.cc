// Tests of where a table set lives: which paths name a set, the folder and manifest a path
// gives (a folder, a folder with a trailing slash, a manifest by its usual name or another, a
// bare file name, a path that does not exist), and which folders hold a set.
#include "loyd/tables/set_path.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;

namespace loyd {
namespace {

class SetPathTest : public testing::Test {
protected:
    void SetUp() override {
        root_ = fs::temp_directory_path() / ("loyd_set_path_" + std::to_string(::getpid()));
        fs::create_directories(root_ / "set");
        fs::create_directories(root_ / "empty");
        std::ofstream(root_ / "set" / "manifest.txt") << "loyd-pdb-set 1\n";
        std::ofstream(root_ / "set" / "other.txt") << "loyd-pdb-set 1\n";
        std::ofstream(root_ / "set" / "a.pdb") << "table";
        std::ofstream(root_ / "set" / "t.pdb") << std::string("LOYDPDB\0", 8) << "...";
        std::ofstream(root_ / "set" / "commented.cfg")
            << "\xEF\xBB\xBF\n  # a set\nloyd-pdb-set 1\n";
        std::ofstream(root_ / "set" / "empty.txt") << "";
    }
    void TearDown() override { fs::remove_all(root_); }
    std::string at(const std::string& rel) const { return (root_ / rel).string(); }

    fs::path root_;
};

// A folder, a file called manifest.txt, or a file whose text starts as a manifest's.
TEST_F(SetPathTest, NamesSetIsAFolderOrAManifest) {
    EXPECT_TRUE(tables::names_set(at("set")));
    EXPECT_TRUE(tables::names_set(at("set/")));
    EXPECT_TRUE(tables::names_set(at("empty")));
    EXPECT_TRUE(tables::names_set(at("set/manifest.txt")));
    EXPECT_TRUE(tables::names_set(at("missing/manifest.txt")));  // by its name, before it is opened
    EXPECT_TRUE(tables::names_set("manifest.txt"));
    EXPECT_TRUE(tables::names_set(at("set/other.txt")));      // a manifest by another name
    EXPECT_TRUE(tables::names_set(at("set/commented.cfg")));  // a BOM, blank line, comment
    EXPECT_FALSE(tables::names_set(at("set/a.pdb")));
    EXPECT_FALSE(tables::names_set(at("set/t.pdb")));  // a table's magic
    EXPECT_FALSE(tables::names_set(at("set/empty.txt")));
    ASSERT_EQ(::mkfifo(at("set/fifo").c_str(), 0600), 0);
    EXPECT_FALSE(tables::names_set(at("set/fifo")));  // not opened: it would wait for a writer
    EXPECT_FALSE(tables::names_set(at("missing")));
    EXPECT_FALSE(tables::names_set(""));
}

TEST(StartsAsManifest, TheKeyOrACommentAfterABomAndWhiteSpace) {
    EXPECT_TRUE(tables::starts_as_manifest("loyd-pdb-set 1\n"));
    EXPECT_TRUE(tables::starts_as_manifest("# loyd pattern-database set\n"));
    EXPECT_TRUE(tables::starts_as_manifest("\xEF\xBB\xBF\r\n\t loyd-pdb-set 2"));
    EXPECT_FALSE(tables::starts_as_manifest(std::string("LOYDPDB\0\x04", 9)));
    EXPECT_FALSE(tables::starts_as_manifest(""));
    EXPECT_FALSE(tables::starts_as_manifest(" \n\t"));
    EXPECT_FALSE(tables::starts_as_manifest("loyd-pdb"));
    EXPECT_FALSE(tables::starts_as_manifest("name x\n"));
}

TEST_F(SetPathTest, AFolderGivesItsManifestTxt) {
    tables::SetPath p = tables::set_path(at("set"));
    EXPECT_EQ(p.dir, root_ / "set");
    EXPECT_EQ(p.manifest, root_ / "set" / "manifest.txt");
    p = tables::set_path(at("set/"));
    EXPECT_EQ(p.dir, root_ / "set");
    EXPECT_EQ(p.manifest, root_ / "set" / "manifest.txt");
    p = tables::set_path(at("empty"));  // no manifest yet: reading it says so
    EXPECT_EQ(p.manifest, root_ / "empty" / "manifest.txt");
}

TEST_F(SetPathTest, AnyOtherPathIsTheManifestInItsOwnFolder) {
    tables::SetPath p = tables::set_path(at("set/manifest.txt"));
    EXPECT_EQ(p.dir, root_ / "set");
    EXPECT_EQ(p.manifest, root_ / "set" / "manifest.txt");
    p = tables::set_path(at("set/other.txt"));
    EXPECT_EQ(p.dir, root_ / "set");
    EXPECT_EQ(p.manifest, root_ / "set" / "other.txt");
    p = tables::set_path(at("missing/manifest.txt"));
    EXPECT_EQ(p.dir, root_ / "missing");
    p = tables::set_path("manifest.txt");
    EXPECT_EQ(p.dir, fs::path("."));
    EXPECT_EQ(p.manifest, fs::path("manifest.txt"));
    p = tables::set_path("nothing-here");
    EXPECT_EQ(p.dir, fs::path("."));
    EXPECT_EQ(p.manifest, fs::path("nothing-here"));
}

TEST_F(SetPathTest, HoldsSetWhenTheFolderHasAManifestTxt) {
    EXPECT_TRUE(tables::holds_set(root_ / "set"));
    EXPECT_FALSE(tables::holds_set(root_ / "empty"));
    EXPECT_FALSE(tables::holds_set(root_ / "missing"));
    EXPECT_FALSE(tables::holds_set(root_ / "set" / "a.pdb"));  // a file holds nothing
    EXPECT_FALSE(tables::holds_set(root_));
}

}  // namespace
}  // namespace loyd
