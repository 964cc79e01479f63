#include "profiler/check/Compare.h"

#include "profiler/check/ReferenceCall.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace ts::rt {
namespace {

/// Kind of disagreement of one element pair, decided before any arithmetic.
enum class Pair { BothFinite, Agree, NanInActual, OtherMismatch };

Pair classify(double a, double r) {
    const bool an = std::isnan(a), rn = std::isnan(r);
    if (an && rn) return Pair::Agree;
    if (an) return Pair::NanInActual;
    if (rn) return Pair::OtherMismatch;
    if (std::isinf(a) || std::isinf(r)) return a == r ? Pair::Agree : Pair::OtherMismatch;
    return Pair::BothFinite;
}

std::string sci(double v) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.1e", v);
    return buf;
}

std::string num(double v) { return numberText(v); }

/// The value a GPU output element of integer dtype `t` holds when the kernel did not write it:
/// outputs are filled with poison bytes 0x7F before the launch (Inputs.cpp poisonByte), so
/// 0x7F..7F (bits wide; 7 for a 4-bit nibble). NaN for bool (no distinct pattern).
double intPoison(ir::DType t) {
    if (t == ir::DType::Bool) return std::nan("");
    const int bits = ir::dtypeBits(t);
    if (bits < 8) return 7.0;
    double v = 0;
    for (int k = 0; k < bits / 8; ++k) v = v * 256.0 + 127.0;
    return v;
}

/// Integer outputs are exact. A NaN in the reference is an element it leaves unwritten (the
/// interpreter's poison): the actual output must leave it unwritten too -- NaN from an
/// interpreter, the poison bytes from the GPU. (Both unwritten counted as a mismatch, so a
/// kernel that writes only part of an int32 output, a top-k index list, never matched.)
Comparison compareInts(std::span<const double> a, std::span<const double> r, double poison) {
    Comparison c;
    double errSq = 0, refSq = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        if (std::isnan(r[i])) {
            if (!std::isnan(a[i]) && a[i] != poison) {
                if (c.firstBadIndex < 0) c.firstBadIndex = static_cast<int64_t>(i);
                ++c.badCount;
                ++c.nonFiniteMismatches;
            }
            continue;
        }
        const double d = a[i] - r[i];
        errSq += d * d;
        refSq += r[i] * r[i];
        c.maxAbs = std::max(c.maxAbs, std::fabs(d));
        if (a[i] != r[i]) {
            if (c.firstBadIndex < 0) c.firstBadIndex = static_cast<int64_t>(i);
            ++c.badCount;
        }
    }
    c.relL2 = refSq > 0 ? std::sqrt(errSq / refSq) : (errSq > 0 ? INFINITY : 0.0);
    c.pass = c.badCount == 0;
    return c;
}

}  // namespace

bool coarseFloat(ir::DType t) {
    return t == ir::DType::BFloat16 || t == ir::DType::Float8E4M3 || t == ir::DType::Float8E5M2 ||
           t == ir::DType::Float4E2M1;
}

// bfloat16 outputs: 10 (its rounding is 8x float16's at the same 1e-2 tolerance); fp8/fp4
// outputs: 3, their tolerance already is their own rounding's.
double elementFactor(double tol, ir::DType out) { return out == ir::DType::BFloat16 || tol < 1e-2 ? 10.0 : 3.0; }

namespace {

Comparison compareFloats(std::span<const double> a, std::span<const double> r, double tol, double factor) {
    Comparison c;
    c.tolerance = tol;
    double errSq = 0, refSq = 0;
    int64_t finitePairs = 0;
    // Sums of squares in units of powers of two near the largest values (the error's in units of
    // the larger of |a| and |r|, the reference's in its own): float64 outputs of 1e200 squared to
    // inf (rel-L2 NaN, a FAIL of a right answer, 2026-12-06 GPU check); exact scaling.
    double big = 0, bigRef = 0;
    for (size_t i = 0; i < a.size(); ++i)
        if (classify(a[i], r[i]) == Pair::BothFinite) {
            big = std::max({big, std::fabs(a[i]), std::fabs(r[i])});
            bigRef = std::max(bigRef, std::fabs(r[i]));
        }
    const int eBig = big > 0 ? std::ilogb(big) : 0, eRef = bigRef > 0 ? std::ilogb(bigRef) : 0;
    const double unit = std::ldexp(1.0, eBig), unitRef = std::ldexp(1.0, eRef);
    for (size_t i = 0; i < a.size(); ++i) {
        switch (classify(a[i], r[i])) {
            case Pair::BothFinite: {
                const double d = a[i] - r[i], ds = a[i] / unit - r[i] / unit, rs = r[i] / unitRef;
                errSq += ds * ds;
                refSq += rs * rs;
                c.maxAbs = std::max(c.maxAbs, std::fabs(d));
                ++finitePairs;
                break;
            }
            case Pair::Agree:
                ++c.nonFiniteAlike;
                break;
            case Pair::NanInActual:
                ++c.nanCount;
                [[fallthrough]];
            case Pair::OtherMismatch:
                ++c.nonFiniteMismatches;
                break;
        }
    }
    c.zeroReference = finitePairs > 0 && bigRef == 0;
    // ||d|| / ||r|| = sqrt(errSq / refSq) * 2^(eBig - eRef); past the double range it is inf (a FAIL).
    c.relL2 = !c.zeroReference && finitePairs > 0 ? std::ldexp(std::sqrt(errSq / refSq), eBig - eRef)
              : c.zeroReference ? std::sqrt(errSq / static_cast<double>(finitePairs)) * unit
                                : 0.0;
    c.finitePairs = finitePairs;
    // Second pass: elements off by more than the tolerance at the data's scale. A few wrong
    // elements in a large output (one 4x4 corner of a GEMM zeroed) barely move the rel-L2, so
    // they fail the check on their own (see elementFactor).
    // An all-zero reference has no scale: unit scale, i.e. the bound is absolute.
    const double rms = c.zeroReference ? 1.0 : finitePairs ? std::sqrt(refSq / static_cast<double>(finitePairs)) * unitRef : 0.0;
    const double bound = tol * factor;
    for (size_t i = 0; i < a.size(); ++i) {
        const Pair p = classify(a[i], r[i]);
        const bool bad =
            p == Pair::NanInActual || p == Pair::OtherMismatch ||
            (p == Pair::BothFinite && std::fabs(a[i] - r[i]) > bound * (std::fabs(r[i]) + rms));
        if (bad) {
            if (c.firstBadIndex < 0) c.firstBadIndex = static_cast<int64_t>(i);
            ++c.badCount;
        }
    }
    // Every element NaN/inf in both: the values agree, bit class for bit class (inf + 1 = inf is
    // right), but no finite value was compared -- describe() says so in place of a rel-L2 (it
    // printed "0 NaN: PASS" for an output of float16 inputs that had overflowed to inf; such
    // inputs are now refused, Inputs.cpp).
    c.pass = c.nonFiniteMismatches == 0 && c.relL2 < tol && c.badCount == 0;
    return c;
}

}  // namespace

double defaultTolerance(ir::DType t) {
    switch (t) {
        case ir::DType::Float16:
        case ir::DType::BFloat16:
            return 1e-2;
        // An fp8 output's own rounding is up to 2^-4 (e4m3) or 2^-3 (e5m2) relative: a correct
        // GEMM's e4m3 output is at rel-L2 2.7e-2, e5m2 5.3e-2 (fresh-user helper, 2026-12-03), so
        // 1e-2 failed every correct fp8 output.
        case ir::DType::Float8E4M3:
            return 5e-2;
        case ir::DType::Float8E5M2:
            return 1e-1;
        case ir::DType::Float32:
        case ir::DType::Float64:
            return 1e-5;
        case ir::DType::Float4E2M1:  // one mantissa bit: a rounding moves a value by up to 1/6
            return 2.5e-1;
        default:
            return 0.0;
    }
}

double referenceTolerance(ir::DType out, std::span<const ir::DType> args, bool tf32Products) {
    double tol = defaultTolerance(out);
    if (!ir::isFloat(out)) return tol;  // integer outputs stay exact
    if (tf32Products) tol = std::max(tol, 1e-3);  // tf32 operands: 2^-11 relative, as float16 (Compare.h)
    for (ir::DType a : args) {
        // One float16 rounding of an intermediate costs up to 2^-11 (4.9e-4) relative: 1e-3 keeps
        // float32 outputs of float16 arithmetic tighter than float16 outputs; bfloat16 (2^-8) and
        // fp8 intermediates get the 16-bit output tolerance.
        // fp8/fp4 inputs are exact values of their format and the kernel computes with them in
        // 16 bits or more: the 16-bit tolerance, not their own output rounding.
        if (a == ir::DType::Float16) tol = std::max(tol, 1e-3);
        else if (a == ir::DType::Float4E2M1 || a == ir::DType::Float8E4M3 || a == ir::DType::Float8E5M2) tol = std::max(tol, 1e-2);
        else if (ir::isFloat(a)) tol = std::max(tol, defaultTolerance(a));
    }
    return tol;
}

CompareOptions referenceOptions(ir::DType out, std::span<const ir::DType> args, bool tf32Products) {
    CompareOptions o;
    o.relL2Tolerance = referenceTolerance(out, args, tf32Products);
    if (ir::isFloat(out))
        for (ir::DType a : args)
            if (coarseFloat(a)) o.elementFactor = 10.0;
    return o;
}

Comparison compare(std::span<const double> actual, std::span<const double> reference, ir::DType t,
                   const CompareOptions& opt) {
    if (actual.size() != reference.size())
        throw std::invalid_argument("compare: " + std::to_string(actual.size()) +
                                    " values against " + std::to_string(reference.size()) +
                                    " reference values");
    // A float64 reference value the output dtype cannot hold is compared as the dtype holds it:
    // float16 60000 + 60000 is inf (torch's answer too; "expected 120000" failed a right kernel),
    // e4m3 saturates at 448; a bool output holds (r != 0) (True + True is True, not 2). Values in
    // range keep their float64 precision (helper-116).
    std::vector<double> fitted;
    auto fit = [&](size_t i, double v) {
        if (fitted.empty()) fitted.assign(reference.begin(), reference.end());
        fitted[i] = v;
    };
    for (size_t i = 0; i < reference.size(); ++i) {
        const double r = reference[i];
        if (std::isnan(r)) continue;  // an element the reference leaves unwritten (ints) or NaN
        if (t == ir::DType::Bool) {
            if (r != 0.0 && r != 1.0) fit(i, 1.0);  // inf included (bool(inf) is True)
        } else if (ir::isFloat(t) && t != ir::DType::Float64) {
            // An infinity in a type without one (e4m3 saturates at 448, fp4 at 6, helper-117).
            const double q = roundTo(t, r);
            if (std::isinf(r) ? !std::isinf(q) : std::isinf(q) || (q != 0 && std::fabs(r) > std::fabs(q) && roundTo(t, 2 * r) == q)) fit(i, q);
        }
    }
    if (!fitted.empty()) reference = fitted;
    const double tol = opt.relL2Tolerance.value_or(defaultTolerance(t));
    Comparison c = !ir::isFloat(t) ? compareInts(actual, reference, intPoison(t))
                                   : compareFloats(actual, reference, tol, opt.elementFactor.value_or(elementFactor(tol, t)));
    if (c.firstBadIndex >= 0) c.firstBadExpected = reference[static_cast<size_t>(c.firstBadIndex)];
    return c;
}

Comparison compare(const HostTensor& actual, const HostTensor& reference,
                   const CompareOptions& opt) {
    if (actual.shape != reference.shape)
        throw std::invalid_argument("compare: output shape " + formatShape(actual.shape) +
                                    " differs from reference shape " +
                                    formatShape(reference.shape));
    if (!actual.hasData() || !reference.hasData())
        throw std::invalid_argument("compare: tensor without data");
    return compare(actual.data, reference.data, actual.dtype, opt);
}

std::string referenceMismatch(const std::vector<OutputSpec>& outputs,
                              const std::vector<HostTensor>& references) {
    // Fewer values than outputs fit: they are compared with the first outputs in order, as
    // TileLang's profiler zips the kernel's outputs with the reference's (a FlashAttention forward
    // reference returns O, the kernel also writes lse). uncheckedOutputs() names the rest.
    if (outputs.size() != references.size() &&
        (references.empty() || references.size() > outputs.size())) {
        std::string names;
        for (const auto& o : outputs) names += (names.empty() ? "" : ", ") + o.name;
        const size_t n = references.size(), k = outputs.size();
        return "ref_program returned " + std::to_string(n) + (n == 1 ? " value" : " values") +
               " for " + std::to_string(k) + (k == 1 ? " output" : " outputs") + " (" + names + ")";
    }
    for (size_t i = 0; i < references.size(); ++i) {
        const auto& o = outputs[i];
        const auto& r = references[i];
        if (r.shape != o.shape)
            return "ref_program's value for output " + o.name + " has shape " +
                   formatShape(r.shape) + ", but " + o.name + " has shape " + formatShape(o.shape);
        if (!r.hasData()) return "ref_program's value for output " + o.name + " has no data";
    }
    return {};
}

std::string uncheckedOutputs(const std::vector<OutputSpec>& outputs,
                             const std::vector<HostTensor>& references) {
    if (references.empty() || references.size() >= outputs.size()) return {};
    std::string rest;
    for (size_t i = references.size(); i < outputs.size(); ++i)
        rest += (rest.empty() ? "" : ", ") + outputs[i].name;
    const size_t n = references.size(), k = outputs.size();
    return rest + " not checked: ref_program returned " + std::to_string(n) +
           (n == 1 ? " value" : " values") + " for " + std::to_string(k) +
           " outputs (compared with the first " + std::to_string(n) + " in order, as TileLang does)";
}

std::string indexText(std::span<const int64_t> shape, int64_t flat) {
    std::vector<int64_t> idx(shape.size());
    for (size_t d = shape.size(); d-- > 0;) {
        const int64_t ext = shape[d] > 0 ? shape[d] : 1;
        idx[d] = flat % ext;
        flat /= ext;
    }
    std::string s = "[";
    for (size_t d = 0; d < idx.size(); ++d) s += (d ? ", " : "") + std::to_string(idx[d]);
    return s + "]";
}

std::string describe(const Comparison& c, const HostTensor* actual, const HostTensor* reference) {
    std::string s;
    if (c.tolerance > 0 && c.finitePairs == 0 && c.nonFiniteMismatches == 0 && c.nonFiniteAlike > 0)
        s = "no finite element: all " + std::to_string(c.nonFiniteAlike) +
            " are NaN/inf in both, alike (non-finite inputs, an overflow on both sides, or an output neither side writes?)";
    else if (c.tolerance > 0 && c.finitePairs == 0 && c.nonFiniteMismatches > 0)
        // rel-L2 over zero finite pairs would print 0, which reads as a perfect match.
        s = "rel-L2 n/a (no element is finite in both), " + std::to_string(c.nanCount) + " NaN";
    else if (c.tolerance > 0 && c.zeroReference)
        s = "reference all zero: rms error " + sci(c.relL2) + " (absolute, tol " + sci(c.tolerance) +
            "), max-abs " + sci(c.maxAbs) + ", " + std::to_string(c.nanCount) + " NaN";
    else if (c.tolerance > 0)
        s = "rel-L2 " + sci(c.relL2) + " (tol " + sci(c.tolerance) + "), max-abs " + sci(c.maxAbs) +
            ", " + std::to_string(c.nanCount) + " NaN";
    else
        s = std::to_string(c.badCount) + " mismatching, max-abs " + num(c.maxAbs);
    if (c.nonFiniteMismatches > c.nanCount)
        s += ", " + std::to_string(c.nonFiniteMismatches - c.nanCount) +
             " other non-finite mismatches";
    if (c.finitePairs > 0 && c.nonFiniteAlike > 0) s += ", " + std::to_string(c.nonFiniteAlike) + " NaN/inf as in the reference";
    s += c.pass ? ": PASS" : ": FAIL";
    if (c.firstBadIndex >= 0 && actual && reference && c.firstBadIndex < actual->numel() &&
        actual->hasData() && reference->hasData()) {
        const auto i = static_cast<size_t>(c.firstBadIndex);
        s += "; first bad element " + indexText(actual->shape, c.firstBadIndex) + ": got " +
             num(actual->data[i]) + ", expected " + num(std::isnan(c.firstBadExpected) ? reference->data[i] : c.firstBadExpected);
    }
    return s;
}

std::string numberText(double v) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.9g", v);
    return buf;
}

}  // namespace ts::rt
