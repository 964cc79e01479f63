#!/usr/bin/env python3
"""Builds bench/conformance/catalogue.json from the TileLang corpus (read-only input) plus the
hand review in bench/conformance/review.json.

What is mechanical is done here with Python's ast module (nothing in the corpus is executed):
  - which files define kernels: a module-level function that is a @T.prim_func, contains one,
    or is decorated with tilelang.jit / autotune (TileScope's own rule, compiler/frontend/
    Module.cpp findEntries), i.e. what `tilec --kernel NAME` can name;
  - each kernel's declared parameters and defaults;
  - the real parameters: the arguments of the calls to the kernel that the file's own entry
    point makes (`if __name__ == "__main__"` with argparse defaults -> main(...) -> helpers, up
    to 3 calls deep), evaluated with a small literal evaluator; otherwise calls in any other
    function of the file (tests, regression helpers) with that function's defaults;
  - small parameters: the real ones with problem sizes scaled down (rules below) so the CPU
    interpreter takes seconds;
  - the reference: module-level ref_program, a nested one (`run_gemm.ref_program`), other
    reference-like functions, or inline torch code checking the kernel's output;
  - targets we do not have, from the file's own text and its test_example file's
    requires_cuda_compute_version markers.
The hand review (review.json) then overrides any field per file or per kernel: parameters the
evaluator could not resolve, references, target reasons, notes. Run:
    python3 bench/conformance/make_catalogue.py [--corpus DIR]
"""
import argparse
import ast
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CORPUS = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "tilelang-corpus"))

DTYPE_NAMES = {"float16", "half", "bfloat16", "float32", "float", "float64", "double", "int8", "uint8",
               "int16", "int32", "int64", "uint32", "bool", "float8_e4m3", "float8_e5m2",
               "float8_e4m3fn", "float8_e5m2fnuz", "float8_e4m3fnuz", "int4", "uint4", "float4_e2m1fn"}


class Unresolved(Exception):
    pass


class Shape:
    """A torch tensor the file creates (torch.randn(M, K, ...)): only its shape matters here,
    to give an eager kernel's T.const sizes their values."""

    def __init__(self, dims):
        self.dims = list(dims)


TORCH_MAKERS = ("randn", "empty", "zeros", "ones", "rand", "randint", "full", "randn_like", "zeros_like",
                "empty_like", "ones_like")


class Args:
    """argparse namespace: defaults of parser.add_argument calls."""

    def __init__(self, d):
        self.d = d


class Ctx(Args):
    """The ctx of a torch.autograd.Function: attributes set in forward, saved tensors."""


def ev(node, env):
    """Evaluates literal-ish expressions: constants, names bound in env, arithmetic, tuples,
    dtype attributes (T.float16 -> 'float16'), args.X of argparse, int/min/max/..."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id in env:
            v = env[node.id]
            if isinstance(v, Unresolved):
                raise v
            return v
        if node.id in ("True", "False", "None"):
            return {"True": True, "False": False, "None": None}[node.id]
        raise Unresolved(node.id)
    if isinstance(node, ast.Attribute):
        if node.attr in DTYPE_NAMES:
            return {"half": "float16", "float": "float32", "double": "float64"}.get(node.attr, node.attr)
        base = ev(node.value, env)
        if isinstance(base, Shape) and node.attr == "shape":
            return list(base.dims)
        if isinstance(base, Args) and node.attr in base.d:
            return base.d[node.attr]
        raise Unresolved(ast.unparse(node))
    if isinstance(node, (ast.Tuple, ast.List)):
        return [ev(e, env) for e in node.elts]
    if isinstance(node, ast.UnaryOp):
        v = ev(node.operand, env)
        return {ast.USub: lambda x: -x, ast.UAdd: lambda x: x, ast.Not: lambda x: not x}[type(node.op)](v)
    if isinstance(node, ast.BinOp):
        a, b = ev(node.left, env), ev(node.right, env)
        ops = {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b,
               ast.Div: lambda: a / b, ast.FloorDiv: lambda: a // b, ast.Mod: lambda: a % b,
               ast.Pow: lambda: a ** b}
        if type(node.op) not in ops:
            raise Unresolved(ast.unparse(node))
        try:
            return ops[type(node.op)]()
        except Exception:
            raise Unresolved(ast.unparse(node))
    if isinstance(node, ast.Subscript):
        base = ev(node.value, env)
        idx = ev(node.slice, env)
        try:
            return base[idx]
        except Exception:
            raise Unresolved(ast.unparse(node)[:80])
    if isinstance(node, ast.IfExp):
        return ev(node.body, env) if ev(node.test, env) else ev(node.orelse, env)
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        a, b = ev(node.left, env), ev(node.comparators[0], env)
        ops = {ast.Eq: lambda: a == b, ast.NotEq: lambda: a != b, ast.Lt: lambda: a < b,
               ast.LtE: lambda: a <= b, ast.Gt: lambda: a > b, ast.GtE: lambda: a >= b,
               ast.Is: lambda: a is b, ast.IsNot: lambda: a is not b, ast.In: lambda: a in b,
               ast.NotIn: lambda: a not in b}
        if type(node.ops[0]) in ops:
            try:
                return ops[type(node.ops[0])]()
            except TypeError:
                raise Unresolved(ast.unparse(node)[:80])
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            ast.unparse(node.func.value) == "math" and node.func.attr in ("ceil", "floor", "sqrt", "log2", "prod"):
        import math
        try:
            return getattr(math, node.func.attr)(*[ev(a, env) for a in node.args])
        except (TypeError, ValueError):
            raise Unresolved(ast.unparse(node)[:80])
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        fname = node.func.attr
        base = ast.unparse(node.func.value)
        if base == "torch" and fname in TORCH_MAKERS:
            args = node.args
            if fname == "randint":
                args = [a for a in args if isinstance(a, (ast.Tuple, ast.List))] or args[2:3]
            if fname == "full":
                args = args[:1]
            if fname.endswith("_like"):
                v = ev(args[0], env)
                if isinstance(v, Shape):
                    return Shape(v.dims)
                raise Unresolved(ast.unparse(node)[:80])
            size = [k.value for k in node.keywords if k.arg == "size"]
            dims = ev(size[0], env) if size else [ev(a, env) for a in args]
            if len(dims) == 1 and isinstance(dims[0], list):
                dims = dims[0]
            if all(isinstance(d, int) for d in dims):
                return Shape(dims)
            raise Unresolved(ast.unparse(node)[:80])
        if fname == "size" and node.args:
            v = ev(node.func.value, env)
            if isinstance(v, Shape):
                return v.dims[ev(node.args[0], env)]
        if fname in ("to", "half", "float", "cuda", "bfloat16", "contiguous", "requires_grad_", "normal_",
                     "uniform_", "clone", "detach", "t", "transpose") and not isinstance(node.func.value, ast.Name) or \
                (fname in ("to", "half", "float", "cuda", "bfloat16", "contiguous", "requires_grad_", "normal_",
                           "uniform_", "clone", "detach") and isinstance(node.func.value, ast.Name)):
            v = ev(node.func.value, env)
            if isinstance(v, Shape):
                if fname == "t" or (fname == "transpose" and len(v.dims) == 2):
                    return Shape(v.dims[::-1])
                return v
        raise Unresolved(ast.unparse(node)[:80])
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        fns = {"int": int, "float": float, "min": min, "max": max, "abs": abs, "round": round, "bool": bool}
        if node.func.id in fns:
            try:
                return fns[node.func.id](*[ev(a, env) for a in node.args])
            except (TypeError, ValueError):
                raise Unresolved(ast.unparse(node)[:80])
    raise Unresolved(ast.unparse(node)[:80])


def dec_name(d):
    return ast.unparse(d.func if isinstance(d, ast.Call) else d)


def is_prim_func(fn):
    return any(dec_name(d).endswith("prim_func") for d in fn.decorator_list)


def builds_autotuner(fn):
    """The function calls `<...>.from_kernel(...)`: it builds a TileLang AutoTuner (and maybe runs
    it) rather than being a kernel (compiler/frontend/AutotuneDrivers.h)."""
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "from_kernel"
               for n in ast.walk(fn))


def kernel_pattern(fn):
    """TileScope's entry rule (Module.cpp findEntries): prim_func, factory (contains a
    prim_func), eager/helper-built jit; an autotune driver that contains its tunable kernel is
    "autotuner" (`tilec kernels` lists it as a driver; compiled at the tuner's first config);
    None if not a kernel."""
    decs = [dec_name(d) for d in fn.decorator_list]
    if any(d.startswith("triton") for d in decs):
        return None  # a Triton kernel (the file's baseline), not TileLang
    jit = any(d.endswith("jit") or d.endswith("autotune") for d in decs)
    if is_prim_func(fn):
        return "prim_func"
    for n in ast.walk(fn):
        if n is not fn and isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and is_prim_func(n):
            if not jit and builds_autotuner(fn):
                return "autotuner"
            return "jit-factory" if jit else "factory"
    if jit:
        return "jit-eager" if any(isinstance(n, ast.With) and "Kernel" in ast.unparse(n.items[0].context_expr)
                                  for n in ast.walk(fn)) else "jit-helper"
    return None


def plain(v):
    """True for JSON-able literal values (what --param can carry)."""
    if isinstance(v, (list, tuple)):
        return all(plain(x) for x in v)
    return v is None or isinstance(v, (bool, int, float, str))


def eager_signature(fn):
    """Tensor parameters of an eager kernel (annotated T.Tensor in the signature or by
    `A: T.Tensor(shape, dtype)` in the body; name -> shape expression or None) and the
    T.const sizes (`M, N = T.const("M, N")`)."""
    tensors, consts, lists = {}, [], {}

    def shape_of(ann):
        """The shape expression of T.Tensor((M, K), dt) / T.Tensor[(M, K), dt] / T.Tensor(q_shape, dt)."""
        e = None
        if isinstance(ann, ast.Call) and ann.args:
            e = ann.args[0]
        elif isinstance(ann, ast.Subscript):
            e = ann.slice.elts[0] if isinstance(ann.slice, ast.Tuple) and ann.slice.elts else ann.slice
        if isinstance(e, ast.Name) and e.id in lists:
            e = lists[e.id]
        return e

    for st in ast.walk(fn):
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) and \
                isinstance(st.value, (ast.List, ast.Tuple)):
            lists[st.targets[0].id] = st.value
    for a in fn.args.args:
        if a.annotation is not None and re.search(r"Tensor|Buffer", ast.unparse(a.annotation)):
            tensors[a.arg] = shape_of(a.annotation)
    for st in ast.walk(fn):
        if isinstance(st, ast.AnnAssign) and st.value is None and isinstance(st.target, ast.Name):
            tensors[st.target.id] = shape_of(st.annotation)
        if isinstance(st, ast.Assign) and isinstance(st.value, ast.Call) and \
                ast.unparse(st.value.func).endswith("const") and st.value.args and \
                isinstance(st.value.args[0], ast.Constant):
            consts += [c for c in re.split(r"[ ,]+", st.value.args[0].value) if c]
    return tensors, consts


def literal_default(node, env):
    try:
        return ev(node, env)
    except Unresolved:
        return {"unresolved": ast.unparse(node)[:80]}


def bind_call(call, fn, env):
    """Binds a call's arguments to fn's parameters; values evaluated in env (unresolved ones
    marked). Returns {name: value}."""
    params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
    out = {}
    for i, a in enumerate(call.args):
        if isinstance(a, ast.Starred) and i < len(params):
            try:
                vals = ev(a.value, env)
                for j, v in enumerate(vals):
                    if i + j < len(params):
                        out[params[i + j]] = v
                return out
            except Unresolved:
                pass
        if isinstance(a, ast.Starred) or i >= len(params):
            out["*"] = {"unresolved": ast.unparse(a)[:80]}
            continue
        out[params[i]] = literal_default(a, env)
    for kw in call.keywords:
        if kw.arg is None:
            out["**"] = {"unresolved": ast.unparse(kw.value)[:80]}
        else:
            out[kw.arg] = literal_default(kw.value, env)
    return out


def fn_defaults(fn, env):
    args = fn.args.posonlyargs + fn.args.args
    d = {}
    for a, dv in zip(args[len(args) - len(fn.args.defaults):], fn.args.defaults):
        d[a.arg] = literal_default(dv, env)
    for a, dv in zip(fn.args.kwonlyargs, fn.args.kw_defaults):
        if dv is not None:
            d[a.arg] = literal_default(dv, env)
    return d


def assign_targets(t, value, env):
    if isinstance(t, ast.Name):
        env[t.id] = value
    elif isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and isinstance(env.get(t.value.id), Ctx):
        env[t.value.id].d[t.attr] = value
    elif isinstance(t, (ast.Tuple, ast.List)) and isinstance(value, list) and len(value) == len(t.elts):
        for e, v in zip(t.elts, value):
            assign_targets(e, v, env)
    elif isinstance(t, (ast.Tuple, ast.List)):
        for e in t.elts:
            if isinstance(e, ast.Name):
                env[e.id] = Unresolved(e.id)


class Walker:
    """Follows the file's own control flow (main guard -> main -> helpers), binding kernel calls."""

    def __init__(self, mod, kernels, module_env):
        self.funcs = {n.name: n for n in mod.body if isinstance(n, ast.FunctionDef)}
        # `attention = _attention.apply` (a torch.autograd.Function): calls run its forward
        classes = {n.name: n for n in mod.body if isinstance(n, ast.ClassDef)}
        self.apply_alias = set()
        self.backward = {}
        for n in mod.body:
            if isinstance(n, ast.Assign) and isinstance(n.value, ast.Attribute) and n.value.attr == "apply" and \
                    isinstance(n.value.value, ast.Name) and n.value.value.id in classes:
                fwd = [m for m in classes[n.value.value.id].body if isinstance(m, ast.FunctionDef) and m.name == "forward"]
                bwd = [m for m in classes[n.value.value.id].body if isinstance(m, ast.FunctionDef) and m.name == "backward"]
                if fwd and isinstance(n.targets[0], ast.Name):
                    self.funcs[n.targets[0].id] = fwd[0]
                    if bwd:
                        self.backward[n.targets[0].id] = bwd[0]
                    self.apply_alias.add(n.targets[0].id)
        self.kernels = kernels
        self.module_env = module_env
        self.found = {}  # kernel -> (binding, where)

    def env_value(self, v):
        return v if not isinstance(v, dict) or "unresolved" not in v else Unresolved(v["unresolved"])

    def run_block(self, stmts, env, where, depth):
        for s in stmts:
            if isinstance(s, ast.Assign):
                try:
                    if isinstance(s.value, ast.Call) and ast.unparse(s.value.func).endswith("ArgumentParser"):
                        env["__parser__"] = {}
                    elif isinstance(s.value, ast.Call) and ast.unparse(s.value.func).endswith("parse_args"):
                        val = Args(dict(env.get("__parser__", {})))
                        for t in s.targets:
                            assign_targets(t, val, env)
                        continue
                    val = ev(s.value, env)
                except Unresolved as e:
                    val = e
                for t in s.targets:
                    assign_targets(t, val, env)
            elif isinstance(s, ast.AnnAssign) and s.value is not None:
                try:
                    val = ev(s.value, env)
                except Unresolved as e:
                    val = e
                assign_targets(s.target, val, env)
            elif isinstance(s, (ast.If,)):
                try:
                    taken = s.body if ev(s.test, env) else s.orelse
                    self.run_block(taken, env, where, depth)
                except Unresolved:
                    self.run_block(s.body, env, where, depth)
                continue
            elif isinstance(s, (ast.For, ast.While, ast.With, ast.Try)):
                self.run_block(getattr(s, "body", []), env, where, depth)
                continue
            # calls anywhere in the statement
            for n in ast.walk(s):
                if isinstance(n, ast.Call):
                    self.on_call(n, env, where, depth)
                    if ast.unparse(n.func).endswith("add_argument") and n.args and "__parser__" in env:
                        name = n.args[0].value if isinstance(n.args[0], ast.Constant) else None
                        kws = {k.arg: k.value for k in n.keywords}
                        if "dest" in kws and isinstance(kws["dest"], ast.Constant):
                            name = kws["dest"].value
                        if isinstance(name, str):
                            name = name.lstrip("-").replace("-", "_")
                            try:
                                act = kws.get("action")
                                act = act.value if isinstance(act, ast.Constant) else None
                                implicit = {"store_true": False, "store_false": True}.get(act)
                                env["__parser__"][name] = ev(kws["default"], env) if "default" in kws else implicit
                            except Unresolved:
                                env["__parser__"][name] = Unresolved(name)

    def on_call(self, call, env, where, depth):
        if isinstance(call.func, ast.Attribute) and call.func.attr == "save_for_backward" and \
                isinstance(call.func.value, ast.Name) and isinstance(env.get(call.func.value.id), Ctx):
            saved = []
            for a in call.args:
                try:
                    saved.append(ev(a, env))
                except Unresolved as e:
                    saved.append(e)
            env[call.func.value.id].d["saved_tensors"] = saved
            return
        name = call.func.id if isinstance(call.func, ast.Name) else None
        if name is None and isinstance(call.func, ast.Attribute) and call.func.attr in ("compile",):
            return
        # `kernel.get_tir(block_M=128, ...)`: TileLang elaborates the jit kernel with these
        # keyword parameters (the analyze examples never call the kernel itself).
        if name is None and isinstance(call.func, ast.Attribute) and call.func.attr == "get_tir" and \
                isinstance(call.func.value, ast.Name) and call.func.value.id in self.kernels:
            name = call.func.value.id
        if name in self.kernels:
            b = bind_call(call, self.kernels[name], env)
            prev = self.found.get(name)
            unresolved = sum(isinstance(v, dict) for v in b.values())
            if prev is None or unresolved < prev[2]:
                self.found[name] = (b, where, unresolved)
        elif name in self.funcs and depth < 3 and name not in where.split(" -> "):
            fn = self.funcs[name]
            if name in self.apply_alias:  # forward(ctx, ...): the call does not pass ctx
                call = ast.Call(func=call.func, args=[ast.Constant(None)] + call.args, keywords=call.keywords)
            b = bind_call(call, fn, env)
            sub = dict(self.module_env)
            for k, v in fn_defaults(fn, self.module_env).items():
                sub[k] = self.env_value(v)
            for k, v in b.items():
                sub[k] = self.env_value(v)
            if name in self.apply_alias:
                ctx = Ctx({})
                first = (fn.args.posonlyargs + fn.args.args)[0].arg
                sub[first] = ctx
            self.run_block(fn.body, sub, where + " -> " + name, depth + 1)
            if name in self.backward:  # backward(ctx, grad...) sees what forward saved in ctx
                bw = self.backward[name]
                bsub = dict(self.module_env)
                for a in (bw.args.posonlyargs + bw.args.args)[1:]:
                    bsub[a.arg] = Unresolved(a.arg)
                bsub[(bw.args.posonlyargs + bw.args.args)[0].arg] = ctx
                self.run_block(bw.body, bsub, where + " -> " + name + ".backward", depth + 1)


def module_env(mod):
    env = {}
    for s in mod.body:
        if isinstance(s, ast.Assign):
            try:
                v = ev(s.value, env)
            except Unresolved as e:
                v = e
            for t in s.targets:
                assign_targets(t, v, env)
    return env


def is_main_guard(s):
    return isinstance(s, ast.If) and "__name__" in ast.unparse(s.test) and "__main__" in ast.unparse(s.test)


SIZE_KEEP = re.compile(r"(block|blk|thread|stage|split|dim|d_|head_dim|group|warp|chunk|tile|page|"
                       r"pack|vec|bits|topk|top_k|window|ratio|num_sm|sm_num|_size_|rank)", re.I)
SIZE_BATCH = re.compile(r"^(b|bs|batch|batch_size|n_batch|bsz|num_batch)$", re.I)
SIZE_HEADS = re.compile(r"^(h|heads|num_heads|nheads|n_heads|head|heads_q|head_q|h_q|hq)$", re.I)
SIZE_BIG = re.compile(r"^(m|n|k|s|seq|seq_?len.*|seqlen.*|n_ctx|ctx|s_q|s_kv|sq|skv|seq_q|seq_kv|"
                      r"kv_?len|q_?len|length|l|t|tokens|num_tokens|size|in_features|out_features|"
                      r"max_seqlen.*|total.*|uq|ukv|n_.*|num_.*)$", re.I)


def scale_small(real):
    """Small sizes for the CPU interpreter: batch 1, at most 2 heads, problem extents at most
    256 (kept when already small, halved repeatedly so divisibility by powers of two stays);
    tile sizes, thread counts, head dims, group counts are kept."""
    small = {}
    for k, v in real.items():
        if isinstance(v, bool) or not isinstance(v, int) or SIZE_KEEP.search(k):
            small[k] = v
        elif SIZE_BATCH.match(k):
            small[k] = min(v, 1)
        elif SIZE_HEADS.match(k):
            floor = real.get("block_H", 2) if isinstance(real.get("block_H"), int) else 2
            for g in ("groups", "group", "kv_group", "heads_kv", "head_kv"):  # heads // groups >= 1
                if isinstance(real.get(g), int) and not isinstance(real.get(g), bool) and real[g] > floor:
                    floor = real[g]
            small[k] = v if v <= floor else (floor if v % floor == 0 else v)
        elif SIZE_BIG.match(k):
            x = v
            while x > 256 and x % 2 == 0:
                x //= 2
            small[k] = x
        else:
            small[k] = v
    return small


REF_NAME = re.compile(r"^(ref_program|ref_.*|.*_ref|reference.*|.*_reference|torch_.*|.*_torch|naive_.*|"
                      r".*_ref_program)$")


def find_references(mod, src):
    refs = []
    for s in mod.body:
        if isinstance(s, ast.FunctionDef):
            if REF_NAME.match(s.name):
                refs.append({"kind": "module", "name": s.name})
            for inner in ast.walk(s):
                if inner is not s and isinstance(inner, ast.FunctionDef) and REF_NAME.match(inner.name):
                    refs.append({"kind": "nested", "name": f"{s.name}.{inner.name}"})
        if is_main_guard(s):
            for inner in s.body:
                if isinstance(inner, ast.FunctionDef) and REF_NAME.match(inner.name):
                    refs.append({"kind": "nested", "name": f"__main__.{inner.name}"})
    inline = bool(re.search(r"assert_close|assert_allclose|torch\.allclose|assert_similar|calc_sim|"
                            r"cosine_similarity", src))
    return refs, inline


TARGET_RULES = [
    (re.compile(r"tcgen05|alloc_tmem|T\.tmem|TMEM"), "sm_100 (tcgen05 / tensor memory)"),
    (re.compile(r"T\.mfma|mfma_|target\s*=\s*[\"']hip"), "AMD (HIP/MFMA)"),
    (re.compile(r"target\s*=\s*[\"'](c|llvm|cpu)[\"']"), "CPU target"),
]
AMD_FILE = re.compile(r"amd|cdna|hip", re.I)


def test_requirements(folder_dir):
    """module name -> requires markers from test_example files of the folder."""
    req = {}
    for f in sorted(os.listdir(folder_dir)):
        if not (f.startswith("test") and f.endswith(".py")):
            continue
        try:
            tree = ast.parse(open(os.path.join(folder_dir, f)).read())
        except SyntaxError:
            continue
        for s in tree.body:
            if not isinstance(s, ast.FunctionDef):
                continue
            marks = [ast.unparse(d) for d in s.decorator_list if "requires_cuda_compute_version" in ast.unparse(d)]
            mods = {n.func.value.id for n in ast.walk(s) if isinstance(n, ast.Call) and
                    isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name)}
            for m in mods:
                req.setdefault(m, set()).update(marks)
    return req


def needs_from_marks(marks):
    for m in marks:
        args = re.findall(r"\d+", m.split("(", 1)[1] if "(" in m else "")
        if not args:
            continue
        major = int(args[0])
        if re.search(r"version\(|version_eq|version_ge", m) and major >= 10:
            return f"sm_100 (test marker {m.split('testing.')[-1]})"
    return None


NOT_KERNEL_REASONS = [
    (re.compile(r"^test_|/test_"), "pytest wrapper: imports the folder's example modules and calls their main()"),
    (re.compile(r"^regression_"), "regression/perf harness: imports the folder's examples, times them"),
    (re.compile(r"conftest\.py$"), "pytest configuration"),
    (re.compile(r"^benchmark"), "benchmark driver: imports kernels/baselines from other files"),
    (re.compile(r"triton"), "Triton kernels (a baseline for comparison), no TileLang kernel"),
    (re.compile(r"plot_layout/"), "layout plotting (T.Fragment/T.Layout pictures), no kernel"),
    (re.compile(r"utils?\.py$|_utils\.py$|utils_.*\.py$"), "helper functions (torch/numpy utilities)"),
    (re.compile(r"torch_refs\.py$|reference\.py$|_torch\.py$"), "pure-torch reference implementations"),
    (re.compile(r"__init__\.py$"), "package init"),
]


def not_kernel_reason(rel, src):
    base = os.path.basename(rel)
    for rx, why in NOT_KERNEL_REASONS:
        if rx.search(base) or rx.search(rel):
            return why
    if "@triton.jit" in src:
        return "Triton kernels (a baseline for comparison), no TileLang kernel"
    if "import tilelang" not in src and "from tilelang" not in src:
        return "no TileLang code (model / data / tooling support in pure Python/torch)"
    return "uses TileLang only to call kernels defined in other files (no T.Kernel here)"


def catalogue_file(root, rel, reqs):
    path = os.path.join(root, rel)
    src = open(path, encoding="utf-8").read()
    folder = rel.split("/")[1] if rel.count("/") >= 2 else "(top level)"
    entry = {"path": rel, "folder": folder, "file": os.path.relpath(rel, f"examples/{folder}") if folder != "(top level)" else os.path.basename(rel)}
    try:
        mod = ast.parse(src)
    except SyntaxError as e:
        entry.update(kind="support", why_not_kernel=f"not parseable by Python 3 ast: {e}")
        return entry
    kernels = {}
    for s in mod.body:
        if isinstance(s, ast.FunctionDef):
            pat = kernel_pattern(s)
            if pat:
                kernels[s.name] = (s, pat)
    has_kernel_text = "T.Kernel" in src
    if not kernels or not has_kernel_text:
        entry.update(kind="support", why_not_kernel=not_kernel_reason(rel, src))
        if kernels:
            entry["note"] = "defines " + ", ".join(kernels) + " without T.Kernel"
        return entry
    env = module_env(mod)
    w = Walker(mod, {k: v[0] for k, v in kernels.items()}, env)
    # 1. the file's entry point
    for s in mod.body:
        if is_main_guard(s):
            w.run_block(s.body, dict(env), "__main__", 0)
    # 2. every other module-level function with its own defaults (tests, regression helpers)
    for name, fn in w.funcs.items():
        if name in kernels:
            continue
        sub = dict(env)
        for k, v in fn_defaults(fn, env).items():
            sub[k] = w.env_value(v)
        before = dict(w.found)
        w.run_block(fn.body, sub, name, 1)
        for k in w.found:  # keep the entry-point binding when it was as complete
            if k in before and before[k][2] <= w.found[k][2]:
                w.found[k] = before[k]
    refs, inline = find_references(mod, src)
    needs = None
    for rx, why in TARGET_RULES:
        if rx.search(src):
            needs = why
            break
    modname = os.path.basename(rel)[:-3]
    if needs is None and AMD_FILE.search(modname):
        needs = "AMD (HIP/MFMA; the file is written for " + ("CDNA" if "cdna" in modname else "AMD") + " GPUs)"
    if needs is None:
        needs = needs_from_marks(sorted(reqs.get(modname, ())))
    marks = sorted(m.split("testing.")[-1] for m in reqs.get(modname, ()))
    if marks:  # e.g. requires_cuda_compute_version_le(8, 9): TileLang tests it on sm_8x only;
        entry["test_markers"] = marks  # TileScope's sm_90a target runs the sm_80 code path, so it is run
    entry["kind"] = "kernel"
    if needs:
        entry["needs"] = needs
    entry["references_found"] = refs
    entry["inline_check"] = inline
    klist = []
    for name, (fn, pat) in kernels.items():
        declared = fn_defaults(fn, env)
        params = [a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs]
        real = {}
        where = None
        if name in w.found:
            b, where, _ = w.found[name]
            real = {k: v for k, v in b.items()}
        # parameters without a value from a call keep their declared default (not passed then)
        if pat == "jit-eager":
            tensors, consts = eager_signature(fn)
            for t, shape_expr in tensors.items():
                v = real.pop(t, None)
                if isinstance(v, Shape) and isinstance(shape_expr, (ast.Tuple, ast.List)) and \
                        len(shape_expr.elts) == len(v.dims):
                    for e, d in zip(shape_expr.elts, v.dims):
                        if isinstance(e, ast.Name) and e.id in consts:
                            real[e.id] = d
            params = [p for p in params if p not in tensors] + [c for c in consts if c not in params]
        real = {p: (v if plain(v) else {"unresolved": "not a literal"}) for p, v in real.items()
                if not isinstance(v, Shape)}
        unresolved = sorted(k for k, v in real.items() if isinstance(v, dict))
        missing = [p for p in params if p not in real and p not in declared and pat != "prim_func"]
        # integer tensor arguments (offsets, indices, block tables, batch sizes): random values are
        # not valid inputs for them, so a check needs structured inputs (noted, still run)
        structured = []
        for n in ast.walk(fn):
            args = []
            if isinstance(n, ast.FunctionDef) and (n is fn or is_prim_func(n)):
                args = [(a.arg, a.annotation) for a in n.args.args if a.annotation is not None]
            if isinstance(n, ast.AnnAssign) and n.value is None and isinstance(n.target, ast.Name):
                args = [(n.target.id, n.annotation)]
            for an, ann in args:
                t = ast.unparse(ann)
                if re.search(r"Tensor|Buffer", t) and re.search(r"int(8|16|32|64)", t) and \
                        not re.search(r"in_dtype|accum_dtype|out_dtype", t):
                    structured.append(an)
        k = {"name": name, "pattern": pat, "params": params,
             "defaults": {p: v for p, v in declared.items() if not isinstance(v, dict)},
             "real": {p: v for p, v in real.items() if not isinstance(v, dict) and p in params},
             "real_from": where}
        if unresolved or missing:
            k["unresolved"] = sorted(set(unresolved + missing))
        if structured:
            k["structured_inputs"] = sorted(set(structured))
        full = dict(k["defaults"])
        full.update(k["real"])
        k["small"] = {p: v for p, v in scale_small(full).items() if k["real"].get(p, k["defaults"].get(p)) != v}
        klist.append(k)
    # Parameters still missing take the value the file gives the same name in a sibling kernel
    # (preprocess/postprocess kernels share batch/heads/seq_len/dim with the main kernel).
    for k in klist:
        for p in list(k.get("unresolved", [])):
            if p in ("*", "**") or p in k["real"]:
                continue
            vals = [o["real"][p] for o in klist if o is not k and p in o["real"]]
            if vals:
                k["real"][p] = vals[0]
                k.setdefault("from_sibling", []).append(p)
                k["unresolved"].remove(p)
        if not k.get("unresolved"):
            k.pop("unresolved", None)
        full = dict(k["defaults"])
        full.update(k["real"])
        k["small"] = {p: v for p, v in scale_small(full).items() if k["real"].get(p, k["defaults"].get(p)) != v}
    # reference per kernel: module-level ref_program, else a nested one, else another ref-like
    # function, else inline checks (files check the composite result in main), else none.
    module_ref = next((r for r in refs if r["name"] == "ref_program"), None)
    nested_ref = next((r for r in refs if r["kind"] == "nested" and r["name"].endswith(".ref_program")), None)
    other = next(iter(refs), None)
    part = re.compile(r"bwd|backward|prep|post|dsink|mask|dkv|dq|clean|compress|quant")
    for k in klist:
        r = module_ref or nested_ref or other
        if len(klist) > 1 and part.search(k["name"]) and r:
            # a file's reference checks its main/forward result; the other kernels of a
            # multi-kernel file are checked only through the composite pass in main()
            r = None
            k["reference_note"] = "the file checks this kernel only as part of its composite (inline torch checks)"
        if r:
            k["reference"] = dict(r)
        elif inline:
            k["reference"] = {"kind": "inline", "name": None}
        else:
            k["reference"] = {"kind": "none", "name": None}
    entry["kernels"] = klist
    return entry


def merge(dst, src):
    for k, v in src.items():
        if k == "kernels" and isinstance(v, dict):
            for kn, kv in v.items():
                for kd in dst.get("kernels", []):
                    if kd["name"] == kn:
                        merge(kd, kv)
        elif isinstance(v, dict) and isinstance(dst.get(k), dict) and k not in ("reference",):
            dst[k].update(v)
        else:
            dst[k] = v


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=DEFAULT_CORPUS)
    ap.add_argument("--out", default=os.path.join(HERE, "catalogue.json"))
    a = ap.parse_args()
    root = a.corpus
    files = []
    for d, _, fs in os.walk(os.path.join(root, "examples")):
        for f in fs:
            if f.endswith(".py"):
                files.append(os.path.relpath(os.path.join(d, f), root))
    files.sort()
    reqs_by_dir = {}
    review_path = os.path.join(HERE, "review.json")
    review = json.load(open(review_path)) if os.path.exists(review_path) else {}
    out = []
    for rel in files:
        ddir = os.path.dirname(os.path.join(root, rel))
        if ddir not in reqs_by_dir:
            reqs_by_dir[ddir] = test_requirements(ddir)
        e = catalogue_file(root, rel, reqs_by_dir[ddir])
        if rel in review:
            merge(e, review[rel])
            e["reviewed"] = True
            for k in e.get("kernels", []):  # small sizes again from the reviewed real ones
                full = dict(k["defaults"])
                full.update(k["real"])
                auto = {p: v for p, v in scale_small(full).items() if full.get(p) != v}
                hand = review[rel].get("kernels", {}).get(k["name"], {}).get("small", {})
                auto.update(hand)
                k["small"] = auto
                if not k.get("unresolved"):
                    k.pop("unresolved", None)
        out.append(e)
    commit = None
    readme = os.path.join(root, "README.md")
    if os.path.exists(readme):
        m = re.search(r"commit ([0-9a-f]{40})", open(readme).read())
        commit = m.group(1) if m else None
    doc = {"corpus": "../shared/tilelang-corpus", "tilelang_commit": commit,
           "generated_by": "bench/conformance/make_catalogue.py (ast) + review.json (hand review)",
           "files": out}
    with open(a.out, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=False)
        f.write("\n")
    nk = sum(len(e.get("kernels", [])) for e in out)
    nf = sum(e["kind"] == "kernel" for e in out)
    print(f"{len(out)} files: {nf} kernel files, {nk} kernels, {len(out) - nf} support files -> {a.out}")


if __name__ == "__main__":
    main()
