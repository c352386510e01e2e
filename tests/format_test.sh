#!/usr/bin/env bash
# The tree is clang-format clean: every C++ source of the project (*.h, *.cc under common/,
# solver/, pdbgen/, tests/ and bench/, as git lists them, or as found in a tree without .git)
# is exactly what clang-format makes of it with the checked-in .clang-format. First the check
# itself is checked: a badly formatted sample must be flagged.
#   format_test.sh CLANG_FORMAT SCRATCH_DIR
. "$(dirname "$0")/harness.sh"
harness_args 2 "CLANG_FORMAT SCRATCH_DIR" "$@"
program clang_format "$1"
scratch_dir "$2"

# The check catches a file that is not formatted (and passes one that is).
printf 'int  f( int x ){return x+1;}\n' >"$scratch/bad.cc"
cp "$repo/.clang-format" "$scratch/.clang-format"
run "$clang_format" --dry-run -Werror "$scratch/bad.cc"
expect "a badly formatted file is flagged" [ "$rc" -ne 0 ]
"$clang_format" -i "$scratch/bad.cc"
run "$clang_format" --dry-run -Werror "$scratch/bad.cc"
expect_status "the same file, formatted, passes" 0

cd "$repo" || exit 2
if [ -e .git ] && git ls-files --error-unmatch CMakeLists.txt >/dev/null 2>&1; then
  git ls-files -- 'common/*.h' 'common/*.cc' 'solver/*.h' 'solver/*.cc' 'pdbgen/*.h' 'pdbgen/*.cc' \
    'tests/*.h' 'tests/*.cc' 'bench/*.h' 'bench/*.cc' >"$scratch/files"
else
  find common solver pdbgen tests bench -name '*.h' -o -name '*.cc' | sort >"$scratch/files"
fi
expect "the sources are many" [ "$(wc -l <"$scratch/files")" -gt 200 ]
cp "$scratch/files" "$scratch/stdin"
run xargs "$clang_format" --dry-run -Werror
expect_status "every source is clang-format clean (fix: clang-format -i FILE)" 0
finish
