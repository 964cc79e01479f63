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

CASES = [
    ("gemm.py", {}),
    ("gemm.py", {"M": 4096, "N": 4096, "K": 4096}),
    ("gemm.py", {"M": 1000, "N": 1000, "K": 1000}),
    ("gemm.py", {"M": 1000, "N": 1000, "K": 1000, "dtype": "bfloat16"}),
    ("softmax.py", {}),
    ("softmax.py", {"M": 4096, "N": 8192}),
    ("softmax.py", {"M": 4096, "N": 1000}),
    ("add.py", {}),
    ("add.py", {"M": 4096, "N": 4096}),
    ("add.py", {"M": 1000, "N": 999}),
    ("add.py", {"M": 1000, "N": 999, "dtype": "float16"}),
]
# relative L2 error against float64 that counts as agreement (fp16/bf16 GEMM accumulate in fp32
# but round the output; TileScope's own check uses comparable bounds)
TOL = {"float16": 1e-2, "bfloat16": 2e-2, "float32": 1e-5}
TORCH_DTYPE = {"float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32}


def factory_and_signature(path):
    """Name of the @tilelang.jit factory, its defaults, and the prim_func's tensor parameters as
    (name, shape expression, dtype expression) from the source."""
    tree = ast.parse(open(path).read(), path)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and any("jit" in ast.unparse(d) for d in node.decorator_list):
            args = node.args.args
            defaults = {a.arg: ast.literal_eval(d) for a, d in zip(args[len(args) - len(node.args.defaults):],
                                                                   node.args.defaults)}
            for inner in ast.walk(node):
                if isinstance(inner, ast.FunctionDef) and any("prim_func" in ast.unparse(d)
                                                              for d in inner.decorator_list):
                    params = [(a.arg, a.annotation.args[0], a.annotation.args[1]) for a in inner.args.args]
                    return node.name, defaults, params
    raise RuntimeError(f"{path}: no @tilelang.jit factory with an inner @T.prim_func")


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
        name, defaults, sig = factory_and_signature(path)
        env = dict(defaults)
        env.update(params)
        t = time.time()
        kernel = getattr(mod, name)(**params)
        rec["tilelang_compile_s"] = round(time.time() - t, 2)
        gen = torch.Generator(device="cuda").manual_seed(1)
        inputs = []
        for pname, shape_e, dtype_e in sig[:-1]:  # out_idx=[-1]: the last parameter is the output
            shape = eval(compile(ast.Expression(shape_e), path, "eval"), {}, env)  # our own samples
            dtype = eval(compile(ast.Expression(dtype_e), path, "eval"), {}, env)
            inputs.append(torch.randn(*shape, generator=gen, device="cuda", dtype=TORCH_DTYPE[dtype]))
        out = kernel(*inputs)
        torch.cuda.synchronize()
        ref = mod.ref_program(*[x.double() for x in inputs])
        diff = (out.double() - ref)
        rel = (diff.norm() / ref.norm()).item()
        dtype = env.get("dtype", "float32")
        rec.update(tilelang_rel_l2=rel, tilelang_max_abs=diff.abs().max().item(),
                   tilelang_nan=int(torch.isnan(out).sum().item()), tolerance=TOL[dtype],
                   tilelang_pass=bool(rel <= TOL[dtype] and not torch.isnan(out).any()))
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
    for sample, params in CASES:
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
