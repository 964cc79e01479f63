// Helpers for the interpreter tests (InterpGemmTest, InterpOpsTest, InterpErrorTest): terse
// constructors for tile-level IR (buffers, regions, tile ops, kernels, functions) on top of the
// ir Builder, seeded random host tensors, and the error metrics the tests assert on. Kept in one
// header so each test reads like the TileLang program it mirrors.
#pragma once
#include <cmath>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "compiler/interp/Interpreter.h"
#include "compiler/ir/IR.h"
#include "compiler/support/HostTensor.h"

/// Asserts that an InterpResult is ok, printing the diagnostic otherwise.
#define ASSERT_INTERP_OK(r) \
    ASSERT_TRUE((r).ok) << ((r).error ? (r).error->message : std::string("no diagnostic"))

namespace interp_test {

using namespace ts::ir;
using ts::HostTensor;
using ts::Span;

/// Buffer with constant extents.
inline Buffer buffer(std::string name, std::vector<int64_t> shape, DType t,
                     Scope sc = Scope::Global, Span sp = {}) {
    std::vector<Expr> ext;
    for (int64_t e : shape) ext.push_back(intImm(e));
    return std::make_shared<BufferNode>(std::move(name), t, std::move(ext), sc, sp);
}
inline Buffer shared(std::string n, std::vector<int64_t> s, DType t) {
    return buffer(std::move(n), std::move(s), t, Scope::Shared);
}
inline Buffer fragment(std::string n, std::vector<int64_t> s, DType t) {
    return buffer(std::move(n), std::move(s), t, Scope::Fragment);
}

inline Expr ci(int64_t v) { return intImm(v); }

/// Region buffer[min0 : min0+ext0, ...].
inline Region region(Buffer b, std::vector<std::pair<Expr, int64_t>> r, Span sp = {}) {
    Region out{b, {}, sp};
    for (auto& [mn, ext] : r) out.ranges.push_back({mn, intImm(ext)});
    return out;
}
/// The whole buffer as a region.
inline Region whole(const Buffer& b) {
    Region out{b, {}, {}};
    for (auto& e : b->shape) out.ranges.push_back({intImm(0), e});
    return out;
}

inline Stmt alloc(Buffer b, Expr init = nullptr) {
    return std::make_shared<AllocNode>(std::move(b), std::move(init), Span{});
}
inline Stmt tileOp(TileOpKind k, std::vector<TileArg> args, Attrs a = {}, Span sp = {}) {
    return std::make_shared<TileOpNode>(k, std::move(args), std::move(a), sp);
}
inline Stmt copy(Region src, Region dst) { return tileOp(TileOpKind::Copy, {src, dst}); }
inline Stmt gemm(Region a, Region b, Region c, bool ta = false, bool tb = false,
                 bool clear = false) {
    return tileOp(TileOpKind::Gemm, {a, b, c},
                  {{"transpose_A", ta}, {"transpose_B", tb}, {"clear_accum", clear}});
}
inline Stmt clear(const Buffer& b) {
    return tileOp(TileOpKind::Fill, {whole(b), floatImm(0.0)}, {{"clear", true}});
}
inline Stmt reduce(const std::string& op, Region src, Region dst, int64_t dim, bool clr = true) {
    return tileOp(TileOpKind::Reduce, {src, dst}, {{"op", op}, {"dim", dim}, {"clear", clr}});
}

/// `with T.Kernel(grid...) as (vars...)` (vars: one BlockIdx var per grid dim).
inline Stmt kernel(std::vector<Expr> grid, std::vector<Var> vars, Stmt body,
                   int64_t threads = 128) {
    return std::make_shared<KernelNode>(
        std::move(grid), std::vector<int64_t>{threads}, std::move(vars),
        std::vector<Var>{makeVar("tx", DType::Int32, {}, VarTag::ThreadIdx, 0)}, std::move(body),
        Span{});
}
inline Var blockVar(std::string name, int axis) {
    return makeVar(std::move(name), DType::Int32, {}, VarTag::BlockIdx, axis);
}

inline PrimFunc func(std::string name, std::vector<Buffer> params, Stmt body) {
    auto f = std::make_shared<PrimFuncNode>();
    f->name = std::move(name);
    f->params = std::move(params);
    f->body = std::move(body);
    return f;
}

/// Tensor with uniform values in [lo, hi), rounded to `t`.
inline HostTensor randomTensor(DType t, std::vector<int64_t> shape, unsigned seed, double lo = -1.0,
                               double hi = 1.0) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> dist(lo, hi);
    std::vector<double> v(static_cast<size_t>(ts::numelOf(shape)));
    for (auto& x : v) x = dist(rng);
    return ts::makeHostTensor(t, std::move(shape), std::move(v));
}
/// Tensor filled with one value (e.g. NaN as poison for outputs).
inline HostTensor filledTensor(DType t, std::vector<int64_t> shape, double value) {
    HostTensor h{t, shape, {}};
    h.data.assign(static_cast<size_t>(ts::numelOf(shape)), value);
    return h;
}

/// ||a - b||_2 / ||b||_2.
inline double relL2(const std::vector<double>& a, const std::vector<double>& b) {
    double num = 0, den = 0;
    for (size_t i = 0; i < a.size() && i < b.size(); ++i)
        num += (a[i] - b[i]) * (a[i] - b[i]), den += b[i] * b[i];
    return std::sqrt(num / (den > 0 ? den : 1.0));
}
inline double maxAbs(const std::vector<double>& a, const std::vector<double>& b) {
    double m = 0;
    for (size_t i = 0; i < a.size() && i < b.size(); ++i) m = std::max(m, std::fabs(a[i] - b[i]));
    return m;
}

}  // namespace interp_test
