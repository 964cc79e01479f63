// Issue 8 (lang-ptx): T.view of a shared buffer with another shape and dtype (sparse MLA
// backward's float32 scratch on its bfloat16 KV tile), in tests/e2e/programs/shared_view_scratch.py:
// values against float64 on both interpreters, the view on the viewed buffer's bytes in the
// shared-memory plan and the generated CUDA, barriers between the two names' accesses, NVRTC
// sm_80 and sm_90a. tests/e2e/programs/pipelined_view_copy.py: a copy into a view of a gemm
// operand after the gemm in a T.Pipelined loop stays after it (plan-pipelines and the TMA gemm
// path compare buffers by storage), on both targets. tests/e2e/programs/shared_view_alias.py: data
// written through a tile reads back through its views and the other way round (a T.reshape, a
// uint8 view, an int16 view of an int32 tile), row-major and 128-byte swizzled, bit-exact on
// both interpreters and both targets (before, each name had storage of its own on the
// interpreters, and on the GPU a view ignored its tile's swizzle).
#include <cmath>
#include <cstdint>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/support/HostTensor.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

using ts::e2e::diagText;

const char* kScratch = "tests/e2e/programs/shared_view_scratch.py";

ts::CompileResult compileScratch(int64_t B, int64_t L, const char* target = "cuda:sm_90a") {
    ts::CompileOptions opts;
    opts.params = {{"B", std::to_string(B)}, {"L", std::to_string(L)}};
    opts.target = target;
    return ts::compile(kScratch, ts::e2e::readRepoFile(kScratch), opts);
}

TEST(SharedView, ScratchViewMatchesFloat64OnBothInterpreters) {
    for (auto [B, L] : {std::pair<int64_t, int64_t>{2, 3}, {1, 1}, {1, 4}}) {
        ts::CompileResult r = compileScratch(B, L);
        ASSERT_TRUE(r.ok) << diagText(r);
        std::vector<double> x(static_cast<size_t>(B * L * 64 * 64));
        for (size_t i = 0; i < x.size(); ++i) x[i] = double(int64_t(i * 23 % 61) - 30) / 8.0;  // exact in half
        std::vector<double> ref(static_cast<size_t>(B * 64 * 64), 0.0);
        for (int64_t b = 0; b < B; ++b)
            for (int64_t s = 0; s < 2; ++s)
                for (int64_t i = 0; i < 32; ++i)
                    for (int64_t j = 0; j < 64; ++j)
                        for (int64_t k = 0; k < L; ++k)
                            ref[(b * 64 + s * 32 + i) * 64 + j] +=
                                double(k + 1) * x[(b * L * 64 + k * 64 + s * 32 + (i + 5) % 32) * 64 + j];
        for (bool lowered : {false, true}) {
            std::vector<ts::HostTensor> args{ts::makeHostTensor(ts::ir::DType::Float16, {B, L * 64, 64}, x)};
            ts::HostTensor y;
            y.dtype = ts::ir::DType::Float32;
            y.shape = {B, 64, 64};
            y.data.assign(ref.size(), std::nan(""));
            args.push_back(y);
            auto run = lowered ? ts::interp::runLowered(r.lowered, args) : ts::interp::run(r.elaborated, args);
            ASSERT_TRUE(run.ok) << (lowered ? "lowered: " : "tile: ")
                                << (run.error ? ts::formatDiagnostic(*run.error, r.source.get()) : "");
            for (size_t i = 0; i < ref.size(); ++i)  // exact: sums of multiples of 1/8 in float32
                ASSERT_EQ(args[1].data[i], double(float(ref[i]))) << "B=" << B << " L=" << L << " element " << i << " lowered=" << lowered;
        }
    }
}

TEST(SharedView, TheViewSharesTheBufferBytesAndIsOrderedByBarriers) {
    ts::CompileResult r = compileScratch(2, 3);
    ASSERT_TRUE(r.ok) << diagText(r);
    // 16 KiB for `out` plus the 8 KiB of `half`, which `scratch` reuses; on sm_90a the copy into
    // `half` is a TMA load whose mbarrier takes the first 128 bytes (ops/CopyTma.cpp).
    EXPECT_NE(r.cuda.find("ts::half* half = reinterpret_cast<ts::half*>(ts_smem + 16512);"), std::string::npos) << r.cuda;
    EXPECT_NE(r.cuda.find("float* scratch = reinterpret_cast<float*>(ts_smem + 16512);"), std::string::npos) << r.cuda;
    EXPECT_NE(r.cuda.find("unsigned long long* tma_copy_bar_1 = reinterpret_cast<unsigned long long*>(ts_smem + 0);"), std::string::npos);
    ts::CompileResult r80 = compileScratch(2, 3, "cuda:sm_80");
    ASSERT_TRUE(r80.ok) << diagText(r80);
    EXPECT_NE(r80.cuda.find("ts::half* half = reinterpret_cast<ts::half*>(ts_smem + 16384);"), std::string::npos) << r80.cuda;
    EXPECT_NE(r80.cuda.find("float* scratch = reinterpret_cast<float*>(ts_smem + 16384);"), std::string::npos) << r80.cuda;
    // Writing scratch after the reads of half (and the next chunk's copy into half after the reads
    // of scratch) needs a block barrier each: the loop over the two halves starts with one.
    const size_t loop = r.cuda.find("for (int s = 0; s < 2; ++s) {");
    ASSERT_NE(loop, std::string::npos) << r.cuda;
    const size_t write = r.cuda.find("scratch[", loop);
    ASSERT_NE(write, std::string::npos) << r.cuda;
    EXPECT_LT(r.cuda.find("__syncthreads();", loop), write) << r.cuda;
}

TEST(SharedView, ScratchViewCompilesWithNvrtcForSm80AndSm90a) { ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kScratch, {}); }

const char* kPipelined = "tests/e2e/programs/pipelined_view_copy.py";

ts::CompileResult compilePipelined(int64_t tiles, int64_t stages, const char* target) {
    ts::CompileOptions opts;
    opts.params = {{"T_tiles", std::to_string(tiles)}, {"num_stages", std::to_string(stages)}};
    opts.target = target;
    return ts::compile(kPipelined, ts::e2e::readRepoFile(kPipelined), opts);
}

// Out = sum_t A_t @ B_t and Total = sum_t C_t against float64, on both interpreters and both
// targets. Keyed by buffer, the copy into the view of B_s was hoisted before the gemm (sm_80:
// cp.async; sm_90a: the TMA gemm path multi-buffered B_s and loaded the view into its first stage).
TEST(SharedView, CopyIntoAViewOfAGemmOperandStaysAfterTheGemmInAPipelinedLoop) {
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"})
        for (auto [tiles, stages] : {std::pair<int64_t, int64_t>{3, 2}, {4, 3}, {1, 2}}) {
            ts::CompileResult r = compilePipelined(tiles, stages, target);
            ASSERT_TRUE(r.ok) << diagText(r);
            const int64_t M = 64, K = 64, N = 64;
            std::vector<double> a(size_t(tiles * M * K)), b(size_t(tiles * K * N)), c(size_t(tiles * K / 2 * N));
            for (size_t i = 0; i < a.size(); ++i) a[i] = double(int64_t(i * 37 % 17) - 8) / 4.0;  // exact in half
            for (size_t i = 0; i < b.size(); ++i) b[i] = double(int64_t(i * 11 % 13) - 6) / 2.0;
            for (size_t i = 0; i < c.size(); ++i) c[i] = double(int64_t(i * 7 % 29) - 14) / 8.0;
            std::vector<double> out(size_t(M * N), 0.0), total(size_t(K / 2 * N), 0.0);
            for (int64_t t = 0; t < tiles; ++t) {
                for (int64_t i = 0; i < M; ++i)
                    for (int64_t j = 0; j < N; ++j)
                        for (int64_t k = 0; k < K; ++k) out[size_t(i * N + j)] += a[size_t((t * M + i) * K + k)] * b[size_t((t * K + k) * N + j)];
                for (int64_t i = 0; i < K / 2 * N; ++i) total[size_t(i)] += c[size_t(t * K / 2 * N + i)];
            }
            for (bool lowered : {false, true}) {
                std::vector<ts::HostTensor> args{ts::makeHostTensor(ts::ir::DType::Float16, {tiles * M, K}, a),
                                                 ts::makeHostTensor(ts::ir::DType::Float16, {tiles * K, N}, b),
                                                 ts::makeHostTensor(ts::ir::DType::Float32, {tiles * K / 2, N}, c)};
                for (auto [rows, n] : {std::pair<int64_t, size_t>{M, out.size()}, {K / 2, total.size()}}) {
                    ts::HostTensor y;
                    y.dtype = ts::ir::DType::Float32;
                    y.shape = {rows, N};
                    y.data.assign(n, std::nan(""));
                    args.push_back(y);
                }
                auto run = lowered ? ts::interp::runLowered(r.lowered, args) : ts::interp::run(r.elaborated, args);
                ASSERT_TRUE(run.ok) << target << (lowered ? " lowered: " : " tile: ")
                                    << (run.error ? ts::formatDiagnostic(*run.error, r.source.get()) : "");
                // Exact: products of multiples of 1/8 summed in float32 stay well inside 24 bits.
                for (size_t i = 0; i < out.size(); ++i)
                    ASSERT_EQ(args[3].data[i], double(float(out[i]))) << target << " T=" << tiles << " element " << i << " lowered=" << lowered;
                for (size_t i = 0; i < total.size(); ++i)
                    ASSERT_EQ(args[4].data[i], double(float(total[i]))) << target << " T=" << tiles << " element " << i << " lowered=" << lowered;
            }
        }
}

TEST(SharedView, PipelinedCopiesOnAViewedTileStaySynchronousWithTheReason) {
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
        ts::CompileResult r = compilePipelined(3, 2, target);
        ASSERT_TRUE(r.ok) << diagText(r);
        const std::string d = diagText(r);
        EXPECT_NE(d.find("this copy stays synchronous because 'scratch' (a view of 'B_s') is also written by another statement of the loop"),
                  std::string::npos) << target << "\n" << d;
        EXPECT_NE(d.find("this copy stays synchronous because 'B_s' is also written by another statement of the loop"), std::string::npos)
            << target << "\n" << d;
        // In the loop, the gemm comes before the copy into scratch (its first access).
        const size_t loop = r.cuda.find("for (int t = 0; t < 3; ++t) {");
        ASSERT_NE(loop, std::string::npos) << target << "\n" << r.cuda;
        const size_t gemm = r.cuda.find("gemm", loop), scratch = r.cuda.find("scratch[", loop);
        ASSERT_NE(gemm, std::string::npos) << target << "\n" << r.cuda;
        ASSERT_NE(scratch, std::string::npos) << target << "\n" << r.cuda;
        EXPECT_LT(gemm, scratch) << target << "\n" << r.cuda;
        // Before the loop, only A_s's copy is issued ahead.
        const std::string prologue = r.cuda.substr(0, loop);
        EXPECT_EQ(prologue.find("&scratch["), std::string::npos) << target << "\n" << r.cuda;
        EXPECT_EQ(prologue.find("B_s["), std::string::npos) << target << "\n" << r.cuda;
    }
}

TEST(SharedView, PipelinedViewCopyCompilesWithNvrtcForSm80AndSm90a) {
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kPipelined, {});
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kPipelined, {{"T_tiles", "4"}, {"num_stages", "3"}});
}

const char* kAlias = "tests/e2e/programs/shared_view_alias.py";

ts::CompileResult compileAlias(bool swizzled, const char* target) {
    ts::CompileOptions opts;
    opts.params = {{"swizzled", swizzled ? "True" : "False"}};
    opts.target = target;
    return ts::compile(kAlias, ts::e2e::readRepoFile(kAlias), opts);
}

TEST(SharedView, DataWrittenThroughOneNameReadsBackThroughTheOtherBitExact) {
    const int64_t M = 64, N = 64;
    std::vector<double> a(size_t(M * N)), x(size_t(M * N));
    for (int64_t i = 0; i < M * N; ++i) {
        a[size_t(i)] = double(int64_t(i * 37 % 2001) - 1000) / 64.0;  // exact in half, both signs
        x[size_t(i)] = double(int64_t(i * 7919 % 65536) - 32768);      // every int16 bit pattern region
    }
    // Hand-derived: A flattened; A's bytes little-endian (PTX ISA 5.2: element i at byte 2i);
    // int32 word k of a row = halves 2k (low) and 2k + 1 (high).
    std::vector<double> out8(size_t(M * 2 * N)), out32(size_t(M * N / 2));
    for (int64_t i = 0; i < M * N; ++i) {
        uint32_t bits = ts::floatBits(ts::ir::DType::Float16, a[size_t(i)]);
        out8[size_t(2 * i)] = double(bits & 0xFF);
        out8[size_t(2 * i + 1)] = double(bits >> 8);
    }
    for (int64_t i = 0; i < M; ++i)
        for (int64_t k = 0; k < N / 2; ++k) {
            uint32_t lo = uint32_t(int32_t(x[size_t(i * N + 2 * k)])) & 0xFFFF, hi = uint32_t(int32_t(x[size_t(i * N + 2 * k + 1)]));
            out32[size_t(i * N / 2 + k)] = double(int32_t(lo | (hi << 16)));
        }
    for (bool swizzled : {false, true})
        for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
            ts::CompileResult r = compileAlias(swizzled, target);
            ASSERT_TRUE(r.ok) << diagText(r);
            for (bool lowered : {false, true}) {
                std::vector<ts::HostTensor> args{ts::makeHostTensor(ts::ir::DType::Float16, {M, N}, a),
                                                 ts::makeHostTensor(ts::ir::DType::Int16, {M, N}, x)};
                ts::HostTensor o16 = ts::makeHostTensor(ts::ir::DType::Float16, {M * N}, std::vector<double>(size_t(M * N), std::nan("")));
                ts::HostTensor o8 = ts::makeHostTensor(ts::ir::DType::UInt8, {M, 2 * N}, std::vector<double>(out8.size(), 7.0));
                ts::HostTensor o32 = ts::makeHostTensor(ts::ir::DType::Int32, {M, N / 2}, std::vector<double>(out32.size(), -7.0));
                args.push_back(o16), args.push_back(o8), args.push_back(o32);
                auto run = lowered ? ts::interp::runLowered(r.lowered, args) : ts::interp::run(r.elaborated, args);
                const std::string where = std::string(target) + (swizzled ? " swizzled" : " row-major") + (lowered ? " lowered" : " tile");
                ASSERT_TRUE(run.ok) << where << ": " << (run.error ? ts::formatDiagnostic(*run.error, r.source.get()) : "");
                for (size_t i = 0; i < a.size(); ++i) ASSERT_EQ(args[2].data[i], a[i]) << where << " Out16[" << i << "]";
                for (size_t i = 0; i < out8.size(); ++i) ASSERT_EQ(args[3].data[i], out8[i]) << where << " Out8[" << i << "]";
                for (size_t i = 0; i < out32.size(); ++i) ASSERT_EQ(args[4].data[i], out32[i]) << where << " Out32[" << i << "]";
            }
        }
}

// The swizzled tile's views are placed through its XOR swizzle in the generated code, and a copy
// out of a view does not take a TMA store (its tensor map would describe the view's box
// row-major); the tile's own copy still does.
TEST(SharedView, ViewsOfASwizzledTileFollowItsSwizzleAndSkipTma) {
    ts::CompileResult r = compileAlias(true, "cuda:sm_90a");
    ASSERT_TRUE(r.ok) << diagText(r);
    const std::string notes = diagText(r);
    EXPECT_NE(notes.find("T.copy from 'A_bytes' into 'Out8' does not use a TMA store: 'A_bytes' shares its bytes with 'A_s', whose layout (shared, row 128 B, 128-byte XOR swizzle) places them"), std::string::npos) << notes;
    EXPECT_NE(notes.find("T.copy from 'W_s' into 'Out32' uses a TMA store"), std::string::npos) << notes;
    for (const char* view : {"A_flat[", "A_bytes[", "W_halves["}) {
        const size_t at = r.cuda.find(view, r.cuda.find("__global__"));
        ASSERT_NE(at, std::string::npos) << view << "\n" << r.cuda;
        const std::string line = r.cuda.substr(at, r.cuda.find('\n', at) - at);
        EXPECT_NE(line.find(" ^ "), std::string::npos) << view << " is not addressed through the swizzle: " << line;
    }
    ts::CompileResult plain = compileAlias(false, "cuda:sm_90a");
    ASSERT_TRUE(plain.ok) << diagText(plain);
    const size_t at = plain.cuda.find("A_bytes[", plain.cuda.find("__global__"));
    ASSERT_NE(at, std::string::npos);
    EXPECT_EQ(plain.cuda.substr(at, plain.cuda.find('\n', at) - at).find(" ^ "), std::string::npos);
}

TEST(SharedView, AliasProgramCompilesWithNvrtcForSm80AndSm90a) {
    for (const char* sw : {"False", "True"}) ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kAlias, {{"swizzled", sw}});
}

const char* kGemmOperand = "tests/e2e/programs/shared_view_gemm_operand.py";

// A view that takes a layout of its own (a T.gemm operand, T.annotate_layout) on a row-major tile:
// the view's layout places the tile's bytes for every name (fresh-user findings: the tile's copy
// wrote row-major, the view read swizzled, wrong values on both targets). Hand-derived results:
// C = A @ B^T with A, B multiples of 1/8 in [-2, 2] (exact in float32), Out8 = A's bytes.
TEST(SharedView, AViewWithALayoutOfItsOwnPlacesItsTilesBytes) {
    const int64_t M = 64, N = 64, K = 64;
    std::vector<double> a(size_t(M * K)), b(size_t(N * K)), a8(size_t(M * 2 * K)), b8(size_t(N * 2 * K));
    for (int64_t i = 0; i < M * K; ++i) a[size_t(i)] = double(int64_t(i * 13 % 33) - 16) / 8.0;
    for (int64_t i = 0; i < N * K; ++i) b[size_t(i)] = double(int64_t(i * 29 % 31) - 15) / 8.0;
    auto bytes = [](const std::vector<double>& h, std::vector<double>& out) {
        for (size_t i = 0; i < h.size(); ++i) {
            const uint32_t bits = ts::floatBits(ts::ir::DType::Float16, h[i]);
            out[2 * i] = double(bits & 0xFF), out[2 * i + 1] = double(bits >> 8);
        }
    };
    bytes(a, a8), bytes(b, b8);
    std::vector<double> c(size_t(M * N), 0.0);
    for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j)
            for (int64_t k = 0; k < K; ++k) c[size_t(i * N + j)] += a[size_t(i * K + k)] * b[size_t(j * K + k)];
    for (int mode : {0, 1, 2})
        for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
            ts::CompileOptions opts;
            opts.params = {{"mode", std::to_string(mode)}};
            opts.target = target;
            ts::CompileResult r = ts::compile(kGemmOperand, ts::e2e::readRepoFile(kGemmOperand), opts);
            ASSERT_TRUE(r.ok) << diagText(r);
            for (bool lowered : {false, true}) {
                std::vector<ts::HostTensor> args{ts::makeHostTensor(ts::ir::DType::Float16, {M, K}, a),
                                                 ts::makeHostTensor(ts::ir::DType::Float16, {N, K}, b),
                                                 ts::makeHostTensor(ts::ir::DType::UInt8, {M, 2 * K}, a8),
                                                 ts::makeHostTensor(ts::ir::DType::UInt8, {N, 2 * K}, b8),
                                                 ts::makeHostTensor(ts::ir::DType::Float32, {M, N}, std::vector<double>(c.size(), std::nan(""))),
                                                 ts::makeHostTensor(ts::ir::DType::UInt8, {M, 2 * K}, std::vector<double>(a8.size(), 7.0))};
                auto run = lowered ? ts::interp::runLowered(r.lowered, args) : ts::interp::run(r.elaborated, args);
                const std::string where = std::string(target) + " mode " + std::to_string(mode) + (lowered ? " lowered" : " tile");
                ASSERT_TRUE(run.ok) << where << ": " << (run.error ? ts::formatDiagnostic(*run.error, r.source.get()) : "");
                for (size_t i = 0; i < c.size(); ++i) ASSERT_EQ(args[4].data[i], mode == 2 ? 0.0 : c[i]) << where << " C[" << i << "]";
                for (size_t i = 0; i < a8.size(); ++i) ASSERT_EQ(args[5].data[i], mode == 2 ? a8[i] : 0.0) << where << " Out8[" << i << "]";
            }
        }
}

// A wgmma operand view of a row-major tile sits on the tile's bytes, which plan-smem must align to
// 1024 bytes like the view's own (the GPU read garbage at byte 128: the tensor core's swizzle is a
// function of the address; the thread interpreter now checks the address, not the offset in the tile).
TEST(SharedView, AWgmmaOperandViewAlignsItsTileTo1024Bytes) {
    ts::CompileOptions opts;
    opts.params = {{"mode", "1"}};
    opts.target = "cuda:sm_90a";
    ts::CompileResult r = ts::compile(kGemmOperand, ts::e2e::readRepoFile(kGemmOperand), opts);
    ASSERT_TRUE(r.ok) << diagText(r);
    for (const char* name : {"ts::half* A_flat = reinterpret_cast<ts::half*>(ts_smem + ", "ts::half* A_2d = reinterpret_cast<ts::half*>(ts_smem + "}) {
        const size_t at = r.cuda.find(name);
        ASSERT_NE(at, std::string::npos) << name << "\n" << r.cuda;
        EXPECT_EQ(std::stoll(r.cuda.substr(at + std::string(name).size())) % 1024, 0) << name;
    }
}

TEST(SharedView, GemmOperandViewsCompileWithNvrtcForSm80AndSm90a) {
    for (const char* m : {"0", "1", "2"}) ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kGemmOperand, {{"mode", m}});
}

const char* kCopyIntoView = "tests/e2e/programs/pipelined_copy_into_view.py";

// A pipelined copy into a view of a tile that the loop reads by the tile's own name stays
// synchronous (the pipeline would stage the view only), with the reason; the values are right on
// both interpreters and targets (hand-derived: tiles of exact halves whose bits are the input).
TEST(SharedView, APipelinedCopyIntoAViewOfATileTheLoopReadsStaysSynchronous) {
    const int64_t M = 64, N = 64, K = 3;
    std::vector<double> half(size_t(M * N * K)), bits(half.size()), out(size_t(M * N), 0.0);
    for (size_t i = 0; i < half.size(); ++i) {
        half[i] = double(int64_t(i * 11 % 41) - 20) / 4.0;
        bits[i] = double(int16_t(ts::floatBits(ts::ir::DType::Float16, half[i])));
    }
    for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j)
            for (int64_t k = 0; k < K; ++k) out[size_t(i * N + j)] += double(k + 1) * half[size_t(i * N * K + k * N + j)];
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
        ts::CompileOptions opts;
        opts.target = target;
        ts::CompileResult r = ts::compile(kCopyIntoView, ts::e2e::readRepoFile(kCopyIntoView), opts);
        ASSERT_TRUE(r.ok) << diagText(r);
        EXPECT_NE(diagText(r).find("T.Pipelined: this copy stays synchronous because it writes 'tile' through its view 'bits' and the loop "
                                   "reads those bytes as 'tile', which would stay on the first stage"),
                  std::string::npos)
            << diagText(r);
        for (bool lowered : {false, true}) {
            std::vector<ts::HostTensor> args{ts::makeHostTensor(ts::ir::DType::Int16, {M, N * K}, bits),
                                             ts::makeHostTensor(ts::ir::DType::Float32, {M, N}, std::vector<double>(out.size(), std::nan("")))};
            auto run = lowered ? ts::interp::runLowered(r.lowered, args) : ts::interp::run(r.elaborated, args);
            ASSERT_TRUE(run.ok) << target << (lowered ? " lowered: " : " tile: ") << (run.error ? ts::formatDiagnostic(*run.error, r.source.get()) : "");
            for (size_t i = 0; i < out.size(); ++i) ASSERT_EQ(args[1].data[i], out[i]) << target << (lowered ? " lowered" : " tile") << " Out[" << i << "]";
        }
    }
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kCopyIntoView, {});
}

// A view made in a T.Kernel block of a tile allocated in another block: each block is a launch
// with its own shared memory, so it is an error at the view (it compiled to a fresh, never-written
// buffer; found by fresh-user helper-103).
TEST(SharedView, AViewOfAnotherKernelBlocksTileIsAnError) {
    const char* text = R"(import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1, 2])
def two(M=64, N=64):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float16"), O: T.Tensor((M, N), "float16"), O8: T.Tensor((M, 2 * N), "uint8")):
        with T.Kernel(1, threads=128) as bx:
            S = T.alloc_shared((M, N), "float16")
            T.copy(A, S)
            T.copy(S, O)
        with T.Kernel(1, threads=128) as bx:
            V = T.view(S, (M, 2 * N), dtype="uint8")
            T.copy(V, O8)

    return main
)";
    ts::CompileResult r = ts::compile("two.py", text, {});
    EXPECT_FALSE(r.ok);
    bool found = false;
    for (auto& d : r.diagnostics)
        if (d.severity == ts::Severity::Error && d.span.line == 14 &&
            d.message == "'V' views shared tile 'S' of another T.Kernel block: each block is a launch of its own, with its own shared memory")
            found = true;
    EXPECT_TRUE(found) << diagText(r);
}

}  // namespace
