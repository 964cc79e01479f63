#!/usr/bin/env python3
"""Every samples/*.py must also be a valid TileLang program (issue 8 item 5): it parses as Python 3
and names nothing that is not defined (no module-level `flops = 2 * M * N * K` with M undefined,
no `torch.` without `import torch`). Undefined names are found with pyflakes when it is installed,
else with the scope check below (module, function, class, comprehension scopes; builtins).
Exit status 1 lists the offending file:line: name. Usage: check_samples_python.py SAMPLES_DIR"""
import ast
import builtins
import os
import sys


def bound_in(node):
    """Names a function/comprehension scope binds: parameters, assignment/for/with/except
    targets, imports, nested defs and classes, global/nonlocal declarations."""
    names = set()
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        a = node.args
        for p in a.posonlyargs + a.args + a.kwonlyargs + [x for x in (a.vararg, a.kwarg) if x]:
            names.add(p.arg)
    if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
        stack = [g.target for g in node.generators]
    else:
        stack = list(node.body) if isinstance(node.body, list) else [node.body]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            names.add(n.id)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(n.name)
            stack.extend(n.decorator_list)  # evaluated in this scope; the body is its own scope
            continue
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            for al in n.names:
                names.add((al.asname or al.name).split(".")[0])
        elif isinstance(n, ast.ExceptHandler) and n.name:
            names.add(n.name)
        elif isinstance(n, (ast.Global, ast.Nonlocal)):
            names.update(n.names)
        elif isinstance(n, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            continue
        elif isinstance(n, ast.NamedExpr):
            names.add(n.target.id)
        stack.extend(ast.iter_child_nodes(n))
    return names


def undefined(tree):
    out = []
    known = set(dir(builtins)) | {"__file__", "__name__"}

    def visit(node, scopes):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ListComp, ast.SetComp,
                                  ast.DictComp, ast.GeneratorExp)):
                if not isinstance(child, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
                    for d in child.decorator_list:
                        visit_expr(d, scopes)
                    for d in child.args.defaults + [x for x in child.args.kw_defaults if x]:
                        visit_expr(d, scopes)
                    for a in child.args.posonlyargs + child.args.args + child.args.kwonlyargs:
                        if a.annotation is not None:
                            visit_expr(a.annotation, scopes + [bound_in(child)])
                    visit_block(child.body, scopes + [bound_in(child)])
                else:
                    visit(child, scopes + [bound_in(child)]) if not isinstance(child, ast.Lambda) \
                        else visit_expr(child.body, scopes + [bound_in(child)])
            elif isinstance(child, ast.ClassDef):
                for d in child.decorator_list + child.bases:
                    visit_expr(d, scopes)
                visit_block(child.body, scopes + [bound_in(child)])
            elif isinstance(child, ast.Name) and isinstance(child.ctx, ast.Load):
                if not any(child.id in s for s in scopes) and child.id not in known:
                    out.append((child.lineno, child.id))
            else:
                visit(child, scopes)

    def visit_expr(e, scopes):
        wrapper = ast.Module(body=[ast.Expr(e)], type_ignores=[])
        visit(wrapper, scopes)

    def visit_block(stmts, scopes):
        visit(ast.Module(body=stmts, type_ignores=[]), scopes)

    visit(tree, [bound_in(tree)])
    return out


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "samples"
    files = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".py"))
    bad = 0
    try:
        from pyflakes import api as pyflakes_api  # noqa: F401
        have_pyflakes = True
    except ImportError:
        have_pyflakes = False
    for f in files:
        src = open(f, encoding="utf-8").read()
        try:
            tree = ast.parse(src, f)
        except SyntaxError as e:
            print(f"{f}:{e.lineno}: not valid Python: {e.msg}")
            bad += 1
            continue
        stars = [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names)]
        if stars:  # names cannot be checked (pyflakes gives up too): not allowed in a sample
            print(f"{f}:{stars[0].lineno}: 'from {stars[0].module} import *' hides which names are defined")
            bad += 1
            continue
        for line, name in undefined(tree):
            print(f"{f}:{line}: undefined name '{name}'")
            bad += 1
        if have_pyflakes:
            from pyflakes.api import check
            from pyflakes.reporter import Reporter
            import io
            o, e = io.StringIO(), io.StringIO()
            if check(src, f, Reporter(o, e)):
                for l in o.getvalue().splitlines():
                    if "undefined name" in l or "syntax" in l.lower():
                        print(l)
                        bad += 1
    print(f"{len(files)} samples checked ({'pyflakes + ' if have_pyflakes else ''}scope check): "
          f"{'OK' if not bad else str(bad) + ' problem(s)'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
