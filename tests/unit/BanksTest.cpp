// Bank-conflict analysis (compiler/analysis/Banks.h) on hand-counted cases:
//  - a warp reading a column of a 32x32 fp32 tile (stride 32 words): all 32 lanes in bank 0,
//    32 distinct words -> 32 wavefronts, 32-way, 31 excess;
//  - the same column of a 32x33 tile (padded by one word): word 33*t is in bank t%32 -> 1-way;
//  - 128-bit row-contiguous accesses: 4 quarter-warp phases of 8 x 16 B = 128 B each, every
//    phase covers all 32 banks once -> 4 wavefronts = 4 ideal, 0 excess;
//  - ldmatrix on the swizzled gemm tiles of samples/gemm.py: conflict-free; the same tiles
//    unswizzled (64-byte rows of A: rows r and r+2 share banks) -> 4-way.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/analysis/Banks.h"
#include "compiler/analysis/Ldmatrix.h"
#include "compiler/ir/IR.h"
#include "compiler/ir/Intrinsics.h"
#include "tests/support/SourceDir.h"

using namespace ts;
using namespace ts::ir;
using namespace ts::analysis;

namespace {

Buffer buf(std::string name, std::vector<int64_t> shape, DType t, Scope sc) {
    std::vector<Expr> ext;
    for (int64_t e : shape) ext.push_back(intImm(e));
    return std::make_shared<BufferNode>(std::move(name), t, std::move(ext), sc, Span{});
}

/// A lowered one-block kernel with `threads` threads around `body(tx)`.
PrimFunc kernel(int64_t threads, const std::function<Stmt(const Var&)>& body,
                std::vector<Buffer> params = {}) {
    Var tx = makeVar("tx", DType::Int32, {}, VarTag::ThreadIdx, 0);
    Var bx = makeVar("bx", DType::Int32, {}, VarTag::BlockIdx, 0);
    auto k =
        std::make_shared<KernelNode>(std::vector<Expr>{intImm(1)}, std::vector<int64_t>{threads},
                                     std::vector<Var>{bx}, std::vector<Var>{tx}, body(tx), Span{});
    auto f = std::make_shared<PrimFuncNode>();
    f->name = "k";
    f->params = std::move(params);
    f->body = k;
    f->attrs["flattened"] = true;
    return f;
}

Expr addr(const Buffer& b, Expr idx) {
    return call(intrin::kAddressOf, {load(b, {std::move(idx)})}, DType::Int64);
}

const AccessReport* find(const KernelBankReport& r, AccessKind k, const std::string& buffer) {
    for (auto& a : r.accesses)
        if (a.kind == k && a.buffer == buffer) return &a;
    return nullptr;
}

std::string readSample(const std::string& name) {
    std::ifstream in(std::filesystem::path(TS_SOURCE_DIR) / "samples" / name);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace

TEST(BankModel, SinglePhaseRules) {
    WarpRequest r;
    for (int l = 0; l < 32; ++l) r.addr[l] = 4 * l;  // consecutive words
    auto c = bankCost(r, true);
    EXPECT_EQ(c.wavefronts, 1);
    EXPECT_EQ(c.ways, 1);
    EXPECT_EQ(c.bankSlots.size(), 32u);
    for (int l = 0; l < 32; ++l) r.addr[l] = 0;  // broadcast of one word
    EXPECT_EQ(bankCost(r).wavefronts, 1);
    for (int l = 0; l < 32; ++l) r.addr[l] = 8 * l;  // stride 2 words: 2-way
    EXPECT_EQ(bankCost(r).ways, 2);
    r.bytes = 2;
    for (int l = 0; l < 32; ++l) r.addr[l] = 2 * l;  // halves: two lanes per word, 16 words
    EXPECT_EQ(bankCost(r).wavefronts, 1);
    WarpRequest v2;
    v2.bytes = 8;
    for (int l = 0; l < 32; ++l) v2.addr[l] = 8 * l;  // 64-bit contiguous: 2 half-warp phases
    auto c2 = bankCost(v2);
    EXPECT_EQ(c2.phases, 2);
    EXPECT_EQ(c2.wavefronts, 2);
    EXPECT_EQ(c2.ideal, 2);
}

TEST(Banks, StrideColumnReadIs32Way) {
    auto S = buf("S", {32, 32}, DType::Float32, Scope::Shared);
    auto L = buf("L", {1}, DType::Float32, Scope::Local);
    auto f = kernel(
        32, [&](const Var& tx) { return store(L, {intImm(0)}, load(S, {mul(tx, intImm(32))})); });
    auto r = analyzeBanks(f);
    auto* a = find(r, AccessKind::Load, "S");
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->ways, 32);
    EXPECT_DOUBLE_EQ(a->wavefronts, 32);
    EXPECT_DOUBLE_EQ(a->ideal, 1);
    EXPECT_DOUBLE_EQ(a->excess(), 31);
    EXPECT_EQ(a->instruction, "ld.shared.b32");
    EXPECT_DOUBLE_EQ(r.loadExcess(), 31);
}

TEST(Banks, PaddedColumnReadIsConflictFree) {
    auto S = buf("S", {32, 33}, DType::Float32, Scope::Shared);
    auto L = buf("L", {1}, DType::Float32, Scope::Local);
    auto f = kernel(
        32, [&](const Var& tx) { return store(L, {intImm(0)}, load(S, {mul(tx, intImm(33))})); });
    auto r = analyzeBanks(f);
    auto* a = find(r, AccessKind::Load, "S");
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->ways, 1);
    EXPECT_DOUBLE_EQ(a->excess(), 0);
}

TEST(Banks, Vector128RowContiguousIsFourIdealWavefronts) {
    // tl.copy_vec(&S[4*tx], &G[4*tx], 16) and back: 32 lanes x 16 B, one 512-byte row.
    auto S = buf("S", {128}, DType::Float32, Scope::Shared);
    auto G = buf("G", {128}, DType::Float32, Scope::Global);
    auto f =
        kernel(32,
               [&](const Var& tx) {
                   Expr i = mul(tx, intImm(4));
                   return seq({evaluate(call(intrin::kCopyVec, {addr(S, i), addr(G, i), intImm(16)},
                                             DType::Int32)),
                               evaluate(call(intrin::kCopyVec, {addr(G, i), addr(S, i), intImm(16)},
                                             DType::Int32))});
               },
               {G});
    auto r = analyzeBanks(f);
    for (auto k : {AccessKind::Store, AccessKind::Load}) {
        auto* a = find(r, k, "S");
        ASSERT_NE(a, nullptr);
        EXPECT_DOUBLE_EQ(a->wavefronts, 4);
        EXPECT_DOUBLE_EQ(a->ideal, 4);
        EXPECT_DOUBLE_EQ(a->excess(), 0);
        EXPECT_EQ(a->ways, 1);
    }
    // A 16-byte column read of a 32x32 fp32 tile (rows 128 B apart): each quarter warp's 8 rows
    // hit the same 4 banks -> 8 wavefronts per phase, 32 in all.
    auto T2 = buf("T", {32, 32}, DType::Float32, Scope::Shared);
    auto g = kernel(
        32,
        [&](const Var& tx) {
            return evaluate(call(intrin::kCopyVec,
                                 {addr(G, intImm(0)), addr(T2, mul(tx, intImm(32))), intImm(16)},
                                 DType::Int32));
        },
        {G});
    auto* c = find(analyzeBanks(g), AccessKind::Load, "T");
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->ways, 8);
    EXPECT_DOUBLE_EQ(c->wavefronts, 32);
}

TEST(Banks, LoopsGuardsAndWarps) {
    // 64 threads, for i in 0..3: if tx < 40: S[(i*64 + tx) * 2] (stride 2 words: 2-way).
    auto S = buf("S", {512}, DType::Float32, Scope::Shared);
    auto L = buf("L", {1}, DType::Float32, Scope::Local);
    Var i = makeVar("i");
    auto f = kernel(64, [&](const Var& tx) {
        Stmt body =
            ifThen(lt(tx, intImm(40)),
                   store(L, {intImm(0)}, load(S, {mul(add(mul(i, intImm(64)), tx), intImm(2))})));
        return forLoop(i, intImm(0), intImm(4), ForKind::Serial, body);
    });
    auto r = analyzeBanks(f);
    auto* a = find(r, AccessKind::Load, "S");
    ASSERT_NE(a, nullptr);
    // warp 0: 32 lanes, 2-way; warp 1: lanes 32..39 -> 8 words in 8 even banks, 1 wavefront.
    EXPECT_DOUBLE_EQ(a->executions, 8);
    EXPECT_DOUBLE_EQ(a->wavefronts, 4 * 2 + 4 * 1);
    EXPECT_EQ(a->ways, 2);
}

TEST(Banks, GemmSampleSwizzledLdmatrixIsConflictFree) {
    auto res = compile("samples/gemm.py", readSample("gemm.py"), {});
    ASSERT_TRUE(res.ok) << (res.diagnostics.empty() ? "" : res.diagnostics[0].message);
    auto r = analyzeBanks(res.lowered);
    int ldm = 0, cp = 0;
    for (auto& a : r.accesses) {
        if (a.kind == AccessKind::Ldmatrix) {
            ++ldm;
            EXPECT_EQ(a.ways, 1) << a.buffer << " " << a.instruction << " " << a.worstWhere;
            EXPECT_DOUBLE_EQ(a.excess(), 0);
            EXPECT_GT(a.executions, 0);
        }
        if (a.kind == AccessKind::CpAsync) {
            ++cp;
            EXPECT_EQ(a.ways, 1) << a.buffer << " " << a.worstWhere;
        }
    }
    EXPECT_EQ(ldm, 2);  // A: ldmatrix.x4, B: ldmatrix.x4.trans
    EXPECT_GE(cp, 2);
    // Per block: 16 k-tiles x 2 k16-steps x 4 warps x (4 A + 4 B ldmatrix.x4) x 4 phases.
    EXPECT_DOUBLE_EQ(r.loadIdeal, 16.0 * 2 * 4 * 8 * 4);
    EXPECT_EQ(r.blocks, 16);
}

TEST(Banks, AttentionRegisterAGemmLoadsOnlyB) {
    // samples/flash_attention.py defaults: 200 keys in 64-key tiles (4 iterations), dim 64, 4
    // warps. P @ V (gemm_rs) reads P from registers: its only shared loads are V's ldmatrix.x4.trans,
    // per warp and k16 step ceil(8 n8 atoms / 2) = 4, over 64/16 = 4 steps: 16 per warp, 64 per
    // iteration, 256 per block, 4 wavefronts each on the 128-byte swizzled V tile.
    auto res = compile("samples/flash_attention.py", readSample("flash_attention.py"), {});
    ASSERT_TRUE(res.ok) << (res.diagnostics.empty() ? "" : res.diagnostics[0].message);
    auto r = analyzeBanks(res.lowered);
    const AccessReport* v = nullptr;
    for (auto& a : r.accesses)
        if (a.kind == AccessKind::Ldmatrix && a.buffer == "v_tile") v = &a;
    ASSERT_TRUE(v);
    EXPECT_EQ(v->instruction, "ldmatrix.x4.trans");
    EXPECT_DOUBLE_EQ(v->executions, 256);
    EXPECT_DOUBLE_EQ(v->wavefronts, 256.0 * 4);
    EXPECT_DOUBLE_EQ(v->excess(), 0);
}

namespace {
class Unswizzle : public Mutator {
protected:
    Stmt visitEval(const EvalNode* n, const Stmt& self) override {
        auto* c = as<CallNode>(n->call);
        if (!c || c->op != intrin::kGemmSS) return self;
        auto args = c->args;
        args[10] = intImm(0), args[11] = intImm(0);
        return evaluate(call(c->op, args, c->dtype, c->span), n->span);
    }
};
}  // namespace

TEST(Banks, UnswizzledGemmTilesConflict) {
    // A: 128x32 fp16, 64-byte rows. One ldmatrix phase reads 8 consecutive rows at one 16-byte
    // column: byte r*64 + c, so rows r and r+2 share banks -> 4 rows per bank group = 4-way.
    GemmSSShape g{128, 128, 32, 2, 2, false, false, 0, 0, 2};
    int64_t aWays = 0, bWays = 0;
    for (auto& is : gemmOperandLoads(g, 0)) {
        WarpRequest r;
        r.bytes = 16, r.ldmatrix = is.matrices;
        for (int l = 0; l < 32; ++l) r.addr[l] = is.laneOffset[l];
        auto c = bankCost(r);
        (is.operand == 'A' ? aWays : bWays) =
            std::max<int64_t>(is.operand == 'A' ? aWays : bWays, c.ways);
    }
    EXPECT_EQ(aWays, 4);
    EXPECT_EQ(bWays, 8);  // B: 256-byte rows, 8 rows of one column all in the same 4 banks
    g.swizzleA = g.swizzleB = 128;
    for (auto& is : gemmOperandLoads(g, 3)) {
        WarpRequest r;
        r.bytes = 16, r.ldmatrix = is.matrices;
        for (int l = 0; l < 32; ++l) r.addr[l] = is.laneOffset[l];
        EXPECT_EQ(bankCost(r).ways, 1);
    }
    // Through the IR: the sample with the gemm_ss swizzle arguments forced to 0.
    auto res = compile("samples/gemm.py", readSample("gemm.py"), {});
    ASSERT_TRUE(res.ok);
    Unswizzle u;
    auto f = withBody(res.lowered, u.mutate(res.lowered->body));
    auto r = analyzeBanks(f);
    auto* a = find(r, AccessKind::Ldmatrix, "A_shared");
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->ways, 4);
    EXPECT_DOUBLE_EQ(a->wavefronts, 4 * a->ideal);
}

// Register packing of vector loads (NVIDIA forum t/77228; measured on the H200: a warp-uniform
// LDS.128 costs 2 wavefronts). Hand-derived:
//  - 16-byte load, all lanes one address: packed, 2 half-warp phases of one word-group -> 2.
//  - 16-byte load, lane l at (l % 4) * 16: lane n and n^1 differ, n and n^2 differ -> not packed;
//    4 quarter-warp phases, each reads the same 64 bytes (broadcast) -> 4 wavefronts, 0 excess.
//  - 16-byte load, lane l at (l / 2) * 16: pairs n, n^1 share -> packed, 2 phases of 16 lanes
//    covering 8 x 16 B = 128 contiguous bytes each -> 2 wavefronts.
//  - 8-byte load, all lanes one address: packed, 1 phase -> 1. The same as a store: 2 phases -> 2.
TEST(BankModel, VectorLoadRegisterPacking) {
    WarpRequest r;
    r.bytes = 16, r.load = true;
    r.addr.fill(256);
    EXPECT_TRUE(packedLoad(r));
    EXPECT_EQ(bankCost(r).wavefronts, 2);
    for (int l = 0; l < kWarpSize; ++l) r.addr[l] = (l % 4) * 16;
    EXPECT_FALSE(packedLoad(r));
    EXPECT_EQ(bankCost(r).wavefronts, 4);
    EXPECT_EQ(bankCost(r).ideal, 4);
    for (int l = 0; l < kWarpSize; ++l) r.addr[l] = (l / 2) * 16;
    EXPECT_TRUE(packedLoad(r));
    EXPECT_EQ(bankCost(r).wavefronts, 2);
    EXPECT_EQ(bankCost(r).ways, 1);
    WarpRequest v2;
    v2.bytes = 8, v2.load = true;
    v2.addr.fill(8);
    EXPECT_EQ(bankCost(v2).wavefronts, 1);
    v2.load = false;
    EXPECT_EQ(bankCost(v2).wavefronts, 2);
}

namespace {
KernelBankReport banksOf(const std::string& path,
                         const std::vector<std::pair<std::string, std::string>>& params, const char* target = nullptr) {
    std::ifstream in(std::filesystem::path(TS_SOURCE_DIR) / path);
    std::stringstream ss;
    ss << in.rdbuf();
    CompileOptions o;
    for (auto& [k, v] : params) o.params[k] = v;
    if (target) o.target = target;
    auto res = compile(path, ss.str(), o);
    EXPECT_TRUE(res.ok) << (res.diagnostics.empty() ? "" : res.diagnostics[0].message);
    return res.ok ? analyzeBanks(res.lowered) : KernelBankReport{};
}
const AccessReport* findInstr(const KernelBankReport& r, const std::string& prefix) {
    for (auto& a : r.accesses)
        if (a.instruction.rfind(prefix, 0) == 0) return &a;
    return nullptr;
}
}  // namespace

// ptxas merging of unrolled consecutive accesses, on bench/banks/transpose.py (32x32 tile, 256
// threads, 4 elements per thread: S[tx/8, 4*(tx%8) + r], r = 0..3). Hand-derived:
//  - fp32, no padding: each lane's 4 floats are 16-byte aligned -> one st.shared.v4 per warp;
//    8 lanes of a quarter warp write one 128-byte row -> 4 wavefronts, 0 excess; 8 warps -> 32.
//    (Unmerged, the 4 scalar stores would be 4-way: rows tx/8 of one warp share banks.)
//  - fp16, padding 2 (rows of 68 bytes): a lane's first address is row*68 + 8*(tx%8), 8-byte
//    aligned only on even rows -> pairs (b32) merge, 4-halves do not; per b32 store the warp's 4
//    rows start at words 0, 17, 34, 51 = banks 0, 17, 2, 19: rows 0 and 2 overlap on 7 banks ->
//    2-way; 8 warps x 2 stores = 16 executions, 32 wavefronts, 16 excess.
//  - the column reads S[4*(tx%8) + r, tx/8] stride a whole row in r -> never merged.
TEST(Banks, PtxasMergesUnrolledContiguousStores) {
    auto f32 = banksOf("bench/banks/transpose.py", {{"pad", "0"}});
    auto* st = findInstr(f32, "st.shared.v4 (16 B) = 4 x b32");
    ASSERT_NE(st, nullptr);
    EXPECT_DOUBLE_EQ(st->executions, 8);
    EXPECT_DOUBLE_EQ(st->wavefronts, 32);
    EXPECT_DOUBLE_EQ(st->excess(), 0);
    EXPECT_EQ(findInstr(f32, "st.shared.b32"), nullptr);
    auto* ld = findInstr(f32, "ld.shared.b32");
    ASSERT_NE(ld, nullptr);
    EXPECT_DOUBLE_EQ(ld->executions, 32);

    auto f16 = banksOf("bench/banks/transpose.py", {{"pad", "2"}, {"dtype", "float16"}});
    auto* st2 = findInstr(f16, "st.shared.b32 = 2 x b16");
    ASSERT_NE(st2, nullptr);
    EXPECT_DOUBLE_EQ(st2->executions, 16);
    EXPECT_DOUBLE_EQ(st2->wavefronts, 32);
    EXPECT_DOUBLE_EQ(st2->excess(), 16);
    EXPECT_EQ(st2->ways, 2);
}

// The staged epilogue of a 128 x 256 wgmma accumulator (samples/gemm.py's fast sm_90a
// configuration, stage-epilogue): each thread writes its 128 fp16 values as 64 pairs (codegen's
// 4-byte stores, VectorAccess.h), 8 warps -> 512 warp executions per block. In a pair store the
// 32 lanes cover 8 rows x 4 pairs: the 4 lanes of a row fill one 16-byte chunk and the 128-byte
// swizzle XORs the chunk index with row % 8, so the 8 rows land in 8 distinct chunks = all 32
// banks: 1 wavefront each, no excess. (The loop has 128 iterations: with the old 64-iteration cap
// of the merge model the same stores were reported as 1024 two-byte ones.)
TEST(Banks, StagedEpilogueOfA128x256AccumulatorIsConflictFreePairStores) {
    auto r = banksOf("samples/gemm.py", {{"M", "4096"}, {"N", "4096"}, {"K", "4096"}, {"block_M", "128"}, {"block_N", "256"},
                                         {"block_K", "64"}, {"num_stages", "4"}, {"threads", "256"}},
                    "cuda:sm_90a");
    const AccessReport* st = nullptr;
    for (auto& a : r.accesses)
        if (a.buffer == "C_local_stage") st = &a;
    ASSERT_NE(st, nullptr);
    EXPECT_EQ(st->instruction, "st.shared.b32 = 2 x b16");
    EXPECT_DOUBLE_EQ(st->executions, 512);
    EXPECT_DOUBLE_EQ(st->wavefronts, 512);
    EXPECT_DOUBLE_EQ(st->excess(), 0);
}

// The cross-warp step of a row reduction reads red_smem[w] for w = 0..7 (unrolled, the same
// address in every lane): ptxas issues two warp-uniform LDS.128, 2 wavefronts each (packing).
TEST(Banks, ReductionScratchReadsMergeAndPack) {
    auto r = banksOf("samples/softmax.py", {{"M", "1024"}, {"N", "1024"}});
    int merged = 0;
    for (auto& a : r.accesses)
        if (a.instruction == "ld.shared.v4 (16 B) = 4 x b32") {
            ++merged;
            EXPECT_DOUBLE_EQ(a.executions, 8 * 2);  // 8 warps x 2 loads
            EXPECT_DOUBLE_EQ(a.wavefronts, 8 * 2 * 2);
        }
    EXPECT_EQ(merged, 2);                                          // max and sum
    EXPECT_DOUBLE_EQ(r.loadWavefronts * double(r.blocks), 65536);  // measured on the H200
}

// A T.Layout index map ([j, i]: column-major) is what the layout view and bank analysis use for
// the tile's physical offsets: element (i, j) of the 64x64 tile sits at j * 64 + i.
TEST(Banks, SharedOffsetFollowsUserIndexMap) {
    std::ifstream in(std::filesystem::path(TS_SOURCE_DIR) /
                     "tests/e2e/programs/user_layouts_copy.py");
    std::stringstream ss;
    ss << in.rdbuf();
    auto res = compile("user_layouts_copy.py", ss.str(), {});
    ASSERT_TRUE(res.ok) << (res.diagnostics.empty() ? "" : res.diagnostics[0].message);
    auto it = res.lowered->layouts.find("S2");
    ASSERT_NE(it, res.lowered->layouts.end());
    const LayoutNode& l = *it->second;
    ASSERT_EQ(l.shape, (std::vector<int64_t>{64, 64}));
    EXPECT_EQ(sharedElementOffset(l, {0, 0}, 4), 0);
    EXPECT_EQ(sharedElementOffset(l, {1, 0}, 4), 1);
    EXPECT_EQ(sharedElementOffset(l, {0, 1}, 4), 64);
    EXPECT_EQ(sharedElementOffset(l, {5, 7}, 4), 7 * 64 + 5);
}
