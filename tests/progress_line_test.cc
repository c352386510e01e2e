// The progress line (program/progress_line.h): drawn in place on a terminal only, erased once.
#include "program/progress_line.h"

#include <gtest/gtest.h>

#include <sstream>

namespace {

using loyd::program::ProgressLine;

TEST(ProgressLine, DrawsInPlaceAndErasesOnce) {
    std::ostringstream err;
    {
        ProgressLine line(err, true, true);
        ASSERT_TRUE(line.enabled());
        line.show("layer 1");
        line.show("layer 2");
        EXPECT_EQ(err.str(), "\rlayer 1\033[K\rlayer 2\033[K");
        line.clear();
        line.clear();  // nothing shown: nothing written
        EXPECT_EQ(err.str(), "\rlayer 1\033[K\rlayer 2\033[K\r\033[K");
        line.show("layer 3");
    }  // the destructor erases what is shown
    EXPECT_EQ(err.str(), "\rlayer 1\033[K\rlayer 2\033[K\r\033[K\rlayer 3\033[K\r\033[K");
}

TEST(ProgressLine, NothingWhenNotWantedOrNotATerminal) {
    for (const bool wanted : {false, true}) {
        std::ostringstream err;
        {
            ProgressLine line(err, wanted, !wanted);
            EXPECT_FALSE(line.enabled());
            line.show("layer 1");
            line.clear();
        }
        EXPECT_EQ(err.str(), "");
    }
}

}  // namespace
