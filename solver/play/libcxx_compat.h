// Forced into every file of the WebAssembly build (solver/play/wasm.cmake): what the library
// uses of C++20 that Debian's emscripten 3.1.6 (libc++ of LLVM 14) does not have yet.
// Nothing native includes this file; each piece is skipped by a libc++ that has it.
#pragma once

#include <cstddef>
#include <memory>
#include <type_traits>

#if defined(_LIBCPP_VERSION) && _LIBCPP_VERSION < 16000
namespace std {
// C++20 [unique.ptr.create]: an array of default-initialised elements (libc++ 16).
template <class T>
requires is_unbounded_array_v<T> unique_ptr<T> make_unique_for_overwrite(size_t n) {
    return unique_ptr<T>(new remove_extent_t<T>[n]);
}
}  // namespace std
#endif
