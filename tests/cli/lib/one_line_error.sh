# Sourced by the CLI tests of bad input. expect_one_line_error WANT CMD... runs CMD and
# fails the test (through the caller's `fail`) unless it exits 1 with exactly one line on
# stderr that contains WANT, and no sign of a crash (an escaped exception, a LibTorch stack
# trace). The line is left in ERROR_LINE and stdout in ERROR_STDOUT for further checks.
expect_one_line_error() {
  local want=$1; shift
  local errfile rc=0
  errfile=$(mktemp)
  ERROR_STDOUT=$("$@" 2>"$errfile") || rc=$?
  ERROR_LINE=$(cat "$errfile")
  rm -f "$errfile"
  [ $rc -eq 1 ] || fail "$*: exit $rc"
  case "$ERROR_LINE" in
    *"terminate called"*|*"Exception raised from"*|*"frame #"*) fail "$*: crashed or printed a stack trace: $ERROR_LINE";;
  esac
  [ "$(printf '%s\n' "$ERROR_LINE" | wc -l)" -eq 1 ] && [ -n "$ERROR_LINE" ] ||
    fail "$*: expected one line on stderr, got: $ERROR_LINE"
  case "$ERROR_LINE" in *"$want"*) ;; *) fail "$*: said '$ERROR_LINE', expected it to contain '$want'";; esac
}
