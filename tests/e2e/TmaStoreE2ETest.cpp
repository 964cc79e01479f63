// TMA stores (issue 9, Build item 1): a plain T.copy shared -> global on cuda:sm_90a is one TMA
// store exactly where the hardware allows it (compiler/ops/CopyTma.cpp, tmaStoreWhyNot), with a
// note either way. The legality rule is derived here from the documents, not from the compiler:
//  - CUDA Driver API, cuTensorMapEncodeTiled: global address 16-byte aligned (cudaMalloc'd
//    kernel tensors), every global stride -- the row pitch N * bytes -- a multiple of 16, box
//    extents 1..256, inner box bytes a multiple of 16, a CUtensorMapDataType element;
//  - measured for loads on the H200 (bench/h200_tma_plain.sh, 2026-12-03) and applied to stores,
//    which address global memory through the same tensor-map coordinates: the box's first column
//    16-byte aligned;
//  - PTX ISA §9.7.9.25.5.2 (cp.async.bulk.tensor, .global.shared::cta direction): box elements
//    outside the tensor are not written, so ragged tails stay one store;
//  - measured on the H200 (bench/h200_tma_store.sh, 2026-12-04): a store whose box starts before
//    the tensor (negative row or column) faults with CUDA_ERROR_ILLEGAL_INSTRUCTION, so such
//    starts keep plain stores.
// tests/e2e/programs/tma_store.py computes Out = 2 * A tile by tile into a shared tile and stores
// it; the tiles start at (off_m, off_n) <= 0 and M, N are not multiples of the 32 x 64 tile.
// Checked: the choice at every point of a sweep over dtypes (int32, float16, float8_e4m3,
// float32), row pitches and starts; the lowered sequence (fence by every thread, barrier, one
// elected store + commit, wait_group.read outside loops and the full wait before the kernel
// exits, the full wait after each store inside a loop); the other reasons with their hints; both
// interpreters against float64 on ragged tails and negative starts, TMA and plain; NVRTC for
// sm_80 and sm_90a. The GPU run is bench/h200_tma_store.sh.
#include <tuple>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/CompileObserver.h"
#include "compiler/interp/ThreadInterpreter.h"
#include "compiler/ir/Builder.h"
#include "compiler/ir/Functor.h"
#include "compiler/ir/Printer.h"
#include "compiler/transforms/Hopper.h"
#include "compiler/transforms/LowerCommon.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/LoweredDefects.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

const char* kStore = "tests/e2e/programs/tma_store.py";

struct Dt {
    const char* name;
    int bytes;
};
constexpr Dt kDtypes[] = {{"int32", 4}, {"float16", 2}, {"float8_e4m3", 1}, {"float32", 4}};

std::map<std::string, std::string> params(int M, int N, int offM, int offN, const Dt& d, int kind) {
    return {{"M", std::to_string(M)},       {"N", std::to_string(N)},
            {"off_m", std::to_string(offM)}, {"off_n", std::to_string(offN)},
            {"dtype", std::string("\"") + d.name + "\""}, {"kind", std::to_string(kind)}};
}

ts::CompileResult compileAt(const std::string& file, const std::string& text, const std::map<std::string, std::string>& p,
                            const char* target = "cuda:sm_90a") {
    ts::CompileOptions opts;
    opts.params = p;
    opts.target = target;
    opts.recordSnapshots = false;
    return ts::compile(file, text, opts);
}

/// The note of lower-tile-ops about the store into `tensor` ("message | hint"), or "".
std::string storeNote(const ts::CompileResult& r, const std::string& tensor = "Out") {
    for (auto& d : r.diagnostics)
        if (d.severity == ts::Severity::Note && d.origin == "lower-tile-ops" && d.message.rfind("T.copy from '", 0) == 0 &&
            d.message.find("' into '" + tensor + "'") != std::string::npos)
            return d.message + " | " + d.hint;
    return {};
}

/// cuTensorMapEncodeTiled's rules for the 2-D map of Out (N columns) with a 64 x 32 box, and the
/// measured start rule.
bool storeLegal(int N, int offN, int offM, int bytes) {
    const int64_t pitch = int64_t(N) * bytes;
    // The box may not start before the tensor: on the H200 every such store faulted
    // (CUDA_ERROR_ILLEGAL_INSTRUCTION, bench/h200_tma_store.sh, 2026-12-04).
    return pitch % 16 == 0 && (64 * bytes) % 16 == 0 && (int64_t(offN) * bytes) % 16 == 0 && offN >= 0 && offM >= 0;
}

struct NoObserver {  // thousands of compiles: not each through the suite's NVRTC observer
    ts::CompileObserver prev = ts::setCompileObserver(nullptr);
    ~NoObserver() { ts::setCompileObserver(prev); }
};

TEST(TmaStoreLegality, StoreExactlyWhereLegalOverPitchesStartsAndDtypes) {
    NoObserver noObserver;
    const std::string text = ts::e2e::readRepoFile(kStore);
    ASSERT_FALSE(text.empty());
    int points = 0, tma = 0, legalCount = 0;
    for (const Dt& d : kDtypes)
        for (int N = 17; N <= 40; ++N)
            for (int offN : {0, -1, -2, -3, -4, -8, -16})
                for (int offM : {0, -5}) {
                    ++points;
                    const bool legal = storeLegal(N, offN, offM, d.bytes);
                    const bool alignedStart = ((-offN) * d.bytes) % 16 == 0;
                    const bool pitchLegal = (N * d.bytes) % 16 == 0;
                    ts::CompileResult r = compileAt(kStore, text, params(45, N, offM, offN, d, (N + offN) % 2));
                    const std::string at = std::string(d.name) + " N=" + std::to_string(N) + " off_n=" + std::to_string(offN) +
                                           " off_m=" + std::to_string(offM);
                    ASSERT_TRUE(r.ok) << at << "\n" << ts::e2e::diagText(r);
                    const bool stored = r.cuda.find("ts::tma_store_tile<") != std::string::npos;
                    ASSERT_EQ(stored, legal) << at << "\n" << storeNote(r);
                    const std::string note = storeNote(r);
                    if (legal) {
                        EXPECT_EQ(note, "T.copy from 'C_shared' into 'Out' uses a TMA store (1 box of 32 rows x 64 columns, " +
                                            std::to_string(64 * 32 * d.bytes) +
                                            " bytes; out-of-bounds elements are not written) | disable_tma=True keeps plain stores")
                            << at;
                        // The map over Out (parameter 1): 64 columns x 32 rows, no swizzle.
                        bool found = false;
                        for (auto& m : r.kernel.tensorMaps)
                            found |= m.tensor == 1 && m.boxInner == 64 && m.boxOuter == 32 && m.swizzleBytes == 0 && m.rowDim == 0;
                        EXPECT_TRUE(found) << at;
                    } else {
                        const bool negativeOnly = pitchLegal && alignedStart;
                        EXPECT_NE(note.find(!pitchLegal    ? "does not use a TMA store: rows of 'Out' are not a multiple of 16 bytes"
                                            : !alignedStart ? "does not use a TMA store: the region of 'Out' may start at a column that is "
                                                              "not a multiple of"
                                                            : "does not use a TMA store: the region of 'Out' may start before the tensor in "
                                                              "dimension "),
                                  std::string::npos)
                            << at << "\n" << note;
                        EXPECT_NE(note.find(negativeOnly ? "| nothing needs to change: plain stores skip the elements before the tensor"
                                                         : "| change that to store it by TMA"),
                                  std::string::npos)
                            << note;
                        for (auto& m : r.kernel.tensorMaps) EXPECT_NE(m.tensor, 1) << at << ": a map over Out without a TMA store";
                    }
                    tma += stored;
                    legalCount += legal;
                }
    EXPECT_EQ(points, 4 * 24 * 7 * 2);
    // Independent count: N * bytes and off_n * bytes multiples of 16.
    int expect = 0;
    for (const Dt& d : kDtypes)
        for (int N = 17; N <= 40; ++N)
            for (int offN : {0, -1, -2, -3, -4, -8, -16}) expect += (N * d.bytes) % 16 == 0 && offN == 0;  // offM = 0 only
    EXPECT_EQ(legalCount, expect);
    EXPECT_EQ(tma, expect);
    EXPECT_GT(tma, 0);
    std::printf("TMA store sweep: %d points, TMA store at %d\n", points, tma);
}

// Kernels written here for the reasons the sweep does not reach.
std::string kernelWith(const std::string& body, const std::string& shared = "C_shared = T.alloc_shared((32, 64), \"float16\")") {
    return "import tilelang\nimport tilelang.language as T\n\n\n@T.prim_func\n"
           "def main(A: T.Tensor((64, 128), \"float16\"), Out: T.Tensor((64, 128), \"float16\")):\n"
           "    with T.Kernel(2, 2, threads=128) as (bx, by):\n        " +
           shared + "\n        for i, j in T.Parallel(32, 64):\n            C_shared[i, j] = A[by * 32 + i, bx * 64 + j]\n" + body;
}

TEST(TmaStoreLegality, OtherReasonsAndHints) {
    auto note = [](const std::string& text, const char* target = "cuda:sm_90a") {
        ts::CompileResult r = compileAt("inline.py", text, {}, target);
        EXPECT_TRUE(r.ok) << ts::e2e::diagText(r);
        return std::make_pair(storeNote(r), r.cuda.find("ts::tma_store_tile<") != std::string::npos);
    };
    // Legal: the whole tile at a 16-byte aligned column.
    auto [ok, okTma] = note(kernelWith("        T.copy(C_shared, Out[by * 32, bx * 64])\n"));
    EXPECT_TRUE(okTma) << ok;
    EXPECT_NE(ok.find("uses a TMA store (1 box of 32 rows x 64 columns, 4096 bytes;"), std::string::npos) << ok;
    // disable_tma=True.
    auto [off, offTma] = note(kernelWith("        T.copy(C_shared, Out[by * 32, bx * 64], disable_tma=True)\n"));
    EXPECT_FALSE(offTma);
    EXPECT_EQ(off, "T.copy from 'C_shared' into 'Out' does not use a TMA store: disable_tma=True | drop disable_tma=True to store it by TMA");
    // A converting copy: float32 tile into the float16 tensor.
    auto [cv, cvTma] = note(kernelWith("        T.copy(C_shared, Out[by * 32, bx * 64])\n",
                                       "C_shared = T.alloc_shared((32, 64), \"float32\")"));
    EXPECT_FALSE(cvTma);
    EXPECT_EQ(cv, "T.copy from 'C_shared' into 'Out' does not use a TMA store: it converts float32 to float16 | convert into a shared "
                  "tile of the tensor's own dtype first (TMA copies elements unchanged), then copy that tile");
    // Part of the tile: said so (was "the region of 'Out' is not the tile's shape", though Out's
    // region is exactly the part's 16 x 64; the whole-tile rule is now checked first).
    auto [part, partTma] = note(kernelWith("        T.copy(C_shared[0:16, :], Out[by * 32, bx * 64])\n"));
    EXPECT_FALSE(partTma);
    EXPECT_NE(part.find("does not use a TMA store: the copy does not read the whole tile 'C_shared' | change that to store it by TMA"),
              std::string::npos)
        << part;
    // The kernel also writes Out element-wise: the async-proxy writes would be unordered with it.
    // The note names that access (was "the kernel reads or writes 'Out' elsewhere", leaving the
    // user to find where; fresh-user finding).
    auto [other, otherTma] =
        note(kernelWith("        T.copy(C_shared, Out[by * 32, bx * 64])\n        if bx == 0:\n            Out[by * 32, 0] = A[0, 0]\n"));
    EXPECT_FALSE(otherTma);
    EXPECT_EQ(other, "T.copy from 'C_shared' into 'Out' does not use a TMA store: the kernel also writes 'Out' (an element store at "
                     "line 13, column 13): a TMA store writes it through the async proxy, unordered with that access | nothing needs "
                     "to change: the copy is correct with plain stores");
    // Read by a tile op before the store: named with the op and where it is.
    auto [read, readTma] = note(kernelWith("        T.copy(Out[by * 32, bx * 64], C_shared)\n        T.copy(C_shared, Out[by * 32, bx * 64])\n"));
    EXPECT_FALSE(readTma);
    EXPECT_NE(read.find("does not use a TMA store: the kernel also reads 'Out' (T.copy at line 11, column 9): a TMA store writes it"),
              std::string::npos)
        << read;
    // A 1-D tile: not worth a box.
    auto [vec, vecTma] = note(
        "import tilelang\nimport tilelang.language as T\n\n\n@T.prim_func\n"
        "def main(A: T.Tensor((256,), \"float16\"), Out: T.Tensor((256,), \"float16\")):\n"
        "    with T.Kernel(2, threads=128) as bx:\n        S = T.alloc_shared((128,), \"float16\")\n"
        "        T.copy(A[bx * 128], S)\n        T.copy(S, Out[bx * 128])\n");
    EXPECT_FALSE(vecTma);
    EXPECT_EQ(vec, "T.copy from 'S' into 'Out' does not use a TMA store: shared tile 'S' is not a 2-D tile of constant shape | nothing "
                   "needs to change: plain stores write it correctly (a TMA store here takes whole 2-D shared tiles of constant shape, "
                   "to a kernel tensor whose rows are a multiple of 16 bytes, in boxes of at most 256 rows x 256 columns)");
    // sm_80: no TMA, no note.
    auto [n80, tma80] = note(kernelWith("        T.copy(C_shared, Out[by * 32, bx * 64])\n"), "cuda:sm_80");
    EXPECT_FALSE(tma80);
    EXPECT_EQ(n80, "");
    EXPECT_EQ(ts::xform::tmaWhyNotHint("it is under a condition on the thread index (threads 0..63 of the block's 128; the TMA issue "
                                       "is elected from the whole block)",
                                       true),
              "issue the copy outside the condition on the thread index to store it by TMA");
    EXPECT_EQ(ts::xform::tmaWhyNotHint("'P' is made by T.make_tensor from a pointer known only inside the kernel (TMA tensor maps are "
                                       "built on the host)",
                                       true),
              "copy to a dense T.Tensor parameter of the kernel to store it by TMA");
}

// The lowered sequence, in the IR and in the CUDA: fence.proxy.async by every thread, a block
// barrier, the elected store (+ commit) and wait_group.read 0; the full wait before the kernel
// exits, after everything else; in a loop the full wait after each store and no exit wait. The
// destination parameter is not `const`, the map is a __grid_constant__ parameter.
TEST(TmaStoreLowering, FenceBarrierStoreWaitAndExitWait) {
    const std::string text = ts::e2e::readRepoFile(kStore);
    ts::CompileResult r = compileAt(kStore, text, params(100, 88, 0, 0, kDtypes[1], 1));
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    const std::string ir = ts::ir::toString(r.lowered->body);
    const size_t store = ir.find("tl.tma_store("), waitRead = ir.find("tl.tma_store_wait(0, 1)"), waitAll = ir.find("tl.tma_store_wait(0, 0)");
    ASSERT_NE(store, std::string::npos) << ir;
    ASSERT_NE(waitRead, std::string::npos) << ir;
    ASSERT_NE(waitAll, std::string::npos) << ir;
    EXPECT_LT(store, waitRead);
    EXPECT_LT(waitRead, waitAll);
    const size_t fence = ir.rfind("tl.fence_proxy_async()", store), sync = ir.rfind("T.sync_threads()", store);
    ASSERT_NE(fence, std::string::npos) << ir;
    ASSERT_NE(sync, std::string::npos) << ir;
    EXPECT_LT(fence, sync);
    // Nothing but the exit wait after the full wait.
    EXPECT_EQ(ir.find("tl.", waitAll + 5), std::string::npos) << ir.substr(waitAll);

    const std::string& cu = r.cuda;
    auto at = [&](const std::string& s, size_t from = 0) { return cu.find(s, from); };
    const size_t cStore = at("if (threadIdx.x == 0) ts::tma_store_tile<1, 64, 32>(&tma_map_1, &C_shared[0], (bx * 64), (by * 32));");
    ASSERT_NE(cStore, std::string::npos) << cu;
    const size_t cFence = cu.rfind("ts::fence_proxy_async();", cStore), cSync = cu.rfind("__syncthreads();", cStore);
    ASSERT_NE(cFence, std::string::npos);
    ASSERT_NE(cSync, std::string::npos);
    EXPECT_LT(cFence, cSync);
    const size_t cRead = at("if (threadIdx.x == 0) ts::tma_store_wait<0, true>();", cStore),
                 cAll = at("if (threadIdx.x == 0) ts::tma_store_wait<0, false>();", cStore);
    ASSERT_NE(cRead, std::string::npos) << cu;
    ASSERT_NE(cAll, std::string::npos) << cu;
    EXPECT_LT(cRead, cAll);
    EXPECT_NE(at("const __grid_constant__ ts::TensorMap tma_map_1"), std::string::npos);
    EXPECT_EQ(at("const ts::half* __restrict__ Out"), std::string::npos) << "the stored tensor is not read-only";
    EXPECT_NE(at("#define TS_HOPPER 1"), std::string::npos);
    ASSERT_EQ(r.kernel.tensorMaps.size(), 2u);
    EXPECT_EQ(r.kernel.tensorMaps[0].tensor, 0);  // A's TMA load
    EXPECT_EQ(r.kernel.tensorMaps[1].tensor, 1);  // Out's TMA store
    EXPECT_EQ(r.kernel.tensorMaps[1].boxInner, 64);
    EXPECT_EQ(r.kernel.tensorMaps[1].boxOuter, 32);

    // In a loop: the full wait after every store, no .read wait, no separate exit wait.
    ts::CompileResult loop = compileAt(kStore, text, params(100, 88, 0, 0, kDtypes[1], 2));
    ASSERT_TRUE(loop.ok) << ts::e2e::diagText(loop);
    const std::string lir = ts::ir::toString(loop.lowered->body);
    const size_t lStore = lir.find("tl.tma_store("), lWait = lir.find("tl.tma_store_wait(0, 0)");
    ASSERT_NE(lStore, std::string::npos) << lir;
    ASSERT_NE(lWait, std::string::npos) << lir;
    EXPECT_LT(lStore, lWait);
    EXPECT_EQ(lir.find("tl.tma_store_wait(0, 0)", lWait + 1), std::string::npos) << lir;
    EXPECT_EQ(lir.find("tl.tma_store_wait(0, 1)"), std::string::npos) << lir;
    EXPECT_LT(loop.cuda.find("for (int k = 0;"), loop.cuda.find("ts::tma_store_tile<")) << loop.cuda;

    // sm_80: the same kernel keeps plain stores.
    ts::CompileResult r80 = compileAt(kStore, text, params(100, 88, 0, 0, kDtypes[1], 1), "cuda:sm_80");
    ASSERT_TRUE(r80.ok);
    EXPECT_EQ(r80.cuda.find("ts::tma_store"), std::string::npos);
    EXPECT_TRUE(r80.kernel.tensorMaps.empty());
}

// The thread-level interpreter checks what the GPU would get wrong without the lowering's
// ordering: a missing exit wait (the block's global writes never waited for), a missing barrier
// between the tile's writers and the store (a race with the async proxy's read), and, in a loop,
// the store's read still in flight when the next iteration rewrites the tile.
TEST(TmaStoreInterp, SeededDefectsAreReported) {
    const std::string text = ts::e2e::readRepoFile(kStore);
    ts::CompileResult r = compileAt(kStore, text, params(100, 88, 0, 0, kDtypes[1], 1));
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    int n = 0;
    EXPECT_EQ(ts::e2e::loweredErrorWithout(r, [](const ts::ir::CallNode&) { return false; }, &n), "");
    using ts::ir::intrin::kTmaStoreWait;
    std::string e = ts::e2e::loweredErrorWithout(
        r, [](const ts::ir::CallNode& c) { return c.op == kTmaStoreWait && ts::ir::constInt(c.args.at(1)) == 0; }, &n);
    EXPECT_EQ(n, 1);
    EXPECT_NE(e.find("is still in flight when the block exits"), std::string::npos) << e;
    // The barrier the lowering put before the store (same span as the store).
    ts::Span storeSpan;
    ts::ir::walk(r.lowered->body, [&](const ts::ir::Stmt& st) {
        if (auto* ev = dynamic_cast<const ts::ir::EvalNode*>(st.get()))
            if (auto* c = dynamic_cast<const ts::ir::CallNode*>(ev->call.get()); c && c->op == ts::ir::intrin::kTmaStore) storeSpan = c->span;
    });
    ASSERT_TRUE(storeSpan.valid());
    e = ts::e2e::loweredErrorWithout(
        r, [&](const ts::ir::CallNode& c) { return c.op == ts::ir::intrin::kSyncThreads && c.args.empty() && c.span == storeSpan; }, &n);
    EXPECT_EQ(n, 1);
    EXPECT_NE(e.find("by tl.tma_store races with its write by thread"), std::string::npos) << e;
    // In the loop: the full wait after the store dropped, the next iteration's T.Parallel
    // rewrites the tile under the store's read.
    ts::CompileResult loop = compileAt(kStore, text, params(100, 88, 0, 0, kDtypes[1], 2));
    ASSERT_TRUE(loop.ok);
    e = ts::e2e::loweredErrorWithout(loop, [](const ts::ir::CallNode& c) { return c.op == kTmaStoreWait; }, &n);
    EXPECT_EQ(n, 1);
    EXPECT_NE(e.find("may still read it (no cp.async.bulk.wait_group.read retired its group)"), std::string::npos) << e;
}

// The tile-level interpreter's tl.tma_store (Machine::tileTmaStore): tile-level IR from the
// compiler never carries one (the copy is lowered later), so the elaborated kernel's store copy
// is replaced here by the call lower-tile-ops would emit, with its tensor map: the result is
// T.copy's (out-of-bounds box elements skipped) on ragged tails.
TEST(TmaStoreInterp, TileInterpreterRunsTheIntrinsic) {
    using namespace ts::ir;
    const std::string text = ts::e2e::readRepoFile(kStore);
    ts::CompileResult r = compileAt(kStore, text, params(100, 88, 0, 0, kDtypes[1], 1));
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    struct ToIntrinsic : Mutator {
        int replaced = 0;
        Stmt visitTileOp(const TileOpNode* n, const Stmt& self) override {
            if (n->op != TileOpKind::Copy || n->region(0).buffer->scope != Scope::Shared) return self;
            ++replaced;
            std::vector<Expr> args{intImm(0), ts::xform::lower::addressOf(n->region(0).buffer, {intImm(0), intImm(0)}), intImm(32), intImm(64),
                                   intImm(1)};
            for (Expr& c : ts::xform::tmaCoordinates(n->region(1), {})) args.push_back(c);
            Stmt st = evaluate(call(intrin::kTmaStore, args, DType::Int32, n->span), n->span);
            return seq({st, evaluate(call(intrin::kTmaStoreWait, {intImm(0), intImm(0)}, DType::Int32, n->span), n->span)}, n->span);
        }
    } m;
    auto f = std::make_shared<PrimFuncNode>(*r.elaborated);
    f->body = m.mutate(r.elaborated->body);
    ASSERT_EQ(m.replaced, 1);
    f->attrs["tma_maps"] = int64_t(1);
    f->attrs["tma_map.0"] = std::vector<int64_t>{1, 64, 32, 0, 0};
    auto ci = ts::e2e::makeCheckedInputs(r);
    std::vector<ts::HostTensor> args = ci.set.tensors;
    args[1].data.assign(static_cast<size_t>(args[1].numel()), std::nan(""));
    auto run = ts::interp::run(f, args);
    ASSERT_TRUE(run.ok) << (run.error ? run.error->message : "");
    ts::rt::CompareOptions co;
    co.relL2Tolerance = 1e-300;
    auto cmp = ts::rt::compare(args[1], ci.ref.outputs[0], co);
    EXPECT_TRUE(cmp.pass) << ts::rt::describe(cmp);
    EXPECT_EQ(cmp.nanCount, 0);
}

// The epilogue through shared memory of a GEMM on the sm_90a TMA + wgmma schedule: the same
// kernel loads by TMA, multiplies with wgmma and stores C by TMA (warp-specialize keeps the
// elected thread at 0: it declines kernels with TMA stores). N = 136 (272-byte rows): TMA
// store; N = 100 (200-byte rows): plain stores, and B's loads are not TMA either (sm_80 path).
TEST(TmaStoreGemm, EpilogueThroughSharedMemoryIsOneTmaStore) {
    const char* file = "tests/e2e/programs/gemm_smem_epilogue.py";
    const std::string text = ts::e2e::readRepoFile(file);
    ASSERT_FALSE(text.empty());
    for (auto [M, N, K, tma] : {std::tuple{200, 136, 96, true}, std::tuple{72, 100, 40, false}}) {
        const std::map<std::string, std::string> ps{{"M", std::to_string(M)}, {"N", std::to_string(N)}, {"K", std::to_string(K)}};
        const std::string label = "gemm M=" + std::to_string(M) + " N=" + std::to_string(N) + " K=" + std::to_string(K);
        ts::CompileResult r = compileAt(file, text, ps);
        ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
        // C_shared, written from the wgmma accumulator, takes the 128-byte swizzled panel layout
        // (CopyOp's layout rule): two 64 x 128 boxes.
        EXPECT_EQ(r.cuda.find("ts::tma_store_tile<2, 64, 128>(&tma_map_") != std::string::npos, tma) << label << "\n" << storeNote(r, "C");
        if (tma) {
            EXPECT_NE(r.cuda.find("ts::wgmma_gemm_ss<"), std::string::npos) << label;
            EXPECT_NE(r.cuda.find("ts::tma_load_tile<"), std::string::npos) << label;
            EXPECT_NE(storeNote(r, "C").find("uses a TMA store (2 boxes of 128 rows x 64 columns, 128-byte swizzle, 32768 bytes;"), std::string::npos);
        } else {
            EXPECT_NE(storeNote(r, "C").find("does not use a TMA store: rows of 'C' are not a multiple of 16 bytes"), std::string::npos)
                << storeNote(r, "C");
        }
        ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, label));
        ts::e2e::expectNvrtcCompilesForSm80AndSm90a(file, ps);
    }
}

// Both interpreters against float64, ragged tails and negative starts, TMA and plain stores
// (the illegal points), and NVRTC for sm_80 and sm_90a.
struct Point {
    int M, N, offM, offN, dt, kind;
    bool tma;  ///< expected on sm_90a
};
class TmaStorePoint : public ::testing::TestWithParam<Point> {};

TEST_P(TmaStorePoint, InterpretersMatchFloat64AndNvrtcCompiles) {
    const Point& p = GetParam();
    const std::string text = ts::e2e::readRepoFile(kStore);
    const auto ps = params(p.M, p.N, p.offM, p.offN, kDtypes[p.dt], p.kind);
    const std::string label = std::string(kDtypes[p.dt].name) + " M=" + std::to_string(p.M) + " N=" + std::to_string(p.N) + " off=(" +
                              std::to_string(p.offM) + ", " + std::to_string(p.offN) + ") kind=" + std::to_string(p.kind);
    for (const char* target : {"cuda:sm_90a", "cuda:sm_80"}) {
        ts::CompileResult r = compileAt(kStore, text, ps, target);
        ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
        EXPECT_EQ(r.cuda.find("ts::tma_store_tile<") != std::string::npos, p.tma && std::string(target) == "cuda:sm_90a")
            << label << " " << target << "\n" << storeNote(r);
        auto ci = ts::e2e::makeCheckedInputs(r);
        ASSERT_TRUE(ci.ref.ok);
        std::vector<ts::HostTensor> results[2];
        ts::rt::CompareOptions co;
        co.relL2Tolerance = 1e-300;  // 2 * A is exact in every dtype here: bit-exact
        ts::e2e::expectBothInterpretersMatchReference(r, ci, co, label + " " + target, results);
    }
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kStore, ps);
}

std::vector<Point> points() {
    std::vector<Point> out;
    for (int kind = 0; kind < 3; ++kind) {
        // float16: N = 88 (176-byte rows), starts 0 and -8 columns; N = 90 (180 bytes): plain.
        out.push_back({100, 88, 0, 0, 1, kind, true});
        out.push_back({100, 88, -5, -8, 1, kind, false});  // negative start: plain (faults as TMA)
        out.push_back({33, 136, -31, -64, 1, kind, false});
        out.push_back({33, 136, 0, 0, 1, kind, true});
        out.push_back({100, 90, -5, -8, 1, kind, false});
        out.push_back({100, 88, 0, -3, 1, kind, false});
        // int32: N = 100 (400 bytes), start -4; fp8: N = 112, start -16; float32: N = 20.
        out.push_back({70, 100, -3, -4, 0, kind, false});
        out.push_back({70, 100, 0, 0, 0, kind, true});
        out.push_back({70, 98, -3, -4, 0, kind, false});
        out.push_back({45, 112, -1, -16, 2, kind, false});
        out.push_back({45, 112, 0, 0, 2, kind, true});
        out.push_back({45, 120, 0, -8, 2, kind, false});
        out.push_back({40, 20, -7, -4, 3, kind, false});
        out.push_back({40, 20, 0, 0, 3, kind, true});
    }
    return out;
}

INSTANTIATE_TEST_SUITE_P(E2E, TmaStorePoint, ::testing::ValuesIn(points()));

}  // namespace
