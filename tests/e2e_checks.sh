# Shared by the end-to-end scripts that try bad input (source it after setting $work):
# fail MESSAGE; exit_is CODE COMMAND... (runs it, stdout and stderr to $work/out and
# $work/err, and checks the code); one_line_saying TEXT (stderr is that one line).
fail() { echo "FAIL: $*" >&2; exit 1; }
exit_is() {
  local want="$1"
  shift
  "$@" >"$work/out" 2>"$work/err"
  local rc=$?
  [ "$rc" -eq "$want" ] || fail "exit $rc, expected $want: $*: $(head -c 600 "$work/err")"
}
one_line_saying() {
  [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q -- "$1" "$work/err" || fail "expected one line saying '$1': $(head -c 600 "$work/err")"
}
