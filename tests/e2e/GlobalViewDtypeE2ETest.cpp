// T.view of a kernel tensor with another dtype (TileLang's view_test with new_dtype; torch's
// Tensor.view(dtype)): the tensor's bytes read as that dtype, element i of the view at byte
// i * size, little-endian (PTX ISA 5.2). tests/e2e/programs/global_view_dtype.py reads a float16
// tensor through a float32 and a uint8 view and writes an int16 view of another, then reads that
// tensor back as float16: bit-exact against hand-derived values on both interpreters (the view
// keeps elements of its own there, re-derived on every write through either name) for both
// targets; the generated code addresses the view through a pointer of its element type derived
// from the tensor's; NVRTC sm_80 and sm_90a; the compile errors for 4-bit dtypes and for a view
// that does not cover the tensor's bytes.
#include <cmath>
#include <cstdint>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/support/HostTensor.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

using ts::e2e::diagText;
using ts::ir::DType;

const char* kProg = "tests/e2e/programs/global_view_dtype.py";

ts::CompileResult compileProg(const char* target) {
    ts::CompileOptions opts;
    opts.target = target;
    return ts::compile(kProg, ts::e2e::readRepoFile(kProg), opts);
}

TEST(GlobalViewDtype, ReadAndWrittenThroughViewsOfAnotherDtypeBitExactOnBothInterpreters) {
    const int64_t M = 64, N = 64;
    std::vector<double> a(size_t(M * N)), x(size_t(M * N));
    for (int64_t i = 0; i < M * N; ++i) {
        a[size_t(i)] = double(int64_t(i * 37 % 2001) - 1000) / 64.0;  // exact in half, both signs
        // int16 values whose bits are finite halves (exponent field below 31), both signs.
        const uint32_t bits = uint32_t(i * 7919 % 0x7C00) | (i % 3 == 0 ? 0x8000u : 0u);
        x[size_t(i)] = double(int16_t(uint16_t(bits)));
    }
    // Hand-derived: float32 word k of row i = halves 2k (low 16 bits) and 2k + 1 (high); the
    // bytes of each half low first; X's bits read as halves.
    std::vector<double> out32(size_t(M * N / 2)), out8(size_t(M * 2 * N)), outW(size_t(M * N));
    for (int64_t w = 0; w < M * N / 2; ++w) {
        const uint32_t lo = ts::floatBits(DType::Float16, a[size_t(2 * w)]), hi = ts::floatBits(DType::Float16, a[size_t(2 * w + 1)]);
        out32[size_t(w)] = ts::elementValue(DType::Float32, uint64_t(lo | (hi << 16)));
    }
    for (int64_t i = 0; i < M * N; ++i) {
        const uint32_t bits = ts::floatBits(DType::Float16, a[size_t(i)]);
        out8[size_t(2 * i)] = double(bits & 0xFF);
        out8[size_t(2 * i + 1)] = double(bits >> 8);
        outW[size_t(i)] = ts::elementValue(DType::Float16, uint64_t(uint16_t(int16_t(x[size_t(i)]))));
    }
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
        ts::CompileResult r = compileProg(target);
        ASSERT_TRUE(r.ok) << diagText(r);
        for (bool lowered : {false, true}) {
            std::vector<ts::HostTensor> args{ts::makeHostTensor(DType::Float16, {M, N}, a), ts::makeHostTensor(DType::Int16, {M, N}, x),
                                             ts::makeHostTensor(DType::Float16, {M, N}, std::vector<double>(size_t(M * N), -3.0)),
                                             ts::makeHostTensor(DType::Float32, {M, N / 2}, std::vector<double>(out32.size(), std::nan(""))),
                                             ts::makeHostTensor(DType::UInt8, {M, 2 * N}, std::vector<double>(out8.size(), 7.0)),
                                             ts::makeHostTensor(DType::Float16, {M, N}, std::vector<double>(outW.size(), std::nan("")))};
            auto run = lowered ? ts::interp::runLowered(r.lowered, args) : ts::interp::run(r.elaborated, args);
            const std::string where = std::string(target) + (lowered ? " lowered" : " tile");
            ASSERT_TRUE(run.ok) << where << ": " << (run.error ? ts::formatDiagnostic(*run.error, r.source.get()) : "");
            for (size_t i = 0; i < out32.size(); ++i) {
                // A NaN pattern compares by its bits.
                ASSERT_EQ(ts::floatBits(DType::Float32, args[3].data[i]), ts::floatBits(DType::Float32, out32[i])) << where << " Out32[" << i << "]";
            }
            for (size_t i = 0; i < out8.size(); ++i) ASSERT_EQ(args[4].data[i], out8[i]) << where << " Out8[" << i << "]";
            for (size_t i = 0; i < outW.size(); ++i) ASSERT_EQ(args[5].data[i], outW[i]) << where << " OutW[" << i << "]";
            for (size_t i = 0; i < outW.size(); ++i) ASSERT_EQ(args[2].data[i], outW[i]) << where << " W[" << i << "] (the tensor written through its view)";
        }
    }
}

TEST(GlobalViewDtype, GeneratedCodeAddressesTheViewThroughAPointerOfItsType) {
    ts::CompileResult r = compileProg("cuda:sm_90a");
    ASSERT_TRUE(r.ok) << diagText(r);
    EXPECT_NE(r.cuda.find("const float* A32 = reinterpret_cast<const float*>(A);"), std::string::npos) << r.cuda;
    EXPECT_NE(r.cuda.find("const unsigned char* A8 = reinterpret_cast<const unsigned char*>(A);"), std::string::npos) << r.cuda;
    // W is written through its view: neither pointer is const.
    EXPECT_NE(r.cuda.find("short* W16 = reinterpret_cast<short*>(W);"), std::string::npos) << r.cuda;
    EXPECT_NE(r.cuda.find("ts::half* __restrict__ W,"), std::string::npos) << r.cuda;
}

TEST(GlobalViewDtype, CompilesWithNvrtcForSm80AndSm90a) { ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kProg, {}); }

TEST(GlobalViewDtype, FourBitDtypesAndViewsThatDoNotCoverTheBytesAreErrors) {
    auto compileText = [](const std::string& view) {
        const std::string text = "import tilelang.language as T\n\n"
                                 "@T.prim_func\n"
                                 "def main(A: T.Tensor((64,), \"float16\"), B: T.Tensor((64,), \"float16\")):\n"
                                 "    with T.Kernel(1, threads=64) as bx:\n"
                                 "        V = " + view + "\n"
                                 "        for i in T.Parallel(64):\n"
                                 "            B[i] = A[i]\n";
        ts::CompileOptions opts;
        opts.target = "cuda:sm_80";
        return ts::compile("view_errors.py", text, opts);
    };
    ts::CompileResult four = compileText("T.view(A, (256,), dtype=\"int4\")");
    ASSERT_FALSE(four.ok);
    EXPECT_NE(diagText(four).find("view_errors.py:6:13: error: T.view: a view of kernel tensor 'A' as another dtype (float16 as int4) with 4-bit elements is not supported yet"),
              std::string::npos)
        << diagText(four);
    ts::CompileResult size = compileText("T.view(A, (64,), dtype=\"float32\")");
    ASSERT_FALSE(size.ok);
    EXPECT_NE(diagText(size).find("error: T.view: the view has 256 bytes (64 float32) but 'A' has 128 (64 float16)"), std::string::npos)
        << diagText(size);
    EXPECT_NE(diagText(size).find("scale the last extent by the ratio of the element sizes"), std::string::npos) << diagText(size);
    ts::CompileResult ok = compileText("T.view(A, (32,), dtype=\"float32\")");
    EXPECT_TRUE(ok.ok) << diagText(ok);
}

}  // namespace
