#!/usr/bin/env bash
# Checks that a man page and a program's --help agree, in both directions:
#   - every option that `PROGRAM --help` prints appears in the man page's OPTIONS section, and
#     every option the man page lists there (the .TP tags) exists;
#   - for a program with subcommands (CLI11's "Subcommands:" list), each subcommand has a
#     `.SS NAME` section under SUBCOMMANDS holding exactly its options (and its aliases are
#     mentioned), and the man page documents no subcommand the program lacks;
#   - the version in the .TH line is the one `PROGRAM --version` prints.
# Usage: check_man_page.sh PROGRAM MAN_PAGE
set -uo pipefail

program=$1
page=$2
[ -x "$program" ] || { echo "FAIL: $program is not an executable" >&2; exit 1; }
[ -r "$page" ] || { echo "FAIL: $page is not readable" >&2; exit 1; }

failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# Qt's parser needs a platform to print help; no window is created.
help_of() { QT_QPA_PLATFORM=offscreen "$program" "$@" --help 2>&1; }

# Option names (-x, --long) from help text: the leading dash-words of each option line, split at
# commas ("-h,--help" in CLI11, "-h, --help" in Qt).
options_in_help() {
  awk '/^ +-/ {
    for (i = 1; i <= NF && $i ~ /^-/; i++) {
      n = split($i, parts, ",")
      for (j = 1; j <= n; j++) if (parts[j] ~ /^-/) print parts[j]
    }
  }' | sort -u
}

# Man page source with roff escapes removed: \- becomes -, font changes and \& vanish.
plain_page=$(sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\&//g' "$page")

# Lines of the section that starts at the line matching $1 and ends before the next line
# matching $2.
section() {
  awk -v start="$1" -v stop="$2" '
    found && $0 ~ stop { exit }
    found { print }
    $0 ~ start { found = 1 }' <<<"$plain_page"
}

# Option names in the .TP tags of a section (the option being documented, not prose).
options_in_tags() {
  awk 'tag { print; tag = 0; next } /^\.TP/ { tag = 1 }' |
    grep -oE -- '(^|[ "])--?[A-Za-z][A-Za-z0-9-]*' | sed -E 's/^[ "]//' | sort -u
}

# Compares the options of one help text with one man page section, both ways.
compare() {
  local where=$1 help_opts=$2 text=$3
  local opt
  for opt in $help_opts; do
    grep -qE -- "(^|[^A-Za-z0-9-])${opt}([^A-Za-z0-9-]|$)" <<<"$text" ||
      fail "$page: $where: option $opt (in --help) is not documented"
  done
  for opt in $(options_in_tags <<<"$text"); do
    grep -qxF -- "$opt" <<<"$help_opts" ||
      fail "$page: $where: documents option $opt, which --help does not list"
  done
}

top_help=$(help_of)
[ -n "$top_help" ] || fail "$program --help printed nothing"
compare "OPTIONS" "$(options_in_help <<<"$top_help")" "$(section '^\.SH OPTIONS' '^\.SH ')"

# Subcommands, one line each: the names before the description ("run, image").
subcommands=$(awk '/^Subcommands:/ { s = 1; next } s && /^  [a-z]/ {
  line = $0; sub(/^ +/, "", line); split(line, a, /   */); print a[1] } s && /^$/ { s = 0 }' \
  <<<"$top_help")
documented=$(section '^\.SH SUBCOMMANDS' '^\.SH ' | awk '/^\.SS / { print $2 }')
if [ -n "$subcommands" ]; then
  while IFS= read -r names; do
    name=${names%%,*}
    text=$(section "^\\.SS ${name}\$" '^\.S[SH] ')
    if [ -z "$text" ]; then
      fail "$page: subcommand $name has no '.SS $name' section under SUBCOMMANDS"
      continue
    fi
    IFS=', ' read -r -a aliases <<<"${names#"$name"}"
    for alias in "${aliases[@]}"; do
      [ -z "$alias" ] || grep -qE -- "^\.BR? ${alias}( |$)" <<<"$text" ||
        fail "$page: subcommand $name: its other name $alias is not set in bold (.B $alias)"
    done
    # Options every subcommand shares with the top level (-h, --help) are documented once.
    compare "subcommand $name" "$(help_of "$name" | options_in_help |
      grep -vxF -f <(options_in_help <<<"$top_help"))" "$text"
  done <<<"$subcommands"
  for name in $documented; do
    grep -qE "^${name}(,|$)" <<<"$subcommands" ||
      fail "$page: documents subcommand $name, which --help does not list"
  done
elif [ -n "$documented" ]; then
  fail "$page: documents subcommands ($documented) but --help lists none"
fi

version=$(QT_QPA_PLATFORM=offscreen "$program" --version 2>&1 | awk 'NF { v = $NF } END { print v }')
grep -qE "^\.TH .*\"[^\"]* ${version//./\\.}\"" "$page" ||
  fail "$page: the .TH line does not name version $version (from $program --version)"

# The page itself must format cleanly (groff warnings are lintian's groff-message).
if command -v man >/dev/null; then
  warnings=$(MANWIDTH=80 man --warnings -E UTF-8 -l "$page" 2>&1 >/dev/null)
  [ -z "$warnings" ] || fail "$page: man reports: $warnings"
fi

if [ "$failures" -ne 0 ]; then
  echo "$failures mismatch(es) between $page and $program --help" >&2
  exit 1
fi
count=$(grep -c . <<<"$subcommands")
echo "OK: $page matches $program --help$([ "$count" -eq 0 ] || echo " and its $count subcommands")"
