// stage-epilogue (sm_90a): a tensor-core accumulator (or a fragment in its layout, as SwiGLU's
// product) written straight to global memory at the end of
// the kernel (`T.copy(C_local, C[by * bm, bx * bn])`, samples/gemm.py) goes through shared
// memory instead, as TileLang files that want speed write it by hand:
//
//   C_local_stage = T.alloc_shared((bm, bn), C.dtype)      # 128-byte swizzled column panels
//   T.copy(C_local, C_local_stage)                          # conflict-free pair stores
//   T.copy(C_local_stage, C[by * bm, bx * bn])              # one TMA store per 64-column panel
//
// Why: from registers each warp instruction writes 8 rows x 16 bytes of C (half of each 32-byte
// sector) and the block's 64 such instructions per thread hold the SM's tensor cores idle until
// they retire; staged, the same bytes leave in a few bulk TMA stores. Measured on the H200
// (2026-12-04, bench/results/h200-epilogue-2026-12-04/: GEMM 4096^3 fp16 0.2034 -> 0.1901 ms,
// bf16 0.1952 -> 0.1818 ms with the hand-staged file). The tile's layout is the wgmma operand
// layout (analysis/WgmmaLayouts.h), the one CopyOp chooses for a hand-staged tile too.
//
// Taken only when all of these hold, else the copy stays as written:
//  - the copy is a statement of the kernel body itself (not in a loop or branch), from a whole
//    2-D fragment in a wgmma or mma.sync accumulator layout (analysis::accumulatorStagesConflictFree)
//    to a global tensor, without disable_tma;
//  - the staged tile is a TMA operand geometry with 128-byte panels, and the store from it is a
//    legal TMA store (tmaStoreWhyNot: alignment, non-negative start, nothing else touches C);
//  - the kernel has no hand-written mbarriers (T.alloc_barrier), which keep the lowering off
//    TMA stores (plainTmaStoreWhyNot);
//  - warp-specialize will not give the kernel a producer warpgroup (off by default; the switch
//    $TILESCOPE_HOPPER_WS=1 measures it), as its elected thread could not issue the store;
//  - no shared buffer is used at or after the copy, and the shared buffers live together at some
//    statement before it (the pipeline's tiles) hold at least the tile's bytes: plan-smem then
//    gives it those bytes (their live ranges are disjoint), so the kernel's shared memory does not
//    grow. Buffers live at different times are not added up: plan-smem already let them share.
// Runs after inject-pipeline (the staged shapes of the pipeline's tiles are final) and before
// lower-tile-ops, which lowers both copies as any hand-written pair. Interpreters run the result.
// A candidate (a whole 2-D accumulator fragment of a 16-bit output with a TMA panel geometry) that
// is not staged gets a note saying why (shared memory used after it, too few free bytes, no
// legal TMA store); the other reasons (disable_tma, hand-written mbarriers, the WS switch) are
// the user's or the measurement's own choice and stay silent.
#include <algorithm>
#include <map>
#include <set>

#include "compiler/analysis/WgmmaLayouts.h"
#include "compiler/ir/IR.h"
#include "compiler/ir/Views.h"
#include "compiler/transforms/Hopper.h"
#include "compiler/transforms/Passes.h"

namespace ts::xform {
using namespace ts::ir;

namespace {


/// Shared buffers a statement reads, writes, takes the address of or (with `allocs`) allocates.
void sharedBuffers(const Stmt& s, std::set<const BufferNode*>& out, bool allocs = true) {
    auto add = [&](const Buffer& b) {
        if (b && b->scope == Scope::Shared) out.insert(b.get());
    };
    walk(
        s,
        [&](const Stmt& x) {
            if (auto* st = as<StoreNode>(x)) add(st->buffer);
            if (auto* a = as<AllocNode>(x); a && allocs) add(a->buffer);
            if (auto* t = as<TileOpNode>(x))
                for (size_t i = 0; i < t->args.size(); ++i)
                    if (t->isRegion(i)) add(t->region(i).buffer);
        },
        [&](const Expr& e) {
            if (auto* l = as<LoadNode>(e)) add(l->buffer);
        });
}

int64_t bytesOf(const BufferNode& b) {
    auto shape = constShape(b);
    if (!shape) return 0;
    int64_t n = dtypeBytes(b.dtype);
    for (int64_t d : *shape) n *= d;
    return n;
}

std::string uniqueName(const PrimFuncNode& f, const std::string& base) {
    std::set<std::string> names;
    walk(f.body, [&](const Stmt& x) {
        if (auto* a = as<AllocNode>(x)) names.insert(a->buffer->name);
    });
    for (auto& p : f.params) names.insert(p->name);
    std::string n = base;
    for (int i = 1; names.count(n) || f.layouts.count(n); ++i) n = base + "_" + std::to_string(i);
    return n;
}

class ReplaceKernel : public Mutator {
public:
    ReplaceKernel(const KernelNode* from, Stmt to) : m_from(from), m_to(std::move(to)) {}

protected:
    Stmt visitKernel(const KernelNode* n, const Stmt& self) override { return n == m_from ? m_to : self; }

private:
    const KernelNode* m_from;
    Stmt m_to;
};

}  // namespace

PrimFunc stageEpilogue(const PrimFunc& f, PassContext& ctx) {
    if (!ctx.target.hasWgmma()) return f;
    const KernelNode* k = findKernel(f);
    if (!k) return f;
    // Hand-written mbarriers (T.alloc_barrier): the lowering keeps every TMA store away from such
    // kernels (plainTmaStoreWhyNot: thread 0 may have a role of its own), so a staged tile would
    // be stored with plain loads and stores -- an extra round trip through shared memory.
    if (attrBool(f->attrs, "explicit_mbarriers", false)) return f;
    std::vector<Stmt> top;
    flattenSeq(k->body, top);
    // warp-specialize keeps away from kernels with a TMA store (its elected thread would be a
    // producer's, unordered with the consumers' writes of the tile): leave it its candidates.
    if (warpSpecializeEnabled())
        for (auto& s : top)
            if (auto* l = as<ForNode>(s); l && attrBool(l->attrs, "ws_candidate", false)) return f;
    for (size_t i = 0; i < top.size(); ++i) {
        auto* t = as<TileOpNode>(top[i]);
        if (!t || t->op != TileOpKind::Copy || t->args.size() < 2 || !t->isRegion(0) || !t->isRegion(1)) continue;
        const Region &src = t->region(0), &dst = t->region(1);
        if (src.buffer->scope != Scope::Fragment || dst.buffer->scope != Scope::Global || !wholeBuffer(src)) continue;
        if (attrBool(t->attrs, "disable_tma", false)) continue;
        auto fl = f->layouts.find(src.buffer->name);
        if (fl == f->layouts.end() || !fl->second || !analysis::accumulatorStagesConflictFree(*fl->second, dtypeBytes(dst.buffer->dtype))) continue;
        auto shape = constShape(*src.buffer);
        if (!shape || shape->size() != 2) continue;
        auto g = analysis::wgmmaTileGeometry((*shape)[0], (*shape)[1], dtypeBytes(dst.buffer->dtype));
        if (!g || g->panelBytes != 128) continue;
        // A candidate from here on: say why it keeps its stores from registers.
        const std::string what = "T.copy from '" + src.buffer->name + "' into '" + dst.buffer->name + "'";
        auto declined = [&](const std::string& why, const std::string& hint) {
            ctx.diags.add({Severity::Note, t->span, what + " stores from registers, not through a staged shared tile: " + why, hint,
                           "stage-epilogue"});
        };
        const std::string byHand = "or stage it by hand: T.copy(" + src.buffer->name + ", C_shared); T.copy(C_shared, " + dst.buffer->name + "[...])";
        // Shared memory: nothing shared in use from here on; the bytes used before are free.
        std::set<const BufferNode*> after;
        for (size_t j = i; j < top.size(); ++j) sharedBuffers(top[j], after);
        if (!after.empty()) {
            declined("shared tile '" + (*after.begin())->name + "' is used after it (a staged tile takes only the bytes of tiles used before the copy)",
                     "move that shared-memory work before the final T.copy, " + byHand);
            continue;
        }
        // The bytes surely free: plan-smem gives buffers live at the same time disjoint bytes and
        // lets the others share theirs (a tile used only before the pipeline shares the pipeline
        // tiles' bytes), so what the kernel already has is at least the most bytes live together
        // at one top-level statement (live: from the first statement that uses a buffer to the
        // last), not the sum over every buffer used before the copy.
        // A shared view (T.view, ir/Views.h) sits on its base buffer's bytes: counted as the base.
        struct Live {
            size_t first = 0, last = 0;
            int64_t bytes = 0;
        };
        std::map<std::string, Live> live;
        for (size_t j = 0; j < i; ++j) {
            std::set<const BufferNode*> used;
            sharedBuffers(top[j], used, /*allocs=*/false);
            for (auto* b : used) {
                std::string base = sharedViewBase(f->attrs, b->name);
                auto [it, fresh] = live.try_emplace(base.empty() ? b->name : base, Live{j, j, 0});
                it->second.last = j;
                it->second.bytes = std::max(it->second.bytes, bytesOf(*b));
            }
        }
        int64_t freeBytes = 0;
        for (size_t j = 0; j < i; ++j) {
            int64_t together = 0;
            for (auto& [name, r] : live)
                if (r.first <= j && j <= r.last) together += r.bytes;
            freeBytes = std::max(freeBytes, together);
        }
        if (freeBytes < g->bytes()) {
            declined("the staged tile needs " + std::to_string(g->bytes()) + " bytes and the tiles live before it hold " +
                         std::to_string(freeBytes) + " at once (staging does not grow the kernel's shared memory)",
                     "a larger block_K or more pipeline stages give it room, " + byHand);
            continue;
        }

        const Span sp = t->span;
        Buffer stage = std::make_shared<BufferNode>(uniqueName(*f, src.buffer->name + "_stage"), dst.buffer->dtype,
                                                    std::vector<Expr>{intImm((*shape)[0]), intImm((*shape)[1])}, Scope::Shared, sp);
        Region whole{stage, {Range{intImm(0), intImm((*shape)[0])}, Range{intImm(0), intImm((*shape)[1])}}, sp};
        Attrs storeAttrs = t->attrs;
        auto toStage = std::make_shared<TileOpNode>(TileOpKind::Copy, std::vector<TileArg>{src, whole}, t->attrs, sp);
        auto store = std::make_shared<TileOpNode>(TileOpKind::Copy, std::vector<TileArg>{whole, dst}, storeAttrs, sp);
        std::vector<Stmt> body(top.begin(), top.begin() + static_cast<long>(i));
        body.push_back(std::make_shared<AllocNode>(stage, nullptr, sp));
        body.push_back(toStage);
        body.push_back(store);
        body.insert(body.end(), top.begin() + static_cast<long>(i) + 1, top.end());
        Stmt kernel = std::make_shared<KernelNode>(k->grid, k->threads, k->blockVars, k->threadVars, seq(body, k->span), k->span);
        auto out = std::make_shared<PrimFuncNode>(*withBody(f, ReplaceKernel(k, kernel).mutate(f->body)));
        Layout staged = analysis::makeWgmmaSharedLayout(*g);
        out->layouts[stage->name] = staged;
        const std::string why = tmaStoreWhyNot(*out, *store, staged, ctx.target, nullptr);
        if (!why.empty()) {
            declined("its store could not be a TMA store: " + why, tmaWhyNotHint(why, true));
            continue;
        }
        ctx.diags.add({Severity::Note, sp,
                       "T.copy from '" + src.buffer->name + "' into '" + dst.buffer->name + "' goes through a shared tile '" + stage->name +
                           "' (" + std::to_string(g->bytes()) + " bytes reusing the shared memory of tiles that are dead by then, 128-byte swizzled) and a TMA store",
                       "disable_tma=True keeps the direct stores from registers", "stage-epilogue"});
        return out;
    }
    return f;
}

}  // namespace ts::xform
