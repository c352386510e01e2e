# The play page (docs/play.md), built with the programs and compiled into the solver, which
# writes it (`solver play --out FILE`):
#   1. the engine: this source tree configured again by Debian's emscripten in
#      <build>/play-wasm (solver/play/wasm.cmake) and built there (ExternalProject; an
#      incremental build when nothing changed);
#   2. the tables: each set of LOYD_PLAY_SETS made raw (`pdbgen unpack` of the shipped sets in
#      data/, `pdbgen build --encoding raw` of the other presets) and gzip-compressed (the page
#      decompresses them with the browser's own DecompressionStream; the engine then checks
#      them as the command line does);
#   3. the page: solver/play/assemble_page writes one HTML file with everything inline;
#   4. solver/play/embedded_page.cc includes that file's bytes (.incbin).
# Without emscripten (or with -DLOYD_PLAY_PAGE=OFF) the solver is built without a page and
# `solver play` says so (exit 6).
#
# Defines loyd_play_page_file (the page's path) and LOYD_HAVE_PLAY_PAGE when the page is built.

set(LOYD_PLAY_PAGE AUTO CACHE STRING "Build the play page: AUTO (when emscripten is found), ON, OFF")
set_property(CACHE LOYD_PLAY_PAGE PROPERTY STRINGS AUTO ON OFF)
set(LOYD_PLAY_SETS "8-fringe;8-4-4;8-mtm-fringe;15-5-5-5;15-6-6-3" CACHE STRING
  "Table sets compiled into the play page (presets; those in data/ are unpacked, the others built)")

set(LOYD_HAVE_PLAY_PAGE OFF)
if(NOT LOYD_PLAY_PAGE STREQUAL "OFF")
  find_program(LOYD_EMCMAKE emcmake)
  find_program(LOYD_NODE_FOR_EMSCRIPTEN NAMES node nodejs)
  if(LOYD_EMCMAKE AND LOYD_NODE_FOR_EMSCRIPTEN)
    set(LOYD_HAVE_PLAY_PAGE ON)
  elseif(LOYD_PLAY_PAGE STREQUAL "ON")
    message(FATAL_ERROR "LOYD_PLAY_PAGE=ON needs emscripten and node (Debian's emscripten package)")
  endif()
endif()
if(NOT LOYD_HAVE_PLAY_PAGE)
  message(STATUS "emscripten not found: the solver is built without the play page (./setup.sh installs emscripten)")
  return()
endif()
message(STATUS "emscripten found: building the play page (${LOYD_EMCMAKE})")

# 1. The engine. NODE_PATH: Debian's emscripten finds its node modules (acorn) there. The inner
# build gets its own parallelism (a custom build step does not share make's job server).
include(ExternalProject)
cmake_host_system_information(RESULT loyd_play_jobs QUERY NUMBER_OF_LOGICAL_CORES)
set(loyd_wasm_dir ${PROJECT_BINARY_DIR}/play-wasm)
set(loyd_emenv ${CMAKE_COMMAND} -E env NODE_PATH=/usr/share/nodejs)
ExternalProject_Add(loyd_play_wasm
  SOURCE_DIR ${PROJECT_SOURCE_DIR}
  BINARY_DIR ${loyd_wasm_dir}
  CONFIGURE_COMMAND ${loyd_emenv} ${LOYD_EMCMAKE} ${CMAKE_COMMAND} -S <SOURCE_DIR> -B <BINARY_DIR>
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CROSSCOMPILING_EMULATOR=${LOYD_NODE_FOR_EMSCRIPTEN}
  BUILD_COMMAND ${loyd_emenv} ${CMAKE_COMMAND} --build <BINARY_DIR> --target loyd_play_engine --parallel ${loyd_play_jobs}
  INSTALL_COMMAND ""
  BUILD_ALWAYS ON
  BUILD_BYPRODUCTS ${loyd_wasm_dir}/loyd_play_engine.js ${loyd_wasm_dir}/loyd_play_engine.wasm
  USES_TERMINAL_BUILD ON)

# 2. The tables, raw then gzip-compressed, one file per table: SET/FILE.gz (and SET/manifest.txt).
set(loyd_play_tables ${PROJECT_BINARY_DIR}/play-tables)
set(loyd_play_table_args)
set(loyd_play_table_files)
foreach(set IN LISTS LOYD_PLAY_SETS)
  set(raw ${loyd_play_tables}/raw/${set})
  set(gz ${loyd_play_tables}/gz/${set})
  if(EXISTS ${PROJECT_SOURCE_DIR}/data/${set}/manifest.txt)
    set(make_raw pdbgen unpack ${PROJECT_SOURCE_DIR}/data/${set} ${raw})
    file(GLOB set_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/data/${set}/*)
  else()
    set(make_raw pdbgen build --preset ${set} --encoding raw --quiet --out ${raw})
    set(set_sources)
  endif()
  add_custom_command(OUTPUT ${gz}/manifest.txt
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${raw} ${gz}
    COMMAND ${make_raw}
    COMMAND ${CMAKE_COMMAND} -DRAW=${raw} -DOUT=${gz} -P ${PROJECT_SOURCE_DIR}/solver/play/gzip_tables.cmake
    DEPENDS pdbgen ${set_sources} ${PROJECT_SOURCE_DIR}/solver/play/gzip_tables.cmake
    COMMENT "Play page: the ${set} tables, raw and gzip-compressed"
    VERBATIM)
  list(APPEND loyd_play_table_args ${gz})
  list(APPEND loyd_play_table_files ${gz}/manifest.txt)
endforeach()

# 3. The page.
add_executable(assemble_page ${PROJECT_SOURCE_DIR}/solver/play/assemble_page.cc)
target_compile_features(assemble_page PRIVATE cxx_std_20)
target_link_libraries(assemble_page PRIVATE loyd_flags)
set(loyd_play_page_file ${PROJECT_BINARY_DIR}/play/loyd-play.html)
set(loyd_play_sources
  ${PROJECT_SOURCE_DIR}/solver/play/page.html
  ${PROJECT_SOURCE_DIR}/solver/play/page.css
  ${PROJECT_SOURCE_DIR}/solver/play/page.js
  ${PROJECT_SOURCE_DIR}/solver/play/worker.js)
add_custom_command(OUTPUT ${loyd_play_page_file}
  COMMAND assemble_page ${loyd_play_page_file} ${PROJECT_VERSION} ${loyd_play_sources}
    ${loyd_wasm_dir}/loyd_play_engine.js ${loyd_wasm_dir}/loyd_play_engine.wasm ${loyd_play_table_args}
  DEPENDS assemble_page ${loyd_play_sources} ${loyd_play_table_files} loyd_play_wasm
    ${loyd_wasm_dir}/loyd_play_engine.js ${loyd_wasm_dir}/loyd_play_engine.wasm
  COMMENT "Play page: assembling ${loyd_play_page_file}"
  VERBATIM)
add_custom_target(loyd_play_page ALL DEPENDS ${loyd_play_page_file})
