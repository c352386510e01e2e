// Tests of base::FileLock and base::DirLock: one holder at a time (a second is refused, or
// waits until the first lets go, or gives up when cancelled), the lock file created once and
// left in place, removed only by the holder that made it, and the folder lock's messages.
#include "loyd/base/file_lock.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>

#include "loyd/base/dir_lock.h"
#include "pdb_test_support.h"

namespace loyd {
namespace {

namespace fs = std::filesystem;

TEST(FileLock, ASecondHolderIsRefusedUntilTheFirstLetsGo) {
    test::ScratchDir dir;
    const std::string p = dir / "x.lock";
    std::optional<base::FileLock> first(std::in_place, p, false);
    EXPECT_TRUE(first->held());
    EXPECT_TRUE(fs::exists(p));
    EXPECT_THROW(base::FileLock(p, false), BusyError);
    first.reset();
    base::FileLock second(p, false);
    EXPECT_TRUE(second.held());
    EXPECT_TRUE(fs::exists(p));  // left in place
}

TEST(FileLock, AWaitingHolderGetsItWhenTheFirstLetsGo) {
    test::ScratchDir dir;
    const std::string p = dir / "x.lock";
    std::optional<base::FileLock> first(std::in_place, p, false);
    int waited = 0;
    base::FileLock second(p, true, [&] {
        ++waited;
        first.reset();  // lets go while the second waits
    });
    EXPECT_TRUE(second.held());
    EXPECT_EQ(waited, 1);
    EXPECT_THROW(base::FileLock(p, false), BusyError);
}

// The holder that made the lock file removes it while another waits on it: the waiting one
// then locks the file that has the name now, which a third sees taken.
TEST(FileLock, AFileRemovedWhileOneWaitsIsLockedAgainByName) {
    test::ScratchDir dir;
    const std::string p = dir / "x.lock";
    std::optional<base::FileLock> first(std::in_place, p, false);
    int waited = 0;
    base::FileLock second(p, true, [&] {
        ++waited;
        first->remove_if_made();
        first.reset();
    });
    EXPECT_EQ(waited, 1);
    EXPECT_TRUE(fs::exists(p));
    EXPECT_THROW(base::FileLock(p, false), BusyError);
}

TEST(FileLock, ACancelStopsTheWait) {
    test::ScratchDir dir;
    const std::string p = dir / "x.lock";
    base::FileLock first(p, false);
    std::atomic<bool> cancel{false};
    int waited = 0;
    std::thread t([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        cancel = true;
    });
    EXPECT_THROW(base::FileLock(
                     p, true, [&] { ++waited; }, &cancel),
                 CancelledError);
    t.join();
    EXPECT_EQ(waited, 1);
}

TEST(FileLock, OnlyTheHolderThatMadeTheFileRemovesIt) {
    test::ScratchDir dir;
    const std::string p = dir / "x.lock";
    {
        base::FileLock made(p, false);
        made.remove_if_made();
        EXPECT_FALSE(fs::exists(p));
    }
    std::ofstream(p) << "";
    {
        base::FileLock found(p, false);
        found.remove_if_made();
        EXPECT_TRUE(fs::exists(p));
    }
}

// A lock file that is a link, dangling or not, locks the file at its end: one lock for both.
// The file made at a dangling link's end is this holder's to remove; the link stays.
TEST(FileLock, ALinkLocksTheFileAtItsEnd) {
    test::ScratchDir dir;
    const std::string end = dir / "end.lock", link = dir / "link.lock";
    fs::create_symlink("end.lock", link);
    base::FileLock through(link, false);
    EXPECT_TRUE(through.held());
    EXPECT_TRUE(fs::exists(end));
    EXPECT_THROW(base::FileLock(end, false), BusyError);
    through.remove_if_made();
    EXPECT_FALSE(fs::exists(end));
    EXPECT_TRUE(fs::is_symlink(link));
}

TEST(FileLock, AMissingFolderIsAnIoErrorNamingTheFile) {
    test::ScratchDir dir;
    const std::string p = dir / "no/x.lock";
    try {
        base::FileLock l(p, false);
        FAIL() << "locked a file in a missing folder";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what();
    }
}

TEST(DirLock, TheFolderIsNamedWhenItIsBusy) {
    test::ScratchDir dir;
    const std::string d = dir / "set";
    fs::create_directory(d);
    base::DirLock first(d, false);
    EXPECT_TRUE(fs::exists(d + "/" + base::DirLock::kFileName));
    try {
        base::DirLock second(d, false);
        FAIL() << "two locks on one folder";
    } catch (const BusyError& e) {
        EXPECT_NE(std::string(e.what()).find(d + ": another build is writing into this folder"),
                  std::string::npos)
            << e.what();
    }
}

}  // namespace
}  // namespace loyd
