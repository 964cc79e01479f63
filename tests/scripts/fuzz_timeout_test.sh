#!/bin/sh
# FuzzTimeoutUnderLoad: scripts/fuzz tells a machine's load from a hang (fresh-user defect D14: a
# seed that parses in 0.23 s alone was reported as a libFuzzer "timeout" on a loaded 2-core box).
# A fake fuzz_parse (TS_FUZZ_BIN) reports a timeout on its first run, as libFuzzer does, for an
# input that, run alone, either finishes at once (load: fuzzing must go on, exit 0) or spins
# (a hang: still a finding, exit 1).
# Usage: fuzz_timeout_test.sh REPO_ROOT
set -u
root=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

mkdir -p "$tmp/bin"
cat >"$tmp/bin/fuzz_parse" <<'FAKE'
#!/bin/sh
# Rerun of one input (-runs=1 FILE): "hang" spins, anything else returns at once.
for a in "$@"; do [ "$a" = -runs=1 ] && { grep -q hang "$(eval echo \${$#})" && while :; do :; done; exit 0; }; done
# A fuzzing run: the first one reports a timeout, the later ones record their -timeout and pass.
prefix= timeout=
for a in "$@"; do
    case $a in -artifact_prefix=*) prefix=${a#*=} ;; -timeout=*) timeout=${a#*=} ;; esac
done
if [ ! -e "$FAKE_STATE" ]; then
    touch "$FAKE_STATE"
    echo "$FAKE_INPUT" >"${prefix}timeout-0123abcd"
    echo "ALARM: working on the last Unit for 3 seconds" >&2
    echo "==1== ERROR: libFuzzer: timeout after 3 seconds" >&2
    exit 70
fi
echo "$timeout" >>"$FAKE_STATE"
echo "$*" >>"$FAKE_STATE.args"
echo "stat::number_of_executed_units: 10" >&2
exit 0
FAKE
chmod +x "$tmp/bin/fuzz_parse"

run() { # run INPUT-KIND: scripts/fuzz parse with the fake fuzzer; output in $out, status in $rc
    rm -rf "$tmp/work" "$tmp/state" "$tmp/state.args"
    out=$(cd "$root" && FAKE_STATE="$tmp/state" FAKE_INPUT=$1 TS_FUZZ_BIN="$tmp/bin" \
        TS_FUZZ_WORK="$tmp/work" TS_FUZZ_CORPUS="$tmp/no-corpus" scripts/fuzz --seconds 5 parse 2>&1)
    rc=$?
}

run slow
[ $rc -eq 0 ] || fail "a timeout that is only load failed the fuzz run (exit $rc): $out"
echo "$out" | grep -q "slow under load, not a hang: parse-timeout-0123abcd ran alone within 2 s of CPU" ||
    fail "no 'slow under load' verdict: $out"
[ "$(sed -n 1p "$tmp/state")" = 40 ] || fail "fuzzing did not go on with -timeout=40 (20 doubled): $(cat "$tmp/state")"
grep -q "/seeds" "$tmp/state.args" && fail "the restarted segment replays the seeds again: $(cat "$tmp/state.args")"
[ -e "$tmp/work/slow/parse-timeout-0123abcd" ] || fail "the slow input was not set aside"
[ ! -e "$tmp/work/findings/parse-timeout-0123abcd" ] || fail "the slow input is still a finding"

run hang
[ $rc -eq 1 ] || fail "a hang was not a finding (exit $rc): $out"
echo "$out" | grep -q "used more than 2 s of CPU (a hang)" || fail "no hang verdict: $out"
echo "$out" | grep -q "fuzz_parse FOUND A PROBLEM" || fail "no FOUND A PROBLEM: $out"
[ -e "$tmp/work/findings/parse-timeout-0123abcd" ] || fail "the hanging input is not in findings/"
echo PASS
