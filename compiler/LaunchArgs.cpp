// resolveLaunch / bindLaunch: scalar arguments -> concrete shapes and grid (LaunchArgs.h).
#include "compiler/LaunchArgs.h"

#include <cmath>
#include <set>

#include "compiler/frontend/Module.h"
#include "compiler/ir/IR.h"
#include "compiler/ir/Intrinsics.h"
#include "compiler/ir/ViewBases.h"
#include "compiler/ops/Registry.h"
#include "compiler/support/HostTensor.h"

namespace ts {
namespace {

using ir::BinOp;

int64_t floorDiv(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

struct Evaluator {
    const ir::PrimFuncNode& f;
    const std::vector<double>& values;

    std::optional<double> eval(const ir::Expr& e) const {
        using namespace ir;
        switch (e->kind) {
            case ExprKind::IntImm: return static_cast<double>(as<IntImmNode>(e)->value);
            case ExprKind::FloatImm: return as<FloatImmNode>(e)->value;
            case ExprKind::Var:
                for (size_t i = 0; i < f.scalars.size() && i < values.size(); ++i)
                    if (f.scalars[i].get() == e.get()) return values[i];
                return std::nullopt;
            case ExprKind::Cast: {
                auto v = eval(as<CastNode>(e)->value);
                if (!v) return v;
                return isFloat(e->dtype) ? *v : std::trunc(*v);
            }
            case ExprKind::Unary: {
                auto* n = as<UnaryNode>(e);
                auto v = eval(n->a);
                if (!v) return v;
                if (n->op == UnOp::Neg) return -*v;
                if (n->op == UnOp::Not) return double(*v == 0);
                return double(~static_cast<int64_t>(*v));
            }
            case ExprKind::Select: {
                auto* n = as<SelectNode>(e);
                auto c = eval(n->cond);
                if (!c) return c;
                return eval(*c != 0 ? n->t : n->f);
            }
            case ExprKind::Binary: return binary(*as<BinaryNode>(e));
            default: return std::nullopt;
        }
    }

    std::optional<double> binary(const ir::BinaryNode& n) const {
        auto a = eval(n.a), b = eval(n.b);
        if (!a || !b) return std::nullopt;
        bool isInt = !ir::isFloat(n.a->dtype) && !ir::isFloat(n.b->dtype);
        auto ia = static_cast<int64_t>(*a), ib = static_cast<int64_t>(*b);
        switch (n.op) {
            case BinOp::Add: return *a + *b;
            case BinOp::Sub: return *a - *b;
            case BinOp::Mul: return *a * *b;
            case BinOp::Div:
                if (*b == 0) return std::nullopt;
                return isInt ? double(floorDiv(ia, ib)) : *a / *b;
            case BinOp::FloorDiv:
                if (*b == 0) return std::nullopt;
                return isInt ? double(floorDiv(ia, ib)) : std::floor(*a / *b);
            case BinOp::FloorMod:
                if (*b == 0) return std::nullopt;
                return isInt ? double(ia - floorDiv(ia, ib) * ib) : *a - std::floor(*a / *b) * *b;
            case BinOp::Min: return std::min(*a, *b);
            case BinOp::Max: return std::max(*a, *b);
            case BinOp::Pow: return std::pow(*a, *b);
            case BinOp::Eq: return double(*a == *b);
            case BinOp::Ne: return double(*a != *b);
            case BinOp::Lt: return double(*a < *b);
            case BinOp::Le: return double(*a <= *b);
            case BinOp::Gt: return double(*a > *b);
            case BinOp::Ge: return double(*a >= *b);
            case BinOp::And: return double(*a != 0 && *b != 0);
            case BinOp::Or: return double(*a != 0 || *b != 0);
            case BinOp::BitAnd: return double(ia & ib);
            case BinOp::BitOr: return double(ia | ib);
            case BinOp::BitXor: return double(ia ^ ib);
            case BinOp::Shl: return double(ia << ib);
            case BinOp::Shr: return double(ia >> ib);
        }
        return std::nullopt;
    }
};

/// The default value of a scalar without --param (LaunchArgs.h).
double defaultValue(const ScalarArg& s) {
    if (s.dtype == ir::DType::Bool) return 1;
    if (ir::isFloat(s.dtype)) return 1.0;
    return static_cast<double>(kDefaultSymbolicSize);
}

/// By-value scalars (and sizes no tensor defines) from --param or the defaults.
bool byValue(const KernelInfo& k, LaunchValues& lv, std::vector<bool>& known, std::string& error) {
    for (size_t i = 0; i < k.scalars.size(); ++i) {
        const ScalarArg& s = k.scalars[i];
        if (known[i]) continue;
        if (s.value.empty()) {
            lv.scalars[i] = defaultValue(s);
            const std::string shown = ir::isFloat(s.dtype)         ? "1.0"
                                      : s.dtype == ir::DType::Bool ? "True"
                                                                   : std::to_string(kDefaultSymbolicSize);
            lv.notes.push_back(s.name + " = " + shown + " (default; set it with --param " +
                               s.name + "=VALUE)");
        } else {
            fe::Value v = fe::parseParamValue(s.value);
            if (!v.isNumber()) {
                error = "--param " + s.name + "=" + s.value + ": '" + s.name +
                        "' is a scalar kernel argument (" + std::string(ir::dtypeName(s.dtype)) +
                        ") and needs a number";
                return false;
            }
            double x = v.asFloat();
            if (!ir::isFloat(s.dtype) && x != std::trunc(x)) {
                error = "--param " + s.name + "=" + s.value + ": '" + s.name + "' is " +
                        std::string(ir::dtypeName(s.dtype)) + " and needs an integer";
                return false;
            }
            // An integer the argument's type cannot hold: the GPU launch would pass another value
            // than the interpreters use (int32 n = 99999999999 ran as 1e11 there, helper-117);
            // int64 past 2^53 is not exact in the float64 the values travel as.
            // A bool takes 0 or 1 (flag=2 was True on the GPU and 2 in the reference, helper-119).
            if (s.dtype == ir::DType::Bool && x != 0 && x != 1) {
                error = "--param " + s.name + "=" + s.value + ": '" + s.name + "' is bool: give 0/1 (or False/True)";
                return false;
            }
            if (!ir::isFloat(s.dtype) && s.dtype != ir::DType::Bool) {
                const bool exact64 = ir::dtypeBits(s.dtype) < 64 || std::fabs(x) <= 9007199254740992.0;
                if (roundTo(s.dtype, x) != x || !exact64) {
                    error = "--param " + s.name + "=" + s.value + ": '" + s.name + "' is " + std::string(ir::dtypeName(s.dtype)) +
                            (exact64 ? ", which does not hold " + s.value : ", exact as a launch value only up to 2^53 (9007199254740992)");
                    return false;
                }
            }
            lv.scalars[i] = x;
            lv.notes.push_back(s.name + " = " + s.value + " (--param)");
        }
        if (s.tensor >= 0 && lv.scalars[i] < 1) {
            error = "symbolic size '" + s.name + "' = " + s.value + " must be at least 1";
            return false;
        }
        known[i] = true;
    }
    return true;
}

/// Views of kernel tensors (T.view(A, shape, dtype)) whose extents use scalar arguments: the bytes
/// they cover are known only now. A view of another dtype must cover its tensor's bytes exactly
/// (TileLang asserts it; the interpreters check it at the first access), one of the same dtype
/// must fit in it: the generated code would read and write past the tensor otherwise.
bool checkSymbolicViews(const ir::PrimFunc& f, const Evaluator& ev, const LaunchValues& lv, std::string& error, Span* errorAt) {
    std::set<const ir::BufferNode*> seen;
    std::string bad;
    Span badAt;
    auto check = [&](const ir::BufferNode* b) {
        if (!bad.empty() || !b || !seen.insert(b).second) return;
        const ir::BufferNode* base = ir::viewBase(*f, *b);
        if (!base) return;
        bool symbolic = false;
        for (auto& e : b->shape) symbolic |= !ir::as<ir::IntImmNode>(e);
        if (!symbolic) return;  // constant extents were checked when it compiled
        size_t pi = 0;
        while (pi < f->params.size() && f->params[pi].get() != base) ++pi;
        if (pi >= lv.shapes.size()) return;
        int64_t viewNumel = 1, baseNumel = 1;
        std::string shape;
        for (auto& e : b->shape) {
            auto x = ev.eval(e);
            if (!x) return;  // an extent the launch cannot evaluate (reads memory): the interpreters check it
            const auto v = static_cast<int64_t>(*x);
            shape += (shape.empty() ? "" : ", ") + std::to_string(v);
            if (v < 0) {
                bad = "view '" + b->name + "' (line " + std::to_string(b->span.line) + ") has a negative extent " + std::to_string(v) +
                      " for these sizes";
                badAt = b->span;
                return;
            }
            viewNumel *= v;
        }
        for (int64_t d : lv.shapes[pi]) baseNumel *= d;
        const int64_t viewBits = viewNumel * ir::dtypeBits(b->dtype), baseBits = baseNumel * ir::dtypeBits(base->dtype);
        const std::string where = "view '" + b->name + "' (line " + std::to_string(b->span.line) + ") of shape (" + shape + ")";
        badAt = b->span;
        if (b->dtype != base->dtype && viewBits != baseBits)
            bad = where + " covers " + std::to_string(viewBits / 8) + " bytes but '" + base->name + "' has " + std::to_string(baseBits / 8) +
                  " for these sizes: a view of another dtype covers the tensor's bytes (scale the last extent by the ratio of the element sizes)";
        else if (b->dtype == base->dtype && viewNumel > baseNumel)
            bad = where + " has " + std::to_string(viewNumel) + " elements, more than '" + base->name + "' (" + std::to_string(baseNumel) +
                  ") for these sizes";
    };
    ir::walk(f->body, [&](const ir::Stmt& s) {
        if (auto* st = ir::as<ir::StoreNode>(s)) check(st->buffer.get());
    }, [&](const ir::Expr& e) {
        if (auto* l = ir::as<ir::LoadNode>(e)) check(l->buffer.get());
    });
    if (bad.empty()) return true;
    error = bad;
    if (errorAt) *errorAt = badAt;
    return false;
}

/// Shapes and grid from the scalar values; checks `given` shapes when non-null.
bool finishLaunch(const KernelInfo& k, const ir::PrimFunc& f, LaunchValues& lv,
                  const std::vector<std::vector<int64_t>>* given, std::string& error, Span* errorAt = nullptr) {
    Evaluator ev{*f, lv.scalars};
    lv.shapes.clear();
    for (size_t i = 0; i < k.args.size() && i < f->params.size(); ++i) {
        std::vector<int64_t> shape;
        const auto& b = *f->params[i];
        for (size_t d = 0; d < b.shape.size(); ++d) {
            auto x = ev.eval(b.shape[d]);
            if (!x || *x < 0) {
                error = "the extent " + ir::toString(b.shape[d]) + " of dimension " +
                        std::to_string(d) + " of '" + b.name + "' " +
                        (x ? "is negative (" + std::to_string(int64_t(*x)) + ")"
                           : "cannot be computed from the scalar arguments");
                return false;
            }
            shape.push_back(static_cast<int64_t>(*x));
            if (given && d < (*given)[i].size() && (*given)[i][d] != shape.back()) {
                std::string why = ir::toString(b.shape[d]);
                for (size_t s = 0; s < k.scalars.size(); ++s)
                    if (k.scalars[s].tensor >= 0 && b.shape[d].get() == k.scalarVars[s].get())
                        why = k.scalars[s].name + ", from '" +
                              k.args[static_cast<size_t>(k.scalars[s].tensor)].name +
                              "' dimension " + std::to_string(k.scalars[s].dim);
                error = "argument '" + b.name + "' (#" + std::to_string(i) + ") dimension " +
                        std::to_string(d) + ": expected " + std::to_string(shape.back()) + " (" +
                        why + "), got " + std::to_string((*given)[i][d]);
                return false;
            }
        }
        if (given && (*given)[i].size() != shape.size()) {
            error = "argument '" + b.name + "' (#" + std::to_string(i) + "): expected rank " +
                    std::to_string(shape.size()) + ", got rank " +
                    std::to_string((*given)[i].size());
            return false;
        }
        lv.shapes.push_back(std::move(shape));
    }
    for (int d = 0; d < 3; ++d) {
        lv.grid[d] = k.grid[d];
        if (!k.gridExtent[d]) continue;
        auto g = ev.eval(k.gridExtent[d]);
        const double limit = d == 0 ? 2147483647.0 : 65535.0;
        if (!g || *g < 1 || *g > limit) {
            error = "grid extent " + std::to_string(d) + " = " + ir::toString(k.gridExtent[d]) +
                    (g ? " is " + std::to_string(int64_t(*g)) : std::string(" cannot be computed")) +
                    " for these sizes; it must be 1.." + std::to_string(int64_t(limit));
            return false;
        }
        lv.grid[d] = static_cast<unsigned>(*g);
    }
    return checkSymbolicViews(f, ev, lv, error, errorAt);
}

}  // namespace

std::optional<double> evalScalarExpr(const ir::Expr& e, const ir::PrimFuncNode& f,
                                     const std::vector<double>& values) {
    return Evaluator{f, values}.eval(e);
}

std::vector<int> atomicOnlyOutputs(const ir::PrimFuncNode& f) {
    std::set<const ir::BufferNode*> atomic, plain;
    ir::walk(f.body, [&](const ir::Stmt& s) {
        if (auto* st = ir::as<ir::StoreNode>(s)) plain.insert(st->buffer.get());
        auto* t = ir::as<ir::TileOpNode>(s);
        if (!t) return;
        // Each op says which regions it writes and whether atomically (ops::TileOp::access).
        const ops::TileOp& op = ops::get(t->op);
        for (size_t i = 0; i < t->args.size(); ++i) {
            uint8_t acc = t->isRegion(i) ? op.access(*t, i) : uint8_t(ops::kNoAccess);
            if (acc & ops::kAtomic) atomic.insert(t->region(i).buffer.get());
            else if (acc & ops::kWrite) plain.insert(t->region(i).buffer.get());
        }
    }, [&](const ir::Expr& e) {  // return_prev atomics
        if (auto* c = ir::as<ir::CallNode>(e); c && c->op == ir::intrin::kAtomicPrev && c->args.size() >= 3)
            if (auto* l = ir::as<ir::LoadNode>(c->args[1])) atomic.insert(l->buffer.get());
    });
    ir::addViewBases(f, atomic);  // accesses through a view are accesses of its tensor
    ir::addViewBases(f, plain);
    std::vector<int> out;
    for (int i : f.outputs)
        if (i >= 0 && static_cast<size_t>(i) < f.params.size()) {
            const ir::BufferNode* b = f.params[static_cast<size_t>(i)].get();
            if (atomic.count(b) && !plain.count(b)) out.push_back(i);
        }
    return out;
}

std::optional<LaunchValues> resolveLaunch(const KernelInfo& k, const ir::PrimFunc& f,
                                          std::string& error) {
    Span unused;
    return resolveLaunch(k, f, error, unused);
}

std::optional<LaunchValues> resolveLaunch(const KernelInfo& k, const ir::PrimFunc& f, std::string& error, Span& errorAt) {
    errorAt = Span{};
    LaunchValues lv;
    lv.scalars.assign(k.scalars.size(), 0);
    std::vector<bool> known(k.scalars.size(), false);
    if (!byValue(k, lv, known, error) || !finishLaunch(k, f, lv, nullptr, error, &errorAt))
        return std::nullopt;
    return lv;
}

std::optional<LaunchValues> bindLaunch(const KernelInfo& k, const ir::PrimFunc& f,
                                       const std::vector<std::vector<int64_t>>& shapes,
                                       std::string& error) {
    if (shapes.size() != k.args.size()) {
        error = "expected " + std::to_string(k.args.size()) + " tensor arguments, got " +
                std::to_string(shapes.size());
        return std::nullopt;
    }
    LaunchValues lv;
    lv.scalars.assign(k.scalars.size(), 0);
    std::vector<bool> known(k.scalars.size(), false);
    for (size_t i = 0; i < k.scalars.size(); ++i) {
        const ScalarArg& s = k.scalars[i];
        if (s.tensor < 0) continue;
        const auto& shape = shapes[static_cast<size_t>(s.tensor)];
        if (static_cast<size_t>(s.dim) >= shape.size()) {
            error = "argument '" + k.args[static_cast<size_t>(s.tensor)].name + "' (#" +
                    std::to_string(s.tensor) + "): expected rank " +
                    std::to_string(k.args[static_cast<size_t>(s.tensor)].shape.size()) +
                    ", got rank " + std::to_string(shape.size());
            return std::nullopt;
        }
        lv.scalars[i] = static_cast<double>(shape[static_cast<size_t>(s.dim)]);
        lv.notes.push_back(s.name + " = " + std::to_string(shape[static_cast<size_t>(s.dim)]) +
                           " (from '" + k.args[static_cast<size_t>(s.tensor)].name +
                           "' dimension " + std::to_string(s.dim) + ")");
        known[i] = true;
    }
    if (!byValue(k, lv, known, error) || !finishLaunch(k, f, lv, &shapes, error))
        return std::nullopt;
    return lv;
}

}  // namespace ts
