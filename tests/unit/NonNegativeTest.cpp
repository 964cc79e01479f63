// Non-negativity by form (compiler/ir/NonNegative.h) and which variables may be negative
// (signedScalars, compiler/ir/Functor.cpp): codegen prints C's / and % only for non-negative
// operands, lowering drops the `>= 0` half of a guard only for them, and a TMA store is chosen only
// for boxes whose start is one (CopyTma.cpp). Hand-derived truths for each form.
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/ir/Builder.h"
#include "compiler/ir/Functor.h"
#include "compiler/ir/NonNegative.h"

namespace {
using namespace ts::ir;

TEST(NonNegative, FormsOfExpressions) {
    Var k = makeVar("k"), off = makeVar("off");
    SignedVars s{off.get()};
    auto c = [](int64_t v) { return intImm(v); };
    EXPECT_TRUE(nonNegativeByForm(c(0), &s));
    EXPECT_FALSE(nonNegativeByForm(c(-1), &s));
    EXPECT_TRUE(nonNegativeByForm(binary(BinOp::Add, binary(BinOp::Mul, k, c(64)), c(8)), &s));
    EXPECT_FALSE(nonNegativeByForm(binary(BinOp::Add, k, off), &s));           // off may be -3
    EXPECT_FALSE(nonNegativeByForm(binary(BinOp::Sub, k, c(1)), &s));          // a subtraction
    EXPECT_TRUE(nonNegativeByForm(binary(BinOp::Max, off, c(0)), &s));          // max(off, 0) >= 0
    EXPECT_TRUE(nonNegativeByForm(binary(BinOp::Max, c(0), off), &s));
    EXPECT_FALSE(nonNegativeByForm(binary(BinOp::Max, off, c(-2)), &s));        // max(-5, -2) = -2
    EXPECT_FALSE(nonNegativeByForm(binary(BinOp::Min, off, c(0)), &s));         // min(-5, 0) = -5
    EXPECT_TRUE(nonNegativeByForm(binary(BinOp::Min, k, c(3)), &s));
    EXPECT_FALSE(nonNegativeByForm(off, &s));
    EXPECT_TRUE(nonNegativeByForm(off, nullptr));  // no set: every variable taken as >= 0
}

// Loop variables are as signed as their loop's start, through nesting.
TEST(NonNegative, LoopVariablesFollowTheirStart) {
    const std::string text = R"(import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32"), lo: T.int32):
    with T.Kernel(1, threads=32) as bx:
        for a in T.serial(4):
            for b in T.serial(-1, 3):
                for c in T.serial(b, 3):
                    for d in T.serial(lo, 3):
                        for e in T.serial(a, 4):
                            A[a + e] = T.cast(b + c + d, "float32")
)";
    ts::CompileOptions opts;
    opts.recordSnapshots = false;
    ts::CompileResult r = ts::compile("inline.py", text, opts);
    ASSERT_TRUE(r.elaborated);
    const PrimFunc& f = r.elaborated;
    auto signedVars = signedScalars(*f);
    std::map<std::string, bool> isSigned;
    walk(f->body, [&](const Stmt& st) {
        if (auto* l = as<ForNode>(st)) isSigned[l->var->name] = signedVars.count(l->var.get()) > 0;
    });
    EXPECT_FALSE(isSigned.at("a"));  // 0..3
    EXPECT_TRUE(isSigned.at("b"));   // from -1
    EXPECT_TRUE(isSigned.at("c"));   // from b
    EXPECT_TRUE(isSigned.at("d"));   // from the scalar argument lo
    EXPECT_FALSE(isSigned.at("e"));  // from a >= 0
    bool loArg = false;
    for (auto& v : f->scalars) loArg |= v->name == "lo" && signedVars.count(v.get());
    EXPECT_TRUE(loArg);
}

}  // namespace
