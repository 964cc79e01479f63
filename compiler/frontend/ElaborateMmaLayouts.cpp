#include "compiler/frontend/ElaborateMmaLayouts.h"

#include "compiler/analysis/Layouts.h"
#include "compiler/analysis/Swizzle.h"
#include "compiler/frontend/ElabValues.h"

namespace ts::fe::elab {

void registerMmaSwizzleLayout(Interp& in) {
    Value fn = Value::builtin("make_mma_swizzle_layout", [](Interp&, CallArgs& a) {
        a.callee = "make_mma_swizzle_layout";
        // (shared_buf, is_smooth=False); older TileLang: (shared_buf, vecSize=8), whose
        // vector width only picks among bank-conflict-free permutations.
        auto b = a.bind({"shared_buf", "is_smooth"}, 1);
        auto* buf = b[0].extAs<BufferValue>();
        if (!buf || buf->buffer->scope != ir::Scope::Shared)
            throw CompileError(b.spans[0],
                               "make_mma_swizzle_layout expects a shared-memory buffer, got " +
                                   typeName(b[0]));
        bool smooth = false;
        if (b.has(1)) {
            const Value& v = b[1];
            if (v.is(ValueKind::Bool)) smooth = v.asInt() != 0;
            else if (!v.isIntLike())
                throw CompileError(b.spans[1],
                                   "make_mma_swizzle_layout: is_smooth must be True or False");
        }
        auto shape = ir::constShape(*buf->buffer);
        if (!shape || shape->size() < 2)
            throw CompileError(b.spans[0],
                               "make_mma_swizzle_layout needs a tile of rank 2 or more with "
                               "constant extents");
        int elt = ir::dtypeBytes(buf->buffer->dtype);
        int bits = ir::dtypeBits(buf->buffer->dtype);
        int64_t rows = 1;
        for (size_t i = 0; i + 1 < shape->size(); ++i) rows *= (*shape)[i];
        bool canSwizzle = shape->back() * bits % 512 == 0;
        int mode = smooth || !canSwizzle ? 0 : analysis::chooseSwizzleMode(shape->back() * elt, rows);
        return Value::ext(std::make_shared<LayoutValue>(analysis::makeSharedLayout(*shape, elt, mode)));
    });
    for (const char* path : {"tilelang.cuda.intrinsics", "tilelang.cuda.intrinsics.layout.mma_layout",
                             "tilelang.intrinsics", "tilelang.intrinsics.mma_layout"})
    {
        bool known = in.module(path) != nullptr;
        auto m = in.registerModule(path);
        if (!known) {  // the rest of the module stays unavailable, as before
            m->opaque = true;
            m->opaqueReason = std::string("module '") + path + "' is not available at compile time";
        }
        m->set("make_mma_swizzle_layout", fn);
    }
}

}  // namespace ts::fe::elab
