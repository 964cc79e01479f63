// The hint under "T.copy into 'X' does not use TMA: <why>" and "... keeps cp.async in the
// T.Pipelined schedule: <why>" (compiler/ops/CopyTmaHint.cpp). Fresh-user trial 2026-12-04: both
// notes ended with one generic hint ("TMA takes a whole 2-D shared tile from a kernel tensor whose
// rows are a multiple of 16 bytes, a box of at most 256 x 256") that repeated the rule the reason
// had just named and was beside the point when the reason is not the copy's shape. Notes as the
// compiler emits them for samples at sm_90a, then every other branch on its reason text.
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/transforms/Hopper.h"
#include "tests/e2e/E2eTestUtil.h"

namespace {

/// CopyTma.cpp's reason for a TMA op under `if tx >= 64:` in a 128-thread block (was "it is inside a
/// warp role", which reads as warp specialization's producer/consumer roles; fresh-user finding).
const char* kThreadCondition =
    "it is under a condition on the thread index (threads 64..127 of the block's 128; the TMA issue is elected from the whole block)";

/// "message | hint" of the note about the copy into `tile`.
std::string noteOf(const char* file, const std::map<std::string, std::string>& params, const std::string& tile,
                   const std::string& kernel = {}) {
    ts::CompileOptions o;
    o.params = params;
    o.kernel = kernel;
    o.target = "cuda:sm_90a";
    o.recordSnapshots = false;
    ts::CompileResult r = ts::compile(file, ts::e2e::readRepoFile(file), o);
    EXPECT_TRUE(r.ok) << ts::e2e::diagText(r);
    for (auto& d : r.diagnostics)
        if (d.severity == ts::Severity::Note && d.message.rfind("T.copy into '" + tile + "'", 0) == 0) return d.message + " | " + d.hint;
    return "no note about " + tile;
}

TEST(CopyTmaHint, ShapeReasonsListOnlyTheOtherRules) {
    EXPECT_EQ(noteOf("samples/rmsnorm_matmul.py", {{"M", "1000"}, {"K", "200"}, {"N", "300"}}, "W_s"),
              "T.copy into 'W_s' keeps cp.async in the T.Pipelined schedule: rows of 'W' are not a multiple of 16 bytes (TMA global "
              "stride) | change that to load it by TMA; its other rules: a whole 2-D shared tile, a box of at most 256 rows x 256 columns");
    // (rmsnorm_mlp's 1-D G_s gave this reason until 1-D tiles took TMA in pipelines: its G is 1-D)
    EXPECT_EQ(ts::xform::tmaWhyNotHint("shared tile 'G_s' is not a 2-D tile of constant shape", false, false, true),
              "nothing needs to change: cp.async loads it correctly (TMA here takes whole 2-D shared tiles of constant shape, or a 1-D "
              "row as a producer of a T.Pipelined loop, from a "
              "kernel tensor whose rows are a multiple of 16 bytes, in boxes of at most 256 rows x 256 columns)");
}

TEST(CopyTmaHint, OtherReasonsSayWhatToDo) {
    // Q is loaded once before the K/V pipeline, whose TMA schedule owns the elected thread.
    EXPECT_EQ(noteOf("samples/flash_attn_fwd.py", {}, "Q_s"),
              "T.copy into 'Q_s' does not use TMA: the kernel already runs a TMA/mbarrier schedule (its elected thread may be a "
              "producer warpgroup's) | nothing to change: this copy keeps plain loads beside the kernel's own mbarrier schedule");
    using ts::xform::tmaWhyNotHint;
    EXPECT_EQ(tmaWhyNotHint("a tile row is 120 bytes, not a multiple of 16 (TMA box inner extent)"),
              "change that to load it by TMA; its other rules: a whole 2-D shared tile, a box of at most 256 rows x 256 columns");
    EXPECT_EQ(tmaWhyNotHint("the tile has more than 256 rows (TMA box)"),
              "change that to load it by TMA; its other rules: a whole 2-D shared tile, a kernel tensor whose rows are a multiple of "
              "16 bytes");
    EXPECT_EQ(tmaWhyNotHint("the region of 'A' may start at a column that is not a multiple of 4 elements (16 bytes; a TMA box's "
                            "start must be 16-byte aligned)"),
              "change that to load it by TMA; its other rules: a whole 2-D shared tile, a kernel tensor whose rows are a multiple of "
              "16 bytes, a box of at most 256 rows x 256 columns");
    EXPECT_EQ(tmaWhyNotHint(kThreadCondition),
              "issue the copy outside the condition on the thread index to load it by TMA");
    EXPECT_EQ(tmaWhyNotHint("'P' is made by T.make_tensor from a pointer known only inside the kernel (TMA tensor maps are built on "
                            "the host)"),
              "copy from a dense T.Tensor parameter of the kernel to load it by TMA");
    EXPECT_EQ(tmaWhyNotHint("it converts float16 to float32"),
              "load a tile of the tensor's own dtype (TMA copies elements unchanged), then convert it with T.copy");
    EXPECT_EQ(tmaWhyNotHint("disable_tma=True"), "drop disable_tma=True to load it by TMA");
    EXPECT_EQ(tmaWhyNotHint("TILESCOPE_PIPELINE_TMA=0"), "unset TILESCOPE_PIPELINE_TMA to load it by TMA");
    // A 128-byte stage rule is not the 16-byte row rule. A stage is a T.Pipelined schedule's, whose
    // loads keep cp.async.
    EXPECT_EQ(tmaWhyNotHint("a stage of 'A_shared' is 64 bytes, not a multiple of 128 (TMA destination alignment)", false, false, true),
              "nothing needs to change: the copy is correct with cp.async");
}

// A copy outside a T.Pipelined loop that does not take TMA keeps plain loads; its hint said
// "cp.async loads it correctly" although the code loads with plain vector loads (fresh-user finding
// 2026-12-05). The pipelined note of the same reason keeps "cp.async" (ShapeReasonsListOnlyTheOtherRules).
TEST(CopyTmaHint, ACopyOutsideAPipelineKeepsPlainLoads) {
    const std::string text = R"(import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((256,), "float32"), B: T.Tensor((256,), "float32")):
    with T.Kernel(2, threads=128) as bx:
        s = T.alloc_shared((128,), "float32")
        T.copy(A[bx * 128], s)
        for i in T.Parallel(128):
            B[bx * 128 + i] = s[i] * 2
)";
    ts::CompileOptions o;
    o.target = "cuda:sm_90a";
    ts::CompileResult r = ts::compile("k.py", text, o);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    std::string got;
    for (auto& d : r.diagnostics)
        if (d.severity == ts::Severity::Note && d.message.rfind("T.copy into 's'", 0) == 0) got = d.message + " | " + d.hint;
    EXPECT_EQ(got, "T.copy into 's' does not use TMA: shared tile 's' is not a 2-D tile of constant shape | nothing needs to change: "
                   "plain loads read it correctly (TMA here takes whole 2-D shared tiles of constant shape, or a 1-D row as a producer "
                   "of a T.Pipelined loop, from a kernel tensor whose "
                   "rows are a multiple of 16 bytes, in boxes of at most 256 rows x 256 columns)");
    EXPECT_EQ(r.cuda.find("cp_async"), std::string::npos) << "the copy is a cp.async now: the hint's 'plain loads' is wrong";
}

// A T.atomic_add(dst, tile, use_tma=True) that keeps per-element atomics had the TMA store's hints
// ("nothing needs to change: the copy is correct with plain stores", "issue the copy ...", "plain
// stores skip ..."): it is neither a copy nor a plain store (fresh-user finding).
TEST(CopyTmaHint, DeclinedReduceAddSaysPerElementAtomics) {
    using ts::xform::tmaWhyNotHint;
    EXPECT_EQ(tmaWhyNotHint("TileScope generates the TMA reduce-add for float32 destinations only", true, true),
              "nothing needs to change: per-element atomics add it correctly");
    EXPECT_EQ(tmaWhyNotHint("the kernel also reads 'Acc' (T.copy at line 12, column 13): a TMA reduce-add writes it through the "
                            "async proxy, unordered with that access (other atomic adds into 'Acc' may stay: additions commute)",
                            true, true),
              "nothing needs to change: per-element atomics add it correctly");
    EXPECT_EQ(tmaWhyNotHint("rows of 'Out' are not a multiple of 16 bytes (TMA global stride)", true, true),
              "change that to add it by TMA; its other rules: a whole 2-D shared tile, a box of at most 256 rows x 256 columns");
    EXPECT_EQ(tmaWhyNotHint(kThreadCondition, true, true),
              "issue the T.atomic_add outside the condition on the thread index to add it by TMA");
    EXPECT_EQ(tmaWhyNotHint("the region of 'Out' may start before the tensor in dimension 0 (start Idx[by] * 32): a TMA reduce-add "
                            "whose box starts at a negative coordinate is not generated (a TMA store's faults on the H200, and "
                            "the reduce-add addresses its box the same way)",
                            true, true),
              "nothing needs to change: per-element atomics skip the elements before the tensor; tiles whose start is a sum of "
              "block/loop indices and non-negative constants are added by TMA");
    EXPECT_EQ(tmaWhyNotHint("shared tile 't3' is not a 2-D tile of constant shape", true, true),
              "nothing needs to change: per-element atomics add it correctly (a TMA reduce-add here takes whole 2-D shared tiles of "
              "constant shape, to a kernel tensor whose rows are a multiple of 16 bytes, in boxes of at most 256 rows x 256 columns)");
    // The store's hints are unchanged.
    EXPECT_EQ(tmaWhyNotHint(kThreadCondition, true),
              "issue the copy outside the condition on the thread index to store it by TMA");
    EXPECT_EQ(tmaWhyNotHint("the kernel also writes 'C' (an element store at line 30, column 13): a TMA store writes it through the "
                            "async proxy, unordered with that access",
                            true),
              "nothing needs to change: the copy is correct with plain stores");
}

}  // namespace
