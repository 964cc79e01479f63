// plan-smem: gives every shared buffer a byte offset in the kernel's dynamic shared memory,
// each aligned to 128 bytes (swizzles are computed relative to a buffer's base and assume
// 128-byte lines, analysis/Swizzle.h). Buffers are not overlapped: reusing space between
// buffers with disjoint lifetimes would need a barrier between the last read of one and the
// first write of the other, which insert-sync (run before) does not know about.
// Requires: lower-tile-ops (all shared buffers declared, incl. reduction scratch).
// Produces: PrimFunc attrs "smem_bytes" and "smem_offset.<name>". Invalidates: nothing.
#include "compiler/ir/IR.h"
#include "compiler/transforms/Passes.h"

namespace ts::xform {
using namespace ts::ir;

PrimFunc planSharedMemory(const PrimFunc& f, PassContext& ctx) {
    Attrs attrs = f->attrs;
    int64_t offset = 0;
    bool ok = true;
    walk(f->body, [&](const Stmt& s) {
        auto* a = as<AllocNode>(s);
        if (!a || a->buffer->scope != Scope::Shared) return;
        auto n = constNumel(*a->buffer);
        if (!n) {
            ctx.diags.error(a->span, "shared buffer '" + a->buffer->name + "' needs a compile-time constant shape",
                            "use meta parameters for its extents", "plan-smem");
            ok = false;
            return;
        }
        int64_t pad = 0;
        auto lit = f->layouts.find(a->buffer->name);
        if (lit != f->layouts.end() && lit->second && lit->second->offset) {
            // A T.Layout index map: each tile takes the map's physical extent.
            int64_t tileElems = 1;
            for (auto e : lit->second->shape) tileElems *= e;
            pad = *n / std::max<int64_t>(1, tileElems) * lit->second->physicalElems - *n;
        } else if (auto it = lit; it != f->layouts.end() && it->second && it->second->padElems) {
            int64_t rowsTotal = *n / std::max<int64_t>(1, it->second->shape.empty() ? 1 : it->second->shape.back());
            pad = rowsTotal * it->second->padElems;
        }
        int64_t bytes = (*n + pad) * dtypeBytes(a->buffer->dtype);
        offset = (offset + 127) / 128 * 128;
        attrs["smem_offset." + a->buffer->name] = offset;
        offset += bytes;
    });
    if (!ok) return f;
    attrs["smem_bytes"] = (offset + 127) / 128 * 128;
    auto out = std::make_shared<PrimFuncNode>(*f);
    out->attrs = attrs;
    return out;
}

}  // namespace ts::xform
