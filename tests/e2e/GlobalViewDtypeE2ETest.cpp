// T.view of a kernel tensor with another dtype (TileLang's view_test with new_dtype; torch's
// Tensor.view(dtype)): the tensor's bytes read as that dtype, element i of the view at byte
// i * size, little-endian (PTX ISA 5.2). tests/e2e/programs/global_view_dtype.py reads a float16
// tensor through a float32 and a uint8 view and writes an int16 view of another, then reads that
// tensor back as float16: bit-exact against hand-derived values on both interpreters (the view
// keeps elements of its own there, re-derived on every write through either name) for both
// targets; the generated code addresses the view through a pointer of its element type derived
// from the tensor's; NVRTC sm_80 and sm_90a; views between 4-bit and byte elements; the compile
// errors for a view that
// does not cover the tensor's bytes and for extents that are not positive, and the interpreters'
// check of the bytes when the extents are symbolic. global_view_outputs.py: a tensor written only
// through a view is an output, and one only atomics write through a view starts at zero.
#include <cmath>
#include <cstdint>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/LaunchArgs.h"
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

// The interpreters re-derive a view of another dtype after a statement only when it may have
// written the view or its tensor (SharedViews.cpp syncSharedViewsAfter: a tile op's written
// regions, tl.copy_vec's destination, by storage): a write through a view of the SAME dtype (which
// shares the tensor's storage, under another name) must still reach the bytes view. Before the
// filter every statement compared both names in full (24 s for a 1024 x 1024 run, now ~1 s).
TEST(GlobalViewDtype, AWriteThroughASameDtypeViewReachesAByteViewOnBothInterpreters) {
    ts::CompileOptions opts;
    opts.target = "cuda:sm_80";
    ts::CompileResult r = ts::compile("view_same_dtype.py", "import tilelang\nimport tilelang.language as T\n\n"
                                      "@tilelang.jit(out_idx=[2])\n"
                                      "def k(M=16, N=32):\n"
                                      "    @T.prim_func\n"
                                      "    def main(X: T.Tensor((M, N), \"float16\"), A: T.Tensor((M, N), \"float16\"), Out8: T.Tensor((M, 2 * N), \"uint8\")):\n"
                                      "        with T.Kernel(1, threads=64) as bx:\n"
                                      "            Af = T.view(A, (M * N,))\n"
                                      "            A8 = T.view(A, (M, 2 * N), dtype=\"uint8\")\n"
                                      "            Out8[0, 0] = A8[0, 0]  # the bytes view exists before the writes\n"
                                      "            X_s = T.alloc_shared((M, N), \"float16\")\n"
                                      "            T.copy(X, X_s)\n"
                                      "            for i, j in T.Parallel(M, N):\n"
                                      "                Af[i * N + j] = X_s[i, j]\n"
                                      "            T.sync_threads()\n"
                                      "            T.copy(A8, Out8)\n\n"
                                      "    return main\n", opts);
    ASSERT_TRUE(r.ok) << diagText(r);
    const int64_t M = 16, N = 32;
    std::vector<double> x(size_t(M * N)), out8(size_t(M * 2 * N));
    for (int64_t i = 0; i < M * N; ++i) {
        x[size_t(i)] = double(int64_t(i * 29 % 997) - 500) / 32.0;  // exact in half
        const uint32_t bits = ts::floatBits(DType::Float16, x[size_t(i)]);
        out8[size_t(2 * i)] = double(bits & 0xFF);
        out8[size_t(2 * i + 1)] = double(bits >> 8);
    }
    for (bool lowered : {false, true}) {
        std::vector<ts::HostTensor> args{ts::makeHostTensor(DType::Float16, {M, N}, x),
                                         ts::makeHostTensor(DType::Float16, {M, N}, std::vector<double>(size_t(M * N), 1.0)),
                                         ts::makeHostTensor(DType::UInt8, {M, 2 * N}, std::vector<double>(out8.size(), 7.0))};
        auto run = lowered ? ts::interp::runLowered(r.lowered, args) : ts::interp::run(r.elaborated, args);
        ASSERT_TRUE(run.ok) << lowered << ": " << (run.error ? ts::formatDiagnostic(*run.error, r.source.get()) : "");
        for (size_t i = 0; i < out8.size(); ++i) ASSERT_EQ(args[2].data[i], out8[i]) << (lowered ? "lowered" : "tile") << " Out8[" << i << "]";
    }
}

// Blocks after the first reuse the view an earlier block on the same machine derived, re-deriving
// only the elements the tensor changed since (Machine::m_viewCache; helper-109: 256 blocks of a
// 1024 x 1024 view took 5.4 s, 0.5 s now). Each block writes its row through an int16 view and
// reads the row's bytes back through a uint8 view: every block's reads must see its own writes
// and the rows the earlier blocks wrote must stay as written.
TEST(GlobalViewDtype, ManyBlocksReuseAViewAndStillReadTheirOwnWrites) {
    ts::CompileOptions opts;
    opts.target = "cuda:sm_80";
    ts::CompileResult r = ts::compile("view_blocks.py", "import tilelang\nimport tilelang.language as T\n\n"
                                      "@tilelang.jit(out_idx=[2])\n"
                                      "def k(M=16, N=32):\n"
                                      "    @T.prim_func\n"
                                      "    def main(X: T.Tensor((M, N), \"int16\"), W: T.Tensor((M, N), \"float16\"), Out8: T.Tensor((M, 2 * N), \"uint8\")):\n"
                                      "        with T.Kernel(M, threads=32) as bx:\n"
                                      "            W16 = T.view(W, (M, N), dtype=\"int16\")\n"
                                      "            W8 = T.view(W, (M, 2 * N), dtype=\"uint8\")\n"
                                      "            Out8[bx, 0] = W8[bx, 0]\n"
                                      "            for j in T.serial(N):\n"
                                      "                W16[bx, j] = X[bx, j]\n"
                                      "            for j in T.serial(2 * N):\n"
                                      "                Out8[bx, j] = W8[bx, j]\n\n"
                                      "    return main\n", opts);
    ASSERT_TRUE(r.ok) << diagText(r);
    const int64_t M = 16, N = 32;
    std::vector<double> x(size_t(M * N)), out8(size_t(M * 2 * N));
    for (int64_t i = 0; i < M * N; ++i) {
        x[size_t(i)] = double(int16_t(uint16_t((i * 2654435761u) >> 7) & 0x7BFF));  // finite halves' bits
        const auto bits = uint16_t(int16_t(x[size_t(i)]));
        out8[size_t(2 * i)] = double(bits & 0xFF);
        out8[size_t(2 * i + 1)] = double(bits >> 8);
    }
    for (bool lowered : {false, true}) {
        std::vector<ts::HostTensor> args{ts::makeHostTensor(DType::Int16, {M, N}, x),
                                         ts::makeHostTensor(DType::Float16, {M, N}, std::vector<double>(size_t(M * N), 2.0)),
                                         ts::makeHostTensor(DType::UInt8, {M, 2 * N}, std::vector<double>(out8.size(), 7.0))};
        auto run = lowered ? ts::interp::runLowered(r.lowered, args) : ts::interp::run(r.elaborated, args);
        ASSERT_TRUE(run.ok) << lowered << ": " << (run.error ? ts::formatDiagnostic(*run.error, r.source.get()) : "");
        for (size_t i = 0; i < out8.size(); ++i) ASSERT_EQ(args[2].data[i], out8[i]) << (lowered ? "lowered" : "tile") << " Out8[" << i << "]";
        for (int64_t i = 0; i < M * N; ++i)  // W: X's bits as halves, every row
            ASSERT_EQ(ts::floatBits(DType::Float16, args[1].data[size_t(i)]), uint32_t(uint16_t(int16_t(x[size_t(i)])))) << "W[" << i << "]";
    }
}

TEST(GlobalViewDtype, ReadAndWrittenThroughViewsOfAnotherDtypeBitExactOnBothInterpreters) {
    const int64_t M = 64, N = 64;
    std::vector<double> a(size_t(M * N)), x(size_t(M * N));
    for (int64_t i = 0; i < M * N; ++i) {
        a[size_t(i)] = double(int64_t(i * 37 % 2001) - 1000) / 64.0;  // exact in half, both signs
        // int16 values whose bits are finite halves (exponent field below 31), both signs, and
        // every fifth a NaN with a payload of its own (the GPU keeps its bytes; so must the
        // interpreters: before, each came back as the canonical 0x7E00).
        const uint32_t bits = i % 5 == 0 ? 0x7C00u | (uint32_t(i * 13) & 0x3FFu) | 1u | (i % 10 == 0 ? 0x8000u : 0u)
                                         : uint32_t(i * 7919 % 0x7C00) | (i % 3 == 0 ? 0x8000u : 0u);
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
            // By bits: NaN != NaN as doubles.
            for (size_t i = 0; i < outW.size(); ++i)
                ASSERT_EQ(ts::elementBits(DType::Float16, args[5].data[i]), ts::elementBits(DType::Float16, outW[i])) << where << " OutW[" << i << "]";
            for (size_t i = 0; i < outW.size(); ++i)
                ASSERT_EQ(ts::elementBits(DType::Float16, args[2].data[i]), uint64_t(uint16_t(int16_t(x[i]))))
                    << where << " W[" << i << "] (the tensor written through its view)";
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

TEST(GlobalViewDtype, ViewsThatDoNotCoverTheBytesAreErrors) {
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
    // 4-bit elements count in half bytes: 255 int4 are 127.5 bytes, 256 cover the 128.
    ts::CompileResult half = compileText("T.view(A, (255,), dtype=\"int4\")");
    ASSERT_FALSE(half.ok);
    EXPECT_NE(diagText(half).find("error: T.view: the view has 127.5 bytes (255 int4) but 'A' has 128 (64 float16)"), std::string::npos)
        << diagText(half);
    ts::CompileResult four = compileText("T.view(A, (256,), dtype=\"int4\")");
    EXPECT_TRUE(four.ok) << diagText(four);
    ts::CompileResult size = compileText("T.view(A, (64,), dtype=\"float32\")");
    ASSERT_FALSE(size.ok);
    EXPECT_NE(diagText(size).find("error: T.view: the view has 256 bytes (64 float32) but 'A' has 128 (64 float16)"), std::string::npos)
        << diagText(size);
    EXPECT_NE(diagText(size).find("scale the last extent by the ratio of the element sizes"), std::string::npos) << diagText(size);
    ts::CompileResult ok = compileText("T.view(A, (32,), dtype=\"float32\")");
    EXPECT_TRUE(ok.ok) << diagText(ok);
}

// A scalar is no buffer to view: the hint names T.reinterpret (it offered the slice advice). And
// Python's bool is a dtype (`--ref-param dst=bool` and factory defaults pass the builtin).
TEST(GlobalViewDtype, ScalarSourceHintAndPythonBoolAsDtype) {
    ts::CompileOptions opts;
    opts.target = "cuda:sm_80";
    ts::CompileResult scalar = ts::compile("view_scalar.py",
                                           "import tilelang.language as T\n\n"
                                           "@T.prim_func\n"
                                           "def main(A: T.Tensor((64,), \"float32\"), s: T.int32):\n"
                                           "    with T.Kernel(1, threads=64) as bx:\n"
                                           "        V = T.view(s, (1,), dtype=\"float32\")\n",
                                           opts);
    ASSERT_FALSE(scalar.ok);
    EXPECT_NE(diagText(scalar).find("view_scalar.py:6:20: error: T.view: src must be a buffer, got PrimExpr"), std::string::npos) << diagText(scalar);
    EXPECT_NE(diagText(scalar).find("T.reinterpret(value, dtype)"), std::string::npos) << diagText(scalar);
    ts::CompileResult boolean = ts::compile("view_bool.py",
                                            "import tilelang\nimport tilelang.language as T\n\n"
                                            "@tilelang.jit(out_idx=[1])\n"
                                            "def k(dst=bool):\n"
                                            "    @T.prim_func\n"
                                            "    def main(A: T.Tensor((64,), \"int8\"), B: T.Tensor((64,), dst)):\n"
                                            "        with T.Kernel(1, threads=64) as bx:\n"
                                            "            V = T.view(A, (64,), dtype=dst)\n"
                                            "            T.copy(V, B)\n\n"
                                            "    return main\n",
                                            opts);
    ASSERT_TRUE(boolean.ok) << diagText(boolean);
    ASSERT_EQ(boolean.kernel.args.size(), 2u);
    EXPECT_EQ(boolean.kernel.args[1].dtype, DType::Bool);
}

// Between 4-bit and byte elements (global_view_4bit.py): by hand, byte w of the uint8 view of a
// float4_e2m1fn tensor = code(2w) | code(2w + 1) << 4 (the host's packing: even element in the low
// nibble), and element 2w / 2w + 1 of the float4 view of bytes = the value of the low / high nibble
// (code 8 is -0). Both interpreters, bit-exact; NVRTC below.
TEST(GlobalViewDtype, FourBitTensorsViewedAsBytesAndBack) {
    const char* prog = "tests/e2e/programs/global_view_4bit.py";
    const int64_t M = 16, N = 32;
    std::vector<double> a(size_t(M * N)), x(size_t(M * N / 2));
    for (int64_t i = 0; i < M * N; ++i) a[size_t(i)] = ts::floatFromBits(DType::Float4E2M1, uint32_t((i * 7 + i / 16) % 16));
    for (int64_t w = 0; w < M * N / 2; ++w) x[size_t(w)] = double((w * 37 + 11) % 256);
    std::vector<double> bytes(x.size()), fp4(a.size());
    for (int64_t w = 0; w < M * N / 2; ++w) {
        const uint32_t lo = ts::floatBits(DType::Float4E2M1, a[size_t(2 * w)]), hi = ts::floatBits(DType::Float4E2M1, a[size_t(2 * w + 1)]);
        bytes[size_t(w)] = double(lo | (hi << 4));
        fp4[size_t(2 * w)] = ts::floatFromBits(DType::Float4E2M1, uint32_t(x[size_t(w)]) & 0xF);
        fp4[size_t(2 * w + 1)] = ts::floatFromBits(DType::Float4E2M1, uint32_t(x[size_t(w)]) >> 4);
    }
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
        ts::CompileOptions opts;
        opts.target = target;
        ts::CompileResult r = ts::compile(prog, ts::e2e::readRepoFile(prog), opts);
        ASSERT_TRUE(r.ok) << diagText(r);
        for (bool lowered : {false, true}) {
            std::vector<ts::HostTensor> args{ts::makeHostTensor(DType::Float4E2M1, {M, N}, a), ts::makeHostTensor(DType::UInt8, {M, N / 2}, x),
                                             ts::makeHostTensor(DType::UInt8, {M, N / 2}, std::vector<double>(x.size(), 3.0)),
                                             ts::makeHostTensor(DType::Float4E2M1, {M, N}, std::vector<double>(a.size(), 6.0))};
            auto run = lowered ? ts::interp::runLowered(r.lowered, args) : ts::interp::run(r.elaborated, args);
            const std::string where = std::string(target) + (lowered ? " lowered" : " tile");
            ASSERT_TRUE(run.ok) << where << ": " << (run.error ? ts::formatDiagnostic(*run.error, r.source.get()) : "");
            for (size_t w = 0; w < bytes.size(); ++w) ASSERT_EQ(args[2].data[w], bytes[w]) << where << " Bytes[" << w << "]";
            for (size_t i = 0; i < fp4.size(); ++i)
                ASSERT_EQ(ts::floatBits(DType::Float4E2M1, args[3].data[i]), ts::floatBits(DType::Float4E2M1, fp4[i])) << where << " Fp4[" << i << "]";
        }
    }
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(prog, {});
}

TEST(GlobalViewDtype, TensorsWrittenOnlyThroughViewsAreOutputs) {
    const char* prog = "tests/e2e/programs/global_view_outputs.py";
    ts::CompileOptions opts;
    opts.target = "cuda:sm_90a";
    ts::CompileResult r = ts::compile(prog, ts::e2e::readRepoFile(prog), opts);
    ASSERT_TRUE(r.ok) << diagText(r);
    ASSERT_EQ(r.kernel.args.size(), 5u);
    // X read; B by name; C, D, Q only through views (before: inputs, and the reference's four
    // results had "0 outputs" to go to).
    const bool expected[] = {false, true, true, true, true};
    for (size_t i = 0; i < 5; ++i) EXPECT_EQ(r.kernel.args[i].isOutput, expected[i]) << r.kernel.args[i].name;
    // Q: only atomics write it (through its view): it starts at zero, not poisoned.
    EXPECT_EQ(ts::atomicOnlyOutputs(*r.elaborated), std::vector<int>{4});
    const int64_t M = 16, N = 16;
    std::vector<double> x(size_t(M * N));
    for (int64_t i = 0; i < M * N; ++i) x[size_t(i)] = double(i % 37) / 4.0 - 3.0;
    for (bool lowered : {false, true}) {
        std::vector<ts::HostTensor> args{ts::makeHostTensor(DType::Float32, {M, N}, x)};
        for (DType t : {DType::Float32, DType::Float32, DType::Int32})
            args.push_back(ts::makeHostTensor(t, {M, N}, std::vector<double>(size_t(M * N), t == DType::Int32 ? -5.0 : std::nan(""))));
        args.push_back(ts::makeHostTensor(DType::Float32, {M, N}, std::vector<double>(size_t(M * N), 0.0)));
        auto run = lowered ? ts::interp::runLowered(r.lowered, args) : ts::interp::run(r.elaborated, args);
        ASSERT_TRUE(run.ok) << (run.error ? ts::formatDiagnostic(*run.error, r.source.get()) : "");
        for (size_t i = 0; i < x.size(); ++i) {
            ASSERT_EQ(args[1].data[i], x[i]);
            ASSERT_EQ(args[2].data[i], x[i]);
            ASSERT_EQ(args[3].data[i], double(int32_t(ts::floatBits(DType::Float32, x[i]))));
            ASSERT_EQ(args[4].data[i], ts::elementValue(DType::Float32, 3));  // three blocks added the bits 1
        }
    }
}

TEST(GlobalViewDtype, NonPositiveExtentsAndSymbolicByteMismatchesAreErrors) {
    auto compileText = [](const std::string& text) {
        ts::CompileOptions opts;
        opts.target = "cuda:sm_80";
        return ts::compile("view_extents.py", text, opts);
    };
    ts::CompileResult neg = compileText("import tilelang.language as T\n\n"
                                        "@T.prim_func\n"
                                        "def main(A: T.Tensor((64, 64), \"float16\"), B: T.Tensor((64, 32), \"float32\")):\n"
                                        "    with T.Kernel(1, threads=64) as bx:\n"
                                        "        V = T.view(A, (-64, -32), dtype=\"float32\")\n"
                                        "        T.copy(V, B)\n");
    ASSERT_FALSE(neg.ok);
    EXPECT_NE(diagText(neg).find("view_extents.py:6:23: error: T.view: extent 0 of the view is -64; extents must be positive"), std::string::npos)
        << diagText(neg);
    // (8, n // 2) float32 over (8, n) float16 covers the bytes only for even n, known at run time:
    // the interpreters stop at the view's first access for n = 9 (before, they ran on with rows
    // misaligned) and run for n = 10.
    ts::CompileResult sym = compileText("import tilelang\nimport tilelang.language as T\n\n"
                                        "@tilelang.jit(out_idx=[1])\n"
                                        "def k(M=8):\n"
                                        "    N = T.dynamic(\"n\")\n\n"
                                        "    @T.prim_func\n"
                                        "    def main(A: T.Tensor((M, N), \"float16\"), B: T.Tensor((M, N // 2), \"float32\")):\n"
                                        "        with T.Kernel(M, threads=32) as bx:\n"
                                        "            V = T.view(A, (M, N // 2), dtype=\"float32\")\n"
                                        "            for j in T.serial(N // 2):\n"
                                        "                B[bx, j] = V[bx, j]\n\n"
                                        "    return main\n");
    ASSERT_TRUE(sym.ok) << diagText(sym);
    for (int64_t n : {9, 10})
        for (bool lowered : {false, true}) {
            std::vector<ts::HostTensor> args{ts::makeHostTensor(DType::Float16, {8, n}, std::vector<double>(size_t(8 * n), 1.0)),
                                             ts::makeHostTensor(DType::Float32, {8, n / 2}, std::vector<double>(size_t(8 * (n / 2)), std::nan("")))};
            auto run = lowered ? ts::interp::runLowered(sym.lowered, args) : ts::interp::run(sym.elaborated, args);
            if (n == 10) {
                EXPECT_TRUE(run.ok) << (run.error ? ts::formatDiagnostic(*run.error, sym.source.get()) : "");
                continue;
            }
            ASSERT_FALSE(run.ok) << "n = 9, lowered " << lowered;
            ASSERT_TRUE(run.error);
            const std::string msg = ts::formatDiagnostic(*run.error, sym.source.get());
            EXPECT_NE(msg.find("view 'V' of shape (8, 4) covers 128 bytes but 'A' has 144"), std::string::npos) << msg;
            EXPECT_NE(msg.find("scale the last extent by the ratio of the element sizes"), std::string::npos) << msg;
        }
    // The GPU launch checks the same before it launches (the generated code does not): before,
    // n = 9 ran the kernel with the view's rows misaligned against the tensor's.
    for (int64_t n : {9, 10}) {
        std::string error;
        auto lv = ts::bindLaunch(sym.kernel, sym.lowered, {{8, n}, {8, n / 2}}, error);
        if (n == 10) {
            EXPECT_TRUE(lv) << error;
            continue;
        }
        EXPECT_FALSE(lv);
        EXPECT_NE(error.find("view 'V' (line 11) of shape (8, 4) covers 128 bytes but 'A' has 144 for these sizes"), std::string::npos) << error;
    }
}

}  // namespace

namespace {

// A symbolic view refused at compile time only when its bytes are a fixed multiple of the tensor's
// at every sampled size (up to 2^24): T.min(2 * n, 10000) float32 elements of an n-element float32
// tensor fit from n = 10000 on, so it compiles (it was refused: sizes were sampled up to 4097,
// helper-113); (2 * n,) never fits and is refused (tests/errors/view_symbolic_more_elements.py has
// the message).
TEST(GlobalViewDtype, SymbolicViewRefusedOnlyWhenItNeverFits) {
    auto prog = [](const std::string& extent) {
        return "import tilelang.language as T\n\n\n@T.prim_func\n"
               "def main(A: T.Tensor((T.dynamic(\"n\"),), \"float32\"), B: T.Tensor((8,), \"float32\")):\n"
               "    n = A.shape[0]\n"
               "    with T.Kernel(1, threads=32) as bx:\n"
               "        V = T.view(A, (" + extent + ",))\n"
               "        for i in T.serial(8):\n"
               "            B[i] = V[i]\n";
    };
    ts::CompileOptions opts;
    opts.target = "cuda:sm_80";
    ts::CompileResult fits = ts::compile("view_min.py", prog("T.min(2 * n, 10000)"), opts);
    EXPECT_TRUE(fits.ok) << ts::e2e::diagText(fits);
    ts::CompileResult never = ts::compile("view_twice.py", prog("2 * n"), opts);
    ASSERT_FALSE(never.ok);
    EXPECT_NE(ts::e2e::diagText(never).find("more elements than 'A' at every size"), std::string::npos) << ts::e2e::diagText(never);
}

}  // namespace
