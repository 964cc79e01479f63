// Matrix products of the reference evaluator (ReferenceArray.h): torch.matmul semantics over
// batched, broadcast operands with an Eigen GEMM per batch matrix; einsum reduced to
// permute + reshape + batched GEMM per pair of operands (the "loop over the union of indices"
// without the loop); and scaled dot-product attention one batch matrix at a time, so the score
// matrix never exceeds L x S doubles.
#include <algorithm>
#include <cmath>
#include <exception>
#include <functional>
#include <limits>
#include <map>
#include <thread>

#include <Eigen/Core>

#include "profiler/check/ReferenceArray.h"

namespace ts::rt {

using ir::DType;

namespace {

using Mat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMap = Eigen::Map<const Mat>;
using MutMap = Eigen::Map<Mat>;

/// Element offsets of each batch entry of `x` when its leading dims (all but the last
/// `trailing`) are broadcast to `batch`. One offset per batch index, row-major.
std::vector<int64_t> batchOffsets(const Shape& x, const Shape& batch, size_t trailing) {
    Shape lead(x.begin(), x.end() - static_cast<int64_t>(trailing));
    Shape st = broadcastStrides(lead, batch);
    // broadcastStrides counts in units of `lead` elements; scale to the trailing block size.
    int64_t block = 1;
    for (size_t i = x.size() - trailing; i < x.size(); ++i) block *= x[i];
    for (auto& s : st) s *= block;
    int64_t n = numelOf(batch);
    std::vector<int64_t> out(static_cast<size_t>(n), 0);
    std::vector<int64_t> idx(batch.size(), 0);
    int64_t off = 0;
    for (int64_t k = 0; k < n; ++k) {
        out[static_cast<size_t>(k)] = off;
        for (size_t d = batch.size(); d-- > 0;) {
            off += st[d];
            if (++idx[d] < batch[d]) break;
            off -= st[d] * batch[d];
            idx[d] = 0;
        }
    }
    return out;
}

Shape lead(const Shape& s, size_t trailing) {
    return Shape(s.begin(), s.end() - static_cast<int64_t>(trailing));
}

/// Runs body(batch, r0, r1) over the rows of `batches` matrices of `rows` rows each, in
/// contiguous chunks spread over the hardware threads when the work (`flops`) is worth it (a
/// chunk may span several batch matrices; body sees one matrix at a time). Rows are independent
/// in a GEMM and in attention, so the result does not depend on the split.
void parallelRows(int64_t batches, int64_t rows, double flops,
                  const std::function<void(int64_t, int64_t, int64_t)>& body) {
    const int64_t total = batches * rows;
    if (total <= 0) return;
    int64_t threads =
        std::min<int64_t>({static_cast<int64_t>(std::max(1u, std::thread::hardware_concurrency())),
                           32, total, static_cast<int64_t>(flops / 2e7)});
    auto chunk = [&](int64_t g0, int64_t g1) {
        while (g0 < g1) {
            int64_t b = g0 / rows, r0 = g0 % rows, r1 = std::min(rows, r0 + (g1 - g0));
            body(b, r0, r1);
            g0 += r1 - r0;
        }
    };
    if (threads <= 1) return chunk(0, total);
    std::vector<std::thread> pool;
    std::vector<std::exception_ptr> errors(static_cast<size_t>(threads));
    for (int64_t t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            try {
                chunk(total * t / threads, total * (t + 1) / threads);
            } catch (...) {
                errors[static_cast<size_t>(t)] = std::current_exception();
            }
        });
    for (auto& th : pool) th.join();
    for (auto& e : errors)
        if (e) std::rethrow_exception(e);
}

}  // namespace

RefArray matmul(const RefArray& a0, const RefArray& b0) {
    if (a0.rank() == 0 || b0.rank() == 0)
        throw RefError("matmul: both operands need at least 1 dimension, got " +
                       shapeText(a0.shape) + " and " + shapeText(b0.shape));
    const bool vecA = a0.rank() == 1, vecB = b0.rank() == 1;
    RefArray a = vecA ? reshape(a0, {1, a0.shape[0]}) : a0;
    RefArray b = vecB ? reshape(b0, {b0.shape[0], 1}) : b0;
    const int64_t M = a.shape[a.shape.size() - 2], K = a.shape.back(),
                  K2 = b.shape[b.shape.size() - 2], N = b.shape.back();
    if (K != K2)
        throw RefError("matmul: shapes " + shapeText(a0.shape) + " and " + shapeText(b0.shape) +
                       " cannot be multiplied (" + std::to_string(K) + " != " + std::to_string(K2) +
                       ")");
    Shape batch = broadcastShapes(lead(a.shape, 2), lead(b.shape, 2));
    std::vector<int64_t> offA = batchOffsets(a.shape, batch, 2),
                         offB = batchOffsets(b.shape, batch, 2);
    Shape outShape = batch;
    outShape.insert(outShape.end(), {M, N});
    std::vector<double> out(static_cast<size_t>(numelOf(outShape)), 0.0);
    if (K > 0)
        parallelRows(static_cast<int64_t>(offA.size()), M,
                     2.0 * static_cast<double>(offA.size()) * M * N * K,
                     [&](int64_t i, int64_t r0, int64_t r1) {
                         ConstMap A(a.ptr() + offA[static_cast<size_t>(i)] + r0 * K, r1 - r0, K);
                         ConstMap B(b.ptr() + offB[static_cast<size_t>(i)], K, N);
                         MutMap C(out.data() + (i * M + r0) * N, r1 - r0, N);
                         C.noalias() = A * B;
                     });
    Shape finalShape = batch;
    if (!vecA) finalShape.push_back(M);
    if (!vecB) finalShape.push_back(N);
    return makeArray(promoteTypes(a0.dtype, b0.dtype), finalShape, std::move(out));
}

namespace {

constexpr int kEllipsisBase = 52;  // labels 0-25: a-z, 26-51: A-Z, 52+: dims covered by "..."

struct Labeled {
    RefArray arr;
    std::vector<int> labels;
};

int letterLabel(char c) {
    return c >= 'a' && c <= 'z' ? c - 'a' : c >= 'A' && c <= 'Z' ? 26 + (c - 'A') : -1;
}
char labelChar(int l) {
    return l < 26 ? static_cast<char>('a' + l) : static_cast<char>('A' + l - 26);
}

/// Letters of one subscript term; `ellipsis` is set to the position of "..." (or -1).
std::vector<int> parseTerm(const std::string& term, int& ellipsis) {
    std::vector<int> out;
    ellipsis = -1;
    for (size_t i = 0; i < term.size(); ++i) {
        if (term.compare(i, 3, "...") == 0) {
            if (ellipsis >= 0) throw RefError("einsum: '...' appears twice in '" + term + "'");
            ellipsis = static_cast<int>(out.size());
            i += 2;
            continue;
        }
        int l = letterLabel(term[i]);
        if (l < 0)
            throw RefError(std::string("einsum: invalid subscript character '") + term[i] +
                           "' (use letters a-z, A-Z)");
        out.push_back(l);
    }
    return out;
}

/// Merges repeated labels of one operand into a diagonal.
Labeled diagonal(const Labeled& x) {
    std::vector<int> uniq;
    Shape shape, strides, own = stridesOf(x.arr.shape);
    for (size_t i = 0; i < x.labels.size(); ++i) {
        auto it = std::find(uniq.begin(), uniq.end(), x.labels[i]);
        if (it == uniq.end()) {
            uniq.push_back(x.labels[i]);
            shape.push_back(x.arr.shape[i]);
            strides.push_back(own[i]);
        } else {
            size_t j = static_cast<size_t>(it - uniq.begin());
            if (shape[j] != x.arr.shape[i])
                throw RefError(std::string("einsum: repeated subscript '") +
                               labelChar(x.labels[i]) + "' has extents " +
                               std::to_string(shape[j]) + " and " + std::to_string(x.arr.shape[i]));
            strides[j] += own[i];
        }
    }
    if (uniq.size() == x.labels.size()) return x;
    return {makeArray(x.arr.dtype, shape, gather(x.arr.ptr(), 0, shape, strides)), uniq};
}

bool has(const std::vector<int>& v, int l) { return std::find(v.begin(), v.end(), l) != v.end(); }

/// Sums `x` over the labels that `keep` rejects.
Labeled sumOut(const Labeled& x, const std::function<bool(int)>& keep) {
    std::vector<int64_t> dims;
    std::vector<int> rest;
    for (size_t i = 0; i < x.labels.size(); ++i) {
        if (keep(x.labels[i]))
            rest.push_back(x.labels[i]);
        else
            dims.push_back(static_cast<int64_t>(i));
    }
    if (dims.empty()) return x;
    return {reduce(ReduceOp::Sum, x.arr, dims, false), rest};
}

/// Permutes x to `order` (a permutation of its labels) and broadcasts to the label extents.
RefArray arrange(const Labeled& x, const std::vector<int>& order,
                 const std::map<int, int64_t>& ext) {
    std::vector<int64_t> perm;
    Shape target;
    for (int l : order) {
        perm.push_back(std::find(x.labels.begin(), x.labels.end(), l) - x.labels.begin());
        target.push_back(ext.at(l));
    }
    return expand(permute(x.arr, perm), target);
}

Labeled contract(const Labeled& a, const Labeled& b, const std::vector<int>& needed,
                 const std::map<int, int64_t>& ext) {
    std::vector<int> batch, left, right, inner;
    for (int l : a.labels)
        (has(b.labels, l) ? (has(needed, l) ? batch : inner) : left).push_back(l);
    for (int l : b.labels)
        if (!has(a.labels, l)) right.push_back(l);
    int64_t B = 1, M = 1, N = 1, K = 1;
    for (int l : batch) B *= ext.at(l);
    for (int l : left) M *= ext.at(l);
    for (int l : right) N *= ext.at(l);
    for (int l : inner) K *= ext.at(l);
    std::vector<int> orderA = batch, orderB = batch;
    orderA.insert(orderA.end(), left.begin(), left.end());
    orderA.insert(orderA.end(), inner.begin(), inner.end());
    orderB.insert(orderB.end(), inner.begin(), inner.end());
    orderB.insert(orderB.end(), right.begin(), right.end());
    RefArray ma = reshape(arrange(a, orderA, ext), {B, M, K});
    RefArray mb = reshape(arrange(b, orderB, ext), {B, K, N});
    Labeled r;
    r.labels = batch;
    r.labels.insert(r.labels.end(), left.begin(), left.end());
    r.labels.insert(r.labels.end(), right.begin(), right.end());
    Shape shape;
    for (int l : r.labels) shape.push_back(ext.at(l));
    r.arr = reshape(matmul(ma, mb), shape);
    return r;
}

}  // namespace

RefArray einsum(const std::string& equation, const std::vector<RefArray>& operands) {
    std::string eq;
    for (char c : equation)
        if (c != ' ') eq += c;
    size_t arrow = eq.find("->");
    std::string lhs = eq.substr(0, arrow);
    std::vector<std::string> terms;
    for (size_t s = 0;;) {
        size_t c = lhs.find(',', s);
        terms.push_back(lhs.substr(s, c == std::string::npos ? std::string::npos : c - s));
        if (c == std::string::npos) break;
        s = c + 1;
    }
    if (terms.size() != operands.size())
        throw RefError("einsum: the equation '" + equation + "' names " +
                       std::to_string(terms.size()) + " operand" + (terms.size() == 1 ? "" : "s") +
                       " but " + std::to_string(operands.size()) + " were given");
    std::vector<Labeled> ops;
    int maxE = 0;
    std::vector<std::pair<std::vector<int>, int>> parsed;
    for (size_t i = 0; i < terms.size(); ++i) {
        int ell;
        std::vector<int> letters = parseTerm(terms[i], ell);
        int64_t extra = operands[i].rank() - static_cast<int64_t>(letters.size());
        if (extra < 0 || (ell < 0 && extra != 0))
            throw RefError("einsum: operand " + std::to_string(i) + " has shape " +
                           shapeText(operands[i].shape) + " but its subscripts '" + terms[i] +
                           "' name " + std::to_string(letters.size()) + " dims");
        maxE = std::max(maxE, static_cast<int>(extra));
        parsed.push_back({letters, ell});
    }
    std::map<int, int> count;
    for (size_t i = 0; i < terms.size(); ++i) {
        auto& [letters, ell] = parsed[i];
        int e = static_cast<int>(operands[i].rank()) - static_cast<int>(letters.size());
        std::vector<int> labels;
        for (int k = 0; k <= static_cast<int>(letters.size()); ++k) {
            if (k == ell)
                for (int j = 0; j < e; ++j) labels.push_back(kEllipsisBase + maxE - e + j);
            if (k < static_cast<int>(letters.size()))
                labels.push_back(letters[static_cast<size_t>(k)]);
        }
        for (int l : labels) ++count[l];
        ops.push_back({operands[i], labels});
    }
    std::vector<int> out;
    if (arrow != std::string::npos) {
        int ell;
        std::vector<int> letters = parseTerm(eq.substr(arrow + 2), ell);
        for (int k = 0; k <= static_cast<int>(letters.size()); ++k) {
            if (k == ell)
                for (int j = 0; j < maxE; ++j) out.push_back(kEllipsisBase + j);
            if (k < static_cast<int>(letters.size())) {
                int l = letters[static_cast<size_t>(k)];
                if (!count.count(l))
                    throw RefError(std::string("einsum: output subscript '") + labelChar(l) +
                                   "' does not appear in any input");
                if (has(out, l))
                    throw RefError(std::string("einsum: output subscript '") + labelChar(l) +
                                   "' appears twice");
                out.push_back(l);
            }
        }
        if (ell < 0 && maxE > 0)
            throw RefError("einsum: the inputs use '...' but the output does not");
    } else {
        for (int j = 0; j < maxE; ++j) out.push_back(kEllipsisBase + j);
        std::vector<char> singles;
        for (auto& [l, c] : count)
            if (l < kEllipsisBase && c == 1) singles.push_back(labelChar(l));
        std::sort(singles.begin(), singles.end());
        for (char c : singles) out.push_back(letterLabel(c));
    }
    std::map<int, int64_t> ext;
    for (auto& op : ops) {
        op = diagonal(op);
        for (size_t k = 0; k < op.labels.size(); ++k) {
            int64_t e = op.arr.shape[k];
            auto [it, fresh] = ext.emplace(op.labels[k], e);
            if (!fresh && it->second != e) {
                if (it->second != 1 && e != 1)
                    throw RefError(std::string("einsum: subscript '") +
                                   (op.labels[k] < kEllipsisBase
                                        ? std::string(1, labelChar(op.labels[k]))
                                        : "...") +
                                   "' has extents " + std::to_string(it->second) + " and " +
                                   std::to_string(e));
                it->second = std::max(it->second, e);
            }
        }
    }
    // Needed after operand i: the output and every later operand.
    auto neededAfter = [&](size_t i) {
        std::vector<int> n = out;
        for (size_t j = i + 1; j < ops.size(); ++j)
            n.insert(n.end(), ops[j].labels.begin(), ops[j].labels.end());
        return n;
    };
    auto usedElsewhere = [&](size_t i, int l) {
        if (has(out, l)) return true;
        for (size_t j = 0; j < ops.size(); ++j)
            if (j != i && has(ops[j].labels, l)) return true;
        return false;
    };
    for (size_t i = 0; i < ops.size(); ++i)
        ops[i] = sumOut(ops[i], [&](int l) { return usedElsewhere(i, l); });
    Labeled cur = ops[0];
    for (size_t i = 1; i < ops.size(); ++i) {
        std::vector<int> needed = neededAfter(i);
        cur = sumOut(cur, [&](int l) { return has(needed, l) || has(ops[i].labels, l); });
        cur = contract(cur, ops[i], needed, ext);
    }
    cur = sumOut(cur, [&](int l) { return has(out, l); });
    DType t = operands[0].dtype;
    for (const auto& o : operands) t = promoteTypes(t, o.dtype);
    RefArray r = arrange(cur, out, ext);
    r.dtype = t;
    return r;
}

RefArray attention(const RefArray& q, const RefArray& k0, const RefArray& v0, const RefArray* mask,
                   bool causal, std::optional<double> scale, bool gqa) {
    if (q.rank() < 2 || k0.rank() < 2 || v0.rank() < 2)
        throw RefError("scaled_dot_product_attention: q, k and v need at least 2 dims, got " +
                       shapeText(q.shape) + ", " + shapeText(k0.shape) + ", " +
                       shapeText(v0.shape));
    RefArray k = k0, v = v0;
    if (gqa && q.rank() >= 3 && k.rank() >= 3) {
        int64_t hq = q.shape[q.shape.size() - 3], hk = k.shape[k.shape.size() - 3];
        if (hk == 0 || hq % hk != 0)
            throw RefError("scaled_dot_product_attention: " + std::to_string(hq) +
                           " query heads are not a multiple of " + std::to_string(hk) +
                           " key/value heads");
        if (hq != hk) k = repeatInterleave(k, hq / hk, -3), v = repeatInterleave(v, hq / hk, -3);
    }
    const int64_t L = q.shape[q.shape.size() - 2], E = q.shape.back();
    const int64_t S = k.shape[k.shape.size() - 2], Ek = k.shape.back();
    const int64_t Sv = v.shape[v.shape.size() - 2], Ev = v.shape.back();
    if (Ek != E || Sv != S)
        throw RefError("scaled_dot_product_attention: shapes q " + shapeText(q.shape) + ", k " +
                       shapeText(k.shape) + ", v " + shapeText(v.shape) +
                       " do not fit (need k (..., S, E) and v (..., S, Ev))");
    Shape batch =
        broadcastShapes(broadcastShapes(lead(q.shape, 2), lead(k.shape, 2)), lead(v.shape, 2));
    Shape maskStrides;
    std::vector<int64_t> offM;
    if (mask) {
        Shape full = batch;
        full.insert(full.end(), {L, S});
        if (broadcastShapes(mask->shape, full) != full)
            throw RefError("scaled_dot_product_attention: attn_mask of shape " +
                           shapeText(mask->shape) + " does not broadcast to the scores " +
                           shapeText(full));
        maskStrides = broadcastStrides(mask->shape, full);
        offM.assign(static_cast<size_t>(numelOf(batch)), 0);
        std::vector<int64_t> idx(batch.size(), 0);
        int64_t off = 0;
        for (size_t b = 0; b < offM.size(); ++b) {
            offM[b] = off;
            for (size_t d = batch.size(); d-- > 0;) {
                off += maskStrides[d];
                if (++idx[d] < batch[d]) break;
                off -= maskStrides[d] * batch[d];
                idx[d] = 0;
            }
        }
    }
    const double sc = scale.value_or(1.0 / std::sqrt(static_cast<double>(E)));
    std::vector<int64_t> offQ = batchOffsets(q.shape, batch, 2),
                         offK = batchOffsets(k.shape, batch, 2),
                         offV = batchOffsets(v.shape, batch, 2);
    Shape outShape = batch;
    outShape.insert(outShape.end(), {L, Ev});
    std::vector<double> out(static_cast<size_t>(numelOf(outShape)), 0.0);
    const double negInf = -std::numeric_limits<double>::infinity();
    const bool boolMask = mask && mask->dtype == DType::Bool;
    const double flops =
        2.0 * static_cast<double>(offQ.size()) * L * S * static_cast<double>(E + Ev);
    parallelRows(
        static_cast<int64_t>(offQ.size()), L, flops, [&](int64_t b, int64_t r0, int64_t r1) {
            const int64_t rows = r1 - r0;
            ConstMap Q(q.ptr() + offQ[static_cast<size_t>(b)] + r0 * E, rows, E);
            ConstMap K(k.ptr() + offK[static_cast<size_t>(b)], S, E),
                V(v.ptr() + offV[static_cast<size_t>(b)], S, Ev);
            Mat scores = (Q * K.transpose()) * sc;
            std::vector<double> m;
            if (mask) {
                const int64_t rs = maskStrides[maskStrides.size() - 2], cs = maskStrides.back();
                m = gather(mask->ptr(), offM[static_cast<size_t>(b)] + r0 * rs, {rows, S},
                           {rs, cs});
            }
            for (int64_t li = 0; li < rows; ++li) {
                const int64_t i = r0 + li;
                double mx = negInf;
                for (int64_t j = 0; j < S; ++j) {
                    double& s = scores(li, j);
                    if (causal && j > i) s = negInf;
                    if (mask) {
                        double mv = m[static_cast<size_t>(li * S + j)];
                        if (boolMask)
                            s = mv != 0 ? s : negInf;
                        else
                            s += mv;
                    }
                    mx = std::max(mx, s);
                }
                // A fully masked row gives zeros (torch >= 2.5 math backend), not NaN.
                double sum = 0;
                for (int64_t j = 0; j < S; ++j)
                    sum += scores(li, j) = mx == negInf ? 0.0 : std::exp(scores(li, j) - mx);
                if (sum > 0)
                    for (int64_t j = 0; j < S; ++j) scores(li, j) /= sum;
            }
            MutMap O(out.data() + (b * L + r0) * Ev, rows, Ev);
            O.noalias() = scores * V;
        });
    return makeArray(q.dtype, outShape, std::move(out));
}

}  // namespace ts::rt
