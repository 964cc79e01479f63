// TileLang's dequantize helpers called through T.import_source / T.call_extern (issue 8: the
// corpus' dequantize_gemm examples compile unchanged), and TVM's thread allreduce
// (T.attr reduce_scope + T.tvm_thread_allreduce) of its GEMV example. Programs of our own:
//  - dequant_extern.py: decode_fp4_to_bf16_twiddling and decode_i4{u,s}_to_f16 on hand-chosen
//    bytes (decode tables derived by hand from the helpers' PTX: the twiddled bit positions, the
//    bf16 pattern times 2^126; lop3 + sub.f16x2 of 1024 / 1032) and on random bytes against an
//    independent E2M1 lookup table, on both interpreters;
//    decode_i2{u,s}_to_i8s (BitNet, TVM's positional call_extern("handle", name, ...)) on a
//    hand-decoded byte and on every byte value, then T.dp4a of the weights with activations;
//  - thread_allreduce.py: row sums over 32 and 16 lanes against the float64 reference.
// Every kernel also compiles with NVRTC for sm_80 and sm_90a.
#include <cmath>
#include <cstring>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/interp/ThreadInterpreter.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"

namespace {

using ts::e2e::diagText;
using ts::ir::DType;

const char* kDequant = "tests/e2e/programs/dequant_extern.py";
const char* kAllreduce = "tests/e2e/programs/thread_allreduce.py";

ts::CompileResult compileKernel(const std::string& path, const std::string& target,
                                const std::string& kernel,
                                const std::map<std::string, std::string>& params = {}) {
    ts::CompileOptions opts;
    opts.target = target;
    opts.params = params;
    opts.kernel = kernel;
    return ts::compile(path, ts::e2e::readRepoFile(path), opts);
}

void expectNvrtcBoth(const std::string& path, const std::string& kernel,
                     const std::map<std::string, std::string>& params = {}) {
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
        ts::CompileResult r = compileKernel(path, target, kernel, params);
        ASSERT_TRUE(r.ok) << diagText(r);
        if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
        auto nv = ts::rt::compileCuda(r.cuda, ts::parseTarget(target)->arch(), {}, true);
        EXPECT_TRUE(nv.ok) << target << " " << kernel << "\n" << nv.log;
    }
}

/// The output D of a one-input, one-output kernel run on Q.
std::vector<double> runDecode(const ts::CompileResult& r, const ts::HostTensor& q, bool lowered,
                              std::string* error) {
    std::vector<ts::HostTensor> args = {q};
    const auto& out = r.kernel.args.at(1);
    ts::HostTensor d;
    d.dtype = out.dtype;
    d.shape = out.shape;
    d.data.assign(static_cast<size_t>(d.numel()), std::nan(""));
    args.push_back(d);
    auto run = lowered ? ts::interp::runLowered(r.lowered, args) : ts::interp::run(r.elaborated, args);
    if (!run.ok) *error = run.error ? run.error->message : "failed";
    return args[1].data;
}

/// Independent decode of one group of 4 bytes: E2M1 values by table, the twiddled positions of
/// mxfp.py's comment (per 16-bit half h = byte0 << 8 | byte1: element j's sign, two exponent
/// bits (high, low) and mantissa bit), halves -> dst[0..3] and dst[4..7].
std::vector<double> fp4Reference(const uint8_t* b) {
    static const double kE2m1[8] = {0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0};
    struct Pos { int s, e1, e0, m; };
    const Pos pos[4] = {{15, 8, 7, 6}, {12, 5, 4, 3}, {9, 2, 1, 0}, {14, 11, 10, 13}};
    std::vector<double> out;
    for (int half = 0; half < 2; ++half) {
        unsigned h = unsigned(b[2 * half]) << 8 | b[2 * half + 1];
        for (const Pos& p : pos) {
            unsigned code = ((h >> p.e1) & 1) << 2 | ((h >> p.e0) & 1) << 1 | ((h >> p.m) & 1);
            out.push_back(((h >> p.s) & 1 ? -1.0 : 1.0) * kE2m1[code]);
        }
    }
    return out;
}

TEST(DequantExtern, Fp4TwiddlingMatchesTheHandDerivedTableOnBothInterpreters) {
    ts::CompileResult r = compileKernel(kDequant, "cuda:sm_90a", "fp4_decode");
    ASSERT_TRUE(r.ok) << diagText(r);
    // Group 0 by hand: half 0xE15F = -3 (s,E=2,m) | 1.5 (E=1,m) | 6 (E=3,m) | -0.5 (s,E=0,m);
    // half 0x0880 = 1 (E=1) | 0 | 0 | 2 (E=2). Groups 1-3: every byte value pattern.
    std::vector<uint8_t> bytes = {0xE1, 0x5F, 0x08, 0x80};
    for (int k = 0; k < 12; ++k) bytes.push_back(static_cast<uint8_t>(k * 37 + 11));
    std::vector<double> expected = {-3.0, 1.5, 6.0, -0.5, 1.0, 0.0, 0.0, 2.0};
    EXPECT_EQ(fp4Reference(bytes.data()), expected);  // the table agrees with the hand values
    for (int g = 1; g < 4; ++g) {
        auto e = fp4Reference(bytes.data() + 4 * g);
        expected.insert(expected.end(), e.begin(), e.end());
    }
    std::vector<double> qv(bytes.begin(), bytes.end());
    ts::HostTensor q = ts::makeHostTensor(DType::UInt8, {16}, qv);
    for (bool lowered : {false, true}) {
        std::string err;
        auto d = runDecode(r, q, lowered, &err);
        ASSERT_TRUE(err.empty()) << err;
        EXPECT_EQ(d, expected) << "lowered=" << lowered;
    }
    expectNvrtcBoth(kDequant, "fp4_decode");
}

TEST(DequantExtern, I4ToF16InterleavesTheHalvesOnBothInterpreters) {
    // Word 0x87654321 (bytes 21 43 65 87): dst[2i] = nibble i of the low half, dst[2i+1] =
    // nibble i of the high half -> 1 5 2 6 3 7 4 8; signed subtracts 8.
    std::vector<double> qv = {0x21, 0x43, 0x65, -121 /* 0x87 */};
    for (int k = 0; k < 12; ++k) qv.push_back(double(int8_t(k * 53 + 7)));
    for (bool isSigned : {false, true}) {
        ts::CompileResult r = compileKernel(kDequant, "cuda:sm_90a", "i4_decode",
                                            {{"signed", isSigned ? "True" : "False"}});
        ASSERT_TRUE(r.ok) << diagText(r);
        std::vector<double> expected;
        for (int g = 0; g < 4; ++g) {
            uint32_t w = 0;
            for (int k = 0; k < 4; ++k) w |= uint32_t(uint8_t(int8_t(qv[4 * g + k]))) << (8 * k);
            for (int i = 0; i < 4; ++i)
                for (int hi = 0; hi < 2; ++hi)
                    expected.push_back(double((w >> (16 * hi + 4 * i)) & 0xF) - (isSigned ? 8 : 0));
        }
        const std::vector<double> hand = isSigned
                                             ? std::vector<double>{-7, -3, -6, -2, -5, -1, -4, 0}
                                             : std::vector<double>{1, 5, 2, 6, 3, 7, 4, 8};
        EXPECT_EQ(std::vector<double>(expected.begin(), expected.begin() + 8), hand);
        ts::HostTensor q = ts::makeHostTensor(DType::Int8, {16}, qv);
        for (bool lowered : {false, true}) {
            std::string err;
            auto d = runDecode(r, q, lowered, &err);
            ASSERT_TRUE(err.empty()) << err;
            EXPECT_EQ(d, expected) << "signed=" << isSigned << " lowered=" << lowered;
        }
        expectNvrtcBoth(kDequant, "i4_decode", {{"signed", isSigned ? "True" : "False"}});
    }
}

TEST(DequantExtern, I2ToI8AndDp4aOnBothInterpreters) {
    // Byte 0xE4 = 0b11'10'01'00: 2-bit field i of a byte goes to word i, so d[0], d[4], d[8],
    // d[12] are 0, 1, 2, 3 (signed: minus 2). The other bytes run through all values 0..255.
    const int G = 64;
    std::vector<double> qv = {double(int8_t(0xE4)), 0, 0, 0};
    for (int k = 4; k < 4 * G; ++k) qv.push_back(double(int8_t(uint8_t(k - 4))));
    std::vector<double> av;
    for (int k = 0; k < 16 * G; ++k) av.push_back(double((k * 37 + 5) % 256 - 128));
    for (bool isSigned : {false, true}) {
        std::map<std::string, std::string> params{{"G", std::to_string(G)}, {"signed", isSigned ? "True" : "False"}};
        ts::CompileResult r = compileKernel(kDequant, "cuda:sm_90a", "i2_dp4a", params);
        ASSERT_TRUE(r.ok) << diagText(r);
        std::vector<double> wantD, wantP;
        for (int g = 0; g < G; ++g) {
            int64_t dot = 0;
            for (int i = 0; i < 4; ++i)
                for (int j = 0; j < 4; ++j) {
                    int v = int((uint8_t(int8_t(qv[4 * g + j])) >> (2 * i)) & 3) - (isSigned ? 2 : 0);
                    wantD.push_back(v);
                    dot += int64_t(v) * int64_t(av[16 * g + 4 * i + j]);
                }
            wantP.push_back(double(dot));
        }
        const std::vector<double> hand = isSigned ? std::vector<double>{-2, -2, -2, -2, -1, -2, -2, -2, 0, -2, -2, -2, 1, -2, -2, -2}
                                                  : std::vector<double>{0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0};
        EXPECT_EQ(std::vector<double>(wantD.begin(), wantD.begin() + 16), hand);
        for (bool lowered : {false, true}) {
            std::vector<ts::HostTensor> args = {ts::makeHostTensor(DType::Int8, {4 * G}, qv),
                                                ts::makeHostTensor(DType::Int8, {16 * G}, av)};
            for (size_t o = 2; o < 4; ++o) {
                ts::HostTensor t;
                t.dtype = r.kernel.args.at(o).dtype;
                t.shape = r.kernel.args.at(o).shape;
                t.data.assign(static_cast<size_t>(t.numel()), -99.0);
                args.push_back(t);
            }
            auto run = lowered ? ts::interp::runLowered(r.lowered, args) : ts::interp::run(r.elaborated, args);
            ASSERT_TRUE(run.ok) << (run.error ? run.error->message : "failed");
            EXPECT_EQ(args[2].data, wantD) << "signed=" << isSigned << " lowered=" << lowered;
            EXPECT_EQ(args[3].data, wantP) << "signed=" << isSigned << " lowered=" << lowered;
        }
        expectNvrtcBoth(kDequant, "i2_dp4a", params);
    }
}

TEST(DequantExtern, UnknownSourceOrFunctionIsADiagnosticAtTheCall) {
    const std::string src = R"(import tilelang.language as T

@T.prim_func
def main(A: T.Tensor((8,), "uint8"), B: T.Tensor((16,), "bfloat16")):
    with T.Kernel(1, threads=1) as bx:
        q = T.alloc_local((8,), "uint8")
        d = T.alloc_local((16,), "bfloat16")
        T.call_extern("my_decode", T.access_ptr(q, "r"), T.access_ptr(d, "w"), 2)
)";
    ts::CompileOptions opts;
    opts.target = "cuda:sm_90a";
    ts::CompileResult r = ts::compile("bad.py", src, opts);
    ASSERT_FALSE(r.ok);
    EXPECT_NE(diagText(r).find("bad.py:8:23: error: T.call_extern: 'my_decode' is not a function TileScope models"),
              std::string::npos)
        << diagText(r);
    std::string wrongDst = src;
    wrongDst.replace(wrongDst.find("\"my_decode\""), 11, "\"decode_i4u_to_f16\"");
    r = ts::compile("bad.py", wrongDst, opts);
    ASSERT_FALSE(r.ok);
    EXPECT_NE(diagText(r).find("decode_i4u_to_f16 writes float16"), std::string::npos) << diagText(r);
}

TEST(DequantExtern, ThreadAllreduceSumsEachRowOnBothInterpreters) {
    for (const char* w : {"32", "16"}) {
        ts::CompileResult r = compileKernel(kAllreduce, "cuda:sm_80", "row_sums", {{"W", w}});
        ASSERT_TRUE(r.ok) << diagText(r);
        EXPECT_NE(r.cuda.find("__shfl_sync("), std::string::npos) << r.cuda;
        ts::e2e::expectInterpretersMatchReference(r, std::string("row_sums_w") + w);
        expectNvrtcBoth(kAllreduce, "row_sums", {{"W", w}});
    }
    ts::CompileResult bad = compileKernel(kAllreduce, "cuda:sm_80", "row_sums", {{"W", "64"}});
    ASSERT_FALSE(bad.ok);
    EXPECT_NE(diagText(bad).find("a power of two up to 32 is supported"), std::string::npos)
        << diagText(bad);
}

}  // namespace
