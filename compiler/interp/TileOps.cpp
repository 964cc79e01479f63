// Tile ops of the tile-level interpreter (LANGUAGE.md §3): copy, gemm, fill, reduce, cumsum and
// atomic on whole regions. Regions are evaluated once per op into start/extent vectors and then
// walked with precomputed strides (an odometer over the outer dimensions and a tight loop over
// the innermost one), so the element paths do no allocation and no expression evaluation.
// Numeric contract: see run() in Interpreter.h.
#include <cmath>
#include <limits>

#include "compiler/analysis/HwLayouts.h"
#include "compiler/interp/Machine.h"
#include "compiler/interp/MmaModel.h"
#include "compiler/ops/Registry.h"

namespace ts::interp::detail {
using namespace ts::ir;

namespace {

/// Largest |start| of a region and largest element count of one (out-of-bounds lanes included).
constexpr int64_t kMaxIndex = int64_t(1) << 62;
constexpr int64_t kMaxRegionElements = int64_t(1) << 30;

/// One kept (extent != 1) dimension of a region.
struct Axis {
    int64_t start, extent, stride, shape;
};

/// A region with its extent-1 dimensions folded into `base` / `unitIn`.
struct FlatView {
    const BufferState* buf = nullptr;
    /// Offset of the region's first element, computed modulo 2^64: exact for every in-bounds
    /// element, meaningless (and never dereferenced) for out-of-bounds ones.
    uint64_t base = 0;
    bool unitIn = true;  ///< every squeezed dimension is in bounds
    bool empty = false;  ///< some extent is 0
    std::vector<Axis> axes;
    std::vector<int64_t> extents() const {
        std::vector<int64_t> e;
        for (auto& a : axes) e.push_back(a.extent);
        return e;
    }
};

FlatView flatten(const RegionView& r) {
    FlatView f;
    f.buf = r.buf;
    for (size_t d = 0; d < r.ext.size(); ++d) {
        int64_t stride = r.buf->strides[d], shape = r.buf->shape[d];
        f.base += static_cast<uint64_t>(r.start[d]) * static_cast<uint64_t>(stride);
        if (r.ext[d] == 0) f.empty = true;
        if (r.ext[d] == 1)
            f.unitIn &= r.start[d] >= 0 && r.start[d] < shape;
        else
            f.axes.push_back({r.start[d], r.ext[d], stride, shape});
    }
    return f;
}

/// Walks two flat views of equal extents in row-major order:
/// fn(srcOffset, srcInBounds, dstOffset, dstInBounds). Offsets of out-of-bounds elements are
/// meaningless and must not be dereferenced.
template <class F>
void forEachPair(const FlatView& s, const FlatView& d, F&& fn) {
    if (s.empty || d.empty) return;
    size_t n = s.axes.size();
    if (n == 0) {
        fn(int64_t(s.base), s.unitIn, int64_t(d.base), d.unitIn);
        return;
    }
    const Axis &si = s.axes[n - 1], &di = d.axes[n - 1];
    int64_t E = si.extent;
    int64_t sLo = std::max<int64_t>(0, -si.start), sHi = std::min<int64_t>(E, si.shape - si.start);
    int64_t dLo = std::max<int64_t>(0, -di.start), dHi = std::min<int64_t>(E, di.shape - di.start);
    std::vector<int64_t> m(n - 1, 0);
    while (true) {
        uint64_t so = s.base, dof = d.base;
        bool sIn = s.unitIn, dIn = d.unitIn;
        for (size_t a = 0; a + 1 < n; ++a) {
            const Axis &x = s.axes[a], &y = d.axes[a];
            so += uint64_t(m[a] * x.stride), dof += uint64_t(m[a] * y.stride);
            sIn &= x.start + m[a] >= 0 && x.start + m[a] < x.shape;
            dIn &= y.start + m[a] >= 0 && y.start + m[a] < y.shape;
        }
        for (int64_t j = 0; j < E; ++j)
            fn(int64_t(so + uint64_t(j * si.stride)), sIn && j >= sLo && j < sHi,
               int64_t(dof + uint64_t(j * di.stride)), dIn && j >= dLo && j < dHi);
        size_t a = n - 1;
        while (a > 0 && ++m[a - 1] == s.axes[a - 1].extent) m[--a] = 0;
        if (a == 0) return;
    }
}

template <class F>
void forEachOne(const FlatView& v, F&& fn) {
    forEachPair(v, v, [&](int64_t o, bool in, int64_t, bool) { fn(o, in); });
}

std::string regionText(const RegionView& r) {
    std::string s = r.buf->node->name + "[";
    for (size_t d = 0; d < r.ext.size(); ++d)
        s += (d ? ", " : "") + std::to_string(r.start[d]) + ":" +
             std::to_string(r.start[d] + r.ext[d]);
    return s + "]";
}

std::vector<int64_t> squeeze(const std::vector<int64_t>& e) {
    std::vector<int64_t> out;
    for (int64_t x : e)
        if (x != 1) out.push_back(x);
    return out;
}

/// A 2-D operand: element (i, j) at base + i*rs + j*cs.
struct Mat {
    int64_t rows, cols, base, rs, cs;
    double at(const double* p, int64_t i, int64_t j) const { return p[base + i * rs + j * cs]; }
};

}  // namespace

RegionView Machine::evalRegion(const TileOpNode* n, size_t i) {
    std::string op = std::string("T.") + tileOpName(n->op);
    if (!n->isRegion(i))
        fail(n->span, op + ": argument " + std::to_string(i + 1) + " must be a buffer region");
    const Region& r = n->region(i);
    RegionView v;
    v.span = r.span.valid() ? r.span : n->span;
    v.buf = &lookup(r.buffer.get(), v.span);
    if (r.ranges.size() != v.buf->shape.size())
        fail(v.span, op + ": region of '" + r.buffer->name + "' has " +
                         std::to_string(r.ranges.size()) + " ranges but the buffer has rank " +
                         std::to_string(v.buf->shape.size()));
    int64_t count = 1;
    for (auto& rg : r.ranges) {
        v.start.push_back(evalI(rg.min.get()));
        v.ext.push_back(evalI(rg.extent.get()));
        if (v.ext.back() < 0)
            fail(v.span, op + ": negative region extent " + std::to_string(v.ext.back()));
        // Bounds that keep every index computation far from int64 overflow.
        if (v.start.back() > kMaxIndex || v.start.back() < -kMaxIndex)
            fail(v.span,
                 op + ": region start " + std::to_string(v.start.back()) + " is out of range");
        if (v.ext.back() && count > kMaxRegionElements / v.ext.back())
            fail(v.span,
                 op + ": region of '" + r.buffer->name + "' is too large for the interpreter");
        count *= std::max<int64_t>(v.ext.back(), 1);
    }
    return v;
}

void Machine::requireInBounds(const RegionView& r, const char* op) const {
    for (size_t d = 0; d < r.ext.size(); ++d) {
        if (r.ext[d] == 0 || (r.start[d] >= 0 && r.start[d] + r.ext[d] <= r.buf->shape[d]))
            continue;
        std::vector<int64_t> idx = r.start;
        if (r.start[d] >= 0) idx[d] = r.buf->shape[d];
        for (size_t e = 0; e < d; ++e) idx[e] = std::max<int64_t>(idx[e], 0);
        fail(r.span, std::string("T.") + op + ": region " + regionText(r) + " reaches index " +
                         formatIndex(idx) + " outside " + scopeName(r.buf->node->scope) +
                         " buffer '" + r.buf->node->name + "' of shape " +
                         formatShape(r.buf->shape));
    }
}

void Machine::execTileOp(const TileOpNode* n) {
    // What a tile op means is its ops::TileOp's interpret (compiler/ops/); the built-in ones call
    // the tile* functions below.
    if (const ops::TileOp* op = ops::find(n->op)) return op->interpret(*this, *n);
    fail(n->span, "malformed IR: unknown tile op");
}

void Machine::tileCopy(const TileOpNode* n) {
    RegionView src = evalRegion(n, 0), dst = evalRegion(n, 1);
    FlatView s = flatten(src), d = flatten(dst);
    if (s.extents() != d.extents())
        fail(n->span, "T.copy: source " + regionText(src) + " has shape " +
                          formatShape(s.extents()) + " but destination " + regionText(dst) +
                          " has shape " + formatShape(d.extents()) +
                          " (extent-1 dimensions dropped)");
    const double* sp = src.buf->data;
    double* dp = dst.buf->data;
    DType dt = dst.buf->dtype;
    bool convert = dt != src.buf->dtype && dt != DType::Float64;
    if (src.buf == dst.buf) {  // possibly overlapping: read everything first
        m_scratchA.clear();
        forEachPair(s, d, [&](int64_t so, bool si, int64_t, bool) {
            m_scratchA.push_back(si ? sp[so] : 0.0);
        });
        size_t k = 0;
        forEachPair(s, d, [&](int64_t, bool, int64_t dof, bool di) {
            double v = m_scratchA[k++];
            if (di) dp[dof] = v;
        });
        return;
    }
    forEachPair(s, d, [&](int64_t so, bool si, int64_t dof, bool di) {
        if (!di) return;
        double v = si ? sp[so] : 0.0;
        dp[dof] = convert ? roundValue(dt, v) : v;
    });
}

void Machine::tileGemm(const TileOpNode* n) {
    const char* names[3] = {"A", "B", "C"};
    RegionView r[3];
    Mat m[3];
    for (int i = 0; i < 3; ++i) {
        r[i] = evalRegion(n, i);
        size_t rank = r[i].ext.size();
        if (rank < 2)
            fail(r[i].span, std::string("T.gemm: ") + names[i] + " (" + regionText(r[i]) +
                                ") must be a 2-D tile");
        for (size_t d = 0; d + 2 < rank; ++d)
            if (r[i].ext[d] != 1)
                fail(r[i].span, std::string("T.gemm: ") + names[i] + " region " + regionText(r[i]) +
                                    " must be 2-D (leading dimensions of extent 1)");
        requireInBounds(r[i], "gemm");
        int64_t base = 0;
        for (size_t d = 0; d < rank; ++d) base += r[i].start[d] * r[i].buf->strides[d];
        m[i] = {r[i].ext[rank - 2], r[i].ext[rank - 1], base, r[i].buf->strides[rank - 2],
                r[i].buf->strides[rank - 1]};
    }
    bool ta = attrBool(n->attrs, "transpose_A", false),
         tb = attrBool(n->attrs, "transpose_B", false);
    if (ta) std::swap(m[0].rows, m[0].cols), std::swap(m[0].rs, m[0].cs);
    if (tb) std::swap(m[1].rows, m[1].cols), std::swap(m[1].rs, m[1].cs);
    int64_t M = m[0].rows, K = m[0].cols, N = m[1].cols;
    if (m[1].rows != K || m[2].rows != M || m[2].cols != N)
        fail(n->span, "T.gemm: shapes do not match: op(A) is " +
                          formatShape(std::vector<int64_t>{M, K}) + ", op(B) is " +
                          formatShape(std::vector<int64_t>{m[1].rows, N}) + ", C is " +
                          formatShape(std::vector<int64_t>{m[2].rows, m[2].cols}));
    const double *ap = r[0].buf->data, *bp = r[1].buf->data;
    double* cp = r[2].buf->data;
    // The mma atom's operand rounding and per-instruction accumulator rounding (MmaModel.h);
    // dtype pairs without an atom (e.g. float64, only on this interpreter) round once.
    const DType abt = r[0].buf->dtype, ct = r[2].buf->dtype;
    auto atom = r[1].buf->dtype == abt ? analysis::selectMmaAtom(abt, ct, nullptr) : std::nullopt;
    const int64_t kStep = atom ? atom->k : K;
    m_scratchA.resize(static_cast<size_t>(M * K));
    m_scratchB.resize(static_cast<size_t>(K * N));  // B as N x K: both dot operands contiguous
    for (int64_t i = 0; i < M; ++i)
        for (int64_t k = 0; k < K; ++k)
            m_scratchA[i * K + k] = analysis::mmaOperandValue(abt, m[0].at(ap, i, k));
    for (int64_t k = 0; k < K; ++k)
        for (int64_t j = 0; j < N; ++j)
            m_scratchB[j * K + k] = analysis::mmaOperandValue(abt, m[1].at(bp, k, j));
    bool clear = attrBool(n->attrs, "clear_accum", false);
    for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j) {
            double& c = cp[m[2].base + i * m[2].rs + j * m[2].cs];
            c = mmaAccumulate(clear ? 0.0 : c, m_scratchA.data() + i * K, 1,
                              m_scratchB.data() + j * K, 1, K, kStep, ct);
        }
}

void Machine::tileFill(const TileOpNode* n) {
    RegionView dst = evalRegion(n, 0);
    requireInBounds(dst, "fill");
    double v = 0.0;
    if (n->args.size() >= 2) {
        if (n->isRegion(1)) fail(n->span, "T.fill: the value must be a scalar expression");
        v = evalValue(std::get<Expr>(n->args[1]).get());
    }
    v = roundValue(dst.buf->dtype, v);
    double* dp = dst.buf->data;
    forEachOne(flatten(dst), [&](int64_t o, bool) { dp[o] = v; });
}

void Machine::tileReduce(const TileOpNode* n) {
    RegionView src = evalRegion(n, 0), dst = evalRegion(n, 1);
    requireInBounds(src, "reduce");
    requireInBounds(dst, "reduce");
    std::string op = attrStr(n->attrs, "op", "sum");
    if (op != "sum" && op != "max" && op != "min" && op != "absmax" && op != "abssum")
        fail(n->span, "T.reduce: unknown reduction '" + op + "' (sum, max, min, absmax, abssum)");
    int64_t rank = static_cast<int64_t>(src.ext.size()), dim = attrInt(n->attrs, "dim", -1);
    if (dim < 0) dim += rank;
    if (dim < 0 || dim >= rank)
        fail(n->span, "T.reduce_" + op + ": dim " + std::to_string(attrInt(n->attrs, "dim", -1)) +
                          " is out of range for a " + std::to_string(rank) + "-D source");
    std::vector<int64_t> expect = src.ext;
    expect.erase(expect.begin() + dim);
    if (squeeze(expect) != squeeze(dst.ext))
        fail(n->span, "T.reduce_" + op + ": destination " + regionText(dst) + " must have shape " +
                          formatShape(expect) + " (source " + formatShape(src.ext) +
                          " without dim " + std::to_string(dim) + ")");
    RegionView outer = src;
    int64_t len = src.ext[dim], stride = src.buf->strides[dim];
    outer.ext[dim] = 1;
    const double* sp = src.buf->data;
    double init = op == "max"   ? -std::numeric_limits<double>::infinity()
                  : op == "min" ? std::numeric_limits<double>::infinity()
                                : 0.0;
    // nan_propagate=True: a NaN wins (TileLang's MaxOpNan); otherwise max/min skip it (fmax).
    const bool nanProp = attrBool(n->attrs, "nan_propagate", false);
    auto combine = [&](double acc, double x) {
        if (op == "sum" || op == "abssum") return acc + x;
        if (nanProp && (std::isnan(acc) || std::isnan(x))) return std::isnan(acc) ? acc : x;
        return op == "min" ? std::fmin(acc, x) : std::fmax(acc, x);
    };
    const bool abs = op == "absmax" || op == "abssum";
    m_scratchA.clear();
    forEachOne(flatten(outer), [&](int64_t base, bool) {
        double acc = init;
        for (int64_t k = 0; k < len; ++k) {
            double x = sp[base + k * stride];
            acc = combine(acc, abs ? std::fabs(x) : x);
        }
        m_scratchA.push_back(acc);
    });
    bool clear = attrBool(n->attrs, "clear", true);
    double* dp = dst.buf->data;
    DType dt = dst.buf->dtype;
    size_t k = 0;
    forEachOne(flatten(dst), [&](int64_t o, bool) {
        double v = m_scratchA[k++];
        if (!clear) v = combine(dp[o], v);
        dp[o] = roundValue(dt, v);
    });
}

void Machine::tileCumsum(const TileOpNode* n) {
    RegionView src = evalRegion(n, 0), dst = n->args.size() >= 2 ? evalRegion(n, 1) : src;
    requireInBounds(src, "cumsum");
    requireInBounds(dst, "cumsum");
    if (src.ext != dst.ext)
        fail(n->span, "T.cumsum: source " + regionText(src) + " and destination " +
                          regionText(dst) + " differ in shape");
    int64_t rank = static_cast<int64_t>(src.ext.size()), dim = attrInt(n->attrs, "dim", 0);
    if (dim < 0) dim += rank;
    if (dim < 0 || dim >= rank)
        fail(n->span, "T.cumsum: dim " + std::to_string(attrInt(n->attrs, "dim", 0)) +
                          " is out of range for a " + std::to_string(rank) + "-D tile");
    bool reverse = attrBool(n->attrs, "reverse", false);
    int64_t len = src.ext[dim], ss = src.buf->strides[dim], ds = dst.buf->strides[dim];
    RegionView so = src, dso = dst;
    so.ext[dim] = dso.ext[dim] = 1;
    const double* sp = src.buf->data;
    m_scratchA.clear();  // every line read before anything is written: src and dst may alias
    forEachOne(flatten(so), [&](int64_t base, bool) {
        for (int64_t k = 0; k < len; ++k) m_scratchA.push_back(sp[base + k * ss]);
    });
    double* dp = dst.buf->data;
    DType dt = dst.buf->dtype;
    size_t line = 0;
    forEachOne(flatten(dso), [&](int64_t base, bool) {
        const double* vals = m_scratchA.data() + line * len;
        double acc = 0.0;
        for (int64_t k = 0; k < len; ++k) {
            int64_t kk = reverse ? len - 1 - k : k;
            acc += vals[kk];
            dp[base + kk * ds] = roundValue(dt, acc);
        }
        ++line;
    });
}

void Machine::tileAtomic(const TileOpNode* n) {
    RegionView dst = evalRegion(n, 0);
    std::string op = attrStr(n->attrs, "op", "add");
    if (op != "add" && op != "max" && op != "min")
        fail(n->span, "T.atomic_" + op + ": unknown atomic operation");
    if (n->args.size() < 2) fail(n->span, "T.atomic_" + op + ": missing value");
    DType dt = dst.buf->dtype;
    double* dp = dst.buf->data;
    auto combine = [&](double& d, double v) {
        v = roundValue(dt, v);  // the value is converted to dst's dtype first, as the device does
        d = roundValue(dt, op == "add" ? d + v : op == "max" ? std::fmax(d, v) : std::fmin(d, v));
    };
    FlatView d = flatten(dst);
    if (!n->isRegion(1)) {
        double v = evalValue(std::get<Expr>(n->args[1]).get());
        // Outside T.Parallel every thread of the block issues the atomic on one element (as the
        // lowered code and TileLang do); inside, each iteration is one thread's. Into a region of
        // several elements the value is broadcast: each element once (TileLang's tile-region form).
        int64_t elems = 1;
        for (auto e : d.extents()) elems *= e;
        const int64_t issuers = m_parallelDepth > 0 || elems > 1 ? 1 : m_blockThreads;
        forEachOne(d, [&](int64_t o, bool in) {
            for (int64_t t = 0; in && t < issuers; ++t) combine(dp[o], v);
        });
        return;
    }
    RegionView src = evalRegion(n, 1);
    FlatView s = flatten(src);
    if (s.extents() != d.extents())
        fail(n->span, "T.atomic_" + op + ": value " + regionText(src) + " has shape " +
                          formatShape(s.extents()) + " but destination " + regionText(dst) +
                          " has shape " + formatShape(d.extents()));
    const double* sp = src.buf->data;
    m_scratchA.clear();  // read first: value and destination may be the same buffer
    forEachPair(s, d, [&](int64_t so, bool si, int64_t, bool) {
        m_scratchA.push_back(si ? sp[so] : std::nan(""));
    });
    size_t k = 0;
    forEachPair(s, d, [&](int64_t, bool si, int64_t dof, bool di) {
        double v = m_scratchA[k++];
        if (si && di) combine(dp[dof], v);
    });
}

}  // namespace ts::interp::detail
