#!/usr/bin/env python3
"""Conformance runner: every kernel of bench/conformance/catalogue.json through tilec, unchanged.

For each catalogued kernel (files that need a target we do not have are listed, not run):
  1. compile   tilec compile FILE --target cuda:sm_90a [--kernel K] --param <real> ...
  2. interp    tilec run FILE --interp --target cuda:sm_90a [--kernel K] [--ref R] --param <small> ... --seed 1
  3. gpu       (with --gpu) tilec run FILE [--kernel K] [--ref R] --param <real> ... --seed 1
               (kernels without a callable reference: small sizes, checked against the interpreter)
Outcomes: compile ok / diagnostic / internal (tilec's 'internal error', exit 2) / crash / timeout /
not-selectable (a kernel other than the file's first while tilec has no --kernel yet);
run match / mismatch / no-reference / error / internal / crash / timeout.

Writes bench/results/conformance-<label>-<date>.json (date, machine, command, per-kernel outcome
with the first diagnostic line) and a .md beside it: per-folder table and the first-error classes.
Standard library only (runs on the dev box and on the GPU machine).

    python3 bench/conformance/run.py -j2                         # compile + interpreter
    python3 bench/conformance/run.py --gpu --tilec .devbin/tilec --corpus .corpus   # on the H200
"""
import argparse
import collections
import concurrent.futures as cf
import datetime
import json
import os
import platform
import re
import shlex
import signal
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))


def pyrepr(v):
    """--param value text: a Python literal tilec's parseParamValue reads."""
    if isinstance(v, str):
        return v if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.]*", v) else repr(v)
    return repr(v)


def run_cmd(cmd, timeout, env=None):
    """Runs cmd in its own process group; kills the group on timeout. Returns (rc, out, secs)."""
    t0 = time.time()
    try:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=ROOT,
                             start_new_session=True, env=env)
    except OSError as e:  # E2BIG: a --input values list too long for the command line
        return -1, f"runner: cannot start tilec: {e.strerror}\n", 0.0
    try:
        out, _ = p.communicate(timeout=timeout)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        rc = "timeout"
    return rc, out.decode("utf-8", "replace"), round(time.time() - t0, 2)


DIAG_RX = re.compile(r"(internal error.*|error:.*|Error.*)")


def check_lines(out):
    """The per-output check lines of a run ("  dQ: rel-L2 3.1e-02 (tol 1.0e-02), ...: FAIL")."""
    return [l.strip()[:300] for l in out.splitlines()
            if re.match(r"^\s+\S+: .*\b(PASS|FAIL)\b", l)]


def first_diag(out):
    # A mismatch: the first failing output's line (its rel-L2 and first bad element), not "FAIL".
    if re.search(r"^FAIL$", out, re.M):
        bad = [l for l in check_lines(out) if re.search(r"\bFAIL\b", l)]
        if bad:
            return bad[0]
    for line in out.splitlines():
        if INTERNAL_RX.search(line) or re.search(r"\berror\b", line):
            return line.strip()[:300]
    lines = [l for l in out.splitlines() if l.strip()]
    return lines[-1].strip()[:300] if lines else ""


INTERNAL_RX = re.compile(r"internal (compiler )?error")


def classify_compile(rc, out):
    if rc == "timeout":
        return "timeout"
    if INTERNAL_RX.search(out):
        return "internal"
    if rc == 0:
        return "ok"
    if isinstance(rc, int) and rc < 0:
        return "crash"
    return "diagnostic"


def classify_run(rc, out):
    if rc == "timeout":
        return "timeout"
    if INTERNAL_RX.search(out):
        return "internal"
    if isinstance(rc, int) and rc < 0:
        return "crash"
    if rc == 0 and re.search(r"^PASS$", out, re.M):
        return "match"
    if re.search(r"^FAIL$", out, re.M):
        return "mismatch"
    if rc == 0 and "NOT CHECKED" in out:
        return "no-reference"
    return "error"


class Tilec:
    def __init__(self, path):
        self.path = path
        h = subprocess.run([path, "run", "--help"], capture_output=True, text=True).stdout
        self.has_kernel = "--kernel" in h
        self.has_ref = "--ref" in h
        self.has_input_rules = "--input" in h and "--ref-param" in h
        self.has_worker_timeout = "--timeout" in h
        self.has_inout = "--inout" in h
        # The commit the binary was built from when its payload script recorded it (a file
        # `commit` beside it: bench/conformance/prepare_device.sh); the checkout's HEAD otherwise.
        # On the device the checkout copy's HEAD need not be the binary's commit (a run of
        # 2026-12-03 labelled a 2245f5e binary with an older HEAD).
        side = os.path.join(os.path.dirname(os.path.abspath(path)), "commit")
        if os.path.isfile(side):
            self.version = "binary built at " + open(side).read().strip()
        else:
            self.version = subprocess.run(["git", "-C", ROOT, "log", "-1", "--format=%h %cI %s"],
                                          capture_output=True, text=True).stdout.strip()


def kernel_args(tc, k, default_kernel):
    """--kernel K when tilec has it; without it only the file's default kernel can be named."""
    if tc.has_kernel:
        return ["--kernel", k["name"]], None
    if k["name"] == default_kernel:
        return [], None
    return None, ("tilec has no --kernel yet: only the file's first kernel (" + str(default_kernel) +
                  ") can be compiled")


def param_args(k, which):
    """--param for every parameter the catalogue gives a value (real; small overrides real for
    the interpreter); the others keep the factory's defaults."""
    vals = dict(k.get("real", {}))
    if which == "small":
        vals.update(k.get("small", {}))
    return [x for name in k.get("params", []) if name in vals
            for x in ("--param", f"{name}={pyrepr(vals[name])}")]


def sized(template, k, which):
    """A catalogue text with {expr} replaced by its value over the kernel's parameters at these
    sizes (defaults, real, small over real for the interpreter): "offsets:{batch * seq_len}"."""
    vals = dict(k.get("defaults", {}))
    vals.update(k.get("real", {}))
    if which == "small":
        vals.update(k.get("small", {}))
    env = {"__builtins__": {}, "sum": sum, "len": len, "min": min, "max": max, "str": str, "int": int, "abs": abs,
           "range": range, "join": lambda xs: ",".join(str(x) for x in xs)}
    env.update(vals)  # as globals: comprehensions in the expression see the parameters too
    return re.sub(r"\{([^{}]*)\}", lambda m: str(eval(m.group(1), env)), str(template))


def rule_file(text):
    """Writes a long --input RULE to a file (tilec reads NAME=@PATH) and returns its path; one
    file per distinct text, removed at exit."""
    import atexit
    import hashlib
    import tempfile
    d = os.path.join(tempfile.gettempdir(), f"tilescope-conformance-{os.getpid()}")
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, hashlib.sha1(text.encode()).hexdigest() + ".rule")
    if not os.path.exists(path):
        with open(path, "w") as fh:
            fh.write(text)
        atexit.register(lambda: os.path.exists(path) and os.remove(path))
    return os.path.abspath(path)


def check_args(tc, k, which):
    """--input NAME=RULE for the catalogue's "inputs" (integer inputs that must be valid: sequence
    offsets, indices, group sizes), --ref-param NAME=VALUE for its "ref_params" (the
    reference's own parameters the kernel does not have) and --ref-inputs for its "ref_inputs"
    (the kernel inputs the reference takes positionally, when it takes fewer or others)."""
    if not tc.has_input_rules:
        return []
    out = []
    for name, rule in (k.get("inputs") or {}).items():
        text = sized(rule, k, which)
        if len(text) > 4096:  # a values: list of 10^5+ entries: too long for execve (E2BIG)
            text = "@" + rule_file(text)
        out += ["--input", f"{name}={text}"]
    for name, value in (k.get("ref_params") or {}).items():
        out += ["--ref-param", f"{name}={sized(value, k, which)}"]
    for name, value in (k.get("scalar_args") or {}).items():  # run-time scalar arguments
        out += ["--param", f"{name}={sized(value, k, which)}"]
    if k.get("ref_inputs"):
        out += ["--ref-inputs", ",".join(k["ref_inputs"])]
    if k.get("inout") and tc.has_inout:  # in-place outputs: start with values, reference input
        out += ["--inout", ",".join(k["inout"])]
    return out


def missing_params(k):
    return [p for p in k.get("unresolved", []) if p not in k.get("real", {}) and p not in k.get("defaults", {})
            and p not in ("*", "**")]


def ref_args(tc, k):
    r = k.get("reference", {}) or {}
    if r.get("kind") in ("inline", "none"):
        # the file's ref_program (if any) is not this kernel's reference: the tile interpreter is
        # (on the GPU: GPU output vs interpreter; on the interpreter: not checked)
        return ["--check", "interp"], None
    # --ref also for ref_program: tilec takes the file's ref_program only for its default kernel,
    # and a kernel the catalogue gives it to (an autotuner factory with ref_prog=ref_program)
    # would otherwise be checked against the interpreter (at real sizes on the GPU: hours).
    if r.get("kind") in ("module", "nested") and r.get("name"):
        if tc.has_ref:
            return ["--ref", r["name"]], None
        if r["name"] != "ref_program":
            return [], "tilec has no --ref yet: reference " + r["name"] + " not reachable"
    return [], None


def one_kernel(tc, corpus, f, k, default_kernel, a):
    path = os.path.relpath(os.path.join(corpus, f["path"]), ROOT)  # tilec runs in ROOT
    rec = {"path": f["path"], "folder": f["folder"], "kernel": k["name"],
           "reference": (k.get("reference") or {}).get("kind", "none"),
           "reference_name": (k.get("reference") or {}).get("name")}
    if k.get("structured_inputs"):  # random values in these are not valid inputs (see README)
        rec["structured_inputs"] = k["structured_inputs"]
    if f.get("needs") or k.get("needs"):
        rec["needs"] = k.get("needs") or f.get("needs")
        rec["compile"] = {"status": "needs-target", "first": rec["needs"]}
        return rec
    kargs, why = kernel_args(tc, k, default_kernel)
    if kargs is None:
        rec["compile"] = {"status": "not-selectable", "first": why}
        return rec
    if missing_params(k):
        rec["compile"] = {"status": "unresolved-params",
                          "first": "catalogue has no value for " + ", ".join(missing_params(k))}
        return rec
    cmd = [tc.path, "compile", path, "--target", "cuda:sm_90a"] + kargs + param_args(k, "real")
    rc, out, secs = run_cmd(cmd, a.timeout)
    st = classify_compile(rc, out)
    rec["compile"] = {"status": st, "rc": rc, "seconds": secs,
                      "cmd": " ".join(shlex.quote(c) for c in cmd[1:])}
    # ptxas's figures per kernel (tilec compile prints "ptxas sm_90a: NAME: N registers, ...")
    # and its warnings (spills, a serialized wgmma): the corpus survey of the generated code.
    px = [ln.split(": ", 1)[1] for ln in out.splitlines() if ln.startswith("ptxas sm_90a: ")]
    pw = [ln[len("tilec: warning: "):] for ln in out.splitlines() if ln.startswith("tilec: warning: ptxas")]
    if px:
        rec["compile"]["ptxas"] = px
    if pw:
        rec["compile"]["ptxas_warnings"] = pw
    if st != "ok":
        rec["compile"]["first"] = first_diag(out)
        # Programs written to fail (autodd's deliberately buggy matmul): the diagnostic the
        # catalogue expects is the conforming outcome.
        if st == "diagnostic" and k.get("expect_diagnostic") and \
                re.search(k["expect_diagnostic"], rec["compile"]["first"] or ""):
            rec["compile"]["status"] = "expected-diagnostic"
        return rec
    rargs, rwhy = ref_args(tc, k)
    if rwhy:
        rec["reference_note"] = rwhy
    if not a.no_interp:
        # the interpreter checks limits of the compile target: sm_90a as the compile stage
        # --interp-level lowered: the thread-level interpreter of the lowered IR, which checks the
        # barriers, cp.async waits and shared-memory races of the code the GPU runs (the tile
        # level assumes insert-sync's barriers; issue 8's seesaw / mla_decode_ws races showed
        # only there)
        interp = "--interp=lowered" if a.interp_level == "lowered" else "--interp"
        # --time-limit 0: this runner's own timeout (--interp-timeout) bounds the run
        cmd = [tc.path, "run", path, interp, "--target", "cuda:sm_90a", "--seed", "1",
               "--time-limit", "0"] + kargs + rargs + \
            param_args(k, "small") + check_args(tc, k, "small")
        rc, out, secs = run_cmd(cmd, a.interp_timeout)
        st = classify_run(rc, out)
        rec["interp"] = {"status": st, "rc": rc, "seconds": secs, "level": a.interp_level,
                         "cmd": " ".join(shlex.quote(c) for c in cmd[1:])}
        if st not in ("match", "no-reference"):
            rec["interp"]["first"] = first_diag(out)
        m = re.search(r"check against (.*):", out)
        if m:
            rec["interp"]["checked_against"] = m.group(1)[:120]
    if a.gpu:
        # With a callable reference: the file's real sizes. Without one the check is against the
        # tile interpreter, which at real sizes (4096^3 GEMMs, 32k-token scans) would take hours
        # on the CPU: small sizes then.
        sizes = "real" if (k.get("reference") or {}).get("kind") in ("module", "nested") else "small"
        # --gpu-sizes small: the interpreter's sizes for every kernel, so the GPU is checked on the
        # same problem as the interpreter (issue 8's "match at small sizes on the interpreter and on
        # the H200"); real sizes put the float64 reference of 4096-token attention on the host CPU.
        if a.gpu_sizes == "small":
            sizes = "small"
        # --gpu-timeout bounds the launch (NVRTC + kernel, tilec's worker timeout: a hang is
        # reported by tilec itself); the check after it (the float64 reference on the host at real
        # sizes, or the interpreter) gets --ref-timeout more: one budget for both hid which of
        # the two ran out.
        wt = ["--timeout", str(a.gpu_timeout)] if tc.has_worker_timeout else []
        cmd = [tc.path, "run", path, "--seed", "1"] + kargs + rargs + param_args(k, sizes) + \
            check_args(tc, k, sizes) + wt
        rc, out, secs = run_cmd(cmd, a.gpu_timeout + a.ref_timeout + 30)
        st = classify_run(rc, out)
        rec["gpu"] = {"status": st, "rc": rc, "seconds": secs, "sizes": sizes,
                      "cmd": " ".join(shlex.quote(c) for c in cmd[1:])}
        rec["gpu"].update(gpu_phases(out))
        if st not in ("match", "no-reference"):
            rec["gpu"]["first"] = first_diag(out)
        if st == "error" and WORKER_TIMEOUT_RX.search(out):
            st = rec["gpu"]["status"] = "timeout"
        if st == "timeout":
            # tilec run prints (and flushes) "kernel ...; seed N" once the program is compiled and
            # its inputs made, "ran on ..." once the launch returned
            rec["gpu"]["phase"] = ("check" if "launch_ms" in rec["gpu"] else
                                   "launch" if re.search(r"\bseed \d+$", out, re.M) else "setup")
            rec["gpu"]["first"] = timeout_text(rec["gpu"], a, sizes, k)
        if st in ("match", "mismatch"):
            rec["gpu"]["checks"] = check_lines(out)  # every output's rel-L2, passing ones too
        apply_explained(rec, k)
    return rec


def failing_outputs(checks):
    """Names of the outputs whose check line failed ("NAME: ... FAIL; ...")."""
    return [m.group(1) for m in (re.match(r"^\s*(\S+): .*\bFAIL\b", c) for c in checks or []) if m]


def apply_explained(rec, k):
    """A GPU mismatch the review explained (review.json `gpu_explained`: the outputs, the cause,
    the evidence, optional bounds max_mismatching / max_rel_l2 per output) is reported as
    "explained" when every failing output is one it names, within its bounds; a failure of any
    other output stays a mismatch. Also applied by --resummarize to an earlier results
    JSON, from the current catalogue."""
    g, ex = rec.get("gpu") or {}, k.get("gpu_explained")
    if not ex or g.get("status") not in ("mismatch", "explained"):
        return
    lines = g.get("checks") or [g.get("first", "")]
    failing = failing_outputs(lines)

    def within(name):  # optional bounds: an explanation of near-ties is not one of 494 swaps
        for c in lines:
            if not c.strip().startswith(name + ":"):
                continue
            m = re.search(r"(\d+) mismatching", c)
            if m and name in ex.get("max_mismatching", {}) and int(m.group(1)) > ex["max_mismatching"][name]:
                return False
            m = re.search(r"rel-L2 ([0-9.eE+-]+)", c)
            if m and name in ex.get("max_rel_l2", {}) and float(m.group(1)) > ex["max_rel_l2"][name]:
                return False
        return True
    if failing and set(failing) <= set(ex.get("outputs", [])) and all(within(n) for n in failing):
        g["status"] = "explained"
        g["explained"] = ex["cause"]
    else:
        g["status"] = "mismatch"
        g.pop("explained", None)


WORKER_TIMEOUT_RX = re.compile(r"GPU worker .* did not answer within")


def gpu_phases(out):
    """Seconds of a GPU run's phases from tilec run's lines: launch_ms and nvrtc_ms ("ran on H200
    (sm_90a): 1.234 ms (first launch, incl. sync); nvrtc 812.0 ms"), reference_s ("check against
    ref_program (float64, 12.34 s):")."""
    ph = {}
    m = re.search(r"^ran (?:on|\d+ launches on) .*?: ([0-9.]+) ms(?:.*nvrtc ([0-9.]+) ms)?", out, re.M)
    if m:
        ph["launch_ms"] = float(m.group(1))
        if m.group(2):
            ph["nvrtc_ms"] = float(m.group(2))
    m = re.search(r"^check against .*\(float64, ([0-9.]+) s\):", out, re.M)
    if m:
        ph["reference_s"] = float(m.group(1))
    return ph


def timeout_text(g, a, sizes, k):
    """What ran out on a GPU run: the launch (NVRTC + the kernel: a hang, or a slow compile)
    or the check after it (the host float64 reference at real sizes, or the interpreter)."""
    if g["phase"] == "setup":
        return ("timeout before the launch: compiling the program or making its inputs at "
                f"{sizes} sizes took over {a.gpu_timeout + a.ref_timeout + 30} s")
    if g["phase"] == "launch":
        return (f"timeout: no launch result within {a.gpu_timeout} s (NVRTC + kernel; "
                "a GPU hang, or a compile that slow)")
    what = ("the float64 reference on the host" if (k.get("reference") or {}).get("kind")
            in ("module", "nested") else "the tile interpreter")
    return (f"timeout in the check: the kernel ran ({g['launch_ms']} ms, nvrtc "
            f"{g.get('nvrtc_ms', '?')} ms) but {what} at {sizes} sizes took over {a.ref_timeout} s")


def default_kernel_of(f):
    """TileScope's choice without --kernel (Module.cpp findEntries): jit/autotune factories
    first, then plain or helper-built factories and autotune drivers, eager kernels, bare
    prim_funcs; file order."""
    rank = {"jit-factory": 0, "factory": 1, "jit-helper": 1, "autotuner": 1, "jit-eager": 2, "prim_func": 3}
    ks = sorted(enumerate(f.get("kernels", [])), key=lambda ik: (rank.get(ik[1]["pattern"], 9), ik[0]))
    return ks[0][1]["name"] if ks else None


# ---- error classes: a first diagnostic line without its location and names --------------------
def error_class(line):
    # an output check line (first_diag of a mismatch): one class per kind of miss, not per value
    m = re.match(r"^\S+: (rel-L2|\d+ mismatching).*\bFAIL\b", line or "")
    if m:
        return "FAIL: an output over its tolerance" + (" (NaN)" if re.search(r"[1-9]\d* NaN", line) else "")
    s = re.sub(r"^.*?:\d+:\d+:\s*", "", line)          # file:line:col:
    s = re.sub(r"^\S*\.py:\s*", "", s)                   # file: (no position)
    s = re.sub(r"^tilec: ", "", s)
    s = re.sub(r"^(error|internal error)\s*(\[[^\]]*\])?:?\s*", lambda m: m.group(1) + ": ", s)
    # quoted names stay where they name the missing API (module 'T' has no attribute 'X'),
    # elsewhere they are the file's own buffers/variables
    keep = re.search(r"has no attribute|unknown|not available|not supported|is not defined", s)
    s = re.sub(r"'([^']*)'", lambda m: m.group(0) if keep and re.fullmatch(r"[\w.]{1,40}", m.group(1))
               else "'…'", s)
    s = re.sub(r"\"[^\"]*\"", "\"…\"", s)
    s = re.sub(r"\b\d+(\.\d+)?\b", "N", s)
    s = re.sub(r"\(N(, N)*\)", "(N…)", s)
    return s[:140]


def summarize(results):
    by = collections.OrderedDict()
    for r in sorted(results, key=lambda r: r["folder"]):
        by.setdefault(r["folder"], []).append(r)
    rows = []

    def row(name, rs):
        cat = len(rs)
        need = sum(r["compile"]["status"] == "needs-target" for r in rs)
        sel = sum(r["compile"]["status"] == "not-selectable" for r in rs)
        unres = sum(r["compile"]["status"] == "unresolved-params" for r in rs)
        tried = [r for r in rs if r["compile"]["status"] not in ("needs-target",)]
        # compile ok: compiled, or (a program written to fail) stopped at its expected diagnostic
        ok = sum(r["compile"]["status"] in ("ok", "expected-diagnostic") for r in rs)
        internal = sum(r["compile"]["status"] == "internal" or r.get("interp", {}).get("status") == "internal"
                       or r.get("gpu", {}).get("status") == "internal" for r in rs)
        crash = sum(s in ("crash", "timeout") for r in rs for s in
                    (r["compile"]["status"], r.get("interp", {}).get("status"), r.get("gpu", {}).get("status")))
        withref = [r for r in tried if r["reference"] in ("module", "nested")]
        inline = sum(r["reference"] == "inline" for r in tried)
        im = sum(r.get("interp", {}).get("status") == "match" for r in withref)
        gm = sum(r.get("gpu", {}).get("status") == "match" for r in withref)
        g_interp = sum(r.get("gpu", {}).get("status") == "match" for r in tried if r not in withref)
        # GPU mismatches the review explained (the file's bug, invalid inputs, rounding order)
        g_expl = sum(r.get("gpu", {}).get("status") == "explained" for r in rs)
        ran_gpu = any("gpu" in r for r in rs)
        pct = lambda n, d: f"{100.0 * n / d:.0f}%" if d else "-"
        return {"folder": name, "catalogued": cat, "needs_target": need, "not_selectable": sel, "unresolved_params": unres,
                "compile_ok": ok, "compile_ok_pct": pct(ok, len(tried)), "internal_errors": internal,
                "crash_timeout": crash, "with_reference": len(withref), "inline_reference": inline,
                "interp_match": im, "interp_match_pct": pct(im, len(withref)),
                "gpu_match": gm if ran_gpu else None, "gpu_match_pct": pct(gm, len(withref)) if ran_gpu else "-",
                "gpu_matches_interp_no_ref": g_interp if ran_gpu else None,
                "gpu_explained": g_expl if ran_gpu else None}

    for name, rs in by.items():
        rows.append(row(name, rs))
    rows.append(row("TOTAL", results))
    classes = collections.Counter()
    examples = {}
    for r in results:
        for stage in ("compile", "interp", "gpu"):
            st = r.get(stage, {})
            if st.get("status") in ("diagnostic", "internal", "error", "crash", "mismatch", "timeout"):
                c = (stage, st["status"], error_class(st.get("first", "")))
                classes[c] += 1
                examples.setdefault(c, []).append(f"{r['path'][len('examples/'):]}:{r['kernel']}")
                break
    return rows, [{"stage": c[0], "status": c[1], "class": c[2], "count": n, "examples": examples[c][:4]}
                  for c, n in classes.most_common()]


def markdown(doc):
    L = [f"# TileLang corpus conformance — {doc['label']} ({doc['date']})", "",
         f"Machine: {doc['machine']['host']} ({doc['machine']['cpu']}, {doc['machine']['gpu']}); "
         f"tilec {doc['tilec']['path']} at `{doc['tilec']['commit']}` "
         f"(--kernel: {'yes' if doc['tilec']['has_kernel'] else 'no'}, --ref: {'yes' if doc['tilec']['has_ref'] else 'no'}).",
         "", f"Command: `{doc['command']}`", "",
         "Compile: sm_90a at the file's real parameters; interp: tile-level CPU interpreter at small "
         "parameters; GPU: real parameters. Percentages over the kernels tried (needs-target excluded); "
         "match % over the kernels with a callable reference (module-level or nested function).", "",
         "| folder | catalogued | needs other target | not selectable (no --kernel) | compile ok | compile ok % | "
         "internal errors | crash/timeout | with reference | inline ref | interp match | interp match % | GPU match % | "
         "GPU = interp (no reference) | GPU differs, explained |",
         "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in doc["summary"]:
        b = "**" if r["folder"] == "TOTAL" else ""
        L.append(f"| {b}{r['folder']}{b} | {r['catalogued']} | {r['needs_target']} | {r['not_selectable']} | {r['compile_ok']} | "
                 f"{r['compile_ok_pct']} | {r['internal_errors']} | {r['crash_timeout']} | {r['with_reference']} | "
                 f"{r['inline_reference']} | {r['interp_match']} | {r['interp_match_pct']} | {r['gpu_match_pct']} | "
                 f"{'-' if r['gpu_matches_interp_no_ref'] is None else r['gpu_matches_interp_no_ref']} | "
                 f"{'-' if r.get('gpu_explained') is None else r['gpu_explained']} |")
    L += ["", "## First-error classes (first failing stage per kernel)", "",
          "| count | stage | status | class | e.g. |", "|---|---|---|---|---|"]
    for c in doc["error_classes"]:
        L.append(f"| {c['count']} | {c['stage']} | {c['status']} | `{c['class'].replace('|', '/')}` | "
                 f"{', '.join(c['examples'][:2])} |")
    expl = [r for r in doc["results"] if r.get("gpu", {}).get("status") == "explained"]
    if expl:
        L += ["", "## GPU differences explained (review.json `gpu_explained`)", "",
              "| kernel | cause |", "|---|---|"]
        for r in expl:
            L.append(f"| {r['path'][len('examples/'):]}:{r['kernel']} | {r['gpu']['explained'].replace('|', '/')} |")
    return "\n".join(L) + "\n"


def compact_table(doc):
    """The per-folder figures in the README's short form."""
    L = ["| folder | kernels | other target | compile ok | internal | with ref | interp match | GPU match |",
         "|---|---|---|---|---|---|---|---|"]
    for r in doc["summary"]:
        tried = r["catalogued"] - r["needs_target"]
        b = "**" if r["folder"] == "TOTAL" else ""
        g = "-" if r["gpu_match"] is None else f"{r['gpu_match']}/{r['with_reference']}"
        L.append(f"| {b}{r['folder']}{b} | {r['catalogued']} | {r['needs_target'] or ''} | {r['compile_ok']}/{tried} | "
                 f"{r['internal_errors'] or ''} | {r['with_reference']} | {r['interp_match']}/{r['with_reference']} | {g} |")
    return "\n".join(L) + "\n"


def machine():
    gpu = "no GPU"
    try:
        gpu = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True,
                             text=True, timeout=20).stdout.strip() or gpu
    except Exception:
        pass
    cpu = platform.processor() or platform.machine()
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"host": socket.gethostname(), "cpu": f"{cpu} x{os.cpu_count()}", "gpu": gpu,
            "python": platform.python_version()}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tilec", default=os.path.join(ROOT, "build", "tilec"))
    ap.add_argument("--corpus", default=os.path.normpath(os.path.join(ROOT, "..", "shared", "tilelang-corpus")))
    ap.add_argument("--catalogue", default=os.path.join(HERE, "catalogue.json"))
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=120, help="seconds per compile")
    ap.add_argument("--interp-timeout", type=float, default=120, help="seconds per interpreter run")
    ap.add_argument("--gpu-timeout", type=float, default=180, help="seconds per GPU run")
    ap.add_argument("--ref-timeout", type=float, default=240,
                    help="seconds per GPU run's check after the launch (the float64 reference at "
                         "real sizes, or the interpreter), on top of --gpu-timeout")
    ap.add_argument("--gpu", action="store_true", help="also run at real parameters on the GPU")
    ap.add_argument("--gpu-sizes", choices=("real", "small"), default="real",
                    help="real: the file's sizes where a callable reference exists (else small); "
                         "small: the interpreter's small sizes for every kernel")
    ap.add_argument("--no-interp", action="store_true")
    ap.add_argument("--interp-level", choices=("tile", "lowered"), default="tile",
                    help="tile: the tile-level interpreter; lowered: the thread-level one of the "
                         "lowered IR (barriers, races, cp.async: what the GPU runs)")
    ap.add_argument("--only", help="regex over 'path:kernel'")
    ap.add_argument("--label", default="run")
    ap.add_argument("--out", help="JSON path (default bench/results/conformance-<label>-<date>.json)")
    ap.add_argument("--tilec-commit", help="the commit the tilec binary was built from (default: this checkout's HEAD)")
    ap.add_argument("--readme-table", metavar="JSON", help="print the compact per-folder table of a results JSON")
    ap.add_argument("--resummarize", metavar="JSON", help="recompute summary/classes/markdown of a results JSON")
    a = ap.parse_args()
    if a.readme_table:
        print(compact_table(json.load(open(a.readme_table))), end="")
        return
    if a.resummarize:
        doc = json.load(open(a.resummarize))
        if os.path.exists(a.catalogue):  # the review's current explanations of GPU mismatches
            ks = {(f["path"], k["name"]): k for f in json.load(open(a.catalogue))["files"]
                  for k in f.get("kernels", [])}
            for r in doc["results"]:
                if (r["path"], r["kernel"]) in ks:
                    apply_explained(r, ks[(r["path"], r["kernel"])])
        doc["summary"], doc["error_classes"] = summarize(doc["results"])
        # X.json.partial (a run killed before its end) becomes X.json with what it has.
        path = a.resummarize[:-len(".partial")] if a.resummarize.endswith(".partial") else a.resummarize
        doc.setdefault("machine", {"host": "?", "cpu": "?", "gpu": "?"})
        doc.setdefault("command", "(partial run)")
        doc.setdefault("tilec", {"path": "?", "commit": "?", "has_kernel": True, "has_ref": True})
        with open(path, "w") as fh:
            json.dump(doc, fh, indent=1)
            fh.write("\n")
        with open((path[:-5] if path.endswith(".json") else path) + ".md", "w") as fh:
            fh.write(markdown(doc))
        return
    tc = Tilec(a.tilec)
    if a.tilec_commit:
        tc.version = a.tilec_commit
    cat = json.load(open(a.catalogue))
    jobs = []
    for f in cat["files"]:
        if f["kind"] != "kernel":
            continue
        dk = default_kernel_of(f)
        for k in f["kernels"]:
            if a.only and not re.search(a.only, f"{f['path']}:{k['name']}"):
                continue
            jobs.append((f, k, dk))
    # Kernels with a callable reference first: a run cut by a time limit still has the figure
    # the acceptance is about (reference matches), the interpreter-only checks after it.
    jobs.sort(key=lambda j: (j[1].get("reference") or {}).get("kind") not in ("module", "nested"))
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    out = a.out or os.path.join(ROOT, "bench", "results", f"conformance-{a.label}-{date}.json")
    t0 = time.time()
    results = []
    with cf.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        futs = {ex.submit(one_kernel, tc, a.corpus, f, k, dk, a): (f, k) for f, k, dk in jobs}
        for i, fu in enumerate(cf.as_completed(futs), 1):
            f, k = futs[fu]
            try:
                r = fu.result()
            except Exception as e:  # the runner itself must not stop on one kernel
                r = {"path": f["path"], "folder": f["folder"], "kernel": k["name"], "reference": "none",
                     "compile": {"status": "crash", "first": f"runner: {type(e).__name__}: {e}"}}
            results.append(r)
            # What is done so far, in case the run is killed before the end (a device call's
            # time limit): --resummarize turns it into the full JSON and .md.
            with open(out + ".partial", "w") as fh:
                json.dump({"label": a.label, "date": date, "partial": True, "results": results}, fh)
            stages = " ".join(f"{s}={r[s]['status']}" for s in ("compile", "interp", "gpu") if s in r)
            print(f"[{i}/{len(jobs)}] {r['path'][len('examples/'):]}:{r['kernel']} {stages}", flush=True)
    results.sort(key=lambda r: (r["path"], r["kernel"]))
    rows, classes = summarize(results)
    doc = {"label": a.label, "date": date, "machine": machine(),
           "command": "python3 " + " ".join(shlex.quote(x) for x in [os.path.relpath(sys.argv[0], ROOT)] + sys.argv[1:]),
           "tilec": {"path": a.tilec if os.path.relpath(a.tilec, ROOT).startswith("..") else os.path.relpath(a.tilec, ROOT), "commit": tc.version, "has_kernel": tc.has_kernel,
                     "has_ref": tc.has_ref},
           "catalogue": os.path.relpath(a.catalogue, ROOT), "wall_seconds": round(time.time() - t0, 1),
           "summary": rows, "error_classes": classes, "results": results}
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as fh:
        json.dump(doc, fh, indent=1)
        fh.write("\n")
    md = out[:-5] + ".md" if out.endswith(".json") else out + ".md"
    with open(md, "w") as fh:
        fh.write(markdown(doc))
    if os.path.exists(out + ".partial"):
        os.remove(out + ".partial")
    tot = rows[-1]
    print(f"{tot['catalogued']} kernels: compile ok {tot['compile_ok']} ({tot['compile_ok_pct']}), internal "
          f"{tot['internal_errors']}, interp match {tot['interp_match']}/{tot['with_reference']}; -> {out}, {md}")


if __name__ == "__main__":
    main()
