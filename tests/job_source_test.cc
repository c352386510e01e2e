// The solver's job source (solver/run/input.h): how arguments become boards. Separate tiles,
// with or without commas after them or rows' '/' among them, form one board; arguments that each
// hold a board stay separate; a mix of the two is refused, whatever order it comes in.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "loyd/base/error.h"
#include "solver/run/input.h"

namespace loyd::solver {
namespace {

std::vector<std::string> texts(const std::vector<std::string>& args) {
    JobSource source(args, "");
    std::vector<std::string> out;
    while (auto job = source.next()) out.push_back(job->origin + "|" + job->text);
    return out;
}

TEST(JobSource, SeparateTilesFormOneBoard) {
    const auto one = texts({"8", "6", "7", "2", "5", "4", "3", "0", "1"});
    ASSERT_EQ(one.size(), 1u);
    EXPECT_EQ(one[0], "argument 1|8 6 7 2 5 4 3 0 1 ");
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"8,", "6,", "7,", "2,", "5,", "4,", "3,", "0,", "1"},
             {"8", ",6", ",7", ",2", ",5", ",4", ",3", ",0", ",1"},
             {"8", "6", "7/", "2", "5", "4/", "3", "0", "1"},
             {"8", "6", "7/2", "5", "4/3", "0", "1"},
             {"8", "6", "7", "/", "2", "5", "4", "/", "3", "0", "1"}}) {
        const auto got = texts(args);
        ASSERT_EQ(got.size(), 1u) << args[0] << args[1];
        EXPECT_EQ(got[0].rfind("argument 1|", 0), 0u) << got[0];
    }
}

TEST(JobSource, EachBoardArgumentIsOneBoard) {
    const auto got = texts({"8 6 7 2 5 4 3 0 1", "1,2,3,4,5,6,7,0,8", "a: 1 2 3/4 5 6/7 8 0"});
    ASSERT_EQ(got.size(), 3u);
    EXPECT_EQ(got[1], "argument 2|1,2,3,4,5,6,7,0,8");
    // One argument of one tile is one (invalid) board, not a refusal.
    EXPECT_EQ(texts({"frob"}).size(), 1u);
}

TEST(JobSource, RefusesSeparateTilesMixedWithBoards) {
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"1", "2", "3", "4 5 6", "7", "0", "8"}, {"4 5 6", "1"}, {"1", "a: 1 2 3 0"}}) {
        try {
            JobSource source(args, "");
            ADD_FAILURE() << "accepted " << args[0] << " ... " << args.back();
        } catch (const UsageError& e) {
            EXPECT_NE(std::string(e.what()).find("mix separate tiles"), std::string::npos)
                << e.what();
            EXPECT_EQ(std::string(e.what()).find("solver check"), std::string::npos) << e.what();
        }
    }
    // Moves after a board (check was left out): the message says how to check them.
    for (const auto& args : std::vector<std::vector<std::string>>{{"1 2 3/4 5 6/7 0 8", "R"},
                                                                  {"8 2 0/4 6 1/3 7 5", "DL2U"}}) {
        try {
            JobSource source(args, "");
            ADD_FAILURE() << "accepted " << args[0] << " " << args[1];
        } catch (const UsageError& e) {
            EXPECT_NE(std::string(e.what()).find("(to check moves, run solver check BOARD MOVES)"),
                      std::string::npos)
                << e.what();
        }
    }
}

}  // namespace
}  // namespace loyd::solver
