"""Two-way compatibility of samples/ (issue 8, item 5), on the GPU machine.

Each sample is imported as a plain Python module under real TileLang 0.1.15 (no line skipped:
the file must be valid Python that TileLang accepts), its @tilelang.jit factory is compiled at
the case's parameters, run on seeded random inputs, and compared with the sample's ref_program
evaluated in float64 on the same inputs. The same file at the same parameters then goes through
TileScope (`tilec run` on the GPU), which checks against the same ref_program in float64 on its
own random inputs. Both agreeing with the float64 reference within the dtype's tolerance is the
"same results" criterion (tilec cannot read external input tensors, so the two do not share
inputs). Writes one JSON (per case: TileLang compile time, errors vs float64, tilec verdict and
its check lines).

    source .tl/setup.sh && python3 bench/samples_tilelang.py --tilec .devbin/tilec --out $OUT/x.json
"""
import argparse
import ast
import importlib.util
import json
import os
import subprocess
import sys
import time
import traceback

import torch
import tilelang

# Every samples/*.py runs at its defaults; these add the sizes the README quotes.
EXTRA_CASES = {
    "gemm.py": [{"M": 4096, "N": 4096, "K": 4096}, {"M": 1000, "N": 1000, "K": 1000},
                {"M": 1000, "N": 1000, "K": 1000, "dtype": "bfloat16"}],
    "softmax.py": [{"M": 4096, "N": 8192}, {"M": 4096, "N": 1000}],
    "add.py": [{"M": 4096, "N": 4096}, {"M": 1000, "N": 999}, {"M": 1000, "N": 999, "dtype": "float16"}],
    "flash_attention.py": [{"seq_len": 4096, "heads": 16, "dim": 128},
                           {"seq_len": 1000, "heads": 8, "dim": 64, "is_causal": True}],
}
# relative L2 error against float64 that counts as agreement (fp16/bf16 GEMM accumulate in fp32
# but round the output; TileScope's own check uses comparable bounds)
TOL = {"float16": 1e-2, "bfloat16": 2e-2, "float32": 1e-5}
TORCH_DTYPE = {"float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32,
               "uint8": torch.uint8, "int8": torch.int8, "int32": torch.int32}


def random_input(shape, dtype, gen):
    """randn for float tensors; integers over the whole byte range for 8-bit ones (packed int4
    weights of samples/dequant_gemm.py: every nibble value), small ones otherwise."""
    t = TORCH_DTYPE[dtype]
    if t.is_floating_point:
        return torch.randn(*shape, generator=gen, device="cuda", dtype=t)
    lo, hi = {"uint8": (0, 256), "int8": (-128, 128)}.get(dtype, (-8, 9))
    return torch.randint(lo, hi, tuple(shape), generator=gen, device="cuda", dtype=t)


def factory_and_signature(path, params):
    """The @tilelang.jit factory's name, its parameter values (defaults, then `params`, then the
    factory's own simple assignments such as `shape = (batch, heads, seq_len, dim)`), the output
    indices (out_idx) and the prim_func's tensor parameters as (name, shape, dtype)."""
    import tilelang.language as T
    tree = ast.parse(open(path).read(), path)
    for node in tree.body:
        if not (isinstance(node, ast.FunctionDef) and any("jit" in ast.unparse(d) for d in node.decorator_list)):
            continue
        args = node.args.args
        env = {a.arg: ast.literal_eval(d) for a, d in zip(args[len(args) - len(node.args.defaults):],
                                                          node.args.defaults)}
        env.update(params)
        out_idx = [-1]
        for d in node.decorator_list:
            if isinstance(d, ast.Call):
                for kw in d.keywords:
                    if kw.arg == "out_idx":
                        out_idx = ast.literal_eval(kw.value)
        scope = dict(env, T=T)
        for st in node.body:  # the factory's plain assignments (our own samples: safe to run)
            if isinstance(st, ast.Assign):
                try:
                    exec(compile(ast.Module(body=[st], type_ignores=[]), path, "exec"), {}, scope)
                except Exception:
                    pass
        for inner in ast.walk(node):
            if isinstance(inner, ast.FunctionDef) and any("prim_func" in ast.unparse(d) for d in inner.decorator_list):
                sig = []
                for a in inner.args.args:
                    shape = eval(compile(ast.Expression(a.annotation.args[0]), path, "eval"), {}, scope)
                    dtype = eval(compile(ast.Expression(a.annotation.args[1]), path, "eval"), {}, scope)
                    sig.append((a.arg, tuple(shape), str(dtype)))
                n = len(sig)
                outs = sorted(i % n for i in (out_idx if isinstance(out_idx, list) else [out_idx]))
                return node.name, env, outs, sig
    raise RuntimeError(f"{path}: no @tilelang.jit factory with an inner @T.prim_func")


def call_reference(ref, inputs, env):
    """ref_program(tensors..., other parameters by name from the factory's values)."""
    import inspect
    args, it = [], iter(inputs)
    for name in inspect.signature(ref).parameters:
        args.append(env[name] if name in env else next(it))
    return ref(*args)


def tilec_run(tilec, sample, params):
    cmd = [tilec, "run", "samples/" + sample, "--seed", "1"]
    for k, v in params.items():
        cmd += ["--param", f"{k}={v}"]
    t = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    out = p.stdout + p.stderr
    verdict = "PASS" if "\nPASS" in "\n" + out else ("FAIL" if "\nFAIL" in "\n" + out else "ERROR")
    lines = out.splitlines()
    check = [l for l in lines if "check against" in l or "err" in l.lower() or l.startswith("ran on")]
    return {"cmd": " ".join(cmd), "rc": p.returncode, "verdict": verdict, "seconds": round(time.time() - t, 2),
            "lines": check[:12] if verdict != "ERROR" else lines[-12:]}


def one_case(sample, params, tilec):
    path = os.path.join("samples", sample)
    rec = {"sample": sample, "params": params}
    try:
        spec = importlib.util.spec_from_file_location("sample_" + sample[:-3], path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)  # the whole file, unchanged
        rec["import"] = "ok"
        name, env, outs, sig = factory_and_signature(path, params)
        t = time.time()
        kernel = getattr(mod, name)(**params)
        rec["tilelang_compile_s"] = round(time.time() - t, 2)
        gen = torch.Generator(device="cuda").manual_seed(1)
        inputs = [random_input(shape, dtype, gen) for i, (pname, shape, dtype) in enumerate(sig) if i not in outs]
        got = kernel(*inputs)
        torch.cuda.synchronize()
        got = list(got) if isinstance(got, (list, tuple)) else [got]
        ref = call_reference(mod.ref_program, [x.double() if x.is_floating_point() else x for x in inputs], env)
        ref = list(ref) if isinstance(ref, (list, tuple)) else [ref]
        dtype = sig[outs[0]][2]
        rels, maxabs, nans = [], [], 0
        for o, r in zip(got, ref):
            diff = o.double() - r.double()
            rels.append((diff.norm() / r.double().norm()).item())
            maxabs.append(diff.abs().max().item())
            nans += int(torch.isnan(o).sum().item())
        rec.update(tilelang_rel_l2=max(rels), tilelang_max_abs=max(maxabs), tilelang_nan=nans,
                   tolerance=TOL[dtype], tilelang_pass=bool(len(got) == len(ref) and max(rels) <= TOL[dtype]
                                                             and nans == 0))
    except Exception as e:
        rec["import"] = rec.get("import", "failed")
        rec["tilelang_error"] = f"{type(e).__name__}: {e}"[:600]
        rec["traceback"] = traceback.format_exc()[-1500:]
        rec["tilelang_pass"] = False
    try:
        rec["tilescope"] = tilec_run(tilec, sample, params)
    except Exception as e:
        rec["tilescope"] = {"verdict": "ERROR", "error": f"{type(e).__name__}: {e}"}
    rec["same_results"] = bool(rec["tilelang_pass"] and rec["tilescope"]["verdict"] == "PASS")
    return rec


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tilec", default=".devbin/tilec")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    res = {"tilelang": getattr(tilelang, "__version__", "?"), "torch": torch.__version__,
           "device": torch.cuda.get_device_name(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
           "cases": []}
    cases = [(f, {}) for f in sorted(os.listdir("samples")) if f.endswith(".py")]
    cases += [(f, p) for f, ps in EXTRA_CASES.items() if os.path.exists(os.path.join("samples", f)) for p in ps]
    for sample, params in cases:
        r = one_case(sample, params, a.tilec)
        res["cases"].append(r)
        print(f"{sample} {params}: TileLang {'pass' if r['tilelang_pass'] else 'FAIL'} "
              f"(rel {r.get('tilelang_rel_l2', float('nan')):.2e}) | TileScope {r['tilescope']['verdict']}",
              flush=True)
    res["all_same"] = all(c["same_results"] for c in res["cases"])
    with open(a.out, "w") as fh:
        json.dump(res, fh, indent=1)
    print("all samples run unchanged under TileLang and agree with TileScope:", res["all_same"])
    sys.exit(0 if res["all_same"] else 1)


if __name__ == "__main__":
    main()
