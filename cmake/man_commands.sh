#!/bin/sh
# man_commands.sh PROGRAM: a help2man include file, on standard output, with a COMMANDS section
# holding each command's own --help (the commands as the program's --help lists them under
# "Commands:"), cut before its options, which the page's OPTIONS section already lists for
# every command. Each is preformatted roff: backslashes escaped, and lines opening with . or '
# (roff requests) or with [ or / (help2man's section and pattern markers in an include file).
set -eu
prog=$1
name=$(basename "$prog")
commands=$("$prog" --help | sed -n '/^Commands:$/,/^[^ ]/s/^  \([a-z][a-z0-9-]*\) .*/\1/p' | uniq)
[ -n "$commands" ] || { echo "man_commands.sh: no commands in $name --help" >&2; exit 1; }
echo "[COMMANDS]"
for c in $commands; do
  printf '.SS "%s %s"\n.nf\n' "$name" "$c"
  "$prog" "$c" --help | sed -e '/^Options\( (every command)\)\{0,1\}:$/,$d' \
    -e 's/\\/\\e/g' -e "s/^\\([.'[/]\\)/\\\\\\&\\1/"
  echo ".fi"
done
