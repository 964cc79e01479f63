// Index-driven torch functions of references (ReferenceTorch.h): torch.gather / Tensor.gather,
// Tensor.scatter (a mask built from top-k indices, DeepSeek's sparse MLA references) and
// torch.conv2d / F.conv2d (the convolution examples' reference), all exact in float64.
#include <cstdint>
#include <string>
#include <vector>

#include "profiler/check/ReferenceTorch.h"

namespace ts::rt {

using fe::CallArgs;
using fe::Interp;
using fe::Value;
using fe::ValueKind;

namespace {

/// Row-major multi-index of flat offset `flat` in `shape`.
void unflatten(int64_t flat, const Shape& shape, std::vector<int64_t>& idx) {
    idx.assign(shape.size(), 0);
    for (size_t d = shape.size(); d-- > 0;) {
        idx[d] = flat % shape[d];
        flat /= shape[d];
    }
}

int64_t offsetOf(const std::vector<int64_t>& idx, const Shape& strides) {
    int64_t o = 0;
    for (size_t d = 0; d < idx.size(); ++d) o += idx[d] * strides[d];
    return o;
}

/// Checks `index` against `input` for gather/scatter along `dim`: same rank, index extents
/// at most input's in the other dimensions, values in range.
void checkIndex(const RefArray& input, const RefArray& index, int64_t dim, const std::string& fn) {
    if (index.rank() != input.rank())
        throw RefError(fn + ": index has rank " + std::to_string(index.rank()) + ", input " +
                       std::to_string(input.rank()));
    for (int64_t d = 0; d < input.rank(); ++d)
        if (d != dim && index.shape[size_t(d)] > input.shape[size_t(d)])
            throw RefError(fn + ": index shape " + shapeText(index.shape) +
                           " exceeds the input's " + shapeText(input.shape) + " in dimension " +
                           std::to_string(d));
}

int64_t indexValue(double v, int64_t extent, const std::string& fn) {
    int64_t i = static_cast<int64_t>(v);
    if (i < -extent || i >= extent)
        throw RefError(fn + ": index " + std::to_string(i) + " is out of bounds for size " +
                       std::to_string(extent));
    return i < 0 ? i + extent : i;
}

Value gatherFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "dim", "index"}, 3);
    RefArray x = argArray(b, 0, a.callee), index = argArray(b, 2, a.callee);
    int64_t dim = normDim(argInt(b[1], b.spans[1], "dim"), x.rank());
    checkIndex(x, index, dim, "gather");
    Shape xs = stridesOf(x.shape);
    std::vector<double> out(static_cast<size_t>(index.numel()));
    std::vector<int64_t> idx;
    for (int64_t f = 0; f < index.numel(); ++f) {
        unflatten(f, index.shape, idx);
        idx[size_t(dim)] = indexValue(index.ptr()[f], x.shape[size_t(dim)], "gather");
        out[size_t(f)] = x.ptr()[offsetOf(idx, xs)];
    }
    return wrap(makeArray(x.dtype, index.shape, std::move(out)));
}

/// Tensor.scatter(dim, index, src) with src a tensor or a number (torch's `value` overload);
/// later writes to the same place win, as on torch's CPU path.
Value scatterFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "dim", "index", "src", "value"}, 3);
    RefArray x = argArray(b, 0, a.callee), index = argArray(b, 2, a.callee);
    int64_t dim = normDim(argInt(b[1], b.spans[1], "dim"), x.rank());
    checkIndex(x, index, dim, "scatter");
    size_t srcAt = b.has(3) ? 3 : b.has(4) ? 4 : 0;
    if (!srcAt) throw CompileError(a.span, "ref_program: scatter needs src or value");
    RefArray src = argArray(b, srcAt, a.callee);
    const bool scalar = src.numel() == 1 && (src.rank() == 0 || src.weak);
    Shape xs = stridesOf(x.shape), ss = stridesOf(src.shape);
    RefArray out = makeArray(x.dtype, x.shape, *x.data);
    std::vector<int64_t> idx;
    for (int64_t f = 0; f < index.numel(); ++f) {
        unflatten(f, index.shape, idx);
        double v = scalar ? src.ptr()[0] : src.ptr()[offsetOf(idx, ss)];
        idx[size_t(dim)] = indexValue(index.ptr()[f], x.shape[size_t(dim)], "scatter");
        (*out.data)[size_t(offsetOf(idx, xs))] = v;
    }
    return wrap(cast(out, x.dtype));
}

/// An int or a pair of ints (stride=1, padding=(1, 2)).
std::pair<int64_t, int64_t> pairArg(const CallArgs::Bound& b, size_t i, int64_t fallback,
                                    const char* what) {
    if (!b.has(i)) return {fallback, fallback};
    const Value& v = b[i];
    if (v.isSequence()) {
        const auto& items = v.items();
        if (items.size() != 2)
            throw CompileError(b.spans[i], std::string("ref_program: conv2d ") + what +
                                               " must be an int or a pair");
        return {argInt(items[0], b.spans[i], what), argInt(items[1], b.spans[i], what)};
    }
    int64_t x = argInt(v, b.spans[i], what);
    return {x, x};
}

/// torch.conv2d(input (N, C, H, W), weight (F, C/groups, KH, KW), bias, stride, padding,
/// dilation, groups): zero padding, cross-correlation like torch.
Value conv2dFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "weight", "bias", "stride", "padding", "dilation", "groups"}, 2);
    RefArray x = argArray(b, 0, a.callee), w = argArray(b, 1, a.callee);
    if (x.rank() != 4 || w.rank() != 4)
        throw RefError("conv2d: input " + shapeText(x.shape) + " and weight " +
                       shapeText(w.shape) + " must both have rank 4 (N, C, H, W), (F, C, KH, KW)");
    auto [sh, sw] = pairArg(b, 3, 1, "stride");
    auto [ph, pw] = pairArg(b, 4, 0, "padding");
    auto [dh, dw] = pairArg(b, 5, 1, "dilation");
    int64_t groups = b.has(6) ? argInt(b[6], b.spans[6], "groups") : 1;
    const int64_t N = x.shape[0], C = x.shape[1], H = x.shape[2], W = x.shape[3];
    const int64_t F = w.shape[0], Cg = w.shape[1], KH = w.shape[2], KW = w.shape[3];
    if (groups < 1 || C % groups || F % groups || Cg != C / groups)
        throw RefError("conv2d: input " + shapeText(x.shape) + " and weight " +
                       shapeText(w.shape) + " do not match with groups=" + std::to_string(groups));
    if (sh < 1 || sw < 1 || dh < 1 || dw < 1 || ph < 0 || pw < 0)
        throw RefError("conv2d: stride and dilation must be >= 1, padding >= 0");
    const int64_t OH = (H + 2 * ph - dh * (KH - 1) - 1) / sh + 1;
    const int64_t OW = (W + 2 * pw - dw * (KW - 1) - 1) / sw + 1;
    if (OH < 1 || OW < 1) throw RefError("conv2d: the output would be empty");
    std::vector<double> bias;
    if (b.has(2) && !b[2].isNone()) {
        RefArray bb = argArray(b, 2, a.callee);
        if (bb.numel() != F) throw RefError("conv2d: bias has " + std::to_string(bb.numel()) +
                                            " elements for " + std::to_string(F) + " filters");
        bias.assign(bb.ptr(), bb.ptr() + F);
    }
    std::vector<double> out(static_cast<size_t>(N * F * OH * OW), 0.0);
    const double* xp = x.ptr();
    const double* wp = w.ptr();
    const int64_t Fg = F / groups;
    for (int64_t n = 0; n < N; ++n)
        for (int64_t f = 0; f < F; ++f) {
            const int64_t g = f / Fg;
            for (int64_t oh = 0; oh < OH; ++oh)
                for (int64_t ow = 0; ow < OW; ++ow) {
                    double acc = bias.empty() ? 0.0 : bias[size_t(f)];
                    for (int64_t c = 0; c < Cg; ++c)
                        for (int64_t kh = 0; kh < KH; ++kh) {
                            const int64_t ih = oh * sh - ph + kh * dh;
                            if (ih < 0 || ih >= H) continue;
                            for (int64_t kw = 0; kw < KW; ++kw) {
                                const int64_t iw = ow * sw - pw + kw * dw;
                                if (iw < 0 || iw >= W) continue;
                                acc += xp[((n * C + g * Cg + c) * H + ih) * W + iw] *
                                       wp[((f * Cg + c) * KH + kh) * KW + kw];
                            }
                        }
                    out[size_t(((n * F + f) * OH + oh) * OW + ow)] = acc;
                }
        }
    return wrap(makeArray(promote(x, w), {N, F, OH, OW}, std::move(out)));
}

}  // namespace

void addIndexFunctions(RefTable& t) {
    const uint8_t MT = kMethod | kTorch;
    t["gather"] = {gatherFn, MT};
    t["scatter"] = {scatterFn, MT};
    t["conv2d"] = {conv2dFn, kTorch | kFunctional};
}

}  // namespace ts::rt
