// The ExtValue extension hook: a toy symbolic value (standing in for the elaborator's IR
// expressions) flows through operators, builtins, user functions, T.ceildiv and indexing.
#include <gtest/gtest.h>

#include "compiler/frontend/MetaEval.h"
#include "compiler/frontend/Parser.h"

using namespace ts;
using namespace ts::fe;

namespace {

// A symbolic expression printed as text; truth is unknown (a run-time value).
class Sym : public ExtValue {
public:
    explicit Sym(std::string t) : text(std::move(t)) {}
    std::string text;
    std::string typeName() const override { return "Sym"; }
    std::string repr() const override { return text; }
    static std::string show(const Value& v) {
        return v.extAs<Sym>() ? v.extAs<Sym>()->text : fe::repr(v);
    }
    std::optional<Value> binaryOp(Interp&, ast::BinOpKind op, const Value& other, bool selfOnLeft,
                                  Span) override {
        std::string a = text, b = show(other);
        if (!selfOnLeft) std::swap(a, b);
        return Value::ext(std::make_shared<Sym>("(" + a + " " + ast::spelling(op) + " " + b + ")"));
    }
    std::optional<Value> compare(Interp&, ast::CmpOpKind op, const Value& other, bool selfOnLeft,
                                 Span) override {
        std::string a = text, b = show(other);
        if (!selfOnLeft) std::swap(a, b);
        return Value::ext(std::make_shared<Sym>("(" + a + " " + ast::spelling(op) + " " + b + ")"));
    }
    std::optional<Value> unaryOp(Interp&, ast::UnaryOpKind op, Span) override {
        return Value::ext(std::make_shared<Sym>(std::string(ast::spelling(op)) + text));
    }
    std::optional<Value> getItem(Interp& in, const Value& index, Span) override {
        std::string idx;
        for (const Value& v :
             index.is(ValueKind::Tuple) ? index.items() : std::vector<Value>{index})
            idx += (idx.empty() ? "" : ", ") + show(v);
        return Value::ext(std::make_shared<Sym>(text + "[" + idx + "]"));
    }
    std::optional<Value> getAttr(Interp&, const std::string& name, Span) override {
        if (name == "shape") return Value::tuple({Value::integer(4), Value::integer(8)});
        return std::nullopt;
    }
    std::optional<Value> call(Interp&, CallArgs& a) override {
        return Value::ext(
            std::make_shared<Sym>(text + "(" + std::to_string(a.pos.size()) + " args)"));
    }
};

// An interpreter whose dynamic `and`/`if-else` build symbols instead of failing.
class SymInterp : public Interp {
public:
    using Interp::Interp;

protected:
    Value dynamicBoolOp(ast::BoolOpKind op, const Value& a, const Value& b, Span) override {
        return Value::ext(std::make_shared<Sym>("(" + Sym::show(a) + " " + ast::spelling(op) + " " +
                                                Sym::show(b) + ")"));
    }
    Value dynamicIfExp(const Value& c, const Value& a, const Value& b, Span) override {
        return Value::ext(std::make_shared<Sym>("select(" + Sym::show(c) + ", " + Sym::show(a) +
                                                ", " + Sym::show(b) + ")"));
    }
};

struct Ctx {
    DiagnosticEngine diags;
    std::shared_ptr<ast::Module> mod;
    std::unique_ptr<Interp> in;
    EnvPtr env;
};

// Runs `src` with x, y bound to symbols; returns the text of `r` or "ERROR: message".
std::string symRun(const std::string& src, bool symInterp = true) {
    Ctx c;
    c.mod = parseModule(std::make_shared<SourceFile>("s.py", src), c.diags);
    if (c.diags.hasErrors()) return "PARSE ERROR";
    c.in = symInterp ? std::make_unique<SymInterp>(c.diags) : std::make_unique<Interp>(c.diags);
    c.env = c.in->newModuleEnv();
    c.env->vars["x"] = Value::ext(std::make_shared<Sym>("x"));
    c.env->vars["y"] = Value::ext(std::make_shared<Sym>("y"));
    try {
        c.in->execBlock(c.mod->body, c.env);
    } catch (const CompileError& e) {
        return "ERROR: " + e.diag.message;
    }
    return Sym::show(*c.env->findLocal("r"));
}

}  // namespace

TEST(MetaEvalExtTest, OperatorsDispatchToExtValue) {
    EXPECT_EQ(symRun("r = x * 2 + 1"), "((x * 2) + 1)");
    EXPECT_EQ(symRun("r = 1 - x"), "(1 - x)");
    EXPECT_EQ(symRun("r = -x // y"), "(-x // y)");
    EXPECT_EQ(symRun("r = x < 4"), "(x < 4)");
    EXPECT_EQ(symRun("r = 0 <= x < 8"), "((0 <= x) and (x < 8))");
    EXPECT_EQ(symRun("r = x if y > 0 else 0"), "select((y > 0), x, 0)");
    EXPECT_EQ(symRun("r = x[y * 2, 3]"), "x[(y * 2), 3]");
    EXPECT_EQ(symRun("r = x.shape[1]"), "8");
    EXPECT_EQ(symRun("r = x(1, 2)"), "x(2 args)");
}

TEST(MetaEvalExtTest, ExtValuesFlowThroughUserCodeAndBuiltins) {
    EXPECT_EQ(symRun("import tilelang.language as T\nr = T.ceildiv(x, 128)"),
              "(((x + 128) - 1) // 128)");
    EXPECT_EQ(symRun("def idx(i, j, ld=64):\n    return i * ld + j\nr = idx(x, y)"),
              "((x * 64) + y)");
    EXPECT_EQ(symRun("r = sum([x, y, 1])"), "(((0 + x) + y) + 1)");
    EXPECT_EQ(symRun("r = [v * 2 for v in (x, y)][1]"), "(y * 2)");
    EXPECT_EQ(symRun("d = {x: 1}\nr = d[x]"), "1");  // identity keys
}

TEST(MetaEvalExtTest, RunTimeConditionsAreErrorsInPlainInterp) {
    EXPECT_EQ(symRun("if x > 0:\n    r = 1\n", false).substr(0, 32),
              "ERROR: this condition is a Sym k");
    EXPECT_EQ(symRun("r = x and y", false).substr(0, 35), "ERROR: 'and' needs a value known at");
    EXPECT_EQ(symRun("r = max(x, y)", false), "ERROR: max() of a value known only at run time");
    EXPECT_EQ(symRun("r = int(x)", false),
              "ERROR: int() argument must be a string or a number, not 'Sym'");
    EXPECT_EQ(symRun("r = x.nope", false), "ERROR: 'Sym' object has no attribute 'nope'");
}
