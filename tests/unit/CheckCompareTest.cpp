// Pass/fail rules of the output comparison (profiler/check/Compare.h): rel-L2 tolerances per
// dtype, the per-element bound, the NaN rule, exact integers, and the messages users read.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "compiler/analysis/HwLayouts.h"

#include "profiler/check/Compare.h"

using namespace ts::rt;
using ts::ir::DType;

namespace {
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();
}  // namespace

TEST(CheckCompare, DefaultTolerances) {
    EXPECT_EQ(defaultTolerance(DType::Float16), 1e-2);
    EXPECT_EQ(defaultTolerance(DType::BFloat16), 1e-2);
    EXPECT_EQ(defaultTolerance(DType::Float8E4M3), 5e-2);  // its own rounding: up to 2^-4
    EXPECT_EQ(defaultTolerance(DType::Float8E5M2), 1e-1);  // up to 2^-3
    EXPECT_EQ(defaultTolerance(DType::Float32), 1e-5);
    EXPECT_EQ(defaultTolerance(DType::Float64), 1e-5);
    EXPECT_EQ(defaultTolerance(DType::Int32), 0.0);
}

TEST(CheckCompare, ReferenceToleranceFollowsTheLeastPreciseArgument) {
    const std::vector<DType> f32{DType::Float32, DType::Float32}, f16{DType::Float16, DType::Float32},
        bf16{DType::BFloat16, DType::Float32}, e4m3{DType::Float8E4M3, DType::Int32};
    EXPECT_EQ(referenceTolerance(DType::Float32, f32), 1e-5);   // float32 all through
    EXPECT_EQ(referenceTolerance(DType::Float32, f16), 1e-3);   // float16 intermediates
    EXPECT_EQ(referenceTolerance(DType::Float32, bf16), 1e-2);  // bfloat16 intermediates
    EXPECT_EQ(referenceTolerance(DType::Float32, e4m3), 1e-2);
    EXPECT_EQ(referenceTolerance(DType::Float16, f32), 1e-2);   // the output's own rounding
    EXPECT_EQ(referenceTolerance(DType::Int32, f16), 0.0);      // integers stay exact
    // A float32 T.gemm rounds its operands to tf32 (10 mantissa bits): the float16 bound.
    EXPECT_EQ(referenceTolerance(DType::Float32, f32, /*tf32Products=*/true), 1e-3);
    EXPECT_EQ(referenceTolerance(DType::Float16, f32, true), 1e-2);
    EXPECT_EQ(referenceTolerance(DType::Float32, bf16, true), 1e-2);
    EXPECT_EQ(referenceTolerance(DType::Int32, f32, true), 0.0);
}

TEST(CheckCompare, OneFloat32UlpBecomesOneTf32UlpInTheNextGemm) {
    // Why tf32Products loosens GPU-vs-interpreter checks too: 1 + 2^-11 - 2^-23 and the next
    // float32 value 1 + 2^-11 (one ulp apart, e.g. two accumulation orders of an intermediate)
    // round (cvt.rna.tf32.f32: to nearest, ties away) to 1 and 1 + 2^-10 when a later float32
    // gemm reads them: a relative step of ~2^-10 = 9.8e-4 from a 1.2e-7 difference.
    const double lo = 1.0 + std::ldexp(1.0, -11) - std::ldexp(1.0, -23), hi = 1.0 + std::ldexp(1.0, -11);
    EXPECT_EQ(ts::analysis::mmaOperandValue(DType::Float32, lo), 1.0);
    EXPECT_EQ(ts::analysis::mmaOperandValue(DType::Float32, hi), 1.0 + std::ldexp(1.0, -10));
}

TEST(CheckCompare, RelL2AndMaxAbs) {
    // ref = (3, 4): ||ref|| = 5; error (0.06, -0.08): ||err|| = 0.1 -> rel-L2 = 0.02.
    std::vector<double> ref{3, 4}, act{3.06, 3.92};
    Comparison c = compare(act, ref, DType::Float16);
    EXPECT_NEAR(c.relL2, 0.02, 1e-12);
    EXPECT_NEAR(c.maxAbs, 0.08, 1e-12);
    EXPECT_FALSE(c.pass);
    std::vector<double> close{3.003, 3.996};
    EXPECT_TRUE(compare(close, ref, DType::Float16).pass);
    EXPECT_FALSE(compare(close, ref, DType::Float32).pass);  // 1e-3 > 1e-5
    CompareOptions loose;
    loose.relL2Tolerance = 0.1;
    EXPECT_TRUE(compare(act, ref, DType::Float32, loose).pass);
}

TEST(CheckCompare, NaNInActualFailsEvenIfNormIsTiny) {
    std::vector<double> ref(1000, 1.0), act(1000, 1.0);
    act[617] = kNaN;  // e.g. a poisoned element the kernel never wrote
    Comparison c = compare(act, ref, DType::Float16);
    EXPECT_EQ(c.nanCount, 1);
    EXPECT_EQ(c.firstBadIndex, 617);
    EXPECT_EQ(c.relL2, 0.0);
    EXPECT_FALSE(c.pass);
}

TEST(CheckCompare, NonFiniteAgreementIsFine) {
    std::vector<double> ref{kNaN, kInf, -kInf, 1.0}, act{kNaN, kInf, -kInf, 1.0};
    Comparison c = compare(act, ref, DType::Float32);
    EXPECT_TRUE(c.pass);
    EXPECT_EQ(c.firstBadIndex, -1);
    std::vector<double> wrongInf{kNaN, -kInf, -kInf, 1.0};
    c = compare(wrongInf, ref, DType::Float32);
    EXPECT_FALSE(c.pass);
    EXPECT_EQ(c.nanCount, 0);
    EXPECT_EQ(c.nonFiniteMismatches, 1);
    EXPECT_EQ(c.firstBadIndex, 1);
    std::vector<double> refNaNOnly{1.0, kInf, -kInf, 1.0};
    EXPECT_FALSE(compare(refNaNOnly, ref, DType::Float32).pass);  // reference NaN, actual finite
}

// Fresh-user trial 2026-12-06 (helper-108): float16 inputs of 1e30 are inf, and so is every
// output and the float64 reference computed from them: the check printed "0 NaN: PASS" for an
// output that was NaN everywhere. Agreeing non-finite elements are counted and said; an output of
// nothing else says it has no finite element (those inputs are now refused: Inputs.cpp), and
// still passes when asked for (inf + 1 = inf is right; helper-109).
TEST(CheckCompare, NonFiniteAgreementIsCountedAndAnAllNonFiniteOutputSaysSo) {
    std::vector<double> ref{kNaN, kInf, -kInf, 1.0};
    Comparison some = compare(ref, ref, DType::Float32);
    EXPECT_TRUE(some.pass);
    EXPECT_EQ(some.nonFiniteAlike, 3);
    ts::HostTensor r = ts::makeHostTensor(DType::Float32, {4}, ref);
    EXPECT_EQ(describe(some, &r, &r), "rel-L2 0.0e+00 (tol 1.0e-05), max-abs 0.0e+00, 0 NaN, 3 NaN/inf as in the reference: PASS");
    ts::HostTensor all = ts::makeHostTensor(DType::Float16, {2, 2}, {kNaN, kNaN, kInf, kNaN});
    Comparison none = compare(all, all);
    EXPECT_TRUE(none.pass);
    EXPECT_EQ(none.finitePairs, 0);
    EXPECT_EQ(none.nonFiniteAlike, 4);
    EXPECT_EQ(none.firstBadIndex, -1);
    EXPECT_EQ(describe(none, &all, &all),
              "no finite element: all 4 are NaN/inf in both, alike (non-finite inputs, an overflow on both sides, or an output neither side writes?): PASS");
    ts::HostTensor other = all;
    other.data[2] = -kInf;
    EXPECT_FALSE(compare(other, all).pass);  // a different inf is still a mismatch
}

TEST(CheckCompare, IntegersAreExact) {
    std::vector<double> ref{1, 2, 3, 4}, act{1, 2, 3, 4};
    EXPECT_TRUE(compare(act, ref, DType::Int32).pass);
    act[2] = 4;
    Comparison c = compare(act, ref, DType::Int8);
    EXPECT_FALSE(c.pass);
    EXPECT_EQ(c.firstBadIndex, 2);
    EXPECT_EQ(c.badCount, 1);
    EXPECT_EQ(c.maxAbs, 1.0);
}

TEST(CheckCompare, FirstBadIndexPointsAtTheOutlier) {
    std::vector<double> ref(100), act(100);
    for (int i = 0; i < 100; ++i) ref[i] = act[i] = std::sin(i + 1.0);
    act[73] += 0.5;
    Comparison c = compare(act, ref, DType::Float16);
    EXPECT_EQ(c.firstBadIndex, 73);
    EXPECT_EQ(c.badCount, 1);
}

TEST(CheckCompare, AFewWrongElementsFailEvenUnderTheRelL2Tolerance) {
    // Fresh-user trial 2026-12-03: a GEMM with a 4x4 corner of one block zeroed passed at
    // rel-L2 5.8e-3 (tol 1e-2). 4096 outputs of scale ~1 (rms 1): zeroing 16 of them moves the
    // rel-L2 to sqrt(16 / 4096) = 0.0625 -- so use 65536 outputs, where it is 0.0156... and 4 of
    // them: 0.0078 < 1e-2. Each zeroed element is off by |r| = 1 > 3 * 1e-2 * (|r| + rms) = 0.06.
    std::vector<double> ref(65536), act(65536);
    for (size_t i = 0; i < ref.size(); ++i) ref[i] = act[i] = (i % 2 ? 1.0 : -1.0);
    for (size_t i : {100u, 101u, 102u, 103u}) act[i] = 0.0;
    Comparison c = compare(act, ref, DType::Float16);
    EXPECT_LT(c.relL2, 1e-2);
    EXPECT_FALSE(c.pass);
    EXPECT_EQ(c.badCount, 4);
    EXPECT_EQ(c.firstBadIndex, 100);
    // Noise within the per-element bound on every element passes: 2.5% of (|r| + rms) = 0.05 <
    // 0.06 everywhere (rel-L2 0.05 would fail the norm, so 0.5% noise on all and 5% on one).
    for (size_t i = 0; i < ref.size(); ++i) act[i] = ref[i] * (1 + (i % 3 ? 0.005 : -0.005));
    act[7] = ref[7] * 1.05;
    c = compare(act, ref, DType::Float16);
    EXPECT_TRUE(c.pass) << describe(c);
    act[7] = ref[7] * 1.07;  // 0.07 > 0.06: one element alone fails
    EXPECT_FALSE(compare(act, ref, DType::Float16).pass);
    // float32 outputs (tol 1e-5): the element factor is 10, so 1e-4 * (|r| + rms) = 2e-4.
    for (size_t i = 0; i < ref.size(); ++i) act[i] = ref[i];
    act[9] = ref[9] * (1 + 1.5e-4);
    EXPECT_TRUE(compare(act, ref, DType::Float32).pass);
    act[9] = ref[9] * (1 + 3e-4);
    EXPECT_FALSE(compare(act, ref, DType::Float32).pass);
    EXPECT_EQ(elementFactor(1e-2, DType::Float16), 3.0);
    EXPECT_EQ(elementFactor(1e-5, DType::Float32), 10.0);
}

TEST(CheckCompare, BFloat16ElementsGetTheWiderFactor) {
    // A bfloat16 rounding is 8x a float16 one; MHA backward's bf16 dQ reached 5.0 x tol x
    // (|r| + rms) on correct runs (GPU and interpreter alike). bf16 bound: 10 x 1e-2 x (1 + 1) = 0.2.
    std::vector<double> ref(65536), act(65536);
    for (size_t i = 0; i < ref.size(); ++i) ref[i] = act[i] = (i % 2 ? 1.0 : -1.0);
    act[7] = ref[7] * 1.15;  // 0.15: inside the bf16 bound, outside the float16 one (0.06)
    EXPECT_TRUE(compare(act, ref, DType::BFloat16).pass);
    EXPECT_FALSE(compare(act, ref, DType::Float16).pass);
    act[7] = ref[7] * 1.25;  // 0.25 > 0.2
    EXPECT_FALSE(compare(act, ref, DType::BFloat16).pass);
    act[7] = ref[7];
    for (size_t i : {100u, 101u, 102u, 103u}) act[i] = 0.0;  // a zeroed corner still fails
    Comparison c = compare(act, ref, DType::BFloat16);
    EXPECT_LT(c.relL2, 1e-2);
    EXPECT_FALSE(c.pass);
    EXPECT_EQ(c.badCount, 4);
    EXPECT_EQ(elementFactor(1e-2, DType::BFloat16), 10.0);
    EXPECT_EQ(elementFactor(5e-2, DType::Float8E4M3), 3.0);  // the tolerance is its rounding already
}

TEST(CheckCompare, ReferenceOptionsWidenTheFactorForBFloat16Arguments) {
    const DType bf16Args[] = {DType::BFloat16, DType::Float32};
    const DType fp16Args[] = {DType::Float16, DType::Float32};
    CompareOptions o = referenceOptions(DType::Float32, bf16Args);
    EXPECT_EQ(o.relL2Tolerance.value_or(0), 1e-2);
    EXPECT_EQ(o.elementFactor.value_or(0), 10.0);
    o = referenceOptions(DType::Float32, fp16Args);
    EXPECT_EQ(o.relL2Tolerance.value_or(0), 1e-3);
    EXPECT_FALSE(o.elementFactor.has_value());  // float32 output at 1e-3: elementFactor gives 10
    const DType intArgs[] = {DType::BFloat16};
    EXPECT_FALSE(referenceOptions(DType::Int32, intArgs).elementFactor.has_value());
}

TEST(CheckCompare, ZeroReference) {
    std::vector<double> zeros(4, 0.0);
    EXPECT_TRUE(compare(zeros, zeros, DType::Float32).pass);
    // An all-zero reference has no scale: the error is judged as an absolute one (unit scale),
    // so a float32 rounding residue of 1e-9 passes (rel-L2 was +inf, a FAIL no kernel could avoid).
    std::vector<double> tiny{0, 1e-9, 0, 0};
    Comparison c = compare(tiny, zeros, DType::Float32);
    EXPECT_TRUE(c.zeroReference);
    EXPECT_DOUBLE_EQ(c.relL2, 5e-10);  // rms of (0, 1e-9, 0, 0)
    EXPECT_TRUE(c.pass);
    ts::HostTensor z = ts::makeHostTensor(DType::Float32, {4}, {0, 0, 0, 0});
    ts::HostTensor t = ts::makeHostTensor(DType::Float32, {4}, {0, 1e-9, 0, 0});
    EXPECT_EQ(describe(c, &t, &z),
              "reference all zero: rms error 5.0e-10 (absolute, tol 1.0e-05), max-abs 1.0e-09, 0 NaN: PASS");
    // rms 1e-5 over 4 elements: at the tolerance, not below it.
    std::vector<double> off{0, 2e-5, 0, 0};
    c = compare(off, zeros, DType::Float32);
    EXPECT_DOUBLE_EQ(c.relL2, 1e-5);
    EXPECT_FALSE(c.pass);
    // One element far off among many zeros fails on its own (bound tol * 10 absolute), though the
    // rms over 10^4 elements is small.
    std::vector<double> many(10000, 0.0), oneOff = many;
    oneOff[1234] = 2e-4;
    c = compare(oneOff, many, DType::Float32);
    EXPECT_LT(c.relL2, 1e-5);
    EXPECT_EQ(c.firstBadIndex, 1234);
    EXPECT_FALSE(c.pass);
    // A zero reference with a NaN still fails on the NaN.
    std::vector<double> nan{0, kNaN, 0, 0};
    EXPECT_FALSE(compare(nan, zeros, DType::Float32).pass);
}

// float64 values whose squares pass the double range: the sums are taken in units of a power of
// two near the largest value (rel-L2 was NaN, a FAIL, for a right 1e200 output).
TEST(CheckCompare, HugeAndTinyValuesKeepAFiniteRelL2) {
    std::vector<double> ref{1e200, -3e250, 5e300, 0}, act = ref;
    act[1] *= 1 + 1e-13;
    Comparison c = compare(act, ref, DType::Float64);
    EXPECT_TRUE(std::isfinite(c.relL2));
    EXPECT_NEAR(c.relL2 / (3e237 / 5e300), 1.0, 1e-2);  // |d| / ||r||, ||r|| ~ 5e300 (d carries act's rounding)
    EXPECT_TRUE(c.pass);
    act[2] = 6e300;  // 20% off: fails
    EXPECT_FALSE(compare(act, ref, DType::Float64).pass);
    std::vector<double> tinyRef{1e-200, 2e-200}, tinyAct{1e-200, 2.2e-200};
    c = compare(tinyAct, tinyRef, DType::Float64);
    EXPECT_NEAR(c.relL2, 0.2 / std::sqrt(5.0), 1e-9);  // 0.2e-200 / sqrt(1e-400 + 4e-400)
    EXPECT_FALSE(c.pass);
    // A reference of 1e-300 against outputs of 1e300 is not "all zero" (its squares underflowed in
    // the error's units, helper-113): rel-L2 past the double range is inf, a FAIL.
    std::vector<double> hugeAct{1e300, 2e300}, tinyRef2{1e-300, 2e-300};
    c = compare(hugeAct, tinyRef2, DType::Float64);
    EXPECT_FALSE(c.zeroReference);
    EXPECT_TRUE(std::isinf(c.relL2));
    EXPECT_FALSE(c.pass);
}

TEST(CheckCompare, TensorsAndMessages) {
    ts::HostTensor ref = ts::makeHostTensor(DType::Float32, {2, 3}, {1, 2, 3, 4, 5, 6});
    ts::HostTensor act = ref;
    act.data[4] = kNaN;
    Comparison c = compare(act, ref);
    EXPECT_FALSE(c.pass);
    EXPECT_EQ(indexText(ref.shape, 4), "[1, 1]");
    EXPECT_EQ(
        describe(c, &act, &ref),
        "rel-L2 0.0e+00 (tol 1.0e-05), max-abs 0.0e+00, 1 NaN: FAIL; first bad element [1, 1]: "
        "got nan, expected 5");
    // All NaN: no finite pair, so no rel-L2 at all (printing 0 would read as a perfect match).
    ts::HostTensor nan = ref;
    for (auto& v : nan.data) v = kNaN;
    Comparison cn = compare(nan, ref);
    EXPECT_EQ(cn.finitePairs, 0);
    EXPECT_EQ(describe(cn, &nan, &ref),
              "rel-L2 n/a (no element is finite in both), 6 NaN: FAIL; first bad element [0, 0]: "
              "got nan, expected 1");
    ts::HostTensor other = ts::makeHostTensor(DType::Float32, {3, 2}, {1, 2, 3, 4, 5, 6});
    EXPECT_THROW(compare(other, ref), std::invalid_argument);
    EXPECT_THROW(compare(std::vector<double>{1}, std::vector<double>{1, 2}, DType::Float32),
                 std::invalid_argument);

    ts::HostTensor iref = ts::makeHostTensor(DType::Int32, {2}, {1, 2});
    ts::HostTensor iact = ts::makeHostTensor(DType::Int32, {2}, {1, 5});
    EXPECT_EQ(describe(compare(iact, iref), &iact, &iref),
              "1 mismatching, max-abs 3: FAIL; first bad element [1]: got 5, expected 2");
}

TEST(CheckCompare, IntegerElementsTheReferenceLeavesUnwritten) {
    // The interpreter's NaN marks an element the kernel did not write (a top-k index list
    // filled only in part): the actual output must not write it either -- NaN from the lowered
    // interpreter, the 0x7F poison bytes from the GPU (int32 0x7F7F7F7F = 2139062143).
    std::vector<double> ref{1, kNaN, 3, kNaN};
    auto c = compare(std::vector<double>{1, kNaN, 3, 2139062143.0}, ref, DType::Int32);
    EXPECT_TRUE(c.pass);
    EXPECT_EQ(c.badCount, 0);
    EXPECT_EQ(compare(std::vector<double>{1, 32639, 3, kNaN}, ref, DType::Int16).pass, true);
    EXPECT_EQ(compare(std::vector<double>{1, 127, 3, 127}, ref, DType::Int8).pass, true);
    // A value where the reference has none is a mismatch, and so is a wrong poison width.
    auto w = compare(std::vector<double>{1, 5, 3, kNaN}, ref, DType::Int32);
    EXPECT_FALSE(w.pass);
    EXPECT_EQ(w.badCount, 1);
    EXPECT_EQ(w.firstBadIndex, 1);
    EXPECT_FALSE(compare(std::vector<double>{1, 32639, 3, kNaN}, ref, DType::Int32).pass);
    // Written elements stay exact.
    EXPECT_FALSE(compare(std::vector<double>{1, kNaN, 4, kNaN}, ref, DType::Int32).pass);
}

// A float64 reference value the output dtype cannot hold is compared as the dtype holds it
// (helper-116): float16 60000 + 60000 is inf, as torch computes it; e4m3 saturates at 448; a bool
// output holds r != 0. In-range values keep their float64 precision, so wrong answers still fail.
TEST(CheckCompare, ReferenceValuesPastTheOutputDtypeAreComparedAsItHoldsThem) {
    const double inf = std::numeric_limits<double>::infinity();
    const std::vector<double> ref{120000.0, 1.0, -70000.0, 2.0};
    EXPECT_TRUE(compare(std::vector<double>{inf, 1.0, -inf, 2.0}, ref, DType::Float16).pass);
    EXPECT_FALSE(compare(std::vector<double>{65504.0, 1.0, -inf, 2.0}, ref, DType::Float16).pass);  // not inf
    EXPECT_FALSE(compare(std::vector<double>{inf, 1.0, inf, 2.0}, ref, DType::Float16).pass);       // wrong sign
    EXPECT_TRUE(compare(std::vector<double>{120000.0, 1.0, -70000.0, 2.0}, ref, DType::Float32).pass);
    EXPECT_FALSE(compare(std::vector<double>{inf, 1.0, -inf, 2.0}, ref, DType::Float32).pass);      // float32 holds them
    EXPECT_TRUE(compare(std::vector<double>{448.0, -448.0}, std::vector<double>{1000.0, -1e6}, DType::Float8E4M3).pass);
    EXPECT_FALSE(compare(std::vector<double>{240.0, -448.0}, std::vector<double>{1000.0, -1e6}, DType::Float8E4M3).pass);
    EXPECT_TRUE(compare(std::vector<double>{1, 0, 1}, std::vector<double>{2, 0, -3}, DType::Bool).pass);
    EXPECT_FALSE(compare(std::vector<double>{0, 0, 1}, std::vector<double>{2, 0, -3}, DType::Bool).pass);
    // An infinite reference in a type without infinity (helper-117): e4m3 448, fp4 6, bool 1.
    EXPECT_TRUE(compare(std::vector<double>{448.0, -448.0}, std::vector<double>{inf, -inf}, DType::Float8E4M3).pass);
    EXPECT_TRUE(compare(std::vector<double>{6.0}, std::vector<double>{inf}, DType::Float4E2M1).pass);
    EXPECT_TRUE(compare(std::vector<double>{1.0}, std::vector<double>{inf}, DType::Bool).pass);
    EXPECT_FALSE(compare(std::vector<double>{240.0}, std::vector<double>{inf}, DType::Float8E4M3).pass);
    // The FAIL line names the value compared with, not the float64 one (helper-118: "expected
    // -120000" for an element compared with -inf).
    ts::HostTensor got = ts::makeHostTensor(DType::Float16, {2}, {1.0, 5.0});
    ts::HostTensor want{DType::Float16, {2}, {1.0, -120000.0}};
    Comparison c = compare(got, want);
    EXPECT_FALSE(c.pass);
    EXPECT_EQ(c.firstBadIndex, 1);
    EXPECT_EQ(c.firstBadExpected, -inf);
    EXPECT_NE(describe(c, &got, &want).find("first bad element [1]: got 5, expected -inf"), std::string::npos) << describe(c, &got, &want);
    ts::HostTensor bools{DType::Bool, {2}, {0.0, 2.0}};
    ts::HostTensor zeros = ts::makeHostTensor(DType::Bool, {2}, {0.0, 0.0});
    Comparison b = compare(zeros, bools);
    EXPECT_EQ(b.firstBadExpected, 1.0);
    EXPECT_NE(describe(b, &zeros, &bools).find("got 0, expected 1"), std::string::npos) << describe(b, &zeros, &bools);
}
