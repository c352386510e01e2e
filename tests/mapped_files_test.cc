// Tests of the record of mapped files (base/mapped_files.h): an address inside a recorded range
// gives its name and one outside none, a removed record is forgotten, names are cut to kMaxName
// bytes, and with every slot taken a record is refused (-1) while the others stay.
#include "loyd/base/mapped_files.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace loyd {
namespace {

namespace mf = base::mapped_files;

TEST(MappedFiles, AnAddressInARangeGivesItsName) {
    static char buf[200];
    char* const a = buf;        // 100 bytes
    char* const b = buf + 120;  // 50 bytes
    const int sa = mf::add(a, 100, "tables/a.pdb");
    const int sb = mf::add(b, 50, "b.pdb");
    ASSERT_GE(sa, 0);
    ASSERT_GE(sb, 0);
    EXPECT_NE(sa, sb);
    EXPECT_EQ(mf::file_at(a), "tables/a.pdb");
    EXPECT_EQ(mf::file_at(a + 99), "tables/a.pdb");
    EXPECT_EQ(mf::file_at(b + 49), "b.pdb");
    EXPECT_EQ(mf::file_at(a + 100), "");  // one past the end
    EXPECT_EQ(mf::file_at(b - 1), "");
    EXPECT_EQ(mf::file_at(b + 50), "");
    mf::remove(sa);
    EXPECT_EQ(mf::file_at(a), "");
    EXPECT_EQ(mf::file_at(b), "b.pdb");
    mf::remove(sb);
    mf::remove(-1);  // nothing
    EXPECT_EQ(mf::file_at(b), "");
}

TEST(MappedFiles, ALongNameIsCut) {
    static char a[8];
    const std::string name(mf::kMaxName + 10, 'x');
    const int s = mf::add(a, sizeof a, name);
    ASSERT_GE(s, 0);
    EXPECT_EQ(mf::file_at(a + 7), name.substr(0, mf::kMaxName));
    mf::remove(s);
}

TEST(MappedFiles, WithEverySlotTakenARecordIsRefused) {
    static char cells[mf::kMaxMappings + 1];
    std::vector<int> slots;
    for (int i = 0;; ++i) {
        ASSERT_LE(i, mf::kMaxMappings);
        const int s = mf::add(cells + i, 1, std::to_string(i));
        if (s < 0) break;
        slots.push_back(s);
    }
    EXPECT_GE(slots.size(), 1u);
    EXPECT_LE(slots.size(), static_cast<size_t>(mf::kMaxMappings));
    EXPECT_EQ(mf::file_at(cells), "0");
    EXPECT_EQ(mf::file_at(cells + slots.size()), "");  // the refused one
    mf::remove(slots.front());
    EXPECT_EQ(mf::add(cells + slots.size(), 1, "again"), slots.front());  // taken again
    EXPECT_EQ(mf::file_at(cells + slots.size()), "again");
    for (const int s : slots) mf::remove(s);
    for (int i = 0; i <= mf::kMaxMappings; ++i) EXPECT_EQ(mf::file_at(cells + i), "");
}

}  // namespace
}  // namespace loyd
