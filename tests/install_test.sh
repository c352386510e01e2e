#!/usr/bin/env bash
# The installation, as a user gets it: `cmake --install` of the built tree into a scratch
# prefix, the prefix then MOVED elsewhere; the installed solver run with no flags must use the
# installed tables (no fallback hint), no build-tree path may be compiled into the installed
# programs, and the example of docs/library.md (tests/consumer) must build and run against the
# moved prefix with find_package(loyd) and with pkg-config, without the project's own flags.
#
# Usage: install_test.sh BUILD_DIR SCRATCH_DIR
# Prints one line per failed check and exits 1 if any check failed (tests/harness.sh).
. "$(dirname "$0")/harness.sh"
harness_args 2 "BUILD_DIR SCRATCH_DIR" "$@"
build=$1
scratch_dir "$2"
mkdir -p "$scratch/home"
export HOME="$scratch/home" XDG_DATA_HOME="$scratch/home/data" XDG_CACHE_HOME="$scratch/home/cache"
unset LOYD_PDB_PATH

# The example of docs/library.md (the code block under "A complete example") is the consumer that
# is built below, byte for byte.
awk '/^## A complete example/ { under = 1 } under && /^```$/ && inside { exit }
     inside { print } under && /^```cpp$/ { inside = 1 }' "$repo/docs/library.md" >"$scratch/library_example.cc"
expect "the C++ example of docs/library.md is tests/consumer/main.cc" \
  cmp -s "$scratch/library_example.cc" "$repo/tests/consumer/main.cc"

expect_run "cmake --install" 0 cmake --install "$build" --prefix "$scratch/prefix" || finish
mv "$scratch/prefix" "$scratch/moved"
p="$scratch/moved"
for f in bin/solver bin/pdbgen include/loyd/search/solve.h include/loyd/base/version.h lib/libloyd.a \
  lib/cmake/loyd/loydConfig.cmake lib/cmake/loyd/loydConfigVersion.cmake lib/pkgconfig/loyd.pc \
  share/loyd/pdb/8-4-4/manifest.txt share/loyd/pdb/8-mtm-fringe/manifest.txt share/loyd/pdb/15-5-5-5/manifest.txt \
  share/loyd/reference/15-7-8.manifest.txt share/loyd/reference/24-6-6-6-6x2.manifest.txt; do
  expect "installed: $f" [ -e "$p/$f" ]
done
# The installed reference manifests check the shipped tables (pdbgen verify --against).
expect_run "verify the installed 15-5-5-5 against the installed reference" 0 "$p/bin/pdbgen" verify \
  "$p/share/loyd/pdb/15-5-5-5" --against "$p/share/loyd/reference/15-5-5-5.manifest.txt"
# The program layer (common/program) is the programs' own: none of it is installed.
expect "the program layer is not installed" \
  [ -z "$(find "$p" -name 'exit_status.h' -o -name 'command_options.h' -o -name 'libloyd_program*')" ]

# Internal headers (cmake/install.cmake) stay out, and every installed header compiles on its
# own against the installed tree alone (no installed header needs an internal one).
for h in base/wire.h base/hex.h tables/build_support.h tables/state_codes.h search/split_protocol.h \
  search/solve_runs_impl.h; do
  expect "internal header not installed: $h" [ ! -e "$p/include/loyd/$h" ]
done
# No installed header brings the system's mapping macros (PROT_*, MAP_*) into a consumer's
# code: `enum class Access { PROT_NONE, PROT_READ }` compiles beside any of them.
(cd "$p/include" && find loyd -name '*.h' | sed 's/.*/#include <&>/') >"$scratch/all_headers.cc"
echo 'enum class Access { PROT_NONE, PROT_READ, MAP_SHARED }; int main() {}' >>"$scratch/all_headers.cc"
expect_run "the installed headers leak no mapping macros" 0 c++ -std=c++20 -fsyntax-only -I"$p/include" "$scratch/all_headers.cc"
# Each header in its own translation unit, two at a time.
(cd "$p/include" && find loyd -name '*.h' | sort) >"$scratch/headers"
expect "the installed headers are many" [ "$(wc -l <"$scratch/headers")" -gt 40 ]
cp "$scratch/headers" "$scratch/stdin"
run xargs -P 2 -I{} sh -c 'echo "#include <{}>" | c++ -std=c++20 -fsyntax-only -x c++ -I"$1" - || echo "FAILED {}"' \
  sh "$p/include"
: >"$scratch/stdin"
expect "every installed header compiles on its own with the installed tree alone" not grep -q FAILED "$scratch/out"

# Man pages (from --help by help2man) and bash completions.
for prog in solver pdbgen; do
  expect_file "$prog.1 is a man page" "$p/share/man/man1/$prog.1" "^\.TH $(tr a-z A-Z <<<"$prog")"
done
expect_file "solver.1 documents --lookups" "$p/share/man/man1/solver.1" 'lookups'
# Laid out, not run together: each example a tagged paragraph (.TP: the command, then what it
# does; an untagged .IP is filled into one run-on paragraph with the next), "Exit status:" a
# heading of its own, and no MPI library line from --version in the text.
for prog in solver pdbgen; do
  page="$p/share/man/man1/$prog.1"
  expect "$prog.1: every example a tagged paragraph" not grep -q . <(sed -n '/^\.SH EXAMPLES/,/^\.\(SH\|PP\|SS\)/p' "$page" | grep -x '\.IP')
  expect "$prog.1: examples present" grep -q . <(sed -n '/^\.SH EXAMPLES/,/^\.\(SH\|PP\|SS\)/p' "$page" | grep -x '\.TP')
  expect_file "$prog.1: exit statuses under a heading" "$page" '^\.SS "Exit status:"$'
  expect "$prog.1: no MPI line" not grep -q '^MPI:' "$page"
  # Every option tagged apart from its description (help2man needs two spaces between them):
  # no option line also holds a description (it held "arg (=ida) ida | astar").
  expect "$prog.1: options apart from their descriptions" not grep -qE '^\\fB.*arg( \(=[^)]*\))? [a-z]' "$page"
done
# Each command's own help (usage, output, exit status), as 'COMMAND --help' prints it.
for c in solve check scramble play; do
  expect_file "solver.1 holds 'solver $c --help'" "$p/share/man/man1/solver.1" "^\.SS \"solver $c\"\$"
done
expect_file "solver.1: check's exit statuses" "$p/share/man/man1/solver.1" '^7 a sequence solves but is longer'
for c in build presets suggest info verify pack unpack package combine; do
  expect_file "pdbgen.1 holds 'pdbgen $c --help'" "$p/share/man/man1/pdbgen.1" "^\.SS \"pdbgen $c\"\$"
done
expect_run "the bash completions" 0 bash -c '
  source "$1/share/bash-completion/completions/pdbgen"
  COMP_WORDS=("$1/bin/pdbgen" build --preset 15-); COMP_CWORD=3; _loyd_pdbgen; echo "${COMPREPLY[*]}"
  source "$1/share/bash-completion/completions/solver"
  COMP_WORDS=(solver --lookups a); COMP_CWORD=2; _loyd_solver; echo "${COMPREPLY[*]}"
  COMP_WORDS=(solver --no-p); COMP_CWORD=1; _loyd_solver; echo "${COMPREPLY[*]}"
  COMP_WORDS=(solver sc); COMP_CWORD=1; _loyd_solver; echo "${COMPREPLY[*]}"
  COMP_WORDS=(solver scramble --s); COMP_CWORD=2; _loyd_solver; echo "${COMPREPLY[*]}"
  COMP_WORDS=(solver check --notation ""); COMP_CWORD=3; _loyd_solver; echo "${COMPREPLY[*]}"
  COMP_WORDS=(solver play --o); COMP_CWORD=2; _loyd_solver; echo "${COMPREPLY[*]}"' _ "$p"
expect_no_err "the bash completions"
# completion LINE NAME EXPECTED: line LINE of the completions printed above is EXPECTED.
completion() {
  expect "$2 completes to '$3'" [ "$(sed -n "$1p" "$scratch/out")" = "$3" ]
}
completion 1 "pdbgen --preset 15-" "15-5-5-5 15-6-6-3 15-7-8 15-fringe 15-mtm-6-6 15-mtm-7-7"
completion 2 "solver --lookups a" "all"
completion 3 "solver --no-p" "--no-prune --no-progress"
completion 4 "the solver command sc" "scramble"
completion 5 "solver scramble --s" "--size --seed"
completion 6 "solver check --notation" "blank tile"
completion 7 "solver play --o" "--out"
expect_file "solver.1 documents scramble" "$p/share/man/man1/solver.1" 'scramble'

# The moved solver, from another folder, with no flags: the installed 3x3 and 4x4 tables.
cd "$scratch" || finish
expect_run "installed solver" 0 "$p/bin/solver" --json 8 6 7 2 5 4 3 0 1
expect_out "the moved solver uses its installed 8-4-4 tables" \
  '"heuristic":"pdb:8-4-4".*"length":31|"length":31.*"heuristic":"pdb:8-4-4"'
expect_no_err "the moved solver"
run "$p/bin/solver" --goal blank-first --json 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3
expect_out "the moved solver solves Korf #1 with its 15-5-5-5 tables" '"heuristic":"pdb:15-5-5-5"'
expect_out "the moved solver solves Korf #1 at 57" '"length":57'
# The play page travels inside the installed solver (exit 9: this build has none).
run "$p/bin/solver" play -q --out page.html
if [ "$rc" -eq 0 ]; then
  expect_file "the installed solver's play page is the page" "$scratch/page.html" "default-src 'none'"
else
  expect_status "installed solver play: a build without the page" 9
fi
cd - >/dev/null || finish
for prog in solver pdbgen; do
  count_check
  if strings "$p/bin/$prog" | grep -qF -e "$repo" -e "$build"; then
    fail "$prog holds a build-tree path: $(strings "$p/bin/$prog" | grep -F -e "$repo" -e "$build" | head -3)"
  fi
done

# find_package(loyd) from the moved prefix; the consumer inherits none of loyd's flags.
if expect_run "consumer (find_package): configure" 0 \
    cmake -S "$repo/tests/consumer" -B "$scratch/consumer" -DCMAKE_PREFIX_PATH="$p" &&
  expect_run "consumer (find_package): build" 0 cmake --build "$scratch/consumer"; then
  run "$scratch/consumer/consumer" "$p/share/loyd/pdb/15-5-5-5"
  expect_out "consumer (find_package)" "^57 moves: "
  expect "the consumer inherits none of loyd's private flags" \
    not grep -qE -- "-march=native|-Wconversion|-Wshadow" "$scratch/consumer/CMakeFiles/consumer.dir/flags.make"
fi
# pkg-config, from the moved prefix.
if expect_run "pkg-config --cflags --libs --static loyd" 0 env PKG_CONFIG_PATH="$p/lib/pkgconfig" \
    pkg-config --cflags --libs --static loyd; then
  # shellcheck disable=SC2046
  if expect_run "consumer (pkg-config): build" 0 c++ -std=c++20 "$repo/tests/consumer/main.cc" \
      $(cat "$scratch/out") -o "$scratch/consumer-pc"; then
    run "$scratch/consumer-pc" "$p/share/loyd/pdb/15-5-5-5"
    expect_out "consumer (pkg-config)" "^57 moves: "
  fi
  expect "pkg-config names no -std that would override the consumer's" not grep -q -- "-std=" "$scratch/out"
fi
if expect_run "pkg-config --variable=pdbdir loyd" 0 env PKG_CONFIG_PATH="$p/lib/pkgconfig" \
    pkg-config --variable=pdbdir loyd; then
  expect "pdbdir is the tables' folder" [ -f "$(cat "$scratch/out")/15-5-5-5/manifest.txt" ]
  expect "pdbdir has no '//'" not grep -q "//" "$scratch/out"
fi
# The dev component alone (library, headers, CMake package; no tables, no programs) is enough
# for find_package.
if expect_run "install --component dev" 0 cmake --install "$build" --prefix "$scratch/dev-only" --component dev; then
  expect_run "consumer of the dev component: configure" 0 \
    cmake -S "$repo/tests/consumer" -B "$scratch/consumer-dev" -DCMAKE_PREFIX_PATH="$scratch/dev-only"
fi

# Packages: cpack's .deb and .tar.gz; their file lists and the .deb's dependencies; the .deb's
# content unpacked in a scratch root runs from there with its own tables.
if expect_run "cpack" 0 cpack --config "$build/CPackConfig.cmake" -B "$scratch/pkg"; then
  deb=$(ls "$scratch"/pkg/loyd_*_*.deb 2>/dev/null | head -1)
  tgz=$(ls "$scratch"/pkg/loyd-*.tar.gz 2>/dev/null | head -1)
  expect "cpack made a .deb" [ -n "$deb" ]
  expect "cpack made a .tar.gz" [ -n "$tgz" ]
  if [ -n "$deb" ]; then
    dpkg-deb -c "$deb" | awk '{print $6}' >"$scratch/deb.list"
    for f in ./usr/bin/solver ./usr/bin/pdbgen ./usr/lib/libloyd.a ./usr/include/loyd/search/solve.h \
      ./usr/lib/cmake/loyd/loydConfig.cmake ./usr/lib/pkgconfig/loyd.pc ./usr/share/man/man1/solver.1 \
      ./usr/share/bash-completion/completions/pdbgen ./usr/share/loyd/pdb/15-5-5-5/manifest.txt \
      ./usr/share/loyd/reference/15-7-8.manifest.txt; do
      expect ".deb holds $f" grep -qxF "$f" "$scratch/deb.list"
    done
    dpkg-deb -I "$deb" >"$scratch/deb.info"
    for dep in libzstd1 libxxhash0 libboost-program-options1.74.0; do
      expect_file ".deb depends on $dep" "$scratch/deb.info" "^ Depends:.*$dep"
    done
    if ! "$build/pdbgen" --version | grep -q "MPI: not built in"; then
      expect_file ".deb of an MPI build depends on libopenmpi3" "$scratch/deb.info" "^ Depends:.*libopenmpi3"
    fi
    dpkg-deb -x "$deb" "$scratch/root"
    (cd "$scratch" && "$scratch/root/usr/bin/solver" --json 8 6 7 2 5 4 3 0 1) >"$scratch/out" 2>&1
    expect_out "the unpacked .deb's solver uses its tables" '"heuristic":"pdb:8-4-4"'
    # A table package (pdbgen package) of a stronger 3x3 set, unpacked in the same root: the
    # solver there uses it with no flags.
    expect_run "build the fleet-3x3 set" 0 "$p/bin/pdbgen" build --size 3x3 --pattern 1,2,3,4,5,6 --kind full \
      --name fleet-3x3 --out "$scratch/fleet" -q
    if expect_run "pdbgen package" 0 "$p/bin/pdbgen" package "$scratch/fleet" --out "$scratch/tpkg"; then
      tdeb="$scratch/tpkg/loyd-pdb-fleet-3x3_0.2.0_all.deb"
      expect "pdbgen package names the .deb and the .tar.gz" [ "$(cat "$scratch/out")" = "$tdeb
$scratch/tpkg/loyd-pdb-fleet-3x3-0.2.0.tar.gz" ]
      expect_no_err "pdbgen package"
      dpkg-deb -c "$tdeb" | awk '{print $6}' >"$scratch/tdeb.list"
      expect "the table .deb holds the manifest" grep -qx "./usr/share/loyd/pdb/fleet-3x3/manifest.txt" "$scratch/tdeb.list"
      dpkg-deb -I "$tdeb" >"$scratch/tdeb.info"
      expect_file "the table .deb is Architecture: all" "$scratch/tdeb.info" "^ Architecture: all"
      tar tzf "$scratch/tpkg/loyd-pdb-fleet-3x3-0.2.0.tar.gz" >"$scratch/ttgz.list"
      expect "the table .tar.gz holds the table, rooted at the prefix" \
        grep -qx "share/loyd/pdb/fleet-3x3/full-1-2-3-4-5-6.pdb" "$scratch/ttgz.list"
      dpkg-deb -x "$tdeb" "$scratch/root"
      (cd "$scratch" && "$scratch/root/usr/bin/solver" --json 8 6 7 2 5 4 3 0 1) >"$scratch/out" 2>&1
      expect_out "the solver uses the installed table package" '"heuristic":"pdb:fleet-3x3"'
    fi
    # A name that does not map one to one onto a Debian package name gets its hash appended,
    # so "Fleet 3x3" does not replace fleet-3x3 when installed beside it.
    expect_run "build the 'Fleet 3x3' set" 0 "$p/bin/pdbgen" build --size 3x3 --pattern 1,2 \
      --name "Fleet 3x3" --out "$scratch/fleet-upper" -q
    if expect_run "pdbgen package 'Fleet 3x3'" 0 "$p/bin/pdbgen" package "$scratch/fleet-upper" --out "$scratch/tpkg3"; then
      expect_out "'Fleet 3x3' is packaged under its own name" "^$scratch/tpkg3/loyd-pdb-fleet-3x3-[0-9a-f]{8}_0.2.0_all.deb$"
      udeb=$(head -1 "$scratch/out")
      dpkg-deb -c "$udeb" >"$scratch/udeb.list"
      ufolder=$(basename "$udeb" _0.2.0_all.deb)
      ufolder=${ufolder#loyd-pdb-}
      expect "the 'Fleet 3x3' .deb installs into a folder named as its package ($ufolder)" \
        grep -q " \./usr/share/loyd/pdb/$ufolder/manifest.txt$" "$scratch/udeb.list"
    fi
    # Sets left with the default name (custom) get their own packages and folders.
    for pat in 1,2 3,4; do
      expect_run "build a custom set $pat" 0 "$p/bin/pdbgen" build --size 3x3 --pattern "$pat" --out "$scratch/custom-$pat" -q
      expect_run "package the custom set $pat" 0 "$p/bin/pdbgen" package "$scratch/custom-$pat" --out "$scratch/tpkg4"
      expect_out "the custom set $pat has a package of its own" "^$scratch/tpkg4/loyd-pdb-custom-[0-9a-f]{8}_0.2.0_all.deb$"
    done
    expect "two custom sets, two packages" [ "$(ls "$scratch/tpkg4"/*.deb | wc -l)" = 2 ]
    # Combinations of unnamed sets (named custom+custom by combine) get packages of their own.
    expect_run "build a custom set 5,6" 0 "$p/bin/pdbgen" build --size 3x3 --pattern 5,6 --out "$scratch/custom-5,6" -q
    expect_run "combine custom 1,2 and 3,4" 0 "$p/bin/pdbgen" combine "$scratch/custom-1,2" "$scratch/custom-3,4" --out "$scratch/combo1"
    expect_run "combine custom 1,2 and 5,6" 0 "$p/bin/pdbgen" combine "$scratch/custom-1,2" "$scratch/custom-5,6" --out "$scratch/combo2"
    for s in combo1 combo2; do
      expect_run "package $s" 0 "$p/bin/pdbgen" package "$scratch/$s" --out "$scratch/tpkg7"
      expect_out "$s has a package of its own" "^$scratch/tpkg7/loyd-pdb-custom\\+custom-[0-9a-f]{8}_0.2.0_all.deb$"
    done
    expect "two combinations of unnamed sets, two packages" [ "$(ls "$scratch/tpkg7"/*.deb | wc -l)" = 2 ]
    # Names that look like the names hashing gives are hashed too: a set named as the unnamed
    # set's package and one named as 'My set''s never share their packages.
    taken=$(basename "$(ls "$scratch/tpkg4"/*.deb | head -1)" _0.2.0_all.deb)
    taken=${taken#loyd-pdb-}
    expect_run "build 'My set'" 0 "$p/bin/pdbgen" build --size 3x3 --pattern 1,2 --name "My set" --out "$scratch/myset" -q
    expect_run "build a set named as its package" 0 "$p/bin/pdbgen" build --size 3x3 --pattern 3,4 --name "my-set-dbdc959a" --out "$scratch/myset2" -q
    expect_run "build a set named $taken" 0 "$p/bin/pdbgen" build --size 3x3 --pattern 5,6 --name "$taken" --out "$scratch/taken" -q
    for s in myset myset2 taken; do
      expect_run "package $s" 0 "$p/bin/pdbgen" package "$scratch/$s" --out "$scratch/tpkg5" -q
    done
    expect "'My set' packaged as loyd-pdb-my-set-dbdc959a" [ -e "$scratch/tpkg5/loyd-pdb-my-set-dbdc959a_0.2.0_all.deb" ]
    expect "three names, three packages" [ "$(ls "$scratch/tpkg5"/*.deb | wc -l)" = 3 ]
    expect "a set named $taken is not the unnamed set's package" [ ! -e "$scratch/tpkg5/loyd-pdb-${taken}_0.2.0_all.deb" ]
    # A name ending in a date (8 decimal digits) is kept as it is.
    expect_run "build a set named nightly-20261202" 0 "$p/bin/pdbgen" build --size 3x3 --pattern 7,8 --name nightly-20261202 --out "$scratch/nightly" -q
    expect_run "package nightly-20261202" 0 "$p/bin/pdbgen" package "$scratch/nightly" --out "$scratch/tpkg6" -q
    expect "nightly-20261202 packaged under its own name" [ -e "$scratch/tpkg6/loyd-pdb-nightly-20261202_0.2.0_all.deb" ]
    # A damaged set is never packaged.
    printf 'x' | dd of="$scratch/fleet/full-1-2-3-4-5-6.pdb" bs=1 seek=5000 conv=notrunc 2>/dev/null
    run "$p/bin/pdbgen" package "$scratch/fleet" --out "$scratch/tpkg2"
    expect "pdbgen package refuses a damaged set" [ "$rc" != 0 ]
    expect "a damaged set leaves no package" [ ! -e "$scratch/tpkg2/loyd-pdb-fleet-3x3_0.2.0_all.deb" ]
  fi
  if [ -n "$tgz" ]; then
    tar tzf "$tgz" >"$scratch/tgz.list"
    for f in bin/solver share/loyd/pdb/8-4-4/manifest.txt lib/cmake/loyd/loydConfig.cmake share/man/man1/pdbgen.1; do
      expect_file ".tar.gz holds $f" "$scratch/tgz.list" "/$f\$"
    done
  fi
fi

finish
