// T.atomic_add(dst, shared_tile, use_tma=True) (TileLang's TMA reduce-add; the corpus' GQA backward
// example_gqa_bwd_tma_reduce.py adds dQ, dK and dV this way): until 2026-12-05 TileScope accepted
// use_tma and issued one atomic per element. On sm_90a it is now one
// cp.reduce.async.bulk.tensor .add per tile (ops/CopyTma.cpp lowerAtomicTmaReduce). Expected here:
//  - tests/e2e/programs/atomic_tma_reduce.py (64 x 32 float32 tiles, 3 z-blocks x 2 loop trips
//    adding into each Out tile, M = 200 ragged): the CUDA has one ts::tma_reduce_add_tile<1, 32,
//    64> per reduce (one box of 32 columns x 64 rows), waited with .read (wait_group.read 0)
//    and no per-element atomics; both interpreters match float64 (the thread-level one adds the
//    box through the instruction's own rule, skipping elements past the tensor);
//  - use_tma=False, and the sm_80 target: per-element atomics, same values;
//  - a destination the kernel also reads keeps per-element atomics, with a note saying why and
//    naming that read (op and line, column);
//  - every reason and interpreter report about the reduce-add says "TMA reduce-add" / "atomic
//    add", not "copy" / "TMA store" (fresh-user finding), and a reduce-add under `if tx >= 64:`
//    is said to be under a condition on the thread index, not in a "warp role".
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/ir/IR.h"
#include "compiler/ir/Intrinsics.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/LoweredDefects.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

const char* kFile = "tests/e2e/programs/atomic_tma_reduce.py";

ts::CompileResult compileWith(const std::map<std::string, std::string>& p, const char* target = "cuda:sm_90a",
                              const std::string& text = ts::e2e::readRepoFile(kFile)) {
    ts::CompileOptions o;
    o.params = p;
    o.target = target;
    o.recordSnapshots = false;
    return ts::compile(kFile, text, o);
}

using ts::e2e::hasNote;

size_t countOf(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

TEST(AtomicTmaReduce, UseTmaIsOneReduceAddPerTile) {
    ts::CompileResult r = compileWith({});
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_EQ(countOf(r.cuda, "ts::tma_reduce_add_tile<1, 32, 64>("), 1u) << r.cuda;
    EXPECT_EQ(countOf(r.cuda, "atomicAdd"), 0u) << r.cuda;
    EXPECT_NE(r.cuda.find("ts::tma_store_wait<0, true>()"), std::string::npos) << r.cuda;
    EXPECT_TRUE(hasNote(r, "T.atomic_add into 'Out' from 'tile' with use_tma=True is a TMA reduce-add (1 box of 64 rows x 32 columns, 8192 bytes"))
        << ts::e2e::diagText(r);
    ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, "TMA reduce-add"));
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kFile, {});
}

TEST(AtomicTmaReduce, WithoutUseTmaOrOnSm80PerElementAtomicsGiveTheSameValues) {
    for (auto [params, target] : {std::pair<std::map<std::string, std::string>, const char*>{{{"use_tma", "False"}}, "cuda:sm_90a"},
                                  std::pair<std::map<std::string, std::string>, const char*>{{}, "cuda:sm_80"}}) {
        ts::CompileResult r = compileWith(params, target);
        ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
        EXPECT_EQ(r.cuda.find("tma_reduce_add"), std::string::npos) << target;
        // Asked for and not given: the sm_80 compile says why (use_tma=False asks for nothing).
        EXPECT_EQ(hasNote(r, "with use_tma=True keeps per-element atomics: the target sm_80 has no TMA path"),
                  std::string(target) == "cuda:sm_80")
            << ts::e2e::diagText(r);
        ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, std::string("per-element atomics ") + target));
    }
}

TEST(AtomicTmaReduce, ADestinationTheKernelAlsoReadsKeepsPerElementAtomics) {
    // The same program, but each block first reads Out (through the generic proxy, unordered with
    // the async proxy's reduce-add).
    std::string text = ts::e2e::readRepoFile(kFile);
    const std::string at = "            for r in T.serial(reps):\n";
    ASSERT_NE(text.find(at), std::string::npos);
    text.replace(text.find(at), at.size(),
                 "            peek = T.alloc_shared((block_M, block_N), \"float32\")\n"
                 "            T.copy(Out[by * block_M:(by + 1) * block_M, bx * block_N:(bx + 1) * block_N], peek)\n" + at);
    ts::CompileResult r = compileWith({}, "cuda:sm_90a", text);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_EQ(r.cuda.find("tma_reduce_add"), std::string::npos) << r.cuda;
    // The note names the read (was "the kernel reads or writes 'Out' elsewhere": the user had to
    // find it; fresh-user finding).
    size_t notes = 0;
    for (auto& d : r.diagnostics)
        if (d.severity == ts::Severity::Note && d.message.find("keeps per-element atomics") != std::string::npos) {
            ++notes;
            EXPECT_EQ(d.message, "T.atomic_add into 'Out' from 'tile' with use_tma=True keeps per-element atomics: the kernel also reads "
                                 "'Out' (T.copy at line 19, column 13): a TMA reduce-add writes it through the async proxy, unordered "
                                 "with that access (other atomic adds into 'Out' may stay: additions commute)");
            // The hint was the TMA store's ("the copy is correct with plain stores"): an atomic add
            // neither is a copy nor stores plainly (fresh-user finding).
            EXPECT_EQ(d.hint, "nothing needs to change: per-element atomics add it correctly") << d.message;
        }
    EXPECT_EQ(notes, 1u) << ts::e2e::diagText(r);
}

// Each half of the tile added on its own (tile[0:32, :] into its 32 rows, then tile[32:64, :]):
// TMA reduces whole tiles, and the note said "the region of 'Out' is not the tile's shape",
// though each region is exactly its half's shape (fresh-user finding). The same values either way.
TEST(AtomicTmaReduce, PartOfATileSaysItIsNotTheWholeTile) {
    std::string text = ts::e2e::readRepoFile(kFile);
    const std::string at =
        "                T.atomic_add(Out[by * block_M:(by + 1) * block_M, bx * block_N:(bx + 1) * block_N], tile, use_tma=use_tma)\n";
    ASSERT_NE(text.find(at), std::string::npos);
    text.replace(text.find(at), at.size(),
                 "                T.atomic_add(Out[by * block_M:by * block_M + 32, bx * block_N:(bx + 1) * block_N], tile[0:32, :], use_tma=use_tma)\n"
                 "                T.atomic_add(Out[by * block_M + 32:(by + 1) * block_M, bx * block_N:(bx + 1) * block_N], tile[32:64, :], use_tma=use_tma)\n");
    ts::CompileResult r = compileWith({}, "cuda:sm_90a", text);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_EQ(r.cuda.find("tma_reduce_add"), std::string::npos) << r.cuda;
    size_t notes = 0;
    for (auto& d : r.diagnostics)
        if (d.severity == ts::Severity::Note && d.message.find("keeps per-element atomics") != std::string::npos) {
            ++notes;
            // "the atomic add", not "the copy" (fresh-user finding).
            EXPECT_NE(d.message.find("keeps per-element atomics: the atomic add does not read the whole tile 'tile'"), std::string::npos)
                << d.message;
            EXPECT_EQ(d.message.find("copy"), std::string::npos) << d.message;
            EXPECT_EQ(d.message.find("not the tile's shape"), std::string::npos) << d.message;
        }
    EXPECT_EQ(notes, 2u) << ts::e2e::diagText(r);
    ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, "halves of a tile"));
}

// The reduce-add's other reasons in its own words (fresh-user finding: "TMA store" and "warp
// role" where neither applies). `if tx >= 64:` selects threads 64..127 (two warps, no T.ws):
// a condition on the thread index, which the elected TMA issue (thread 0) is not in.
TEST(AtomicTmaReduce, ReasonsNameTheReduceAddAndTheThreadCondition) {
    const std::string text = ts::e2e::readRepoFile(kFile);
    const std::string at =
        "                T.atomic_add(Out[by * block_M:(by + 1) * block_M, bx * block_N:(bx + 1) * block_N], tile, use_tma=use_tma)\n";
    ASSERT_NE(text.find(at), std::string::npos);
    auto noteWith = [&](const std::string& line) -> std::string {
        std::string t = text;
        t.replace(t.find(at), at.size(), line);
        ts::CompileResult r = compileWith({}, "cuda:sm_90a", t);
        EXPECT_TRUE(r.ok) << ts::e2e::diagText(r);
        EXPECT_EQ(r.cuda.find("tma_reduce_add"), std::string::npos) << r.cuda;
        for (auto& d : r.diagnostics)
            if (d.severity == ts::Severity::Note && d.message.find("keeps per-element atomics") != std::string::npos)
                return d.message + " | " + d.hint;
        return "no note\n" + ts::e2e::diagText(r);
    };
    EXPECT_EQ(noteWith("                if T.get_thread_binding() >= 64:\n"
                       "                    T.atomic_add(Out[by * block_M:(by + 1) * block_M, bx * block_N:(bx + 1) * block_N], tile, "
                       "use_tma=use_tma)\n"),
              "T.atomic_add into 'Out' from 'tile' with use_tma=True keeps per-element atomics: it is under a condition on the thread "
              "index (threads 64..127 of the block's 128; the TMA issue is elected from the whole block) | issue the T.atomic_add "
              "outside the condition on the thread index to add it by TMA");
    // A start that may be negative: the store's H200 measurement is the reason, said as such.
    EXPECT_EQ(noteWith("                T.atomic_add(Out[by * block_M - 8:(by + 1) * block_M - 8, bx * block_N:(bx + 1) * block_N], tile, "
                       "use_tma=use_tma)\n"),
              "T.atomic_add into 'Out' from 'tile' with use_tma=True keeps per-element atomics: the region of 'Out' may start before "
              "the tensor in dimension 0 (start by * 64 - 8): a TMA reduce-add whose box starts at a negative coordinate is not "
              "generated (a TMA store's faults on the H200, and the reduce-add addresses its box the same way) | nothing needs to "
              "change: per-element atomics skip the elements before the tensor; tiles whose start is a sum of block/loop indices and "
              "non-negative constants are added by TMA");
}

// The thread-level interpreter's reports about a seeded defect in the lowered reduce-add name the
// reduce-add (they said "the TMA store issued at line 22", "by tl.tma_store"): its exit wait
// dropped, the barrier before it dropped, its .read wait in the loop dropped.
TEST(AtomicTmaReduce, InterpreterReportsNameTheReduceAdd) {
    ts::CompileResult r = compileWith({});
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    using namespace ts::ir;
    int n = 0;
    EXPECT_EQ(ts::e2e::loweredErrorWithout(r, [](const CallNode&) { return false; }, &n), "");
    std::string e = ts::e2e::loweredErrorWithout(
        r, [](const CallNode& c) { return c.op == intrin::kTmaStoreWait && constInt(c.args.at(1)) == 0; }, &n);
    EXPECT_EQ(n, 1);
    EXPECT_NE(e.find("the TMA reduce-add issued at line 22 is still in flight when the block exits"), std::string::npos) << e;
    ts::Span reduceSpan;
    walk(r.lowered->body, [&](const Stmt& st) {
        if (auto* ev = dynamic_cast<const EvalNode*>(st.get()))
            if (auto* c = dynamic_cast<const CallNode*>(ev->call.get()); c && c->op == intrin::kTmaReduceAdd) reduceSpan = c->span;
    });
    ASSERT_TRUE(reduceSpan.valid());
    e = ts::e2e::loweredErrorWithout(
        r, [&](const CallNode& c) { return c.op == intrin::kSyncThreads && c.args.empty() && c.span == reduceSpan; }, &n);
    EXPECT_EQ(n, 1);
    EXPECT_NE(e.find("by tl.tma_reduce_add races with its write by thread"), std::string::npos) << e;
    e = ts::e2e::loweredErrorWithout(
        r, [](const CallNode& c) { return c.op == intrin::kTmaStoreWait && constInt(c.args.at(1)) == 1; }, &n);
    EXPECT_EQ(n, 1);
    EXPECT_NE(e.find("while the TMA reduce-add issued at line 22 may still read it"), std::string::npos) << e;
    EXPECT_EQ(e.find("TMA store"), std::string::npos) << e;
}

}  // namespace
