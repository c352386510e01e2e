// Tests of a file's identity (device, inode, size, modification time): a path and its open
// descriptor agree, a file rewritten in place (new size or time) or replaced by a rename (new
// inode) is told apart, and a missing path or a closed descriptor has none.
#include "loyd/base/file_identity.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "pdb_test_support.h"

namespace loyd {
namespace {

class FileIdentityTest : public ::testing::Test {
protected:
    std::string write(const std::string& name, const std::string& text) {
        const std::string p = dir_ / name;
        std::ofstream(p, std::ios::binary) << text;
        return p;
    }
    test::ScratchDir dir_;
};

TEST_F(FileIdentityTest, PathAndDescriptorAgree) {
    const std::string f = write("a", "12345");
    const auto by_path = base::file_identity(f);
    ASSERT_TRUE(by_path.has_value());
    EXPECT_EQ(by_path->size, 5u);
    const int fd = ::open(f.c_str(), O_RDONLY);
    ASSERT_GE(fd, 0);
    const auto by_fd = base::file_identity(fd);
    ::close(fd);
    ASSERT_TRUE(by_fd.has_value());
    EXPECT_EQ(*by_path, *by_fd);
    struct stat st {};
    ASSERT_EQ(::stat(f.c_str(), &st), 0);
    EXPECT_EQ(by_path->ino, static_cast<uint64_t>(st.st_ino));
    EXPECT_EQ(by_path->mtime_ns, int64_t{st.st_mtim.tv_sec} * 1'000'000'000 + st.st_mtim.tv_nsec);
}

TEST_F(FileIdentityTest, ChangesAreSeen) {
    const std::string f = write("a", "12345");
    const auto before = base::file_identity(f);
    ASSERT_TRUE(before.has_value());

    // Rewritten in place with the same size: same file, another time.
    const struct timespec times[2] = {{0, UTIME_OMIT}, {1'000'000'000, 123}};
    ASSERT_EQ(::utimensat(AT_FDCWD, f.c_str(), times, 0), 0);
    const auto touched = base::file_identity(f);
    ASSERT_TRUE(touched.has_value());
    EXPECT_TRUE(touched->same_file(*before));
    EXPECT_NE(*touched, *before);
    EXPECT_EQ(touched->mtime_ns, 1'000'000'000'000'000'123);

    // Grown: same file, another size.
    std::ofstream(f, std::ios::binary | std::ios::app) << "6";
    const auto grown = base::file_identity(f);
    ASSERT_TRUE(grown.has_value());
    EXPECT_TRUE(grown->same_file(*before));
    EXPECT_EQ(grown->size, 6u);

    // Replaced by a rename while the old file is still open: another file.
    const int fd = ::open(f.c_str(), O_RDONLY);
    ASSERT_GE(fd, 0);
    const std::string g = write("b", "12345");
    ASSERT_EQ(std::rename(g.c_str(), f.c_str()), 0);
    const auto replaced = base::file_identity(f);
    const auto old = base::file_identity(fd);
    ::close(fd);
    ASSERT_TRUE(replaced.has_value());
    ASSERT_TRUE(old.has_value());
    EXPECT_FALSE(replaced->same_file(*old));
    EXPECT_TRUE(old->same_file(*before));
}

TEST_F(FileIdentityTest, NoneWithoutAFile) {
    EXPECT_FALSE(base::file_identity(dir_ / "missing").has_value());
    EXPECT_FALSE(base::file_identity(std::string()).has_value());
    EXPECT_FALSE(base::file_identity(-1).has_value());
}

}  // namespace
}  // namespace loyd
