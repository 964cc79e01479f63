#!/usr/bin/env python3
"""Groups the first compile failure of every kernel in a conformance results JSON into the
classes the compiler work is organised by (kernel selection, accumulator reductions, unknown
T.* names, ...) and writes a markdown tally. Standard library only.

    python3 bench/conformance/error_classes.py bench/results/conformance-<label>-<date>.json [--out FILE]
"""
import argparse
import collections
import json
import re

CLASSES = [
    ("kernel selection: tilec has no --kernel, the file's other kernels are not reachable",
     lambda st, f: st == "not-selectable"),
    ("INTERNAL compiler errors", lambda st, f: st == "internal"),
    ("crash / timeout", lambda st, f: st in ("crash", "timeout")),
    ("a @triton.jit baseline taken as the file's kernel (tilec's entry rule)",
     lambda st, f: re.search(r"of '(triton_|_triton|parallel_nsa_fwd_kernel)", f)),
    ("reduction / layout of a T.gemm accumulator fragment ('cannot reduce fragment', 'conflicting layouts')",
     lambda st, f: re.search(r"cannot reduce fragment|conflicting layouts", f)),
    ("unknown T.* name", lambda st, f: "unknown tile-language name" in f),
    ("tilelang.* Python helpers at meta level (tilelang.math.*, tilelang.next_power_of_2, tilelang.DataType)",
     lambda st, f: re.search(r"module 'tilelang' has no attribute", f)),
    ("helpers imported from other modules / TVM not available at compile time",
     lambda st, f: "not available at compile time" in f),
    ("T.gemm operand dtypes (fp8 e4m3/e5m2, fp32/tf32, int8)", lambda st, f: "T.gemm: this target supports" in f),
    ("symbolic / dynamic extents and scalar parameters (varlen T.copy with runtime offsets, "
     "'must be a tensor, got dtype', index ranges outside a dimension)",
     lambda st, f: re.search(r"must be a tensor, got dtype|T\.copy: shapes do not match|ranges over", f)),
    ("barriers / warp specialization (T.alloc_barrier)", lambda st, f: "alloc_barrier" in f),
    ("T.gemm warp tiling (warps cannot tile M x N with the policy)", lambda st, f: "cannot tile" in f),
    ("reductions other than the last dimension / of non-fragments", lambda st, f: re.search(
        r"only reductions over the last dimension|T\.reduce: source and destination must be fragments", f)),
    ("several T.Kernel per kernel function / kernel 'with' with several contexts",
     lambda st, f: re.search(r"only one T\.Kernel per kernel function|takes exactly one context", f)),
    ("named 'not supported yet' constructs (T.reshape, T.reinterpret, T.get_thread_binding, T.tfloat32, T.ptr, buf.data, ...)",
     lambda st, f: re.search(r"not supported|not a dtype TileScope supports", f)),
    ("shared memory over the per-block limit (no reuse of dead shared buffers)",
     lambda st, f: "shared memory: the kernel needs" in f),
    ("fragment access rules (indexed by other than the T.Parallel variables, read outside T.Parallel)",
     lambda st, f: re.search(r"fragment '[^']*' (must be indexed|can only be read)", f)),
    ("the catalogue has no value for a parameter", lambda st, f: st == "unresolved-params"),
]

# Kernels that compiled but whose interpreter run did not match: by cause.
RUN_CLASSES = [
    ("the reference needs values the kernel does not have (its extra non-tensor parameters)",
     lambda f: re.search(r"parameter '[^']*' has no value", f)),
    ("the reference returns fewer values than the kernel has outputs (e.g. O without lse)",
     lambda f: re.search(r"returned \d+ values? for \d+ outputs", f)),
    ("the reference (or kernel) rejects random values in integer inputs (offsets, sizes)",
     lambda f: "assertion failed" in f),
    ("mismatch", lambda f: f.startswith("mismatch")),
]


def tally(doc):
    groups = collections.OrderedDict((name, []) for name, _ in CLASSES)
    other = []
    for r in doc["results"]:
        c = r["compile"]
        st, f = c["status"], c.get("first", "")
        if st in ("ok", "needs-target", "expected-diagnostic"):
            continue
        key = f"{r['path'][len('examples/'):]}:{r['kernel']}"
        for name, rule in CLASSES:
            if rule(st, f):
                groups[name].append(key)
                break
        else:
            other.append((key, re.sub(r"^.*?error: ", "", f)[:120]))
    return groups, other


def markdown(doc, source):
    groups, other = tally(doc)
    tot = doc["summary"][-1]
    tried = tot["catalogued"] - tot["needs_target"]
    L = [f"# TileLang corpus: first-error classes ({doc['label']}, {doc['date']})", "",
         f"From `{source}` (tilec at `{doc['tilec']['commit'].split()[0]}`, --kernel: "
         f"{'yes' if doc['tilec']['has_kernel'] else 'no'}, --ref: {'yes' if doc['tilec']['has_ref'] else 'no'}). "
         f"Runner: `{doc['command']}`.", "",
         f"Totals: {tot['catalogued']} catalogued kernels, {tot['needs_target']} need another target, compile ok "
         f"{tot['compile_ok']} of the {tried} tried ({tot['compile_ok_pct']}), internal errors {tot['internal_errors']}, "
         f"interpreter match {tot['interp_match']}/{tot['with_reference']} with a callable reference.", "",
         "Kernels per class of their first compile failure (each kernel counted once):", "",
         "| kernels | class | examples |", "|---|---|---|"]
    for name, ks in groups.items():
        if ks:
            L.append(f"| {len(ks)} | {name} | {', '.join(ks[:3])} |")
    L.append(f"| {len(other)} | other (below) | |")
    L += ["", "Other first errors:", ""] + [f"- `{k}`: {f}" for k, f in other]
    fails = [r for r in doc["results"] if r["compile"]["status"] == "ok" and
             r.get("interp", {}).get("status") not in (None, "match", "no-reference")]
    if fails:
        L += ["", f"Compiled, then did not match on the interpreter ({len(fails)}):", "",
              "| kernels | cause | examples |", "|---|---|---|"]
        by = collections.OrderedDict((name, []) for name, _ in RUN_CLASSES)
        rest = []
        for r in fails:
            st = r["interp"]["status"]
            f = st + ": " + re.sub(r"^.*?error: ", "", r["interp"].get("first", "")) if st == "mismatch" else \
                r["interp"].get("first", "")
            key = f"{r['path'][len('examples/'):]}:{r['kernel']}"
            for name, rule in RUN_CLASSES:
                if rule(f):
                    by[name].append(key)
                    break
            else:
                rest.append((key, st, re.sub(r"^.*?error: ", "", f)[:120]))
        for name, ks in by.items():
            if ks:
                L.append(f"| {len(ks)} | {name} | {', '.join(ks[:3])} |")
        L += [""] + [f"- `{k}`: {st}: {f}" for k, st, f in rest]
    return "\n".join(L) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("--out")
    a = ap.parse_args()
    text = markdown(json.load(open(a.results)), a.results)
    if a.out:
        open(a.out, "w").write(text)
    else:
        print(text, end="")


if __name__ == "__main__":
    main()
