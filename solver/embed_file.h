// A file's bytes compiled into the solver: the assembler copies the file into read-only data
// (GNU as `.incbin`), so a page's style sheet, script or whole HTML file stays a real file in
// the source tree and still needs nothing at run time.
//
//   LOYD_EMBED_FILE(NAME, PATH)   at namespace scope: the bytes of the file at PATH (a string
//                                 literal, an absolute path holding no '"' or '\'; CMake passes
//                                 it), between the symbols NAME_begin and NAME_end, followed by
//                                 one zero byte; NAME unique in the program
//   LOYD_EMBEDDED(NAME)           those bytes, as a std::string_view
//
// The assembler reads the file when the embedding source is compiled, so CMake lists the file
// in that source's OBJECT_DEPENDS to recompile it when the file changes (ccache never caches a
// source holding .incbin). ELF targets (Linux), GCC or Clang.
#pragma once

#include <cstddef>
#include <string_view>

// One assembler line per line:
// clang-format off
#define LOYD_EMBED_FILE(name, path)                      \
    asm(".section .rodata." #name ",\"a\",@progbits\n"   \
        ".balign 16\n"                                   \
        ".hidden " #name "_begin\n"                      \
        ".hidden " #name "_end\n"                        \
        #name "_begin:\n"                                \
        ".incbin \"" path "\"\n"                         \
        #name "_end:\n"                                  \
        ".byte 0\n"                                      \
        ".previous\n");                                  \
    extern "C" const char name##_begin[];               \
    extern "C" const char name##_end[]
// clang-format on

#define LOYD_EMBEDDED(name) \
    std::string_view(name##_begin, static_cast<std::size_t>(name##_end - name##_begin))
