# The play page's engine: loyd's library and solver/play/engine.cc compiled to WebAssembly with
# Debian's emscripten. The root CMakeLists.txt includes this file, and nothing else, when it is
# configured by emscripten's toolchain:
#   emcmake cmake -S . -B build-wasm && cmake --build build-wasm --target loyd_play_engine
# (the native build does this itself, solver/play/page.cmake). Without Boost, MPI or zstd: the
# engine reads raw tables only (solver/play/no_zstd/zstd.h stands in for <zstd.h>); xxHash is
# Debian's header, compiled in (XXH_INLINE_ALL); nlohmann-json is Debian's headers (linked into
# the build tree, below). One thread; C++ exceptions on (the library
# reports every refusal by throwing).

add_library(loyd_flags INTERFACE)
# (The library assumes a 64-bit size_t in a few conversions of sizes no page reaches, 4 GB at
# most: clang's -Wshorten-64-to-32 is off here.)
target_compile_options(loyd_flags INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
  -Wno-shorten-64-to-32)
add_compile_options(-fexceptions "SHELL:-include ${PROJECT_SOURCE_DIR}/solver/play/libcxx_compat.h")
add_link_options(-fexceptions)

# What the library links natively, stood in for: xxHash inline, no zstd.
find_file(LOYD_XXHASH_H xxhash.h PATHS /usr/include /usr/local/include NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
if(NOT LOYD_XXHASH_H)
  message(FATAL_ERROR "xxhash.h not found (Debian's libxxhash-dev; ./setup.sh installs it)")
endif()
configure_file(${LOYD_XXHASH_H} ${PROJECT_BINARY_DIR}/wasm-include/xxhash.h COPYONLY)
add_library(PkgConfig::XXHASH INTERFACE IMPORTED)
set_target_properties(PkgConfig::XXHASH PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES ${PROJECT_BINARY_DIR}/wasm-include
  INTERFACE_COMPILE_DEFINITIONS XXH_INLINE_ALL)
add_library(PkgConfig::ZSTD INTERFACE IMPORTED)
set_target_properties(PkgConfig::ZSTD PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES ${PROJECT_SOURCE_DIR}/solver/play/no_zstd)

# The library's files the engine needs (the table builders are left out: they use
# std::atomic_ref, which emscripten's libc++ lacks, and a page never builds tables). Kept in
# step with common/CMakeLists.txt by the link: a file missing here is a missing symbol.
configure_file(common/loyd/base/version.h.in ${PROJECT_BINARY_DIR}/generated/loyd/base/version.h @ONLY)
set(loyd_dir ${PROJECT_SOURCE_DIR}/common/loyd)
add_library(loyd_pruning_core OBJECT ${loyd_dir}/board/geometry.cc ${loyd_dir}/search/move_pruning.cc)
target_include_directories(loyd_pruning_core PRIVATE ${PROJECT_SOURCE_DIR}/common)
target_compile_features(loyd_pruning_core PRIVATE cxx_std_20)
target_link_libraries(loyd_pruning_core PRIVATE loyd_flags)
# The build-time tool that writes the compiled-in pruning automata runs under node, which must
# see the real file system and instantiate the module synchronously (emscripten 3.1.6 would
# fetch() the .wasm by path under node 20). Plain node: emcmake's emulator adds
# --experimental-wasm-threads, which node 20 refuses.
find_program(LOYD_NODE NAMES node nodejs NO_CMAKE_FIND_ROOT_PATH REQUIRED)
add_executable(embed_pruning common/tools/embed_pruning.cc $<TARGET_OBJECTS:loyd_pruning_core>)
target_include_directories(embed_pruning PRIVATE ${PROJECT_SOURCE_DIR}/common)
target_compile_features(embed_pruning PRIVATE cxx_std_20)
target_link_libraries(embed_pruning PRIVATE loyd_flags)
set_target_properties(embed_pruning PROPERTIES CROSSCOMPILING_EMULATOR ${LOYD_NODE})
target_link_options(embed_pruning PRIVATE -sNODERAWFS=1 -sALLOW_MEMORY_GROWTH=1 -sWASM_ASYNC_COMPILATION=0)
set(loyd_prebuilt_pruning ${PROJECT_BINARY_DIR}/generated/loyd/search/prebuilt_pruning.cc)
add_custom_command(OUTPUT ${loyd_prebuilt_pruning}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/generated/loyd/search
  COMMAND embed_pruning ${loyd_prebuilt_pruning}
  DEPENDS embed_pruning
  COMMENT "Building the compiled-in pruning automata (under node)"
  VERBATIM)

add_library(loyd STATIC
  ${loyd_dir}/base/atomic_file.cc
  ${loyd_dir}/base/collective.cc
  ${loyd_dir}/base/fd_input.cc
  ${loyd_dir}/base/file_identity.cc
  ${loyd_dir}/base/hex.cc
  ${loyd_dir}/base/huge_buffer.cc
  ${loyd_dir}/base/mapped_files.cc
  ${loyd_dir}/base/regular_file.cc
  ${loyd_dir}/base/self_path.cc
  ${loyd_dir}/base/thread_count.cc
  ${loyd_dir}/board/board.cc
  ${loyd_dir}/board/board_format.cc
  ${loyd_dir}/board/display_width.cc
  ${loyd_dir}/board/goal_map.cc
  ${loyd_dir}/board/metric.cc
  ${loyd_dir}/board/mirror.cc
  ${loyd_dir}/board/moves.cc
  ${loyd_dir}/board/notation.cc
  ${loyd_dir}/board/parse.cc
  ${loyd_dir}/board/scramble.cc
  ${loyd_dir}/board/solvability.cc
  ${loyd_dir}/tables/cell_layout.cc
  ${loyd_dir}/tables/combine.cc
  ${loyd_dir}/tables/discover.cc
  ${loyd_dir}/tables/entry_coding.cc
  ${loyd_dir}/tables/header.cc
  ${loyd_dir}/tables/load.cc
  ${loyd_dir}/tables/manifest.cc
  ${loyd_dir}/tables/pattern.cc
  ${loyd_dir}/tables/presets.cc
  ${loyd_dir}/tables/ranker.cc
  ${loyd_dir}/tables/set_fit.cc
  ${loyd_dir}/tables/set_path.cc
  ${loyd_dir}/tables/table.cc
  ${loyd_dir}/tables/table_file.cc
  ${loyd_dir}/tables/verify.cc
  ${loyd_dir}/heuristics/additive_pdb.cc
  ${loyd_dir}/heuristics/classic.cc
  ${loyd_dir}/heuristics/lookups.cc
  ${loyd_dir}/heuristics/mtm_pdb.cc
  ${loyd_dir}/heuristics/pdb_heuristic.cc
  ${loyd_dir}/heuristics/walking_distance.cc
  ${loyd_dir}/search/limits.cc
  ${loyd_dir}/search/resume_point.cc
  ${loyd_dir}/search/move_pruning_shared.cc
  ${loyd_dir}/search/solve.cc
  ${loyd_dir}/search/solve_runs_additive_3_4.cc
  ${loyd_dir}/search/solve_runs_additive_5.cc
  ${loyd_dir}/search/solve_runs_classic.cc
  ${loyd_dir}/search/solve_runs_max.cc
  ${loyd_dir}/search/solve_runs_pdb.cc
  ${loyd_dir}/search/split_protocol.cc
  ${loyd_prebuilt_pruning}
  $<TARGET_OBJECTS:loyd_pruning_core>
)
target_compile_features(loyd PUBLIC cxx_std_20)
target_include_directories(loyd PUBLIC ${PROJECT_SOURCE_DIR}/common ${PROJECT_BINARY_DIR}/generated)
target_link_libraries(loyd PRIVATE loyd_flags PkgConfig::ZSTD PkgConfig::XXHASH)
target_compile_definitions(loyd PRIVATE LOYD_BIN_TO_PDB="../share/loyd/pdb")

add_executable(loyd_play_engine
  solver/output/json_text.cc
  solver/output/json_writer.cc
  solver/output/records.cc
  solver/output/report.cc
  solver/output/steps.cc
  solver/play/engine.cc
  solver/play/requests.cc
  solver/play/table_sets.cc
)
# nlohmann-json (Debian's nlohmann-json3-dev, header-only): emscripten's sysroot does not see
# /usr/include, and adding /usr/include would put the host's C library before the sysroot's, so
# a folder of the build tree holds a link to its headers alone.
find_path(LOYD_NLOHMANN_INCLUDE nlohmann/json.hpp PATHS /usr/include /usr/local/include
  NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
if(NOT LOYD_NLOHMANN_INCLUDE)
  message(FATAL_ERROR "nlohmann/json.hpp not found (Debian's nlohmann-json3-dev; ./setup.sh installs it)")
endif()
file(MAKE_DIRECTORY ${PROJECT_BINARY_DIR}/wasm-json-include)
file(CREATE_LINK ${LOYD_NLOHMANN_INCLUDE}/nlohmann ${PROJECT_BINARY_DIR}/wasm-json-include/nlohmann SYMBOLIC)
target_include_directories(loyd_play_engine PRIVATE ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}/wasm-json-include)
target_link_libraries(loyd_play_engine PRIVATE loyd loyd_flags)
set(loyd_play_exports _loyd_version _loyd_solve _loyd_board _loyd_scramble _loyd_load_embedded
  _loyd_load_upload _loyd_sets _loyd_max_text)
list(JOIN loyd_play_exports "," loyd_play_exports)
target_link_options(loyd_play_engine PRIVATE
  -sMODULARIZE=1 -sEXPORT_NAME=createLoydEngine -sENVIRONMENT=worker,node
  -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB -sABORTING_MALLOC=0 -sDYNAMIC_EXECUTION=0
  -sFILESYSTEM=1 -sEXPORTED_FUNCTIONS=[${loyd_play_exports}]
  -sEXPORTED_RUNTIME_METHODS=[ccall,FS,UTF8ToString]
  -sINCOMING_MODULE_JS_API=[wasmBinary,print,printErr,onAbort]
  -sTOTAL_STACK=4MB)
