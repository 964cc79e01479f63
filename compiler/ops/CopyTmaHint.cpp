// The hint under a "T.copy into 'X' does not use TMA: <why>" / "... keeps cp.async in the
// T.Pipelined schedule: <why>" note (CopyTma.cpp, InjectPipelineTmaLoads.cpp). Both notes used to
// end with one generic hint, "TMA takes a whole 2-D shared tile from a kernel tensor whose rows
// are a multiple of 16 bytes, a box of at most 256 x 256", which repeated the rule the reason had
// just named ("rows of 'W' are not a multiple of 16 bytes") and was beside the point when the
// reason is not the copy's shape (a condition on the thread index, the kernel's own mbarrier schedule; fresh-user
// trial 2026-12-04). The hint now says what to do about that reason; for a shape rule it lists
// only TMA's other shape rules. The reasons are the texts of tmaLoadWhyNot, pipelinedTmaWhyNot,
// plainTmaWhyNot, tmaDestGeometry, tmaCopyRowDim and the pipeline schedules, matched by their
// fixed words (CopyTmaHintTest covers each). A TMA store's note (shared -> global, tmaStoreWhyNot)
// gets the same hints with "store" for "load" and plain stores for cp.async. A declined TMA
// reduce-add (T.atomic_add(..., use_tma=True), tmaStoreWhyNot's rules) keeps per-element atomics:
// its hints said "the copy is correct with plain stores", which is not what it does.
// A load outside a T.Pipelined loop keeps plain loads, one in its schedule cp.async (`cpAsync`):
// the hints said "cp.async loads it correctly" under a copy that the code loads with plain vector
// loads (fresh-user finding 2026-12-05), and "plain loads" under a pipelined copy's note that says
// "keeps cp.async".
#include <initializer_list>
#include <string_view>
#include <utility>

#include "compiler/transforms/Hopper.h"

namespace ts::xform {
namespace {

bool mentions(const std::string& why, std::initializer_list<std::string_view> words) {
    for (auto w : words)
        if (why.find(w) != std::string::npos) return true;
    return false;
}

}  // namespace

std::string tmaWhyNotHint(const std::string& why, bool store, bool reduce, bool cpAsync) {
    store = store || reduce;
    const std::string it = reduce ? "add it by TMA" : store ? "store it by TMA" : "load it by TMA";
    // What the op does instead of TMA, and the op's name, in the "nothing needs to change" hints.
    const std::string plain = reduce ? "per-element atomics" : store ? "plain stores" : cpAsync ? "cp.async" : "plain loads";
    const std::string opName = reduce ? "the T.atomic_add" : "the copy";
    // TMA's shape rules, each after the words of the reasons that name it.
    const bool tile = mentions(why, {"2-D tile", "whole tile", "the tile's shape", "the tile's columns"});
    const bool rows = mentions(why, {"not a multiple of 16 bytes", "not a multiple of 16 (TMA box"});
    const bool box = mentions(why, {"more than 256"});
    // The box's 16-byte aligned start is a rule of its own: the other three all still apply.
    const bool shapeReason = tile || rows || box || mentions(why, {"16-byte aligned"});
    std::string others;
    for (auto [named, text] : {std::pair{tile, "a whole 2-D shared tile"}, std::pair{rows, "a kernel tensor whose rows are a multiple of 16 bytes"},
                               std::pair{box, "a box of at most 256 rows x 256 columns"}})
        if (!named) others += std::string(others.empty() ? "" : ", ") + text;
    // A vector or a tile of another rank (rmsnorm's gamma) is not worth reshaping: cp.async (plain
    // loads outside a pipeline) loads it correctly and it is small next to the gemm operands.
    if (mentions(why, {"is not a 2-D tile"}))
        return std::string(reduce ? "nothing needs to change: per-element atomics add it correctly (a TMA reduce-add here takes "
                                    "whole 2-D shared tiles of constant shape, to "
                           : store ? "nothing needs to change: plain stores write it correctly (a TMA store here takes whole 2-D shared "
                                     "tiles of constant shape, to "
                                 : std::string("nothing needs to change: ") + (cpAsync ? "cp.async loads" : "plain loads read") +
                                   " it correctly (TMA here takes whole 2-D shared tiles of constant shape, or a 1-D row as a "
                                   "producer of a T.Pipelined loop, from ") +
               std::string(rows ? "" : "a kernel tensor whose rows are a multiple of 16 bytes, ") + "in boxes of at most 256 rows x 256 columns)";
    if (shapeReason) return "change that to " + it + "; its other rules: " + others;
    if (mentions(why, {"condition on the thread index"})) return "issue " + opName + " outside the condition on the thread index to " + it;
    if (mentions(why, {"TMA/mbarrier schedule", "hand-written mbarriers"}))
        return std::string("nothing to change: ") + (reduce ? "this T.atomic_add keeps " : "this copy keeps ") + plain +
               " beside the kernel's own mbarrier schedule";
    if (mentions(why, {"T.make_tensor", "not a kernel tensor parameter", "strided tensor"}))
        return std::string(reduce ? "add into" : store ? "copy to" : "copy from") + " a dense T.Tensor parameter of the kernel to " + it;
    if (mentions(why, {"converts", "not a TMA element type"}))
        return reduce ? "convert into a shared tile of the tensor's own dtype first (TMA adds elements unconverted), then add that tile"
               : store ? "convert into a shared tile of the tensor's own dtype first (TMA copies elements unchanged), then copy that tile"
                     : "load a tile of the tensor's own dtype (TMA copies elements unchanged), then convert it with T.copy";
    if (mentions(why, {"starts at a negative coordinate"}))
        return "nothing needs to change: " + plain + " skip the elements before the tensor; tiles whose start is a sum of "
               "block/loop indices and non-negative constants are " + (reduce ? "added" : "stored") + " by TMA";
    if (why == "disable_tma=True") return "drop disable_tma=True to " + it;
    if (why.rfind("prefer_instruction=", 0) == 0) return "write prefer_instruction=\"tma\" (or leave it out) to " + it;
    if (why == "pass_configs tl.disable_tma_lower is True") return "remove \"tl.disable_tma_lower\" from the kernel's pass_configs to " + it;
    if (why == "TILESCOPE_PIPELINE_TMA=0") return "unset TILESCOPE_PIPELINE_TMA to load it by TMA";
    if (reduce) return "nothing needs to change: per-element atomics add it correctly";
    return "nothing needs to change: the copy is correct with " + plain;
}

}  // namespace ts::xform
