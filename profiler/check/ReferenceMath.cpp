// Elementwise math, dtype promotion, reductions, softmax and scans of reference arrays
// (ReferenceArray.h). Loops run over contiguous std::vector<double> storage; an operator is a
// template argument, so each (op, broadcast case) pair compiles to one tight loop. Reductions
// view the array as (outer, n, inner) around the reduced dim and never transpose.
#include <algorithm>
#include <cmath>
#include <limits>

#include "compiler/support/HostTensor.h"
#include "profiler/check/ReferenceArray.h"

namespace ts::rt {

using ir::DType;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

int category(DType t) { return t == DType::Bool ? 0 : ir::isFloat(t) ? 2 : 1; }

DType defaultOf(int cat) {
    return cat == 0 ? DType::Bool : cat == 1 ? DType::Int64 : DType::Float32;
}

/// How strongly an operand decides the result dtype within its category (torch: dimensioned
/// tensors > 0-d tensors > Python scalars).
int priority(const RefArray& x) { return x.weak ? 0 : x.rank() == 0 ? 1 : 2; }

RefArray result(DType t, Shape shape, std::vector<double> v) {
    return makeArray(t, std::move(shape), std::move(v));
}

/// Applies f over the broadcast of a and b.
template <class F>
std::vector<double> broadcastApply(const RefArray& a, const RefArray& b, Shape& out, F f) {
    out = broadcastShapes(a.shape, b.shape);
    const int64_t n = numelOf(out);
    std::vector<double> r(static_cast<size_t>(n));
    const double *pa = a.ptr(), *pb = b.ptr();
    double* o = r.data();
    if (a.shape == b.shape) {
        for (int64_t i = 0; i < n; ++i) o[i] = f(pa[i], pb[i]);
    } else if (b.numel() == 1 && a.shape == out) {
        const double y = pb[0];
        for (int64_t i = 0; i < n; ++i) o[i] = f(pa[i], y);
    } else if (a.numel() == 1 && b.shape == out) {
        const double x = pa[0];
        for (int64_t i = 0; i < n; ++i) o[i] = f(x, pb[i]);
    } else if (n > 0) {
        const Shape sa = broadcastStrides(a.shape, out), sb = broadcastStrides(b.shape, out);
        const size_t rk = out.size();
        const int64_t inner = out[rk - 1], ia = sa[rk - 1], ib = sb[rk - 1];
        std::vector<int64_t> idx(rk, 0);
        int64_t offA = 0, offB = 0;
        for (int64_t k = 0, outer = n / inner; k < outer; ++k, o += inner) {
            for (int64_t j = 0; j < inner; ++j) o[j] = f(pa[offA + j * ia], pb[offB + j * ib]);
            for (size_t d = rk - 1; d-- > 0;) {
                offA += sa[d];
                offB += sb[d];
                if (++idx[d] < out[d]) break;
                offA -= sa[d] * out[d];
                offB -= sb[d] * out[d];
                idx[d] = 0;
            }
        }
    }
    return r;
}

template <class F>
RefArray apply2(const RefArray& a, const RefArray& b, DType t, F f) {
    Shape out;
    std::vector<double> v = broadcastApply(a, b, out, f);
    if (!ir::isFloat(t) && t != DType::Bool)
        for (double& x : v) x = roundTo(t, x);
    return result(t, std::move(out), std::move(v));
}

template <class F>
RefArray apply1(const RefArray& a, DType t, F f) {
    std::vector<double> v(a.data->size());
    std::transform(a.data->begin(), a.data->end(), v.begin(), f);
    return result(t, a.shape, std::move(v));
}

double pyMod(double x, double y) {
    double r = std::fmod(x, y);
    if (r != 0 && ((r < 0) != (y < 0))) r += y;
    return r;
}

int64_t asBits(double x) { return static_cast<int64_t>(x); }

/// (outer, n, inner) view of `a` around dim d.
struct Axis {
    int64_t outer = 1, n = 1, inner = 1;
};
Axis axisOf(const Shape& s, size_t d) {
    Axis ax;
    for (size_t i = 0; i < s.size(); ++i) (i < d ? ax.outer : i == d ? ax.n : ax.inner) *= s[i];
    return ax;
}

Shape keptShape(const Shape& s, size_t d) {
    Shape r = s;
    if (!r.empty()) r[d] = 1;
    return r;
}

/// Reduces one dim (kept as extent 1) with combine(acc, x) starting from init.
template <class F>
std::vector<double> reduceDim(const RefArray& a, size_t d, double init, F combine) {
    Axis ax = axisOf(a.shape, d);
    std::vector<double> out(static_cast<size_t>(ax.outer * ax.inner), init);
    const double* p = a.ptr();
    for (int64_t o = 0; o < ax.outer; ++o) {
        double* dst = out.data() + o * ax.inner;
        const double* src = p + o * ax.n * ax.inner;
        if (ax.inner == 1) {
            double acc = init;
            for (int64_t k = 0; k < ax.n; ++k) acc = combine(acc, src[k]);
            dst[0] = acc;
        } else {
            for (int64_t k = 0; k < ax.n; ++k)
                for (int64_t i = 0; i < ax.inner; ++i)
                    dst[i] = combine(dst[i], src[k * ax.inner + i]);
        }
    }
    return out;
}

RefArray reduceOne(ReduceOp op, const RefArray& a, size_t d) {
    Shape s = keptShape(a.shape, d);
    int64_t n = a.rank() == 0 ? 1 : a.shape[d];
    RefArray src = a.rank() == 0 ? reshape(a, {1}) : a;
    if (a.rank() == 0) d = 0;
    switch (op) {
        case ReduceOp::Sum:
        case ReduceOp::Mean:
            return result(a.dtype, s,
                          reduceDim(src, d, 0.0, [](double acc, double x) { return acc + x; }));
        case ReduceOp::Prod:
            return result(a.dtype, s,
                          reduceDim(src, d, 1.0, [](double acc, double x) { return acc * x; }));
        case ReduceOp::Max:
        case ReduceOp::Min: {
            if (n == 0)
                throw RefError(std::string(op == ReduceOp::Max ? "max" : "min") +
                               ": cannot reduce over an empty dimension");
            bool mx = op == ReduceOp::Max;
            return result(a.dtype, s,
                          reduceDim(src, d, mx ? -kInf : kInf, [mx](double acc, double x) {
                              if (std::isnan(acc) || std::isnan(x)) return kNaN;
                              return mx ? std::max(acc, x) : std::min(acc, x);
                          }));
        }
        case ReduceOp::Any:
            return result(DType::Bool, s, reduceDim(src, d, 0.0, [](double acc, double x) {
                              return (acc != 0 || x != 0) ? 1.0 : 0.0;
                          }));
        case ReduceOp::All:
            return result(DType::Bool, s, reduceDim(src, d, 1.0, [](double acc, double x) {
                              return (acc != 0 && x != 0) ? 1.0 : 0.0;
                          }));
        default:
            break;
    }
    throw RefError("internal: unexpected reduction");
}

}  // namespace

DType promoteTypes(DType a, DType b) {
    if (a == b) return a;
    int ca = category(a), cb = category(b);
    if (ca != cb) return ca > cb ? a : b;
    if (ca == 0) return DType::Bool;
    if (ca == 2) {
        if (a == DType::Float64 || b == DType::Float64) return DType::Float64;
        int ba = ir::dtypeBits(a), bb = ir::dtypeBits(b);
        if (ba != bb) return ba > bb ? a : b;
        return ba == 16 ? DType::Float32 : DType::Float16;  // f16 vs bf16, e4m3 vs e5m2
    }
    bool sa = ir::isSigned(a), sb = ir::isSigned(b);
    int ba = std::max(ir::dtypeBits(a), 8), bb = std::max(ir::dtypeBits(b), 8);
    int bits = sa == sb ? std::max(ba, bb) : std::max(sa ? ba : bb, 2 * (sa ? bb : ba));
    if (!sa && !sb)
        return bits <= 8    ? DType::UInt8
               : bits <= 16 ? DType::UInt16
               : bits <= 32 ? DType::UInt32
                            : DType::UInt64;
    return bits <= 8    ? DType::Int8
           : bits <= 16 ? DType::Int16
           : bits <= 32 ? DType::Int32
                        : DType::Int64;
}

DType promote(const RefArray& a, const RefArray& b) {
    int ca = category(a.dtype), cb = category(b.dtype), c = std::max(ca, cb);
    if (ca != cb) {
        const RefArray& w = ca > cb ? a : b;
        return w.weak ? defaultOf(c) : w.dtype;
    }
    int pa = priority(a), pb = priority(b);
    if (pa != pb) {
        const RefArray& w = pa > pb ? a : b;
        return w.weak ? defaultOf(c) : w.dtype;
    }
    if (a.weak) return defaultOf(c);
    return promoteTypes(a.dtype, b.dtype);
}

RefArray binary(BinOp op, const RefArray& a, const RefArray& b) {
    DType t = promote(a, b);
    switch (op) {
        case BinOp::Add:
            return apply2(a, b, t, [](double x, double y) { return x + y; });
        case BinOp::Sub:
            return apply2(a, b, t, [](double x, double y) { return x - y; });
        case BinOp::Mul:
            return apply2(a, b, t, [](double x, double y) { return x * y; });
        case BinOp::Div:
            return apply2(a, b, ir::isFloat(t) ? t : DType::Float32,
                          [](double x, double y) { return x / y; });
        case BinOp::FloorDiv:
            return apply2(a, b, t, [](double x, double y) { return std::floor(x / y); });
        case BinOp::Mod:
            return apply2(a, b, t, pyMod);
        case BinOp::Pow:
            return apply2(a, b, t, [](double x, double y) { return std::pow(x, y); });
        case BinOp::Maximum:
            return apply2(a, b, t, [](double x, double y) {
                return std::isnan(x) || std::isnan(y) ? kNaN : std::max(x, y);
            });
        case BinOp::Minimum:
            return apply2(a, b, t, [](double x, double y) {
                return std::isnan(x) || std::isnan(y) ? kNaN : std::min(x, y);
            });
        case BinOp::FMax:
            return apply2(a, b, t, [](double x, double y) { return std::fmax(x, y); });
        case BinOp::FMin:
            return apply2(a, b, t, [](double x, double y) { return std::fmin(x, y); });
        case BinOp::Atan2:
            return apply2(a, b, ir::isFloat(t) ? t : DType::Float32,
                          [](double x, double y) { return std::atan2(x, y); });
        case BinOp::Fmod:
            return apply2(a, b, t, [](double x, double y) { return std::fmod(x, y); });
        case BinOp::Hypot:
            return apply2(a, b, ir::isFloat(t) ? t : DType::Float32, [](double x, double y) { return std::hypot(x, y); });
        case BinOp::Copysign:
            return apply2(a, b, ir::isFloat(t) ? t : DType::Float32, [](double x, double y) { return std::copysign(x, y); });
        case BinOp::Eq:
            return apply2(a, b, DType::Bool, [](double x, double y) { return x == y ? 1.0 : 0.0; });
        case BinOp::Ne:
            return apply2(a, b, DType::Bool, [](double x, double y) { return x != y ? 1.0 : 0.0; });
        case BinOp::Lt:
            return apply2(a, b, DType::Bool, [](double x, double y) { return x < y ? 1.0 : 0.0; });
        case BinOp::Le:
            return apply2(a, b, DType::Bool, [](double x, double y) { return x <= y ? 1.0 : 0.0; });
        case BinOp::Gt:
            return apply2(a, b, DType::Bool, [](double x, double y) { return x > y ? 1.0 : 0.0; });
        case BinOp::Ge:
            return apply2(a, b, DType::Bool, [](double x, double y) { return x >= y ? 1.0 : 0.0; });
        case BinOp::And:
        case BinOp::Or:
        case BinOp::Xor: {
            if (ir::isFloat(t))
                throw RefError("bitwise operations need bool or integer tensors, got " +
                               std::string(ir::dtypeName(t)));
            if (t == DType::Bool) {
                if (op == BinOp::And)
                    return apply2(
                        a, b, t, [](double x, double y) { return (x != 0 && y != 0) ? 1.0 : 0.0; });
                if (op == BinOp::Or)
                    return apply2(
                        a, b, t, [](double x, double y) { return (x != 0 || y != 0) ? 1.0 : 0.0; });
                return apply2(
                    a, b, t, [](double x, double y) { return ((x != 0) != (y != 0)) ? 1.0 : 0.0; });
            }
            if (op == BinOp::And)
                return apply2(a, b, t, [](double x, double y) {
                    return static_cast<double>(asBits(x) & asBits(y));
                });
            if (op == BinOp::Or)
                return apply2(a, b, t, [](double x, double y) {
                    return static_cast<double>(asBits(x) | asBits(y));
                });
            return apply2(a, b, t, [](double x, double y) {
                return static_cast<double>(asBits(x) ^ asBits(y));
            });
        }
        case BinOp::Shl:
        case BinOp::Shr: {
            if (ir::isFloat(t) || t == DType::Bool)
                throw RefError("shifts need integer tensors, got " + std::string(ir::dtypeName(t)));
            if (op == BinOp::Shl)
                return apply2(a, b, t, [](double x, double y) {
                    const int64_t n = asBits(y);
                    return n < 0 || n >= 64 ? 0.0 : static_cast<double>(static_cast<int64_t>(static_cast<uint64_t>(asBits(x)) << n));
                });
            return apply2(a, b, t, [](double x, double y) {
                const int64_t v = asBits(x), n = asBits(y);
                return static_cast<double>(n < 0 || n >= 64 ? (v < 0 ? -1 : 0) : v >> n);
            });
        }
    }
    throw RefError("internal: unexpected binary op");
}

RefArray unary(UnOp op, const RefArray& a) {
    const DType same = a.dtype, fl = ir::isFloat(a.dtype) ? a.dtype : DType::Float32;
    switch (op) {
        case UnOp::Neg:
            return apply1(a, same == DType::Bool ? DType::Int64 : same,
                          [](double x) { return -x; });
        case UnOp::Abs:
            return apply1(a, same, [](double x) { return std::fabs(x); });
        case UnOp::Exp:
            return apply1(a, fl, [](double x) { return std::exp(x); });
        case UnOp::Exp2:
            return apply1(a, fl, [](double x) { return std::exp2(x); });
        case UnOp::Expm1:
            return apply1(a, fl, [](double x) { return std::expm1(x); });
        case UnOp::Log:
            return apply1(a, fl, [](double x) { return std::log(x); });
        case UnOp::Log2:
            return apply1(a, fl, [](double x) { return std::log2(x); });
        case UnOp::Log10:
            return apply1(a, fl, [](double x) { return std::log10(x); });
        case UnOp::Log1p:
            return apply1(a, fl, [](double x) { return std::log1p(x); });
        case UnOp::Sqrt:
            return apply1(a, fl, [](double x) { return std::sqrt(x); });
        case UnOp::Rsqrt:
            return apply1(a, fl, [](double x) { return 1.0 / std::sqrt(x); });
        case UnOp::Sigmoid:
            return apply1(a, fl, [](double x) { return 1.0 / (1.0 + std::exp(-x)); });
        case UnOp::Tanh:
            return apply1(a, fl, [](double x) { return std::tanh(x); });
        case UnOp::Sin:
            return apply1(a, fl, [](double x) { return std::sin(x); });
        case UnOp::Cos:
            return apply1(a, fl, [](double x) { return std::cos(x); });
        case UnOp::Tan:
            return apply1(a, fl, [](double x) { return std::tan(x); });
        case UnOp::Asin:
            return apply1(a, fl, [](double x) { return std::asin(x); });
        case UnOp::Acos:
            return apply1(a, fl, [](double x) { return std::acos(x); });
        case UnOp::Atan:
            return apply1(a, fl, [](double x) { return std::atan(x); });
        case UnOp::Sinh:
            return apply1(a, fl, [](double x) { return std::sinh(x); });
        case UnOp::Cosh:
            return apply1(a, fl, [](double x) { return std::cosh(x); });
        case UnOp::Asinh:
            return apply1(a, fl, [](double x) { return std::asinh(x); });
        case UnOp::Acosh:
            return apply1(a, fl, [](double x) { return std::acosh(x); });
        case UnOp::Atanh:
            return apply1(a, fl, [](double x) { return std::atanh(x); });
        case UnOp::Erf:
            return apply1(a, fl, [](double x) { return std::erf(x); });
        case UnOp::Relu:
            return apply1(a, same, [](double x) { return std::isnan(x) ? x : (x > 0 ? x : 0.0); });
        case UnOp::Silu:
            return apply1(a, fl, [](double x) { return x / (1.0 + std::exp(-x)); });
        case UnOp::GeluErf:
            return apply1(a, fl,
                          [](double x) { return 0.5 * x * (1.0 + std::erf(x * M_SQRT1_2)); });
        case UnOp::GeluTanh:
            return apply1(a, fl, [](double x) {
                const double c = std::sqrt(2.0 / M_PI);
                return 0.5 * x * (1.0 + std::tanh(c * (x + 0.044715 * x * x * x)));
            });
        case UnOp::Softplus:
            return apply1(a, fl, [](double x) { return x > 20.0 ? x : std::log1p(std::exp(x)); });
        case UnOp::Floor:
            return apply1(a, same, [](double x) { return std::floor(x); });
        case UnOp::Ceil:
            return apply1(a, same, [](double x) { return std::ceil(x); });
        case UnOp::Round:
            return apply1(a, same, [](double x) { return std::nearbyint(x); });
        case UnOp::Trunc:
            return apply1(a, same, [](double x) { return std::trunc(x); });
        case UnOp::Sign:
            return apply1(a, same, [](double x) {
                return std::isnan(x) ? x : static_cast<double>((x > 0) - (x < 0));
            });
        case UnOp::Reciprocal:
            return apply1(a, fl, [](double x) { return 1.0 / x; });
        case UnOp::Square:
            return apply1(a, same == DType::Bool ? DType::Int64 : same,
                          [](double x) { return x * x; });
        case UnOp::LogicalNot:
            return apply1(a, DType::Bool, [](double x) { return x == 0 ? 1.0 : 0.0; });
        case UnOp::BitNot:
            if (ir::isFloat(a.dtype))
                throw RefError("bitwise not (~) needs a bool or integer tensor, got " +
                               std::string(ir::dtypeName(a.dtype)));
            if (a.dtype == DType::Bool)
                return apply1(a, same, [](double x) { return x == 0 ? 1.0 : 0.0; });
            return apply1(a, same, [](double x) { return -x - 1.0; });
        case UnOp::IsNan:
            return apply1(a, DType::Bool, [](double x) { return std::isnan(x) ? 1.0 : 0.0; });
        case UnOp::IsInf:
            return apply1(a, DType::Bool, [](double x) { return std::isinf(x) ? 1.0 : 0.0; });
        case UnOp::IsFinite:
            return apply1(a, DType::Bool, [](double x) { return std::isfinite(x) ? 1.0 : 0.0; });
    }
    throw RefError("internal: unexpected unary op");
}

RefArray where(const RefArray& cond, const RefArray& a, const RefArray& b) {
    Shape out = broadcastShapes(broadcastShapes(cond.shape, a.shape), b.shape);
    auto spread = [&](const RefArray& x) {
        return x.shape == out ? *x.data : gather(x.ptr(), 0, out, broadcastStrides(x.shape, out));
    };
    std::vector<double> c = spread(cond), va = spread(a), vb = spread(b);
    for (size_t i = 0; i < c.size(); ++i) c[i] = c[i] != 0 ? va[i] : vb[i];
    return result(promote(a, b), out, std::move(c));
}

RefArray clamp(const RefArray& a, std::optional<double> lo, std::optional<double> hi) {
    const double l = lo.value_or(-kInf), h = hi.value_or(kInf);
    return apply1(a, a.dtype,
                  [l, h](double x) { return std::isnan(x) ? x : std::min(std::max(x, l), h); });
}

RefArray reduce(ReduceOp op, const RefArray& a, const std::vector<int64_t>& dims, bool keepdim,
                int correction) {
    const char* name = op == ReduceOp::Mean ? "mean" : op == ReduceOp::Var ? "var" : "std";
    if ((op == ReduceOp::Mean || op == ReduceOp::Var || op == ReduceOp::Std) &&
        !ir::isFloat(a.dtype))
        throw RefError(std::string(name) + "() needs a floating-point tensor, got " +
                       std::string(ir::dtypeName(a.dtype)) + " (convert with .float() first)");
    std::vector<int64_t> ds;
    if (dims.empty()) {
        for (int64_t i = 0; i < std::max<int64_t>(a.rank(), 1); ++i) ds.push_back(i);
    } else {
        for (int64_t d : dims) ds.push_back(normDim(d, a.rank()));
    }
    std::sort(ds.begin(), ds.end());
    if (std::adjacent_find(ds.begin(), ds.end()) != ds.end())
        throw RefError("a dimension appears twice in the reduction dims");
    int64_t count = 1;
    for (int64_t d : ds) count *= a.rank() == 0 ? 1 : a.shape[static_cast<size_t>(d)];
    if (op == ReduceOp::Var || op == ReduceOp::Std) {
        RefArray mean = reduce(ReduceOp::Mean, a, ds, true);
        RefArray dev = binary(BinOp::Sub, a, mean);
        RefArray sq = reduce(ReduceOp::Sum, binary(BinOp::Mul, dev, dev), ds, keepdim);
        RefArray div = scalarArray(
            DType::Float64, static_cast<double>(std::max<int64_t>(count - correction, 0)), true);
        RefArray var = binary(BinOp::Div, sq, div);
        return op == ReduceOp::Std ? unary(UnOp::Sqrt, var) : var;
    }
    ReduceOp base = op == ReduceOp::Mean ? ReduceOp::Sum : op;
    RefArray cur = a;
    for (size_t i = ds.size(); i-- > 0;) cur = reduceOne(base, cur, static_cast<size_t>(ds[i]));
    if (op == ReduceOp::Mean) {
        double inv = 1.0 / static_cast<double>(count);
        for (double& x : *cur.data) x = count == 0 ? kNaN : x * inv;
    }
    if ((op == ReduceOp::Sum || op == ReduceOp::Prod) && !ir::isFloat(a.dtype))
        cur.dtype = DType::Int64;
    if (!keepdim) {
        Shape s;
        for (size_t i = 0; i < a.shape.size(); ++i)
            if (!std::binary_search(ds.begin(), ds.end(), static_cast<int64_t>(i)))
                s.push_back(a.shape[i]);
        cur = reshape(cur, s);
    } else if (a.rank() == 0) {
        cur = reshape(cur, {});
    }
    return cur;
}

std::pair<RefArray, RefArray> argReduce(const RefArray& a, int64_t dim, bool keepdim, bool isMax) {
    size_t d = static_cast<size_t>(normDim(dim, a.rank()));
    Shape s = a.rank() == 0 ? Shape{} : keptShape(a.shape, d);
    Axis ax = a.rank() == 0 ? Axis{} : axisOf(a.shape, d);
    if (ax.n == 0)
        throw RefError(std::string(isMax ? "max" : "min") +
                       ": cannot reduce over an empty dimension");
    std::vector<double> val(static_cast<size_t>(ax.outer * ax.inner)), idx(val.size());
    const double* p = a.ptr();
    for (int64_t o = 0; o < ax.outer; ++o)
        for (int64_t i = 0; i < ax.inner; ++i) {
            const double* src = p + o * ax.n * ax.inner + i;
            double best = src[0];
            int64_t bi = 0;
            for (int64_t k = 1; k < ax.n && !std::isnan(best); ++k) {
                double x = src[k * ax.inner];
                if (std::isnan(x) || (isMax ? x > best : x < best)) best = x, bi = k;
            }
            val[static_cast<size_t>(o * ax.inner + i)] = best;
            idx[static_cast<size_t>(o * ax.inner + i)] = static_cast<double>(bi);
        }
    RefArray v = result(a.dtype, s, std::move(val)), ix = result(DType::Int64, s, std::move(idx));
    if (!keepdim && a.rank() > 0)
        v = squeeze(v, static_cast<int64_t>(d)), ix = squeeze(ix, static_cast<int64_t>(d));
    return {v, ix};
}

RefArray logsumexp(const RefArray& a, int64_t dim, bool keepdim) {
    RefArray src = ir::isFloat(a.dtype) ? a : cast(a, DType::Float32);
    RefArray m = reduce(ReduceOp::Max, src, {dim}, true);
    for (double& x : *m.data)
        if (std::isinf(x)) x = x > 0 ? x : 0.0;  // all -inf rows: log(0) = -inf below; +inf stays
    RefArray shifted = unary(UnOp::Exp, binary(BinOp::Sub, src, m));
    RefArray lse =
        binary(BinOp::Add, unary(UnOp::Log, reduce(ReduceOp::Sum, shifted, {dim}, true)), m);
    return keepdim ? lse : squeeze(lse, dim);
}

RefArray softmax(const RefArray& a, int64_t dim, bool log) {
    size_t d = static_cast<size_t>(normDim(dim, a.rank()));
    Axis ax = a.rank() == 0 ? Axis{} : axisOf(a.shape, d);
    std::vector<double> v = *a.data;
    const size_t inner = static_cast<size_t>(ax.inner), n = static_cast<size_t>(ax.n);
    std::vector<double> mx(inner), sum(inner);
    for (int64_t o = 0; o < ax.outer; ++o) {
        double* row = v.data() + o * ax.n * ax.inner;
        if (inner == 1) {  // the common case (softmax over the last dim): one contiguous row
            double m = -kInf, s = 0;
            for (size_t k = 0; k < n; ++k)
                m = std::isnan(row[k]) || std::isnan(m) ? kNaN : std::max(m, row[k]);
            for (size_t k = 0; k < n; ++k) {
                double e = std::exp(row[k] - m);
                s += e;
                if (!log) row[k] = e;
            }
            const double inv = 1.0 / s, ls = std::log(s);
            for (size_t k = 0; k < n; ++k) row[k] = log ? row[k] - m - ls : row[k] * inv;
            continue;
        }
        std::fill(mx.begin(), mx.end(), -kInf);
        std::fill(sum.begin(), sum.end(), 0.0);
        for (size_t k = 0; k < n; ++k)
            for (size_t i = 0; i < inner; ++i) {
                double x = row[k * inner + i];
                mx[i] = std::isnan(x) || std::isnan(mx[i]) ? kNaN : std::max(mx[i], x);
            }
        for (size_t k = 0; k < n; ++k)
            for (size_t i = 0; i < inner; ++i) {
                double& x = row[k * inner + i];
                double e = std::exp(x - mx[i]);
                sum[i] += e;
                if (!log) x = e;
            }
        for (size_t k = 0; k < n; ++k)
            for (size_t i = 0; i < inner; ++i) {
                double& x = row[k * inner + i];
                x = log ? x - mx[i] - std::log(sum[i]) : x / sum[i];
            }
    }
    return result(ir::isFloat(a.dtype) ? a.dtype : DType::Float32, a.shape, std::move(v));
}

RefArray cumulative(const RefArray& a, int64_t dim, bool product) {
    size_t d = static_cast<size_t>(normDim(dim, a.rank()));
    Axis ax = a.rank() == 0 ? Axis{} : axisOf(a.shape, d);
    std::vector<double> v = *a.data;
    for (int64_t o = 0; o < ax.outer; ++o) {
        double* row = v.data() + o * ax.n * ax.inner;
        for (int64_t k = 1; k < ax.n; ++k)
            for (int64_t i = 0; i < ax.inner; ++i) {
                double prev = row[(k - 1) * ax.inner + i];
                double& x = row[k * ax.inner + i];
                x = product ? prev * x : prev + x;
            }
    }
    DType t = ir::isFloat(a.dtype) ? a.dtype : DType::Int64;
    return result(t, a.shape, std::move(v));
}

}  // namespace ts::rt
