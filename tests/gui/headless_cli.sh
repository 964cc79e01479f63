#!/bin/sh
# gui.HeadlessCli: tilescope on a machine without a display (fresh-user defect D12). Qt's xcb
# plugin used to abort() the process before --help was printed. Expected: --help and --version
# print and exit 0; opening the window fails with one line that says what to do (exit 1), also
# when DISPLAY names an X server that is not there; no "Aborted", no core dump.
# Usage: headless_cli.sh TILESCOPE SAMPLE.py
set -u
bin=$1 sample=$2
fail() { echo "FAIL: $*"; exit 1; }
# run ENV-ASSIGNMENTS... -- ARGS...: stdout in $out, stderr in $err without Qt's own warnings
# (qt.qpa.*, "QStandardPaths: XDG_RUNTIME_DIR not set"), exit status in $rc.
run() {
    envs=""
    while [ "$1" != "--" ]; do envs="$envs $1"; shift; done
    shift
    errfile=$(mktemp)
    out=$(env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM $envs "$bin" "$@" 2>"$errfile")
    rc=$?
    err=$(grep -v -e '^qt\.qpa\.' -e '^QStandardPaths: ' "$errfile")
    rm -f "$errfile"
}

run -- --help
[ $rc -eq 0 ] || fail "--help without a display: exit $rc: $out$err"
echo "$out" | grep -q -- "--screenshot" || fail "--help does not list --screenshot: $out"
echo "$out" | grep -q "Tile program to open" || fail "--help does not describe FILE: $out"

run -- --version
[ $rc -eq 0 ] || fail "--version without a display: exit $rc: $out$err"
# The version and the git revision the binary was built at (cmake/GitRevision.cmake), as tilec's.
echo "$out" | grep -Eqx 'TileScope 0\.1( \([0-9a-f]{7,}(-dirty)?\))?' || fail "--version printed '$out'"

run -- "$sample"
[ $rc -eq 1 ] || fail "opening the window without a display: exit $rc (want 1): $out$err"
[ -z "$out" ] && [ "$(echo "$err" | wc -l)" -eq 1 ] || fail "want one line, got: $out$err"
echo "$err" | grep -q "no display to open the window on (DISPLAY and WAYLAND_DISPLAY are not set)" ||
    fail "message does not say why: $err"
echo "$err" | grep -q "xvfb-run -a tilescope" || fail "message does not say what to do: $err"

# A DISPLAY naming no X server (stale ssh -X variable): Qt warns, then our line, no abort.
run DISPLAY=:9417 -- "$sample"
[ $rc -eq 1 ] || fail "DISPLAY=:9417 (no server): exit $rc (want 1): $out$err"
[ "$(echo "$err" | wc -l)" -eq 1 ] || fail "stale DISPLAY: want one line, got: $err"
echo "$err" | grep -q "cannot connect to the X display ':9417'" || fail "stale DISPLAY: $err"
run DISPLAY=:9417 -- --version
[ $rc -eq 0 ] && echo "$out" | grep -Eqx 'TileScope 0\.1( \([0-9a-f]{7,}(-dirty)?\))?' || fail "--version with a stale DISPLAY: $rc: $out"
# Screenshot options (fresh-user trials 2026-12-06): malformed values are errors (exit 1), not a
# picture of something else; a file that is not UTF-8 text is refused as tilec refuses it (exit 2).
shot=$(mktemp -d)
for bad in "--size 0x0" "--theme purple" "--target cuda:sm_75" "--replace =>x" "--replace nothere=>x"; do
    # shellcheck disable=SC2086
    run -- "$sample" --screenshot "$shot/s.png" $bad
    [ $rc -eq 1 ] || fail "screenshot $bad: exit $rc (want 1): $out$err"
    [ ! -e "$shot/s.png" ] || fail "screenshot $bad wrote a picture"
done
run -- "$sample" --screenshot "$shot/s.png" --size 200x200  # smaller than the panels allow: said, not silent
[ $rc -eq 0 ] && echo "$err" | grep -q -- "--size 200x200: the window's panels need more room; the picture is " || fail "--size 200x200: exit $rc: $err"
# --panel of a panel the workspace keeps closed: opened for the picture (it was a few pixels).
run -- "$sample" --screenshot "$shot/p.png" --workspace author --panel timeline
size=$(echo "$err" | sed -n 's/.*wrote .* (\([0-9]*\)x\([0-9]*\)).*/\1 \2/p')
[ $rc -eq 0 ] && [ -n "$size" ] && [ "${size% *}" -ge 300 ] && [ "${size#* }" -ge 150 ] || fail "--panel timeline in author: exit $rc, size '$size': $err"
rm -f "$shot/s.png"
run -- "$sample" --screenshot "$shot/s.png" --target ""
[ $rc -eq 1 ] && echo "$err" | grep -q -- "--target: an empty value" || fail "--target '': exit $rc: $err"
cp "$sample" "$shot/latin1.py" && printf '# caf\351\n' >> "$shot/latin1.py"
run -- "$shot/latin1.py" --screenshot "$shot/s.png"
[ $rc -eq 2 ] && echo "$err" | grep -q "not UTF-8 text (byte 0xE9)" || fail "non-UTF-8 file: exit $rc: $err"
rm -rf "$shot"
echo "PASS"
