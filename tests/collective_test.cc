// The error kinds Collective::agree carries from the failing rank to every rank
// (base/collective.h): each typed error comes back as its own type with its message, memory
// and thread-start failures as LimitError, anything else as a plain loyd::Error; and agree()
// in one process rethrows the local failure as that type.
#include "loyd/base/collective.h"

#include <gtest/gtest.h>

#include <new>
#include <stdexcept>
#include <string>
#include <system_error>

#include "loyd/base/error.h"

namespace {

using namespace loyd;

// The error `e` becomes after a trip through error_code_of and throw_error_code.
template <class E>
std::exception_ptr round_trip(E e, std::string& message) {
    const int code = base::error_code_of(std::make_exception_ptr(e), message);
    try {
        base::throw_error_code(code, message);
    } catch (...) {
        return std::current_exception();
    }
    return nullptr;
}

template <class Want, class E>
void expect_arrives_as(E e, const std::string& want_message) {
    std::string message;
    const std::exception_ptr got = round_trip(e, message);
    ASSERT_TRUE(got);
    try {
        std::rethrow_exception(got);
    } catch (const Want& x) {
        EXPECT_EQ(x.what(), want_message);
    } catch (const std::exception& x) {
        ADD_FAILURE() << "arrived as another type: " << x.what();
    }
}

TEST(Collective, TypedErrorsArriveAsThemselves) {
    expect_arrives_as<IoError>(IoError("a.pdb: cannot open"), "a.pdb: cannot open");
    expect_arrives_as<FormatError>(FormatError("a.pdb: bad magic"), "a.pdb: bad magic");
    expect_arrives_as<UsageError>(UsageError("--size: bad"), "--size: bad");
    expect_arrives_as<LimitError>(LimitError("node limit"), "node limit");
    expect_arrives_as<BusyError>(BusyError("t: busy"), "t: busy");
    // A cancellation stays one (every rank then exits 130), not a mere limit.
    expect_arrives_as<CancelledError>(CancelledError("table build cancelled"),
                                      "table build cancelled");
}

TEST(Collective, MemoryAndThreadStartFailuresArriveAsLimits) {
    expect_arrives_as<LimitError>(std::bad_alloc(), "out of memory");
    const std::system_error again(std::make_error_code(std::errc::resource_unavailable_try_again),
                                  "thread");
    expect_arrives_as<LimitError>(again, std::string("out of resources: ") + again.what());
    const std::system_error nomem(std::make_error_code(std::errc::not_enough_memory), "thread");
    expect_arrives_as<LimitError>(nomem, std::string("out of resources: ") + nomem.what());
}

TEST(Collective, OtherFailuresArriveAsPlainErrors) {
    std::string message;
    for (const std::exception_ptr& e :
         {std::make_exception_ptr(std::logic_error("a bug")),
          std::make_exception_ptr(
              std::system_error(std::make_error_code(std::errc::invalid_argument), "a bug")),
          std::make_exception_ptr(Error("a bug"))}) {
        const int code = base::error_code_of(e, message);
        EXPECT_NE(code, 0);
        try {
            base::throw_error_code(code, message);
        } catch (const IoError&) {
            ADD_FAILURE() << "typed as a file error";
        } catch (const FormatError&) {
            ADD_FAILURE() << "typed as a format error";
        } catch (const UsageError&) {
            ADD_FAILURE() << "typed as a usage error";
        } catch (const LimitError&) {
            ADD_FAILURE() << "typed as a limit";
        } catch (const BusyError&) {
            ADD_FAILURE() << "typed as busy";
        } catch (const Error& x) {
            EXPECT_NE(std::string(x.what()).find("a bug"), std::string::npos) << x.what();
        }
    }
    EXPECT_EQ(base::error_code_of(nullptr, message), 0);
}

TEST(Collective, OneProcessAgreesOnItsOwnFailure) {
    base::SingleProcess one;
    EXPECT_NO_THROW(one.agree(nullptr, true));
    EXPECT_FALSE(one.failure_agreed());
    EXPECT_THROW(one.agree(std::make_exception_ptr(LimitError("limit")), true), LimitError);
    EXPECT_TRUE(one.failure_agreed());
}

}  // namespace
