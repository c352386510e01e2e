// base/atomic_file.h: where a write through symbolic links lands, and that the link survives;
// rename_into_place under both link rules, and what it refuses; replace_denied.
#include "loyd/base/atomic_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "loyd/base/error.h"

namespace loyd {
namespace {

namespace fs = std::filesystem;

class AtomicFileTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("loyd_atomic_" + std::to_string(::getpid()) + "_" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }
    std::string at(const std::string& name) const { return (dir_ / name).string(); }
    static std::string read(const std::string& path) {
        std::ifstream f(path);
        return std::string(std::istreambuf_iterator<char>(f), {});
    }
    fs::path dir_;
};

TEST_F(AtomicFileTest, NotALinkIsItsOwnDestination) {
    EXPECT_EQ(base::link_destination(at("plain.txt")), at("plain.txt"));
    EXPECT_EQ(base::link_destination("relative/x.txt"), "relative/x.txt");
}

TEST_F(AtomicFileTest, ADanglingLinkIsWrittenThroughAndKept) {
    fs::create_directories(dir_ / "dest");
    fs::create_symlink("hop2", dir_ / "hop1");  // a chain: hop1 -> hop2 -> dest/file.txt
    fs::create_symlink("dest/file.txt", dir_ / "hop2");
    EXPECT_EQ(fs::path(base::link_destination(at("hop1"))),
              fs::weakly_canonical(dir_ / "dest" / "file.txt"));
    base::write_file_atomic(at("hop1"), "page");
    EXPECT_TRUE(fs::is_symlink(fs::symlink_status(dir_ / "hop1")));
    EXPECT_TRUE(fs::is_symlink(fs::symlink_status(dir_ / "hop2")));
    EXPECT_EQ(read(at("dest/file.txt")), "page");
}

TEST_F(AtomicFileTest, ADanglingLinkIntoAMissingFolderIsRefusedAndKept) {
    fs::create_symlink("no-such-folder/file.txt", dir_ / "link");
    EXPECT_EQ(fs::path(base::link_destination(at("link"))).parent_path().filename(),
              "no-such-folder");
    EXPECT_THROW(base::write_file_atomic(at("link"), "page"), IoError);
    EXPECT_TRUE(fs::is_symlink(fs::symlink_status(dir_ / "link")));
}

TEST_F(AtomicFileTest, ALinkLoopIsAnIoError) {
    fs::create_symlink("b", dir_ / "a");
    fs::create_symlink("a", dir_ / "b");
    EXPECT_THROW(base::link_destination(at("a")), IoError);
    EXPECT_THROW(base::write_file_atomic(at("a"), "page"), IoError);
}

// A file finished elsewhere takes its name: through a link with Links::Follow (the link
// kept), in the link's place with Links::Refuse (what it named untouched); a FIFO in the
// target's place is refused and the finished file stays where it was.
TEST_F(AtomicFileTest, RenameIntoPlaceFollowsOrReplacesLinksAndRefusesAFifo) {
    auto staged = [&](const std::string& text) {
        std::ofstream(at(".staged")) << text;
        return at(".staged");
    };
    base::rename_into_place(staged("new"), at("plain"));
    EXPECT_EQ(read(at("plain")), "new");
    EXPECT_FALSE(fs::exists(dir_ / ".staged"));

    std::ofstream(at("other")) << "other's";
    fs::create_symlink("other", dir_ / "link");
    base::rename_into_place(staged("through"), at("link"), base::Links::Follow);
    EXPECT_TRUE(fs::is_symlink(fs::symlink_status(dir_ / "link")));
    EXPECT_EQ(read(at("other")), "through");
    base::rename_into_place(staged("replaced"), at("link"), base::Links::Refuse);
    EXPECT_FALSE(fs::is_symlink(fs::symlink_status(dir_ / "link")));
    EXPECT_EQ(read(at("link")), "replaced");
    EXPECT_EQ(read(at("other")), "through");

    ASSERT_EQ(::mkfifo(at("fifo").c_str(), 0600), 0);
    for (base::Links l : {base::Links::Follow, base::Links::Refuse}) {
        EXPECT_THROW(base::rename_into_place(staged("kept"), at("fifo"), l), IoError);
        EXPECT_EQ(read(at(".staged")), "kept");
        EXPECT_EQ(fs::status(dir_ / "fifo").type(), fs::file_type::fifo);
    }
}

// The temporaries of one file whose writers are gone go (this process's own too: it holds the
// file's lock); a live writer's, other files' temporaries and the file itself stay.
TEST_F(AtomicFileTest, StaleTemporariesOfOneFileAreRemoved) {
    pid_t dead = ::fork();  // a PID that surely has no process: a child that has exited
    if (dead == 0) ::_exit(0);
    ASSERT_GT(dead, 0);
    int status = 0;
    ASSERT_EQ(::waitpid(dead, &status, 0), dead);
    const std::string d = std::to_string(dead), me = std::to_string(::getpid());
    for (const std::string& n :
         std::vector<std::string>{"ck.txt", ".ck.txt.tmp." + d, ".ck.txt.tmp." + me,
                                  ".ck.txt.tmp.1", ".other.txt.tmp." + d, ".ck.txt.tmp.x",
                                  ".ck.txt.tmp.5.tmp." + d, ".ck.txt.tmp.5.tmp." + me})
        std::ofstream(at(n)) << "x";
    fs::create_directory(dir_ / (".ck.txt.tmp." + d + "0"));  // not a regular file
    EXPECT_EQ(base::remove_stale_temporaries_of(at("ck.txt")), 2);
    EXPECT_FALSE(fs::exists(at(".ck.txt.tmp." + d)));
    EXPECT_FALSE(fs::exists(at(".ck.txt.tmp." + me)));
    for (const std::string& n : std::vector<std::string>{
             "ck.txt", ".ck.txt.tmp.1", ".other.txt.tmp." + d, ".ck.txt.tmp.x",
             ".ck.txt.tmp." + d + "0", ".ck.txt.tmp.5.tmp." + d, ".ck.txt.tmp.5.tmp." + me})
        EXPECT_TRUE(fs::exists(at(n))) << n;
}

// replace_denied, as seen by a user who is not root (root may write anything): a child process,
// the user nobody when the tests run as root. Each check is a bit of the child's exit status.
TEST_F(AtomicFileTest, ReplaceDeniedNamesWhatStandsInTheWay) {
    using fs::perms;
    const perms rw = perms::owner_read | perms::owner_write | perms::group_read |
                     perms::group_write | perms::others_read | perms::others_write;
    std::ofstream(at("ro.txt")) << "x";
    std::ofstream(at("rw.txt")) << "x";
    fs::permissions(at("ro.txt"), perms::owner_read | perms::group_read | perms::others_read);
    fs::permissions(at("rw.txt"), rw);
    fs::permissions(dir_, perms::others_exec, fs::perm_options::add);
    // Root's file, writable by all, in a sticky folder: another user may write it but not
    // replace it (the rename fails); made only when the tests run as root.
    const bool root = ::geteuid() == 0;
    if (root) {
        fs::create_directory(dir_ / "sticky");
        fs::permissions(dir_ / "sticky", perms::all | perms::sticky_bit);
        std::ofstream(at("sticky/theirs.txt")) << "x";
        fs::permissions(at("sticky/theirs.txt"), rw);
    }
    const std::string ro = at("ro.txt"), writable = at("rw.txt"), missing = at("missing.txt"),
                      folder = dir_.string(), theirs = at("sticky/theirs.txt");
    const pid_t child = ::fork();
    if (child == 0) {
        if (root && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(200);
        if (::access(folder.c_str(), X_OK) != 0) ::_exit(201);  // (a private $TMPDIR)
        ::_exit((base::replace_denied(ro) == EACCES ? 1 : 0) |
                (base::replace_denied(writable) == 0 ? 2 : 0) |
                (base::replace_denied(missing) == 0 ? 4 : 0) |
                (base::replace_denied(folder) == 0 ? 8 : 0) |
                (!root || base::replace_denied(theirs) == EPERM ? 16 : 0));
    }
    ASSERT_GT(child, 0);
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    if (WEXITSTATUS(status) == 200) GTEST_SKIP() << "root cannot become the user nobody here";
    if (WEXITSTATUS(status) == 201) GTEST_SKIP() << "the user nobody cannot reach " << dir_;
    EXPECT_EQ(WEXITSTATUS(status), 31);
}

}  // namespace
}  // namespace loyd
