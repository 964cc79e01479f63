// Parser unit tests: AST shape (via ast::dump), spans, and syntax-error diagnostics with recovery.
#include <gtest/gtest.h>

#include "compiler/frontend/Parser.h"

using namespace ts;
using namespace ts::fe;

namespace {

struct Parsed {
    std::shared_ptr<ast::Module> mod;
    DiagnosticEngine diags;
    std::string dump() const { return ast::dump(mod->body); }
};

std::unique_ptr<Parsed> parse(const std::string& text) {
    auto p = std::make_unique<Parsed>();
    p->mod = parseModule(std::make_shared<SourceFile>("t.py", text), p->diags);
    return p;
}

std::string expr(const std::string& text) {
    DiagnosticEngine d;
    auto r = parseExpression(std::make_shared<SourceFile>("e.py", text), d);
    if (!r.expr) return "ERROR: " + (d.all().empty() ? std::string("?") : d.all()[0].message);
    return ast::dump(r.expr);
}

}  // namespace

TEST(ParserTest, Precedence) {
    EXPECT_EQ(expr("a + b * c ** -d ** e"),
              "BinOp(+, Name(a), BinOp(*, Name(b), BinOp(**, Name(c), UnaryOp(-, BinOp(**, "
              "Name(d), Name(e))))))");
    EXPECT_EQ(expr("-a ** 2"), "UnaryOp(-, BinOp(**, Name(a), Int(2)))");
    EXPECT_EQ(expr("a // b % c @ d"),
              "BinOp(@, BinOp(%, BinOp(//, Name(a), Name(b)), Name(c)), Name(d))");
    EXPECT_EQ(
        expr("a | b ^ c & d << 1"),
        "BinOp(|, Name(a), BinOp(^, Name(b), BinOp(&, Name(c), BinOp(<<, Name(d), Int(1)))))");
    EXPECT_EQ(expr("not a and b or c"),
              "BoolOp(or, BoolOp(and, UnaryOp(not, Name(a)), Name(b)), Name(c))");
    EXPECT_EQ(expr("a - b - c"), "BinOp(-, BinOp(-, Name(a), Name(b)), Name(c))");
}

TEST(ParserTest, ChainedComparison) {
    EXPECT_EQ(expr("0 <= i < n != m"), "Compare(Int(0), <=, Name(i), <, Name(n), !=, Name(m))");
    EXPECT_EQ(expr("a not in b is not c"), "Compare(Name(a), not in, Name(b), is not, Name(c))");
}

TEST(ParserTest, ConditionalLambdaNamed) {
    EXPECT_EQ(expr("x if c else y"), "IfExp(Name(c), Name(x), Name(y))");
    EXPECT_EQ(expr("lambda i, j=1: i + j"), "Lambda(i, j=Int(1); BinOp(+, Name(i), Name(j)))");
    EXPECT_EQ(expr("(n := 10)"), "NamedExpr(Name(n), Int(10))");
}

TEST(ParserTest, CallsAndTrailers) {
    EXPECT_EQ(expr("T.Kernel(T.ceildiv(N, 128), 4, threads=128)"),
              "Call(Attribute(Name(T), Kernel), Call(Attribute(Name(T), ceildiv), Name(N), "
              "Int(128)), Int(4), "
              "threads=Int(128))");
    EXPECT_EQ(expr("f(*a, **k, x=1)"), "Call(Name(f), Starred(Name(a)), **Name(k), x=Int(1))");
    EXPECT_EQ(expr("sum(x for x in y)"),
              "Call(Name(sum), GeneratorExp(Name(x); for Name(x) in Name(y)))");
    EXPECT_EQ(expr("a.b.c(1)[2]"),
              "Subscript(Call(Attribute(Attribute(Name(a), b), c), Int(1)), Int(2))");
}

TEST(ParserTest, SubscriptsAndSlices) {
    EXPECT_EQ(
        expr("A[by * bm, k * bk]"),
        "Subscript(Name(A), Tuple(BinOp(*, Name(by), Name(bm)), BinOp(*, Name(k), Name(bk))))");
    EXPECT_EQ(expr("A[a:b, :, c, ::2]"),
              "Subscript(Name(A), Tuple(Slice(Name(a), Name(b), _), Slice(_, _, _), Name(c), "
              "Slice(_, _, Int(2))))");
    EXPECT_EQ(expr("x[1:]"), "Subscript(Name(x), Slice(Int(1), _, _))");
    EXPECT_EQ(expr("x[i,]"), "Subscript(Name(x), Tuple(Name(i)))");
}

TEST(ParserTest, Displays) {
    EXPECT_EQ(expr("()"), "Tuple()");
    EXPECT_EQ(expr("(1,)"), "Tuple(Int(1))");
    EXPECT_EQ(expr("(1)"), "Int(1)");
    EXPECT_EQ(expr("1, 2"), "Tuple(Int(1), Int(2))");
    EXPECT_EQ(expr("[1, *x]"), "List(Int(1), Starred(Name(x)))");
    EXPECT_EQ(expr("{1, 2}"), "Set(Int(1), Int(2))");
    EXPECT_EQ(expr("{}"), "Dict()");
    EXPECT_EQ(expr("{'a': 1, **d}"), "Dict(Str(\"a\"): Int(1), **Name(d))");
    EXPECT_EQ(expr("'a' 'b'"), "Str(\"ab\")");
    EXPECT_EQ(expr("None, True, ..."), "Tuple(None, True, Ellipsis)");
}

TEST(ParserTest, Comprehensions) {
    EXPECT_EQ(expr("[(a, b) for a in x for b in y if a < b if b]"),
              "ListComp(Tuple(Name(a), Name(b)); for Name(a) in Name(x); for Name(b) in Name(y) if "
              "Compare(Name(a), <, Name(b)) if Name(b))");
    EXPECT_EQ(expr("{k: v for k, v in d.items()}"),
              "DictComp(Name(k): Name(v); for Tuple(Name(k), Name(v)) in Call(Attribute(Name(d), "
              "items)))");
    EXPECT_EQ(expr("{x for x in s}"), "SetComp(Name(x); for Name(x) in Name(s))");
}

TEST(ParserTest, ExprSpans) {
    auto p = parse("y = T.ceildiv(N,  block_N) + 1\n");
    ASSERT_FALSE(p->diags.hasErrors());
    auto a = ast::as<ast::Assign>(p->mod->body[0]);
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->span, (Span{1, 1, 1, 31}));
    auto bin = ast::as<ast::BinOp>(a->value);
    ASSERT_NE(bin, nullptr);
    EXPECT_EQ(bin->span, (Span{1, 5, 1, 31}));
    auto call = ast::as<ast::Call>(bin->left);
    EXPECT_EQ(call->span, (Span{1, 5, 1, 27}));
    EXPECT_EQ(call->args[1]->span, (Span{1, 19, 1, 26}));
    auto attr = ast::as<ast::Attribute>(call->func);
    EXPECT_EQ(attr->attrSpan, (Span{1, 7, 1, 14}));
}

TEST(ParserTest, AssignmentForms) {
    auto p =
        parse("a = b = 1\nx, (y, *z) = t\nc[i, j] += 2\nn: int = 3\nA: T.Tensor((M, K), dtype)\n");
    ASSERT_FALSE(p->diags.hasErrors()) << p->diags.all()[0].message;
    EXPECT_EQ(p->dump(),
              "Assign Name(a) = Name(b) = Int(1)\n"
              "Assign Tuple(Name(x), Tuple(Name(y), Starred(Name(z)))) = Name(t)\n"
              "AugAssign Subscript(Name(c), Tuple(Name(i), Name(j))) += Int(2)\n"
              "AnnAssign Name(n): Name(int) = Int(3)\n"
              "AnnAssign Name(A): Call(Attribute(Name(T), Tensor), Tuple(Name(M), Name(K)), "
              "Name(dtype))\n");
}

TEST(ParserTest, FactoryKernel) {
    auto p = parse(R"(import tilelang
import tilelang.language as T
from tilelang.autotuner import autotune, jit as J

@tilelang.jit(out_idx=[-1])
def matmul(M, N, K, block_M=128, dtype="float16", *, k_pack: int = 1, **kw) -> "x":
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), threads=128) as (bx, by):
            for k in T.Pipelined(K // 32, num_stages=3):
                T.copy(A[by * block_M, k * 32], A_s)
            if k > 0:
                pass
            elif k < 0:
                C[0, 0] = 1
            else:
                C[0, 0] += 2
    return main
)");
    ASSERT_FALSE(p->diags.hasErrors())
        << formatDiagnostic(p->diags.all()[0], p->mod->source().get());
    EXPECT_EQ(
        p->dump(),
        "Import tilelang\n"
        "Import tilelang.language as T\n"
        "ImportFrom tilelang.autotuner: autotune, jit as J\n"
        "@Call(Attribute(Name(tilelang), jit), out_idx=List(UnaryOp(-, Int(1))))\n"
        "def matmul(M, N, K, block_M=Int(128), dtype=Str(\"float16\"), k_pack(kw): "
        "Name(int)=Int(1), **kw) -> "
        "Str(\"x\")\n"
        "  @Attribute(Name(T), prim_func)\n"
        "  def main(A: Call(Attribute(Name(T), Tensor), Tuple(Name(M), Name(K)), Name(dtype)), C: "
        "Call(Attribute(Name(T), Tensor), Tuple(Name(M), Name(N)), Name(dtype)))\n"
        "    With Call(Attribute(Name(T), Kernel), Call(Attribute(Name(T), ceildiv), Name(N), "
        "Name(block_N)), "
        "threads=Int(128)) as Tuple(Name(bx), Name(by))\n"
        "      For Name(k) in Call(Attribute(Name(T), Pipelined), BinOp(//, Name(K), Int(32)), "
        "num_stages=Int(3))\n"
        "        Expr Call(Attribute(Name(T), copy), Subscript(Name(A), Tuple(BinOp(*, Name(by), "
        "Name(block_M)), "
        "BinOp(*, Name(k), Int(32)))), Name(A_s))\n"
        "      If Compare(Name(k), >, Int(0))\n"
        "        Pass\n"
        "      Else\n"
        "        If Compare(Name(k), <, Int(0))\n"
        "          Assign Subscript(Name(C), Tuple(Int(0), Int(0))) = Int(1)\n"
        "        Else\n"
        "          AugAssign Subscript(Name(C), Tuple(Int(0), Int(0))) += Int(2)\n"
        "  Return Name(main)\n");
    auto f = ast::as<ast::FunctionDef>(p->mod->body[3]);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->nameSpan, (Span{6, 5, 6, 11}));
    EXPECT_EQ(f->span.line, 5u);  // starts at the decorator
    EXPECT_EQ(f->span.endLine, 18u);
    EXPECT_EQ(f->params[0].span, (Span{6, 12, 6, 13}));
}

TEST(ParserTest, OtherStatements) {
    auto p = parse(R"(while x:
    break
else:
    continue
try:
    import numpy as np
except ImportError as e:
    raise ValueError("x") from e
finally:
    del a[0], b
class Foo(Base, metaclass=M):
    def f(self): return 1
global g, h
assert x > 0, "msg"
with a as b, c:
    yield x
async def co(): await z
from .. import (a, b,)
lam = lambda: 0; y = 1;
)");
    ASSERT_FALSE(p->diags.hasErrors())
        << formatDiagnostic(p->diags.all()[0], p->mod->source().get());
    EXPECT_EQ(p->dump(),
              "While Name(x)\n  Break\nElse\n  Continue\n"
              "Try\n  Import numpy as np\nExcept Name(ImportError) as e\n"
              "  Raise Call(Name(ValueError), Str(\"x\")) from Name(e)\nFinally\n  Del "
              "Subscript(Name(a), Int(0)), Name(b)\n"
              "class Foo(Name(Base), metaclass=Name(M))\n  def f(self)\n    Return Int(1)\n"
              "Global g h\n"
              "Assert Compare(Name(x), >, Int(0)), Str(\"msg\")\n"
              "With Name(a) as Name(b), Name(c)\n  Expr Yield(Name(x))\n"
              "async def co()\n  Expr Await(Name(z))\n"
              "ImportFrom ..: a, b\n"
              "Assign Name(lam) = Lambda(; Int(0))\nAssign Name(y) = Int(1)\n");
}

TEST(ParserTest, ParenthesizedWithItemsAndTupleContext) {
    auto p = parse("with (open(a) as f, open(b) as g):\n    pass\nwith (a, b):\n    pass\n");
    ASSERT_FALSE(p->diags.hasErrors());
    EXPECT_EQ(
        p->dump(),
        "With Call(Name(open), Name(a)) as Name(f), Call(Name(open), Name(b)) as Name(g)\n  Pass\n"
        "With Name(a), Name(b)\n  Pass\n");
}

TEST(ParserTest, ParamKinds) {
    auto p = parse("def f(a, /, b, *args, c, d=2, **kw): pass\n");
    ASSERT_FALSE(p->diags.hasErrors());
    auto f = ast::as<ast::FunctionDef>(p->mod->body[0]);
    ASSERT_EQ(f->params.size(), 6u);
    EXPECT_EQ(f->params[0].kind, ast::ParamKind::PosOnly);
    EXPECT_EQ(f->params[1].kind, ast::ParamKind::Normal);
    EXPECT_EQ(f->params[2].kind, ast::ParamKind::VarArgs);
    EXPECT_EQ(f->params[3].kind, ast::ParamKind::KwOnly);
    EXPECT_EQ(f->params[4].kind, ast::ParamKind::KwOnly);
    EXPECT_EQ(f->params[5].kind, ast::ParamKind::VarKw);
}

// ---- errors ---------------------------------------------------------------------------------

TEST(ParserErrorTest, MissingColonAfterIf) {
    auto p = parse("if x == 1\n    y = 2\nz = 3\n");
    ASSERT_EQ(p->diags.all().size(), 1u);
    const Diagnostic& d = p->diags.all()[0];
    EXPECT_EQ(d.message, "expected ':' after 'if' condition");
    EXPECT_EQ(d.span, (Span{1, 10, 1, 11}));
    EXPECT_EQ(d.origin, "parse");
    // recovery keeps the following statements
    EXPECT_EQ(p->dump(), "Assign Name(y) = Int(2)\nAssign Name(z) = Int(3)\n");
    std::string text = formatDiagnostic(d, p->mod->source().get());
    EXPECT_NE(text.find("t.py:1:10: error: expected ':' after 'if' condition"), std::string::npos);
}

TEST(ParserErrorTest, AssignInConditionHint) {
    auto p = parse("if x = 1:\n    pass\n");
    ASSERT_FALSE(p->diags.all().empty());
    EXPECT_EQ(p->diags.all()[0].hint, "use '==' to compare; '=' assigns");
}

TEST(ParserErrorTest, SeveralErrorsReported) {
    auto q = parse("def f(x):\n    pass +\nx = = 2\nok = 1\nfor i range(3):\n    pass\nz = 1\n");
    ASSERT_EQ(q->diags.all().size(), 3u);
    EXPECT_EQ(q->diags.all()[0].span.line, 2u);
    EXPECT_EQ(q->diags.all()[1].span, (Span{3, 5, 3, 6}));
    EXPECT_EQ(q->diags.all()[2].message,
              "expected 'in' after the 'for' loop variable, found 'range'");
    EXPECT_EQ(q->diags.all()[2].span, (Span{5, 7, 5, 12}));
    EXPECT_EQ(q->dump(),
              "def f(x)\n  Pass\nAssign Name(ok) = Int(1)\nPass\nAssign Name(z) = Int(1)\n");
}

TEST(ParserErrorTest, UnclosedBracketDoesNotSwallowFollowingDefs) {
    auto p = parse("def f(a, b:\n    return a\ndef g():\n    x = (1 +\n    return 2\nz = 3\n");
    ASSERT_EQ(p->diags.all().size(), 2u);
    EXPECT_EQ(p->diags.all()[0].message, "'(' was never closed");
    EXPECT_EQ(p->diags.all()[0].span, (Span{1, 6, 1, 7}));
    EXPECT_EQ(p->diags.all()[1].span, (Span{4, 9, 4, 10}));
    EXPECT_EQ(p->dump(), "Return Name(a)\ndef g()\n  Return Int(2)\nAssign Name(z) = Int(3)\n");
}

TEST(ParserErrorTest, CannotAssignToCall) {
    auto p = parse("f(x) = 3\n");
    ASSERT_EQ(p->diags.all().size(), 1u);
    EXPECT_EQ(p->diags.all()[0].message, "cannot assign to function call");
    EXPECT_EQ(p->diags.all()[0].span, (Span{1, 1, 1, 5}));
}

TEST(ParserErrorTest, UnclosedParenReportedOnce) {
    auto p = parse("x = f(a, b\n");
    ASSERT_EQ(p->diags.all().size(), 1u);
    EXPECT_EQ(p->diags.all()[0].message, "'(' was never closed");
    EXPECT_EQ(p->diags.all()[0].span, (Span{1, 6, 1, 7}));
}

TEST(ParserErrorTest, MissingIndentedBlock) {
    auto p = parse("def f():\nreturn 1\n");
    ASSERT_FALSE(p->diags.all().empty());
    EXPECT_EQ(p->diags.all()[0].message, "expected an indented block after 'def f'");
    EXPECT_EQ(p->diags.all()[0].span.line, 2u);
}

TEST(ParserErrorTest, UnexpectedIndent) {
    auto p = parse("x = 1\n    y = 2\n");
    ASSERT_EQ(p->diags.all().size(), 1u);
    EXPECT_EQ(p->diags.all()[0].message, "unexpected indent");
    EXPECT_EQ(p->dump(), "Assign Name(x) = Int(1)\nAssign Name(y) = Int(2)\n");
}

TEST(ParserErrorTest, MissingOperand) {
    auto p = parse("x = a +\n");
    ASSERT_EQ(p->diags.all().size(), 1u);
    EXPECT_EQ(p->diags.all()[0].message, "expected an expression after '+', found end of line");
    EXPECT_EQ(p->diags.all()[0].span, (Span{1, 8, 1, 9}));
}

TEST(ParserErrorTest, TwoStatementsOnALine) {
    auto p = parse("x = 1 2\n");
    ASSERT_EQ(p->diags.all().size(), 1u);
    EXPECT_EQ(p->diags.all()[0].message, "unexpected number '2' after the end of a statement");
    EXPECT_EQ(p->diags.all()[0].span, (Span{1, 7, 1, 8}));
}

TEST(ParserErrorTest, PositionalAfterKeyword) {
    auto p = parse("f(a=1, b)\n");
    ASSERT_EQ(p->diags.all().size(), 1u);
    EXPECT_EQ(p->diags.all()[0].message, "positional argument follows keyword argument");
    EXPECT_EQ(p->diags.all()[0].span, (Span{1, 8, 1, 9}));
}

TEST(ParserErrorTest, NonDefaultAfterDefault) {
    auto p = parse("def f(a=1, b): pass\n");
    ASSERT_EQ(p->diags.all().size(), 1u);
    EXPECT_EQ(p->diags.all()[0].span, (Span{1, 12, 1, 13}));
}

TEST(ParserErrorTest, DeepNestingFailsCleanly) {
    std::string deep(2000, '(');
    auto p = parse("x = " + deep + "1" + std::string(2000, ')') + "\ny = 2\n");
    ASSERT_TRUE(p->diags.hasErrors());
    EXPECT_NE(p->diags.all()[0].message.find("nested too deeply"), std::string::npos);
    std::string unary(5000, '-');
    auto q = parse("x = " + unary + "1\n");
    EXPECT_TRUE(q->diags.hasErrors());
    std::string nots;
    for (int i = 0; i < 3000; ++i) nots += "not ";
    auto r = parse("x = " + nots + "1\n");
    EXPECT_TRUE(r->diags.hasErrors());
}

TEST(ParserErrorTest, ErrorCountIsBounded) {
    std::string text;
    for (int i = 0; i < 200; ++i) text += "x = = 1\n";
    auto p = parse(text);
    EXPECT_LE(p->diags.all().size(), static_cast<size_t>(kMaxParseErrors) + 1);
}

TEST(ParserTest, ParseExpressionRejectsTrailing) {
    EXPECT_EQ(expr("1 2"), "ERROR: unexpected number '2' after the expression");
    EXPECT_EQ(expr("  -3.5"), "UnaryOp(-, Float(3.5))");
    EXPECT_EQ(expr("(1, 'a', True)"), "Tuple(Int(1), Str(\"a\"), True)");
}
