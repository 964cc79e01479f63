// Construction, layout and indexing of reference arrays (ReferenceArray.h). Every layout change
// is one strided gather over the source: permute, broadcast, slice, flip and tile only differ in
// the (base, strides) they hand to gather().
#include "profiler/check/ReferenceArray.h"

#include <algorithm>
#include <cmath>

#include "compiler/support/HostTensor.h"

namespace ts::rt {

using ir::DType;

int64_t RefArray::numel() const { return numelOf(shape); }

double RefArray::item() const {
    if (numel() != 1)
        throw RefError("a tensor with " + std::to_string(numel()) +
                       " elements cannot be converted to a scalar");
    return (*data)[0];
}

int64_t numelOf(const Shape& s) {
    int64_t n = 1;
    for (int64_t e : s) n *= e;
    return n;
}

std::string shapeText(const Shape& s) { return formatShape(s); }

int64_t normDim(int64_t dim, int64_t rank) {
    int64_t r = std::max<int64_t>(rank, 1);  // torch lets a 0-d tensor use dim 0 / -1
    int64_t d = dim < 0 ? dim + r : dim;
    if (d < 0 || d >= r)
        throw RefError("dimension " + std::to_string(dim) +
                       " is out of range for a tensor of rank " + std::to_string(rank) +
                       " (expected in [" + std::to_string(-r) + ", " + std::to_string(r - 1) +
                       "])");
    return d;
}

Shape stridesOf(const Shape& shape) {
    Shape st(shape.size(), 1);
    for (size_t i = shape.size(); i-- > 1;) st[i - 1] = st[i] * shape[i];
    return st;
}

Shape broadcastShapes(const Shape& a, const Shape& b) {
    size_t r = std::max(a.size(), b.size());
    Shape out(r);
    for (size_t i = 0; i < r; ++i) {
        int64_t ea = i < r - a.size() ? 1 : a[i - (r - a.size())];
        int64_t eb = i < r - b.size() ? 1 : b[i - (r - b.size())];
        if (ea != eb && ea != 1 && eb != 1)
            throw RefError("shapes " + shapeText(a) + " and " + shapeText(b) +
                           " cannot be broadcast together (dim " + std::to_string(i) + ": " +
                           std::to_string(ea) + " vs " + std::to_string(eb) + ")");
        out[i] = ea == 1 ? eb : ea;
    }
    return out;
}

Shape broadcastStrides(const Shape& aShape, const Shape& out) {
    Shape st(out.size(), 0);
    Shape own = stridesOf(aShape);
    size_t off = out.size() - aShape.size();
    for (size_t i = 0; i < aShape.size(); ++i) st[off + i] = aShape[i] == 1 ? 0 : own[i];
    return st;
}

std::vector<double> gather(const double* src, int64_t base, const Shape& outShape,
                           const Shape& strides) {
    int64_t n = numelOf(outShape);
    std::vector<double> out(static_cast<size_t>(n));
    if (n == 0) return out;
    size_t r = outShape.size();
    if (r == 0) {
        out[0] = src[base];
        return out;
    }
    const int64_t inner = outShape[r - 1], is = strides[r - 1];
    std::vector<int64_t> idx(r, 0);
    int64_t off = base;
    double* o = out.data();
    for (int64_t k = 0, outer = n / inner; k < outer; ++k) {
        const double* s = src + off;
        if (is == 1)
            std::copy(s, s + inner, o);
        else if (is == 0)
            std::fill(o, o + inner, *s);
        else
            for (int64_t j = 0; j < inner; ++j) o[j] = s[j * is];
        o += inner;
        for (size_t d = r - 1; d-- > 0;) {  // odometer over the outer dims
            off += strides[d];
            if (++idx[d] < outShape[d]) break;
            off -= strides[d] * outShape[d];
            idx[d] = 0;
        }
    }
    return out;
}

namespace {

/// Writes `values` (row-major over `shape`) to dst at the offsets (base, strides).
void scatter(double* dst, int64_t base, const Shape& shape, const Shape& strides,
             const std::vector<double>& values) {
    int64_t n = numelOf(shape);
    if (n == 0) return;
    size_t r = shape.size();
    if (r == 0) {
        dst[base] = values[0];
        return;
    }
    const int64_t inner = shape[r - 1], is = strides[r - 1];
    std::vector<int64_t> idx(r, 0);
    int64_t off = base;
    const double* v = values.data();
    for (int64_t k = 0, outer = n / inner; k < outer; ++k, v += inner) {
        for (int64_t j = 0; j < inner; ++j) dst[off + j * is] = v[j];
        for (size_t d = r - 1; d-- > 0;) {
            off += strides[d];
            if (++idx[d] < shape[d]) break;
            off -= strides[d] * shape[d];
            idx[d] = 0;
        }
    }
}

RefArray withData(DType t, Shape shape, std::vector<double> v) {
    RefArray r;
    r.dtype = t;
    r.shape = std::move(shape);
    r.data = std::make_shared<std::vector<double>>(std::move(v));
    return r;
}

/// A strided window into an array: what basic indexing selects.
struct View {
    int64_t base = 0;
    Shape shape, strides;
};

View viewOf(const RefArray& a, const std::vector<IndexItem>& items) {
    using K = IndexItem::Kind;
    size_t consumed = 0, ellipses = 0;
    for (const auto& it : items) {
        if (it.kind == K::Int || it.kind == K::Slice) ++consumed;
        if (it.kind == K::Ellipsis) ++ellipses;
    }
    if (ellipses > 1) throw RefError("an index can only have a single ellipsis ('...')");
    if (consumed > a.shape.size())
        throw RefError("too many indices for a tensor of rank " + std::to_string(a.rank()) + " (" +
                       std::to_string(consumed) + " given)");
    Shape own = stridesOf(a.shape);
    View v;
    size_t d = 0;
    auto full = [&]() {
        v.shape.push_back(a.shape[d]);
        v.strides.push_back(own[d]);
        ++d;
    };
    for (const auto& it : items) {
        switch (it.kind) {
            case K::NewAxis:
                v.shape.push_back(1);
                v.strides.push_back(0);
                break;
            case K::Ellipsis:
                for (size_t k = 0, n = a.shape.size() - consumed; k < n; ++k) full();
                break;
            case K::Int: {
                int64_t len = a.shape[d], i = it.index < 0 ? it.index + len : it.index;
                if (i < 0 || i >= len)
                    throw RefError("index " + std::to_string(it.index) +
                                   " is out of bounds for dimension " + std::to_string(d) +
                                   " with size " + std::to_string(len));
                v.base += i * own[d];
                ++d;
                break;
            }
            case K::Slice: {
                int64_t len = a.shape[d], step = it.step.value_or(1);
                if (step <= 0)
                    throw RefError(
                        "slice step must be positive (torch does not support negative steps)");
                auto clampIdx = [&](std::optional<int64_t> x, int64_t dflt) {
                    if (!x) return dflt;
                    int64_t i = *x < 0 ? *x + len : *x;
                    return std::clamp<int64_t>(i, 0, len);
                };
                int64_t lo = clampIdx(it.start, 0), hi = clampIdx(it.stop, len);
                int64_t count = hi > lo ? (hi - lo + step - 1) / step : 0;
                v.base += lo * own[d];
                v.shape.push_back(count);
                v.strides.push_back(own[d] * step);
                ++d;
                break;
            }
        }
    }
    while (d < a.shape.size()) full();
    return v;
}

}  // namespace

RefArray makeArray(DType t, Shape shape, std::vector<double> values) {
    if (static_cast<int64_t>(values.size()) != numelOf(shape))
        throw RefError("internal: " + std::to_string(values.size()) + " values for shape " +
                       shapeText(shape));
    return withData(t, std::move(shape), std::move(values));
}

RefArray fullArray(DType t, Shape shape, double v) {
    for (int64_t e : shape)
        if (e < 0) throw RefError("negative extent in shape " + shapeText(shape));
    size_t n = static_cast<size_t>(numelOf(shape));
    return withData(t, std::move(shape), std::vector<double>(n, v));
}

RefArray scalarArray(DType t, double v, bool weak) {
    RefArray r = withData(t, {}, {v});
    r.weak = weak;
    return r;
}

RefArray arangeArray(double start, double end, double step, DType t) {
    if (step == 0) throw RefError("arange: step must be nonzero");
    double n = std::ceil((end - start) / step);
    if (!(n > 0)) n = 0;
    if (n > 1e9) throw RefError("arange: too many elements");
    std::vector<double> v(static_cast<size_t>(n));
    for (size_t i = 0; i < v.size(); ++i) v[i] = start + static_cast<double>(i) * step;
    return withData(t, {static_cast<int64_t>(n)}, std::move(v));
}

RefArray eyeArray(int64_t n, int64_t m, DType t) {
    RefArray r = fullArray(t, {n, m}, 0.0);
    for (int64_t i = 0; i < std::min(n, m); ++i) (*r.data)[static_cast<size_t>(i * m + i)] = 1.0;
    return r;
}

RefArray reshape(const RefArray& a, Shape shape) {
    int64_t known = 1, infer = -1;
    for (size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == -1) {
            if (infer >= 0)
                throw RefError("only one dimension can be inferred (-1) in " + shapeText(shape));
            infer = static_cast<int64_t>(i);
        } else if (shape[i] < 0) {
            throw RefError("invalid extent " + std::to_string(shape[i]) + " in " +
                           shapeText(shape));
        } else {
            known *= shape[i];
        }
    }
    if (infer >= 0) {
        if (known == 0 || a.numel() % known != 0)
            throw RefError("shape " + shapeText(shape) + " is invalid for a tensor of " +
                           std::to_string(a.numel()) + " elements");
        shape[static_cast<size_t>(infer)] = a.numel() / known;
    } else if (known != a.numel()) {
        throw RefError("shape " + shapeText(shape) + " is invalid for a tensor of shape " +
                       shapeText(a.shape) + " (" + std::to_string(a.numel()) + " elements)");
    }
    RefArray r = a;
    r.shape = std::move(shape);
    r.weak = false;
    return r;
}

RefArray permute(const RefArray& a, std::vector<int64_t> perm) {
    if (perm.size() != a.shape.size())
        throw RefError("permute: " + std::to_string(perm.size()) +
                       " dims given for a tensor of rank " + std::to_string(a.rank()));
    std::vector<bool> seen(perm.size(), false);
    Shape own = stridesOf(a.shape), shape, strides;
    for (int64_t& p : perm) {
        p = normDim(p, a.rank());
        if (seen[static_cast<size_t>(p)])
            throw RefError("permute: dimension " + std::to_string(p) + " repeats");
        seen[static_cast<size_t>(p)] = true;
        shape.push_back(a.shape[static_cast<size_t>(p)]);
        strides.push_back(own[static_cast<size_t>(p)]);
    }
    bool identity = true;
    for (size_t i = 0; i < perm.size(); ++i) identity &= perm[i] == static_cast<int64_t>(i);
    if (identity) return a;
    return withData(a.dtype, shape, gather(a.ptr(), 0, shape, strides));
}

RefArray transpose(const RefArray& a, int64_t d0, int64_t d1) {
    if (a.rank() < 2 && (d0 == 0 || d0 == -1) && (d1 == 0 || d1 == -1)) return a;
    std::vector<int64_t> perm(a.shape.size());
    for (size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<int64_t>(i);
    std::swap(perm[static_cast<size_t>(normDim(d0, a.rank()))],
              perm[static_cast<size_t>(normDim(d1, a.rank()))]);
    return permute(a, perm);
}

RefArray reverseDims(const RefArray& a) {
    std::vector<int64_t> perm(a.shape.size());
    for (size_t i = 0; i < perm.size(); ++i) perm[i] = a.rank() - 1 - static_cast<int64_t>(i);
    return permute(a, perm);
}

RefArray unsqueeze(const RefArray& a, int64_t dim) {
    int64_t d = normDim(dim, a.rank() + 1);
    Shape s = a.shape;
    s.insert(s.begin() + d, 1);
    return reshape(a, s);
}

RefArray squeeze(const RefArray& a, std::optional<int64_t> dim) {
    Shape s;
    if (dim) {
        if (a.rank() == 0) return a;
        int64_t d = normDim(*dim, a.rank());
        s = a.shape;
        if (s[static_cast<size_t>(d)] == 1) s.erase(s.begin() + d);
    } else {
        for (int64_t e : a.shape)
            if (e != 1) s.push_back(e);
    }
    return reshape(a, s);
}

RefArray expand(const RefArray& a, const Shape& shape) {
    if (shape.size() < a.shape.size())
        throw RefError("expand: the target " + shapeText(shape) +
                       " has fewer dims than the tensor " + shapeText(a.shape));
    Shape out = shape;
    size_t off = shape.size() - a.shape.size();
    for (size_t i = 0; i < shape.size(); ++i) {
        int64_t own = i < off ? -2 : a.shape[i - off];
        if (shape[i] == -1) {
            if (own == -2) throw RefError("expand: -1 is not allowed for a new leading dimension");
            out[i] = own;
        } else if (own != -2 && own != 1 && own != shape[i]) {
            throw RefError("expand: the size of dim " + std::to_string(i) + " (" +
                           std::to_string(own) + ") must match the target " + shapeText(shape) +
                           " or be 1");
        }
    }
    if (out == a.shape) return a;
    return withData(a.dtype, out, gather(a.ptr(), 0, out, broadcastStrides(a.shape, out)));
}

RefArray flatten(const RefArray& a, int64_t start, int64_t end) {
    if (a.rank() == 0) return reshape(a, {1});
    int64_t s = normDim(start, a.rank()), e = normDim(end, a.rank());
    if (s > e) throw RefError("flatten: start_dim must not come after end_dim");
    Shape out(a.shape.begin(), a.shape.begin() + s);
    int64_t merged = 1;
    for (int64_t i = s; i <= e; ++i) merged *= a.shape[static_cast<size_t>(i)];
    out.push_back(merged);
    out.insert(out.end(), a.shape.begin() + e + 1, a.shape.end());
    return reshape(a, out);
}

RefArray repeatTiles(const RefArray& a, const Shape& reps) {
    if (reps.size() < a.shape.size())
        throw RefError("repeat: " + std::to_string(reps.size()) +
                       " repeat counts for a tensor of rank " + std::to_string(a.rank()));
    Shape src(reps.size() - a.shape.size(), 1);
    src.insert(src.end(), a.shape.begin(), a.shape.end());
    Shape own = stridesOf(src), shape, strides, out;
    for (size_t i = 0; i < reps.size(); ++i) {
        if (reps[i] < 0) throw RefError("repeat: negative count");
        shape.insert(shape.end(), {reps[i], src[i]});
        strides.insert(strides.end(), {0, own[i]});
        out.push_back(reps[i] * src[i]);
    }
    return withData(a.dtype, out, gather(a.ptr(), 0, shape, strides));
}

RefArray repeatInterleave(const RefArray& a, int64_t repeats, int64_t dim) {
    if (repeats < 0) throw RefError("repeat_interleave: negative count");
    size_t d = static_cast<size_t>(normDim(dim, a.rank()));
    Shape own = stridesOf(a.shape), shape = a.shape, strides = own, out = a.shape;
    shape.insert(shape.begin() + static_cast<int64_t>(d) + 1, repeats);
    strides.insert(strides.begin() + static_cast<int64_t>(d) + 1, 0);
    out[d] *= repeats;
    return withData(a.dtype, out, gather(a.ptr(), 0, shape, strides));
}

RefArray concat(const std::vector<RefArray>& parts, int64_t dim) {
    if (parts.empty()) throw RefError("cat: expected a non-empty list of tensors");
    const RefArray& first = parts[0];
    size_t d = static_cast<size_t>(normDim(dim, first.rank()));
    Shape out = first.shape;
    out[d] = 0;
    DType t = first.dtype;
    for (const RefArray& p : parts) {
        if (p.rank() != first.rank())
            throw RefError("cat: tensors must have the same rank (" + shapeText(first.shape) +
                           " vs " + shapeText(p.shape) + ")");
        for (size_t i = 0; i < out.size(); ++i)
            if (i != d && p.shape[i] != first.shape[i])
                throw RefError("cat: sizes must match except in dim " + std::to_string(d) + " (" +
                               shapeText(first.shape) + " vs " + shapeText(p.shape) + ")");
        out[d] += p.shape[d];
        t = promoteTypes(t, p.dtype);
    }
    int64_t outer = 1;
    for (size_t i = 0; i < d; ++i) outer *= out[i];
    std::vector<double> v;
    v.reserve(static_cast<size_t>(numelOf(out)));
    for (int64_t o = 0; o < outer; ++o)
        for (const RefArray& p : parts) {
            int64_t chunk = outer == 0 ? 0 : p.numel() / outer;
            v.insert(v.end(), p.ptr() + o * chunk, p.ptr() + (o + 1) * chunk);
        }
    return withData(t, out, std::move(v));
}

RefArray stack(const std::vector<RefArray>& parts, int64_t dim) {
    if (parts.empty()) throw RefError("stack: expected a non-empty list of tensors");
    std::vector<RefArray> ups;
    for (const RefArray& p : parts) {
        if (p.shape != parts[0].shape)
            throw RefError("stack: all tensors must have the same shape (" +
                           shapeText(parts[0].shape) + " vs " + shapeText(p.shape) + ")");
        ups.push_back(unsqueeze(p, normDim(dim, p.rank() + 1)));
    }
    return concat(ups, dim);
}

RefArray narrow(const RefArray& a, int64_t dim, int64_t start, int64_t length) {
    size_t d = static_cast<size_t>(normDim(dim, a.rank()));
    int64_t len = a.shape[d], s = start < 0 ? start + len : start;
    if (s < 0 || length < 0 || s + length > len)
        throw RefError("narrow: [" + std::to_string(start) + ", +" + std::to_string(length) +
                       ") exceeds dim " + std::to_string(d) + " of size " + std::to_string(len));
    std::vector<IndexItem> items(d + 1, IndexItem{IndexItem::Kind::Slice, 0, {}, {}, {}});
    items[d].start = s;
    items[d].stop = s + length;
    return indexArray(a, items);
}

RefArray flip(const RefArray& a, const std::vector<int64_t>& dims) {
    Shape strides = stridesOf(a.shape);
    int64_t base = 0;
    for (int64_t dim : dims) {
        size_t d = static_cast<size_t>(normDim(dim, a.rank()));
        if (a.shape[d] == 0) continue;
        base += (a.shape[d] - 1) * strides[d];
        strides[d] = -strides[d];
    }
    return withData(a.dtype, a.shape, gather(a.ptr(), base, a.shape, strides));
}

RefArray triangle(const RefArray& a, int64_t k, bool lower) {
    if (a.rank() < 2)
        throw RefError(std::string(lower ? "tril" : "triu") +
                       ": the input needs at least 2 dims, got " + shapeText(a.shape));
    int64_t rows = a.shape[a.shape.size() - 2], cols = a.shape.back();
    std::vector<double> v = *a.data;
    for (int64_t b = 0, n = a.numel() / std::max<int64_t>(rows * cols, 1); b < n && rows * cols > 0;
         ++b)
        for (int64_t i = 0; i < rows; ++i)
            for (int64_t j = 0; j < cols; ++j) {
                bool keep = lower ? j - i <= k : j - i >= k;
                if (!keep) v[static_cast<size_t>((b * rows + i) * cols + j)] = 0.0;
            }
    return withData(a.dtype, a.shape, std::move(v));
}

RefArray cast(const RefArray& a, DType t) {
    RefArray r = a;
    r.dtype = t;
    r.weak = false;
    if (ir::isFloat(t) || t == a.dtype) return r;
    std::vector<double> v(a.data->size());
    std::transform(a.data->begin(), a.data->end(), v.begin(),
                   [t](double x) { return roundTo(t, x); });
    r.data = std::make_shared<std::vector<double>>(std::move(v));
    return r;
}

RefArray convert(const RefArray& a, DType t) {
    RefArray r = cast(a, t);
    if (!ir::isFloat(t) || t == DType::Float32 || t == DType::Float64) return r;
    std::vector<double> v(a.data->size());
    std::transform(a.data->begin(), a.data->end(), v.begin(), [t](double x) { return roundTo(t, x); });
    r.data = std::make_shared<std::vector<double>>(std::move(v));
    return r;
}

RefArray indexArray(const RefArray& a, const std::vector<IndexItem>& items) {
    View v = viewOf(a, items);
    return withData(a.dtype, v.shape, gather(a.ptr(), v.base, v.shape, v.strides));
}

void assignIndex(RefArray& a, const std::vector<IndexItem>& items, const RefArray& value) {
    View v = viewOf(a, items);
    Shape target = v.shape;
    try {
        if (broadcastShapes(value.shape, v.shape) != v.shape) throw RefError("");
    } catch (const RefError&) {
        throw RefError("cannot assign a value of shape " + shapeText(value.shape) +
                       " to a region of shape " + shapeText(v.shape));
    }
    std::vector<double> vals =
        gather(value.ptr(), 0, v.shape, broadcastStrides(value.shape, v.shape));
    if (!ir::isFloat(a.dtype))
        for (double& x : vals) x = roundTo(a.dtype, x);
    if (a.data.use_count() > 1) a.data = std::make_shared<std::vector<double>>(*a.data);
    scatter(a.data->data(), v.base, v.shape, v.strides, vals);
}

}  // namespace ts::rt
