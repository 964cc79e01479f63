"""Compile one kernel of a file with TileLang 0.1.15 on a machine without a GPU (its lowering and
codegen for TILELANG_DEFAULT_TARGET, default sm_90a, then nvcc), the way bench/h200_samples.sh's
`tlrun` calls it on the H200: the file executed as Python statement by statement, the kernel
factory called with the --param values.  Prints one JSON line: ok, seconds, first error line.

  python lower.py FILE [--kernel NAME] [--param k=v ...]"""
import argparse, ast, json, sys, time, traceback

ap = argparse.ArgumentParser()
ap.add_argument("file")
ap.add_argument("--kernel")
ap.add_argument("--param", action="append", default=[])
a = ap.parse_args()

import tilelang  # noqa: E402

src = open(a.file).read()
tree = ast.parse(src, a.file)
g = {"__name__": "tilelang_lower", "__file__": a.file}
first = None
for node in tree.body:
    if first is None and isinstance(node, ast.FunctionDef) and any("jit" in ast.unparse(d) for d in node.decorator_list):
        first = node.name
    try:
        exec(compile(ast.Module(body=[node], type_ignores=[]), a.file, "exec"), g)
    except Exception as e:  # optional imports
        print(f"skipped module-level line {node.lineno}: {type(e).__name__}: {e}", file=sys.stderr)
params = {}
for p in a.param:
    k, v = p.split("=", 1)
    try:
        params[k] = ast.literal_eval(v)
    except Exception:
        params[k] = v
out = {"file": a.file, "kernel": a.kernel or first, "params": params,
       "tilelang": getattr(tilelang, "__version__", "?")}
t = time.perf_counter()
try:
    k = g[out["kernel"]](**params)
    out["ok"] = True
    out["cuda_source_lines"] = k.get_kernel_source().count("\n")
except Exception as e:
    out["ok"] = False
    lines = [l for l in str(e).splitlines() if l.strip()]
    out["error"] = f"{type(e).__name__}: " + (lines[0] if lines else "")
    traceback.print_exc(file=sys.stderr)
out["seconds"] = round(time.perf_counter() - t, 2)
print(json.dumps(out))
