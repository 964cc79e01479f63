#!/usr/bin/env python3
"""Differential test (issue 14): every kernel of samples/ and tests/e2e/programs/ runs on the
tile-level interpreter, the lowered (thread-level) interpreter and the GPU with the same inputs
(`tilec run --seed 1`), each run dumping its outputs (`--dump-outputs`); the table compares the
lowered interpreter and the GPU with the tile-level interpreter value by value.

  bench/differential.py cases [--samples-only]            one line per case: ID|FILE|KERNEL|PARAMS
  bench/differential.py run --engines tile,lowered --tilec build/tilec --work .diff [-j N]
  bench/differential.py run --engines gpu --tilec .devbin/tilec --work .diff [-j N] [--part K/N]
  bench/differential.py table --work .diff --out bench/results/differential-DATE

Verdicts per case and engine (against the tile-level interpreter):
  bit-exact        every output value identical (NaN where the tile level has NaN)
  tolerance        not identical, within the rel-L2 tolerance `tilec run` applies (float outputs
                   only; the reason column says why the arithmetic is not exact)
  DISAGREE         outside the tolerance, or an integer output that is not identical
  error / timeout  the engine failed (the log line is kept); the tile column's own errors too
The lowered column's verdict is `tilec run --interp=lowered --check interp`'s own PASS/FAIL; the
GPU column's is this script's comparison with the tolerance recorded in the dump (the tolerance
`tilec run --check interp` uses on the GPU). The dev box produces the tile and lowered columns
(the work folder, ~1 MB, is carried to the device, which adds the GPU column): bench/h200_differential.sh.
"""
import argparse
import concurrent.futures as cf
import datetime
import json
import math
import os
import re
import struct
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Sizes for the samples (their defaults are GPU sizes: too slow for the thread-level
# interpreter). Applied to each kernel of the file that has the parameter. Sizes follow
# tests/e2e/SamplesTest.cpp where it has them; ragged ones are deliberate.
SAMPLE_PARAMS = {
    "add.py": ["M=100", "N=300"],
    "gemm.py": ["M=200", "N=136", "K=72"],
    "softmax.py": ["M=8", "N=1000"],
    "rmsnorm.py": ["M=16", "N=1024"],
    "rmsnorm_matmul.py": ["M=128", "N=128", "K=128"],
    "rmsnorm_mlp.py": ["M=128", "D=128", "N=256"],
    "swiglu.py": ["M=128", "N=128", "K=128"],
    "dequant_gemm.py": ["M=64", "N=128", "K=256"],
    "flash_decode.py": ["seqlen_kv=200"],
}
# The same for tests/e2e/programs/ files whose defaults make large dumps (the work folder travels
# to the device: 64 MiB in all); the property each program tests is kept.
E2E_PARAMS = {
    "grid_linearized.py": ["N=32"],  # still 65537 row blocks (the grid linearization)
}
# Per file: extra `tilec run` arguments the test suite gives it (valid offsets, in-place outputs).
FILE_ARGS = {
    "varlen_scale.py": ["--param", "max_len=160", "--input", "cu_seqlens=offsets:160"],  # CliScalarArgsTest
    "inplace_mask.py": ["--input", "lengths=int:1:64", "--inout", "L"],  # InplaceOutputE2ETest
}
# Differences that are the program's meaning, not a bug: case id prefix -> {output or "*": why}.
EXPLAINED = {
    "atomic_prev.hist": {"Slot": "Slot records the order in which atomics land (return_prev): any "
                                 "permutation per bin is right (SymbolicAtomicE2ETest checks that)"},
    "store_folds_away.": {"*": "every store is out of bounds on purpose: both interpreters report it, the "
                               "GPU's bounds guard (folded away) skips it (FoldedKernelE2ETest)"},
    "parallel_store_past_end.": {"*": "a T.Parallel store one element past the end on purpose: both "
                                      "interpreters report it, the GPU's bounds guard skips it "
                                      "(ParallelStoreOobE2ETest)"},
    "grid_barrier_skipped.": {"*": "a block skips T.sync_grid on purpose: both interpreters report the "
                                   "deadlock (GridBarrierE2ETest); the GPU is not run, it would hang"},
}
# Cases the GPU column does not run (they hang the device by design); the table shows '-'.
NO_GPU = ("grid_barrier_skipped.",)
# Further cases: (file, kernel or None for the default, params).
EXTRA_CASES = [
    ("samples/gemm.py", None, ["M=130", "N=250", "K=100", 'dtype="bfloat16"']),
    ("samples/softmax.py", None, ["M=10", "N=77", "block_M=4", "threads=128"]),
    ("samples/flash_attention.py", None, ["is_causal=True"]),
]


def kernels_of(tilec, path):
    """[(kernel name, [param names])] from `tilec kernels`; [] for a file without kernels."""
    p = subprocess.run([tilec, "kernels", path], capture_output=True, text=True, cwd=ROOT)
    out, cur = [], None
    for line in p.stdout.splitlines():
        m = re.match(r"^  ([A-Za-z_][A-Za-z_0-9]*)\s+line \d+", line)
        if m:
            cur = [m.group(1), []]
            out.append(cur)
            continue
        m = re.match(r"^\s+params:\s*(.*)$", line)
        if m and cur is not None:
            cur[1] = m.group(1).split()
    return [(k, ps) for k, ps in out]


def case_id(path, kernel, params):
    s = os.path.basename(path)[:-3] + "." + kernel
    if params:
        s += "." + "_".join(re.sub(r"[^A-Za-z0-9]", "", p) for p in params)
    return s


def all_cases(tilec, samples_only=False):
    files = sorted("samples/" + f for f in os.listdir(os.path.join(ROOT, "samples")) if f.endswith(".py"))
    if not samples_only:
        e2e = os.path.join(ROOT, "tests/e2e/programs")
        files += sorted("tests/e2e/programs/" + f for f in os.listdir(e2e) if f.endswith(".py"))
    cases = []
    known = {}
    for path in files:
        ks = kernels_of(tilec, path)
        known[path] = ks
        for k, names in ks:
            table = SAMPLE_PARAMS if path.startswith("samples/") else E2E_PARAMS
            ps = [p for p in table.get(os.path.basename(path), []) if p.split("=")[0] in names]
            cases.append({"id": case_id(path, k, ps), "file": path, "kernel": k, "params": ps})
    for path, k, ps in EXTRA_CASES:
        if samples_only and not path.startswith("samples/"):
            continue
        ks = known.get(path) or kernels_of(tilec, path)
        if not ks:
            continue
        k = k or ks[0][0]
        cases.append({"id": case_id(path, k, ps), "file": path, "kernel": k, "params": ps})
    return cases


def engine_args(engine):
    # Every engine compiles for the H200's target (sm_90a: TMA, wgmma, setmaxnreg kernels too).
    # --time-limit 0: run_one's own timeout bounds the interpreter runs.
    if engine == "tile":
        return ["--target", "cuda:sm_90a", "--interp", "--time-limit", "0"]
    if engine == "lowered":
        return ["--target", "cuda:sm_90a", "--interp=lowered", "--check", "interp", "--time-limit", "0"]
    return ["--target", "cuda:sm_90a", "--check", "interp"]


def run_one(tilec, work, case, engine, timeout):
    if engine == "gpu" and case["id"].startswith(NO_GPU):
        return case["id"], engine, {"engine": engine, "skipped": True}
    d = os.path.join(work, case["id"])
    os.makedirs(d, exist_ok=True)
    dump = os.path.join(d, engine)
    if os.path.isdir(dump):
        for f in os.listdir(dump):
            os.remove(os.path.join(dump, f))
    cmd = [tilec, "run", case["file"], "--kernel", case["kernel"], "--seed", "1",
           "--dump-outputs", dump] + engine_args(engine)
    for p in case["params"]:
        cmd += ["--param", p]
    cmd += FILE_ARGS.get(os.path.basename(case["file"]), [])
    t0 = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=timeout,
                           env=dict(os.environ, TILESCOPE_PROGRESS="0"))
        rc, out = p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired as e:
        rc, out = 124, (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
    secs = time.time() - t0
    with open(os.path.join(d, engine + ".log"), "w") as f:
        f.write(" ".join(cmd) + "\n" + out)
    lines = out.splitlines()
    check = next((l for l in reversed(lines) if l in ("PASS", "FAIL", "NOT CHECKED")), None)
    err = next((l for l in lines if "error:" in l), None)
    st = {"engine": engine, "rc": rc, "seconds": round(secs, 2), "check": check,
          "dumped": os.path.isfile(os.path.join(dump, "outputs.json")),
          "error": (err or ("timeout after %d s" % timeout if rc == 124 else None))}
    if st["error"] and len(st["error"]) > 300:
        st["error"] = st["error"][:300] + "..."
    with open(os.path.join(d, engine + ".json"), "w") as f:
        json.dump(st, f)
    return case["id"], engine, st


def cmd_run(a):
    listed = os.path.join(a.work, "cases.json")
    if os.path.isfile(listed) and not a.fresh:
        cases = json.load(open(listed))  # the dev box's list: the device adds a column to it
    else:
        cases = all_cases(a.tilec)
        os.makedirs(a.work, exist_ok=True)
        with open(listed, "w") as f:
            json.dump(cases, f, indent=1)
    if a.only:
        cases = [c for c in cases if re.search(a.only, c["id"])]
    if a.part:
        k, n = map(int, a.part.split("/"))
        cases = cases[k - 1::n]
    engines = a.engines.split(",")
    jobs = [(c, e) for c in cases for e in engines]
    print("differential: %d cases x %s = %d runs, -j %d" % (len(cases), engines, len(jobs), a.jobs), flush=True)
    t0 = time.time()
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        futs = [ex.submit(run_one, a.tilec, a.work, c, e, a.timeout) for c, e in jobs]
        for i, fu in enumerate(cf.as_completed(futs)):
            cid, e, st = fu.result()
            if st.get("skipped"):
                print("[%d/%d] %s %s: not run (NO_GPU)" % (i + 1, len(jobs), cid, e), flush=True)
                continue
            print("[%d/%d %.0fs] %s %s: rc=%d %s %.1fs %s" % (i + 1, len(jobs), time.time() - t0, cid, e,
                  st["rc"], st["check"], st["seconds"], st["error"] or ""), flush=True)


def load_dump(d):
    try:
        m = json.load(open(os.path.join(d, "outputs.json")))
    except (OSError, ValueError):
        return None
    outs = []
    for o in m["outputs"]:
        raw = open(os.path.join(d, o["file"]), "rb").read()
        w = 4 if o["file"].endswith(".f32") else 8
        o["data"] = struct.unpack("<%d%s" % (len(raw) // w, "f" if w == 4 else "d"), raw)
        outs.append(o)
    return outs


def compare(outs, refs):
    """Per-output comparison of one engine's dump with the tile-level dump."""
    res = []
    for o, r in zip(outs, refs):
        a, b = o["data"], r["data"]
        if len(a) != len(b):
            res.append({"name": o["name"], "bit_exact": False, "pass": False, "why": "size differs"})
            continue
        exact, err2, ref2, maxabs, nonfinite, differ = True, 0.0, 0.0, 0.0, 0, 0
        for x, y in zip(a, b):
            if math.isnan(y):
                if r["float"]:
                    if not math.isnan(x):
                        nonfinite += 1
                        exact = False
                continue  # an integer output the tile level left unwritten (poison)
            if x == y:
                if math.isfinite(y):
                    ref2 += y * y
                continue
            exact = False
            differ += 1
            if not (math.isfinite(x) and math.isfinite(y)):
                nonfinite += 1
                continue
            err2 += (x - y) ** 2
            ref2 += y * y
            maxabs = max(maxabs, abs(x - y))
        rel = math.sqrt(err2 / ref2) if ref2 > 0 else (math.inf if err2 > 0 else 0.0)
        tol = r["rel_l2_tolerance"]
        ok = exact or (r["float"] and nonfinite == 0 and rel < tol)
        res.append({"name": o["name"], "dtype": r["dtype"], "bit_exact": exact, "values_differing": differ,
                    "rel_l2": rel, "max_abs": maxabs, "tolerance": tol, "non_finite_mismatches": nonfinite,
                    "pass": ok})
    return res


# Why a float result may differ from the tile-level interpreter without being wrong.
REASON = {
    "lowered": "float accumulation order (warp-shuffle / per-thread partial reductions, mma fragment order)",
    "gpu": "float arithmetic on the device: FMA contraction, tensor-core accumulation order, exp2f/expf/rsqrtf "
           "within 2 ulp, atomic order",
}


def cell(work, case, engine, ref):
    d = os.path.join(work, case["id"])
    try:
        st = json.load(open(os.path.join(d, engine + ".json")))
    except (OSError, ValueError):
        return {"verdict": "-"}
    c = {"rc": st["rc"], "seconds": st["seconds"]}
    if st["rc"] == 124:
        c["verdict"], c["error"] = "timeout", st["error"]
        return c
    outs = load_dump(os.path.join(d, engine)) if st["dumped"] else None
    if outs is None:
        c["verdict"], c["error"] = "error", st["error"] or "rc=%d, no outputs" % st["rc"]
        why = explained(case["id"])
        if why and "*" in why:
            c["verdict"], c["reason"] = "explained error", why["*"]
        return c
    if engine == "tile":
        c["verdict"] = "reference"
        c["ref_program"] = st["check"]
        return c
    if ref is None:
        why = explained(case["id"])
        c["verdict"] = "explained" if why and "*" in why else "no tile reference"
        if why and "*" in why:
            c["reason"] = why["*"]
        return c
    cmpres = compare(outs, ref)
    c["outputs"] = cmpres
    why = explained(case["id"])
    exact = all(o["bit_exact"] for o in cmpres)
    ok = all(o["pass"] for o in cmpres)
    if engine == "lowered" and st["check"] in ("PASS", "FAIL"):
        ok = ok and st["check"] == "PASS"  # tilec's own check (defaultTolerance per output dtype)
    c["verdict"] = "bit-exact" if exact else ("tolerance" if ok else "DISAGREE")
    if c["verdict"] == "tolerance":
        c["reason"] = REASON[engine]
    if c["verdict"] == "DISAGREE" and why:
        bad = [o["name"] for o in cmpres if not o["pass"]]
        if all(n in why or "*" in why for n in bad):
            c["verdict"] = "explained"
            c["reason"] = "; ".join(why.get(n) or why["*"] for n in bad)
    return c


def explained(cid):
    for prefix, why in EXPLAINED.items():
        if cid.startswith(prefix):
            return why
    return None


def fmt_cell(c):
    v = c["verdict"]
    if v in ("explained", "explained error"):
        v += ": " + c["reason"]
        return v
    if v in ("tolerance", "DISAGREE") and c.get("outputs"):
        worst = max(c["outputs"], key=lambda o: o.get("rel_l2", 0) if math.isfinite(o.get("rel_l2", 0)) else 1e300)
        v += " (rel-L2 %.1e, tol %.0e)" % (worst.get("rel_l2", 0), worst.get("tolerance", 0))
    if v in ("error", "timeout"):
        v += ": " + (c.get("error") or "")[:120].replace("|", "/")
    return v


def cmd_table(a):
    cases = json.load(open(os.path.join(a.work, "cases.json")))
    rows, counts = [], {}
    for c in cases:
        tdir = os.path.join(a.work, c["id"], "tile")
        ref = load_dump(tdir) if os.path.isfile(os.path.join(tdir, "outputs.json")) else None
        row = {"id": c["id"], "file": c["file"], "kernel": c["kernel"], "params": c["params"]}
        for e in ("tile", "lowered", "gpu"):
            row[e] = cell(a.work, c, e, ref)
            counts.setdefault(e, {}).setdefault(row[e]["verdict"], 0)
            counts[e][row[e]["verdict"]] += 1
        rows.append(row)
    date = datetime.datetime.utcnow().strftime("%Y-%m-%dT%H:%M:%SZ")
    with open(a.out + ".json", "w") as f:
        json.dump({"date": date, "script": "bench/differential.py", "seed": 1, "counts": counts,
                   "reasons": REASON, "cases": rows}, f, indent=1)
    with open(a.out + ".md", "w") as f:
        f.write("# Differential table (%s)\n\nEvery kernel of samples/ and tests/e2e/programs/, same inputs "
                "(`tilec run --seed 1`), outputs compared with the tile-level interpreter "
                "(bench/differential.py).\n\n" % date)
        for e in ("tile", "lowered", "gpu"):
            f.write("- %s: %s\n" % (e, ", ".join("%s %d" % kv for kv in sorted(counts[e].items()))))
        f.write("\nReasons for `tolerance`: lowered: %s; gpu: %s.\n\n" % (REASON["lowered"], REASON["gpu"]))
        f.write("| kernel | params | tile (ref_program) | lowered | H200 |\n|---|---|---|---|---|\n")
        for r in rows:
            t = r["tile"]
            tv = t["verdict"] if t["verdict"] != "reference" else "ok (%s)" % (t.get("ref_program") or "-")
            if t["verdict"] in ("error", "timeout", "explained error"):
                tv = fmt_cell(t)
            f.write("| %s:%s | %s | %s | %s | %s |\n" % (r["file"], r["kernel"], " ".join(r["params"]) or "-",
                                                      tv, fmt_cell(r["lowered"]), fmt_cell(r["gpu"])))
    print("differential: wrote %s.json/.md" % a.out)
    for e in ("tile", "lowered", "gpu"):
        print("  %s: %s" % (e, counts.get(e)))
    bad = sum(counts.get(e, {}).get("DISAGREE", 0) for e in ("lowered", "gpu"))
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("cases")
    c.add_argument("--tilec", default=os.path.join(ROOT, "build/tilec"))
    c.add_argument("--samples-only", action="store_true")
    r = sub.add_parser("run")
    r.add_argument("--tilec", default=os.path.join(ROOT, "build/tilec"))
    r.add_argument("--engines", default="tile,lowered")
    r.add_argument("--work", default=os.path.join(ROOT, ".diff"))
    r.add_argument("-j", "--jobs", type=int, default=2)
    r.add_argument("--timeout", type=int, default=300)
    r.add_argument("--only", help="regex over case ids")
    r.add_argument("--part", help="K/N: every N-th case starting at K")
    r.add_argument("--fresh", action="store_true", help="list the cases again (else WORK/cases.json)")
    t = sub.add_parser("table")
    t.add_argument("--work", default=os.path.join(ROOT, ".diff"))
    t.add_argument("--out", required=True)
    a = ap.parse_args()
    if a.cmd == "cases":
        for x in all_cases(a.tilec, a.samples_only):
            print("%s|%s|%s|%s" % (x["id"], x["file"], x["kernel"], " ".join(x["params"])))
        return 0
    if a.cmd == "run":
        a.tilec = os.path.abspath(a.tilec)
        a.work = os.path.abspath(a.work)
        cmd_run(a)
        return 0
    return cmd_table(a)


if __name__ == "__main__":
    sys.exit(main())
