// Meta-evaluator tests: Python semantics of values, operators, functions, closures,
// comprehensions, builtins and modules, plus diagnostics (message, span, hint) for errors.
#include <gtest/gtest.h>

#include "compiler/frontend/MetaEval.h"
#include "compiler/frontend/Parser.h"

using namespace ts;
using namespace ts::fe;

namespace {

struct Run {
    DiagnosticEngine diags;
    std::shared_ptr<ast::Module> mod;
    std::unique_ptr<Interp> in;
    EnvPtr env;
    std::optional<Diagnostic> error;
    Value get(const std::string& name) const {
        Value* v = env->findLocal(name);
        return v ? *v : Value::str("<unbound " + name + ">");
    }
};

std::unique_ptr<Run> run(const std::string& text, uint64_t maxSteps = 0) {
    auto r = std::make_unique<Run>();
    r->mod = parseModule(std::make_shared<SourceFile>("m.py", text), r->diags);
    EXPECT_FALSE(r->diags.hasErrors()) << (r->diags.all().empty() ? "" : r->diags.all()[0].message);
    r->in = std::make_unique<Interp>(r->diags);
    if (maxSteps) r->in->limits().maxSteps = maxSteps;
    r->env = r->in->newModuleEnv();
    try {
        r->in->execBlock(r->mod->body, r->env);
    } catch (const CompileError& e) {
        r->error = e.diag;
    }
    return r;
}

// Evaluates `expr` (after `prelude`) and returns repr() of the result, or "ERROR: message".
std::string ev(const std::string& expr, const std::string& prelude = "") {
    auto r = run(prelude + "__r = " + expr + "\n");
    if (r->error) return "ERROR: " + r->error->message;
    return repr(r->get("__r"));
}

Diagnostic err(const std::string& text) {
    auto r = run(text);
    EXPECT_TRUE(r->error.has_value()) << text;
    return r->error.value_or(Diagnostic{});
}

}  // namespace

TEST(MetaEvalTest, IntegerArithmeticFollowsPython) {
    EXPECT_EQ(ev("-7 // 2"), "-4");
    EXPECT_EQ(ev("-7 % 2"), "1");
    EXPECT_EQ(ev("7 % -2"), "-1");
    EXPECT_EQ(ev("7 // -2"), "-4");
    EXPECT_EQ(ev("2 ** 10"), "1024");
    EXPECT_EQ(ev("2 ** -1"), "0.5");
    EXPECT_EQ(ev("7 / 2"), "3.5");
    EXPECT_EQ(ev("4 / 2"), "2.0");
    EXPECT_EQ(ev("1 + 2.5"), "3.5");
    EXPECT_EQ(ev("True + True"), "2");
    EXPECT_EQ(ev("True & False"), "False");
    EXPECT_EQ(ev("1 << 10 | 3"), "1027");
    EXPECT_EQ(ev("-1 >> 100"), "-1");
    EXPECT_EQ(ev("~5"), "-6");
    EXPECT_EQ(ev("9223372036854775807"), "9223372036854775807");
}

TEST(MetaEvalTest, FloatArithmeticFollowsPython) {
    EXPECT_EQ(ev("-7.5 // 2"), "-4.0");
    EXPECT_EQ(ev("5.5 % -2"), "-0.5");
    EXPECT_EQ(ev("-0.0"), "-0.0");
    EXPECT_EQ(ev("0.1 + 0.2"), "0.30000000000000004");
    EXPECT_EQ(ev("1e16"), "1e+16");
    EXPECT_EQ(ev("1e-5"), "1e-05");
    EXPECT_EQ(ev("0.0001"), "0.0001");
    EXPECT_EQ(ev("123456789.0"), "123456789.0");
    EXPECT_EQ(ev("2.0 ** 0.5 > 1.41"), "True");
    EXPECT_EQ(pyFloorDiv(-7, 2), -4);
    EXPECT_EQ(pyMod(-7, 2), 1);
    EXPECT_DOUBLE_EQ(pyFloatMod(-1.0, 3.0), 2.0);
}

TEST(MetaEvalTest, OverflowAndDivisionByZeroAreDiagnostics) {
    Diagnostic d = err("x = 1\ny = 2 ** 63\n");
    EXPECT_EQ(d.message, "integer overflow in compile-time arithmetic: 2 ** 63");
    EXPECT_EQ(d.span, (Span{2, 5, 2, 12}));
    EXPECT_NE(d.hint.find("64-bit"), std::string::npos);
    d = err("block = 0\nn = 128 // block\n");
    EXPECT_EQ(d.message, "integer division by zero");
    EXPECT_EQ(d.hint, "check the values (--param ...) the divisor is computed from");
    EXPECT_EQ(d.span, (Span{2, 5, 2, 17}));
    EXPECT_EQ(err("x = 1.0 / 0").message, "float division by zero");
    EXPECT_EQ(err("x = 9223372036854775807 + 1").message.substr(0, 16), "integer overflow");
}

TEST(MetaEvalTest, ComparisonsAndTruthiness) {
    EXPECT_EQ(ev("1 < 2 < 3"), "True");
    EXPECT_EQ(ev("1 < 3 < 2"), "False");
    EXPECT_EQ(ev("'a' < 'b' <= 'b'"), "True");
    EXPECT_EQ(ev("(1, 2) < (1, 3)"), "True");
    EXPECT_EQ(ev("[1, 2] == [1, 2]"), "True");
    EXPECT_EQ(ev("(1,) == [1]"), "False");
    EXPECT_EQ(ev("1 == 1.0 == True"), "True");
    EXPECT_EQ(ev("None is None"), "True");
    EXPECT_EQ(ev("0 or 'x'"), "'x'");
    EXPECT_EQ(ev("[] and 1"), "[]");
    EXPECT_EQ(ev("not ''"), "True");
    EXPECT_EQ(ev("3 in range(0, 10, 3)"), "True");
    EXPECT_EQ(ev("4 in range(0, 10, 3)"), "False");
    EXPECT_EQ(ev("'ab' in 'cabd'"), "True");
    EXPECT_EQ(ev("2 in {1: 2}"), "False");
    EXPECT_EQ(ev("1 if [] else 2"), "2");
    Diagnostic d = err("x = 1 < 'a'");
    EXPECT_EQ(d.message, "'<' not supported between instances of 'int' and 'str'");
    EXPECT_EQ(d.span, (Span{1, 5, 1, 12}));
}

TEST(MetaEvalTest, StringsListsDictsAndSlices) {
    EXPECT_EQ(ev("'ab' * 3"), "'ababab'");
    EXPECT_EQ(ev("[0, 1, 2, 3, 4][::-2]"), "[4, 2, 0]");
    EXPECT_EQ(ev("'hello'[1:3]"), "'el'");
    EXPECT_EQ(ev("(1, 2, 3)[-1]"), "3");
    EXPECT_EQ(ev("list(range(10)[2:8:3])"), "[2, 5]");
    EXPECT_EQ(ev("[1] * 3 + [2]"), "[1, 1, 1, 2]");
    EXPECT_EQ(ev("{'a': 1, **{'b': 2}}"), "{'a': 1, 'b': 2}");
    EXPECT_EQ(ev("d['k']", "d = {}\nd['k'] = 5\n"), "5");
    EXPECT_EQ(ev("len(a)", "a = []\nb = a\nb.append(1)\nb += [2, 3]\n"), "3");
    EXPECT_EQ(ev("', '.join(['a', 'b'])"), "'a, b'");
    EXPECT_EQ(ev("'M, N,K'.replace(' ', '').split(',')"), "['M', 'N', 'K']");
    EXPECT_EQ(ev("'{}-{:.2f}-{name}'.format(1, 3.14159, name='x')"), "'1-3.14-x'");
    EXPECT_EQ(ev("'{:>5}|{:<3}|{:,}|{:05d}'.format(3, 'a', 1234567, 42)"),
              "'    3|a  |1,234,567|00042'");
    EXPECT_EQ(ev("sorted(d.items())", "d = {'b': 2, 'a': 1}\n"), "[('a', 1), ('b', 2)]");
    Diagnostic d = err("x = [1, 2][5]");
    EXPECT_EQ(d.message, "list index 5 is out of range (length 2)");
    d = err("d = {'a': 1}\nx = d['b']\n");
    EXPECT_EQ(d.message, "key 'b' not found in dict");
    EXPECT_EQ(d.hint, "keys: 'a'");
}

TEST(MetaEvalTest, Unpacking) {
    auto r = run("a, *b, c = range(5)\n(x, y), z = (1, 2), 3\n");
    ASSERT_FALSE(r->error);
    EXPECT_EQ(repr(r->get("a")), "0");
    EXPECT_EQ(repr(r->get("b")), "[1, 2, 3]");
    EXPECT_EQ(repr(r->get("c")), "4");
    EXPECT_EQ(repr(r->get("y")), "2");
    EXPECT_EQ(err("a, b = 1, 2, 3").message, "too many values to unpack (expected 2, got 3)");
    EXPECT_EQ(err("a, b, c = 1, 2").message, "not enough values to unpack (expected 3, got 2)");
}

TEST(MetaEvalTest, FunctionsDefaultsKeywordsVarargs) {
    const char* prelude = R"(
def f(a, b=10, *rest, c=3, **kw):
    return (a, b, rest, c, kw)
)";
    EXPECT_EQ(ev("f(1)", prelude), "(1, 10, (), 3, {})");
    EXPECT_EQ(ev("f(1, 2, 3, 4, c=5, d=6)", prelude), "(1, 2, (3, 4), 5, {'d': 6})");
    EXPECT_EQ(ev("f(*[1, 2], **{'c': 7})", prelude), "(1, 2, (), 7, {})");
    EXPECT_EQ(ev("(lambda x, y=2: x * y)(4)"), "8");
}

TEST(MetaEvalTest, CallErrorsNameTheFunctionAndPointAtTheArgument) {
    Diagnostic d = err("def g(a, b):\n    return a\ng(1, 2, 3)\n");
    EXPECT_EQ(d.message, "g() takes 2 positional arguments but 3 were given");
    EXPECT_EQ(d.hint, "defined at line 1 as g(a, b)");
    EXPECT_EQ(d.span, (Span{3, 9, 3, 10}));
    d = err("def g(a, b):\n    return a\ng(1)\n");
    EXPECT_EQ(d.message, "g() missing required argument 'b'");
    EXPECT_EQ(d.span, (Span{3, 1, 3, 5}));
    EXPECT_EQ(d.hint, "'b' is declared at line 1");
    d = err("def g(block_M, block_N):\n    return 1\ng(1, block_m=2)\n");
    EXPECT_EQ(d.message, "g() got an unexpected keyword argument 'block_m'");
    EXPECT_EQ(d.hint, "did you mean 'block_M'?");
    EXPECT_EQ(d.span, (Span{3, 6, 3, 15}));
    d = err("x = 3\nx(1)\n");
    EXPECT_EQ(d.message, "'int' object is not callable");
    d = err("x = range(1, 2, 3, 4)\n");
    EXPECT_EQ(d.message, "range() takes 1 to 3 arguments but 4 were given");
}

TEST(MetaEvalTest, ClosuresCaptureTheirEnvironment) {
    const char* src = R"(
def make_counter():
    count = 0
    def inc(step=1):
        nonlocal count
        count += step
        return count
    return inc

c = make_counter()
c()
c(5)
r1 = c()

def adder(n):
    return lambda x: x + n
add3 = adder(3)
r2 = add3(4)

fs = [lambda: i for i in range(3)]
r3 = [f() for f in fs]

G = 1
def setg():
    global G
    G = 42
setg()
)";
    auto r = run(src);
    ASSERT_FALSE(r->error) << r->error->message;
    EXPECT_EQ(repr(r->get("r1")), "7");
    EXPECT_EQ(repr(r->get("r2")), "7");
    EXPECT_EQ(repr(r->get("r3")), "[2, 2, 2]");  // late binding, like Python
    EXPECT_EQ(repr(r->get("G")), "42");
}

TEST(MetaEvalTest, RecursionAndDecorators) {
    const char* src = R"(
def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)
def twice(f):
    def g(x):
        return f(f(x))
    return g
@twice
def inc(x):
    return x + 1
r = (fact(10), inc(1))
)";
    auto r = run(src);
    ASSERT_FALSE(r->error) << r->error->message;
    EXPECT_EQ(repr(r->get("r")), "(3628800, 3)");
    Diagnostic d = err("def f(n):\n    return f(n + 1)\nf(0)\n");
    EXPECT_NE(d.message.find("maximum compile-time recursion depth"), std::string::npos);
    EXPECT_EQ(d.span.line, 2u);
}

TEST(MetaEvalTest, ControlFlow) {
    const char* src = R"(
out = []
for i in range(10):
    if i % 2 == 0:
        continue
    if i > 7:
        break
    out.append(i)
else:
    out.append(-1)
n = 0
while n < 5:
    n += 2
else:
    n = -n
for x in []:
    pass
else:
    tail = 'done'
assert n == -6, 'unexpected'
)";
    auto r = run(src);
    ASSERT_FALSE(r->error) << r->error->message;
    EXPECT_EQ(repr(r->get("out")), "[1, 3, 5, 7]");
    EXPECT_EQ(repr(r->get("n")), "-6");
    EXPECT_EQ(repr(r->get("tail")), "'done'");
    Diagnostic d = err("x = 3\nassert x > 4, 'x too small'\n");
    EXPECT_EQ(d.message, "assertion failed: x too small");
    EXPECT_EQ(d.span, (Span{2, 8, 2, 13}));
    d = err("raise ValueError('block_M must divide M')\n");
    EXPECT_EQ(d.message, "ValueError: block_M must divide M");
}

TEST(MetaEvalTest, Comprehensions) {
    EXPECT_EQ(ev("[(a, b) for a in range(3) for b in range(a) if (a + b) % 2]"),
              "[(1, 0), (2, 1)]");
    EXPECT_EQ(ev("{k: v * 2 for k, v in zip('ab', [1, 2])}"), "{'a': 2, 'b': 4}");
    EXPECT_EQ(ev("sum(x * x for x in range(4))"), "14");
    EXPECT_EQ(ev("tuple(i for i in (3, 1) if i)"), "(3, 1)");
    const char* configs = R"(
import itertools
block_M = [64, 128]
block_N = [32, 64]
configs = [{"block_M": m, "block_N": n, "threads": 128 if m == 64 else 256}
           for m, n in itertools.product(block_M, block_N)]
)";
    auto r = run(configs);
    ASSERT_FALSE(r->error) << r->error->message;
    EXPECT_EQ(repr(r->get("configs")),
              "[{'block_M': 64, 'block_N': 32, 'threads': 128}, {'block_M': 64, 'block_N': 64, "
              "'threads': 128}, "
              "{'block_M': 128, 'block_N': 32, 'threads': 256}, {'block_M': 128, 'block_N': 64, "
              "'threads': 256}]");
}

TEST(MetaEvalTest, Builtins) {
    EXPECT_EQ(ev("(len('abc'), len([1]), len({}), len(range(2, 10, 3)))"), "(3, 1, 0, 3)");
    EXPECT_EQ(ev("(min(3, 1, 2), max([4, 9, 2]), max(['aa', 'b'], key=len), min([], default=7))"),
              "(1, 9, 'aa', 7)");
    EXPECT_EQ(ev("(abs(-3), abs(-2.5), int('12'), int(-3.9), int('ff', 16), float('1e3'), "
                 "bool([]), str(1.0))"),
              "(3, 2.5, 12, -3, 255, 1000.0, False, '1.0')");
    EXPECT_EQ(ev("(list(zip([1, 2], 'ab')), list(enumerate('xy', 1)))"),
              "([(1, 'a'), (2, 'b')], [(1, 'x'), (2, 'y')])");
    EXPECT_EQ(ev("sorted([3, 1, 2], reverse=True)"), "[3, 2, 1]");
    EXPECT_EQ(ev("sorted(['bb', 'a', 'ccc'], key=lambda s: -len(s))"), "['ccc', 'bb', 'a']");
    EXPECT_EQ(ev("(isinstance(1, int), isinstance(True, int), isinstance(1.0, (str, float)), "
                 "isinstance('x', list))"),
              "(True, True, True, False)");
    EXPECT_EQ(ev("(round(2.5), round(3.5), round(2.675, 1), divmod(-7, 2), pow(3, 4, 5))"),
              "(2, 4, 2.7, (-4, 1), 1)");
    EXPECT_EQ(ev("(all([1, 2]), any([0, '']), list(map(lambda x: x * 2, [1, 2])), "
                 "list(filter(None, [0, 1])))"),
              "(True, False, [2, 4], [1])");
    EXPECT_EQ(ev("(dict(a=1), dict([('b', 2)]), tuple('ab'), list(reversed([1, 2])))"),
              "({'a': 1}, {'b': 2}, ('a', 'b'), [2, 1])");
    EXPECT_EQ(ev("print('ignored', 1)"), "None");
    EXPECT_EQ(ev("(getattr(math, 'pi') > 3, hasattr(math, 'nope'))", "import math\n"),
              "(True, False)");
}

TEST(MetaEvalTest, MathItertoolsAndT) {
    const char* prelude =
        "import math\nimport itertools\nimport tilelang\nimport tilelang.language as T\n";
    EXPECT_EQ(ev("(math.ceil(2.1), math.floor(-2.1), math.sqrt(16), math.log2(1024), math.exp(0))",
                 prelude),
              "(3, -3, 4.0, 10.0, 1.0)");
    EXPECT_EQ(ev("(math.log(8, 2), math.pow(2, 3), math.inf > 1e308, round(math.pi, 4), "
                 "math.gcd(12, 18))",
                 prelude),
              "(3.0, 8.0, True, 3.1416, 6)");
    // math.fmod keeps the sign of x (Python's % takes y's): as CPython, -7 % 3 == 2.
    EXPECT_EQ(ev("(math.fmod(-7, 3), math.fmod(7, -3), math.fmod(7.5, 2), -7 % 3)", prelude), "(-1.0, 1.0, 1.5, 2)");
    EXPECT_EQ(err("import math\nx = math.fmod(1, 0)\n").message, "math.fmod(): math domain error");
    // CPython: math.erf(1) = 0.8427007929497149, math.atan2(1, -1) = 2.356194490192345 (3 pi / 4),
    // math.hypot(3, 4, 12) = 13.0, math.erfc(0) = 1.0, math.sinh(0) = 0.0.
    EXPECT_EQ(ev("(round(math.erf(1), 12), round(math.atan2(1, -1), 12), math.hypot(3, 4, 12), math.erfc(0), math.sinh(0))", prelude),
              "(0.84270079295, 2.356194490192, 13.0, 1.0, 0.0)");
    // A finite argument whose result overflows raises, as CPython's OverflowError (helper-135).
    EXPECT_EQ(err("import math\nx = math.exp(1000)\n").message, "math.exp(): math range error");
    EXPECT_EQ(err("import math\nx = math.cosh(-800)\n").message, "math.cosh(): math range error");
    EXPECT_EQ(ev("list(itertools.product([1, 2], repeat=2))", prelude),
              "[(1, 1), (1, 2), (2, 1), (2, 2)]");
    EXPECT_EQ(ev("(T.ceildiv(10, 3), T.ceildiv(9, 3), T.ceildiv(-10, 3), tilelang.cdiv(1, 128))",
                 prelude),
              "(4, 3, -3, 1)");
    EXPECT_EQ(ev("(T.float16 == 'float16', T.float32 == 'float', T.bfloat16.bits, T.float32(3))",
                 prelude),
              "(True, True, 16, 3.0)");
    Diagnostic d = err("import math\nx = math.sqr(2)\n");
    EXPECT_EQ(d.message, "module 'math' has no attribute 'sqr'");
    EXPECT_EQ(d.hint, "did you mean 'math.sqrt'?");
    EXPECT_EQ(d.span, (Span{2, 5, 2, 13}));
    EXPECT_EQ(err("import math\nx = math.sqrt(-1)\n").message, "math.sqrt(): math domain error");
}

TEST(MetaEvalTest, ImportsAndOpaqueModules) {
    const char* src = R"(
import torch
import numpy as np
import tilelang.language as T
from tilelang.autotuner import autotune
from tilelang.profiler import do_bench
from tilelang.language import not_a_thing
dt = torch.float16
)";
    auto r = run(src);
    ASSERT_FALSE(r->error) << r->error->message;
    EXPECT_TRUE(r->get("dt").is(ValueKind::DType));
    EXPECT_TRUE(r->get("T").is(ValueKind::Namespace));
    EXPECT_TRUE(r->get("autotune").is(ValueKind::Builtin));
    Diagnostic d = err(std::string(src) + "x = np.zeros(3)\n");
    EXPECT_EQ(d.message,
              "module 'numpy' is not available at compile time (no attribute 'zeros' is known)");
    d = err(std::string(src) + "do_bench(1)\n");
    EXPECT_EQ(d.message,
              "'do_bench' could not be evaluated (line 6): 'do_bench' (from tilelang.profiler) is "
              "not available at compile time");
    d = err(std::string(src) + "x = torch.randn(3)\n");
    EXPECT_NE(d.message.find("ref_program"), std::string::npos);
}

TEST(MetaEvalTest, UndefinedNameHasCloseMatchHint) {
    Diagnostic d = err("block_M = 64\nx = block_m * 2\n");
    EXPECT_EQ(d.message, "name 'block_m' is not defined");
    EXPECT_EQ(d.hint, "did you mean 'block_M'?");
    EXPECT_EQ(d.span, (Span{2, 5, 2, 12}));
}

TEST(MetaEvalTest, TypeErrorsPointAtTheOperator) {
    Diagnostic d = err("x = 1\ny = x + 'a'\n");
    EXPECT_EQ(d.message, "unsupported operand types for +: 'int' and 'str'");
    EXPECT_EQ(d.span, (Span{2, 5, 2, 12}));
    EXPECT_EQ(d.hint, "convert with str(x) or int(x) first");
    EXPECT_EQ(err("x = [1].nope").message, "'list' object has no attribute 'nope'");
    EXPECT_EQ(err("x = len(3)").message, "object of type 'int' has no len()");
    EXPECT_EQ(err("for i in 3:\n    pass\n").message, "'int' object is not iterable");
}

// The step limit is reported at the loop that was running (its condition or iterable), the
// innermost one, whichever body statement took the last step (issue 14, found by fuzz_meta).
TEST(MetaEvalTest, StepLimitIsReportedAtTheRunningLoop) {
    auto r = run("t = 4\nn = 0\nwhile t > 1:\n    n += 1\n    n += 2\n", 10001);
    ASSERT_TRUE(r->error);
    EXPECT_EQ(r->error->span.line, 3u);
    EXPECT_EQ(r->error->span.col, 7u);
    EXPECT_EQ(r->error->message, "compile-time evaluation exceeded 10001 steps in this 'while' loop");
    r = run("for i in range(3):\n    for j in range(10 ** 9):\n        x = j\n", 10000);
    ASSERT_TRUE(r->error);
    EXPECT_EQ(r->error->span.line, 2u);
    EXPECT_EQ(r->error->span.col, 14u);
    EXPECT_EQ(r->error->message, "compile-time evaluation exceeded 10000 steps in this 'for' loop");
}

// The step budget charges work, not statements (issue 14): a statement, a loop iteration, a call
// and each expression node are one step; a function object kFunctionSteps (8) plus one per
// parameter; a decorator application kDecoratorSteps (4); a sequence operation one step per 4
// elements. The counts below are derived by hand from those rules.
TEST(MetaEvalTest, StepsChargeWorkNotStatements) {
    EXPECT_EQ(run("x = 1\n")->in->stepsUsed(), 2u);  // statement + constant
    // statement + function object (8 + 2 parameters) + the default's constant
    EXPECT_EQ(run("def f(a, b=2):\n    pass\n")->in->stepsUsed(), 12u);
    // def d: 1 + 8 + 1; def f: statement 1, function 8, decorator name 1, application 4, the call
    // of d 1, its `return g` statement 1 and name 1
    EXPECT_EQ(run("def d(g):\n    return g\n@d\ndef f():\n    pass\n")->in->stepsUsed(), 27u);
    // statement + BinOp + List + two constants + 400 elements / 4
    EXPECT_EQ(run("a = [0] * 400\n")->in->stepsUsed(), 105u);
    EXPECT_EQ(run("a = '' * 10 ** 12\n")->in->stepsUsed(), 6u);  // nothing to repeat: no work
    // An endless loop whose body defines a function: 3 steps before the loop (n = 0; while),
    // 13 per iteration (test 1, iteration 1, def 1 + 8, n += 1: 2): the 10,000-step budget ends
    // it in iteration 770 with n = 769 -- where a body of assignments only would reach n = 2,499.
    auto r = run("n = 0\nwhile True:\n    def f():\n        pass\n    n += 1\n", 10000);
    ASSERT_TRUE(r->error);
    EXPECT_EQ(r->error->span.line, 2u);
    EXPECT_EQ(repr(r->get("n")), "769");
    r = run("n = 0\nwhile True:\n    n += 1\n", 10000);
    ASSERT_TRUE(r->error);
    EXPECT_EQ(repr(r->get("n")), "2499");  // 3 + 4 per iteration
    // A loop over a long list's linear search ends in proportion to the list's length: the list
    // costs 5 + 1000/4 = 255, `n = 0` 2, the while 1 (258); each pass 258: test 1, iteration
    // 1, statement 1, call 1, attribute 1, name 1, argument 1, the method's call 1, its 1000
    // elements / 4. 258 + 37 * 258 = 9,804; the 38th pass ends the 10,000 steps: n = 37 * 1000.
    r = run("a = [0] * 1000\nn = 0\nwhile True:\n    n += a.count(0)\n", 10000);
    ASSERT_TRUE(r->error);
    EXPECT_NE(r->error->message.find("exceeded 10000 steps in this 'while' loop"), std::string::npos);
    EXPECT_EQ(repr(r->get("n")), "37000");
}

// A container that contains itself prints `[...]` where it recurs and equals itself by identity,
// as in Python; both were exponential in the number of self-references (repr nested 64 levels,
// == 200 levels before giving up: 2 self-appends made 2^64 calls).
TEST(MetaEvalTest, SelfReferencingContainersAreLinear) {
    const std::string two = "a = []\na.append(a)\na.append(a)\n";
    EXPECT_EQ(ev("repr(a)", two), "'[[...], [...]]'");
    EXPECT_EQ(ev("str(a)", two), "'[[...], [...]]'");
    EXPECT_EQ(ev("a == a", two), "True");
    EXPECT_EQ(ev("a != a", two), "False");
    EXPECT_EQ(ev("[a, 1] == [a, 1]", two), "True");
    EXPECT_EQ(ev("a.count(a)", two), "2");
    EXPECT_EQ(ev("a in a", two), "True");
    // 50 self-references: 50 elements of "[...]" joined by ", "
    const std::string fifty = "a = []\nfor i in range(50):\n    a.append(a)\n";
    std::string want = "'[";
    for (int i = 0; i < 50; ++i) want += i ? ", [...]" : "[...]";
    EXPECT_EQ(ev("repr(a)", fifty), want + "]'");
    EXPECT_EQ(ev("a == a", fifty), "True");
    EXPECT_EQ(ev("len(repr(a))", fifty), std::to_string(2 + 50 * 5 + 49 * 2));
    // Cycles through other containers: Python's outputs.
    EXPECT_EQ(ev("repr(a)", "a = []\nb = [a]\na.append(b)\n"), "'[[[...]]]'");
    EXPECT_EQ(ev("repr(a)", "a = []\na.append((a, 1))\n"), "'[([...], 1)]'");
    EXPECT_EQ(ev("repr(d)", "d = {}\nd['k'] = d\nd['l'] = [d]\n"), "\"{'k': {...}, 'l': [{...}]}\"");
    EXPECT_EQ(ev("d == d", "d = {}\nd['k'] = d\n"), "True");
    // A shared sublist that is not a cycle still prints in full (only recursion is cut).
    EXPECT_EQ(ev("repr([b, b])", "b = [1]\n"), "'[[1], [1]]'");
    // Two different cyclic lists: Python raises RecursionError; here the nesting limit, at the
    // comparison (it had no location).
    Diagnostic d = err("a = []\na.append(a)\nb = []\nb.append(b)\nc = a == b\n");
    EXPECT_NE(d.message.find("nested more than 200 levels"), std::string::npos) << d.message;
    EXPECT_EQ(d.span.line, 5u);
    EXPECT_EQ(d.span.col, 5u);
    d = err("a = []\na.append(a)\nb = []\nb.append(b)\nc = [a].index(b)\n");
    EXPECT_EQ(d.span.line, 5u);
    // Shared sublists 40 levels deep expand to 2^40 elements (in Python too): comparing two
    // such values is an error after 200,000 of them, and repr() stops expanding after about
    // 2^18 characters.
    const std::string dag = "x = [1]\ny = [1]\nfor i in range(40):\n    x = [x, x]\n    y = [y, y]\n";
    d = err(dag + "z = x == y\n");
    EXPECT_NE(d.message.find("visits more than 200000 nested lists"), std::string::npos) << d.message;
    EXPECT_EQ(d.span.line, 6u);
    EXPECT_EQ(ev("x == x", dag), "True");
    EXPECT_EQ(ev("[0] * 600000 == [0] * 600000"), "True");  // a flat list is one container
    auto r = run(dag + "n = len(repr(x))\n");
    ASSERT_FALSE(r->error) << r->error->message;
    int64_t n = r->get("n").asInt();
    // The count (leaf text, 2 per bracket pair and per separator) overestimates the output a
    // little; once over 2^18 the rest is at most 40 levels x 2 "..." elements.
    EXPECT_GT(n, 1 << 17);
    EXPECT_LT(n, (1 << 18) + 1000);
}

// Values are reference counted: a list/tuple/dict cycle was never freed (LeakSanitizer, a leak
// per compile). ~Interp frees the containers that only cycles keep alive (MetaGc.h), and only
// those: one still referenced from outside keeps its contents.
TEST(MetaEvalTest, ReferenceCyclesAreFreedWithTheInterpreter) {
    auto handle = [](const Value& v) { return const_cast<Object*>(v.identity())->weak_from_this(); };
    auto r = run("a = []\na.append(a)\nd = {}\nd['me'] = d\nb = []\nb.append((b, [b]))\nc = [1, [2]]\n");
    ASSERT_FALSE(r->error);
    std::weak_ptr<Object> a = handle(r->get("a")), d = handle(r->get("d")), b = handle(r->get("b"));
    std::weak_ptr<Object> c = handle(r->get("c"));
    Value kept = r->get("d");
    r.reset();
    EXPECT_TRUE(a.expired());
    EXPECT_TRUE(b.expired());
    EXPECT_TRUE(c.expired());   // no cycle: freed by reference counting as before
    EXPECT_FALSE(d.expired());  // still referenced here: left intact
    EXPECT_EQ(repr(kept), "{'me': {...}}");
    // A cycle created while another interpreter lives is not touched by that one's end unless
    // it is garbage; reachable values of the first stay as they are.
    auto r1 = run("x = [1]\nx.append(x)\n");
    auto r2 = run("y = []\ny.append(y)\n");
    std::weak_ptr<Object> y = handle(r2->get("y"));
    r2.reset();
    EXPECT_TRUE(y.expired());
    EXPECT_EQ(repr(r1->get("x")), "[1, [...]]");
}

TEST(MetaEvalTest, LimitsStopRunawayPrograms) {
    auto r = run("while True:\n    pass\n", 10000);
    ASSERT_TRUE(r->error);
    EXPECT_NE(r->error->message.find("exceeded 10000 steps"), std::string::npos);
    r = run("for i in range(10 ** 12):\n    pass\n", 10000);
    ASSERT_TRUE(r->error);
    EXPECT_NE(r->error->message.find("steps"), std::string::npos);
    EXPECT_NE(err("x = list(range(10 ** 12))").message.find("too large"), std::string::npos);
    EXPECT_NE(err("x = [0] * 10 ** 12").message.find("too large"), std::string::npos);
}

TEST(MetaEvalTest, TryIsSkippedWithWarningAndClassesArePoison) {
    auto r = run("x = 1\ntry:\n    x = 2\nexcept Exception:\n    pass\nclass C:\n    pass\n");
    ASSERT_FALSE(r->error);
    EXPECT_EQ(repr(r->get("x")), "1");
    ASSERT_EQ(r->diags.all().size(), 1u);
    EXPECT_EQ(r->diags.all()[0].severity, Severity::Warning);
    EXPECT_EQ(r->diags.all()[0].span.line, 2u);
    Diagnostic d = err("class C:\n    pass\ny = C()\n");
    EXPECT_NE(d.message.find("classes are not supported"), std::string::npos);
    EXPECT_EQ(d.span.line, 3u);
}

TEST(MetaEvalTest, PrimFuncAndMacroDecoratorsTagFunctions) {
    const char* src = R"(
import tilelang
import tilelang.language as T
@tilelang.jit(out_idx=[-1])
def factory(M, block=32):
    @T.prim_func
    def main(A: T.Tensor((M,), "float16")):
        pass
    @T.macro
    def helper(x):
        return x + 1
    return main, helper(block)
k, h = factory(128)
)";
    auto r = run(src);
    ASSERT_FALSE(r->error) << r->error->message;
    ASSERT_TRUE(r->get("k").is(ValueKind::Function));
    EXPECT_EQ(r->get("k").functionObj().tag, FunctionTag::PrimFunc);
    EXPECT_EQ(r->get("k").functionObj().name, "main");
    EXPECT_EQ(repr(r->get("h")), "33");
    // The closure sees the factory's parameters.
    EXPECT_EQ(repr(*r->get("k").functionObj().closure->findLocal("M")), "128");
}

// f-strings are formatted like Python (TileLang's quantize helpers build dict keys with them:
// f"fp{source_bit}_to_{dtype_map[out_dtype]}" was left unformatted, so the lookup failed).
TEST(MetaEvalTest, FStringsAreFormatted) {
    const std::string pre = "bits = 4\nm = {'bfloat16': 'bf16'}\nout = 'bfloat16'\nx = 3.14159\n";
    EXPECT_EQ(ev("f'fp{bits}_to_{m[out]}_twiddling'", pre), "'fp4_to_bf16_twiddling'");
    EXPECT_EQ(ev("f\"{m['bfloat16']}\"", pre), "'bf16'");
    EXPECT_EQ(ev("f'{x:.2f}|{bits:>3}|{bits!r}|{out!r}'", pre), "\"3.14|  4|4|'bfloat16'\"");
    EXPECT_EQ(ev("f'{{literal}} {bits * 2}'", pre), "'{literal} 8'");
    EXPECT_EQ(ev("f'{bits=}'", pre), "'bits=4'");
    EXPECT_EQ(ev("f'{x:.{bits}f}'", pre), "'3.1416'");
    EXPECT_EQ(ev("f'{bits == 4}'", pre), "'True'");
    EXPECT_EQ(ev("f'{ {1: 2}[1] }'", pre), "'2'");
    // A plain literal beside an f-string keeps its braces as text.
    EXPECT_EQ(ev("'{a}' f'{bits}'", pre), "'{a}4'");
    EXPECT_EQ(ev("f'{bits}' '{b}'", pre), "'4{b}'");
    EXPECT_EQ(ev("[f'k{i}' for i in range(3)]"), "['k0', 'k1', 'k2']");
    Diagnostic d = err("y = f'{nope}'\n");
    EXPECT_NE(d.message.find("in f-string field '{nope}'"), std::string::npos) << d.message;
    d = err("y = f'{1 +}'\n");
    EXPECT_NE(d.message.find("f-string: invalid expression"), std::string::npos) << d.message;
    d = err("y = f'a}b'\n");
    EXPECT_NE(d.message.find("single '}'"), std::string::npos) << d.message;
}
