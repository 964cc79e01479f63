#include "app/cli/PointerTables.h"

#include <algorithm>
#include <map>
#include <set>

#include "compiler/ir/Functor.h"
#include "compiler/ir/IR.h"
#include "compiler/ir/PointerTensors.h"

namespace ts::cli {
namespace {

/// Buffers a tile-level statement writes (stores and the destination regions of tile ops).
void collectWrites(const ir::Stmt& body, std::set<const ir::BufferNode*>& w) {
    ir::walk(body, [&](const ir::Stmt& s) {
        if (auto* st = ir::as<ir::StoreNode>(s)) w.insert(st->buffer.get());
        if (auto* t = ir::as<ir::TileOpNode>(s)) {
            size_t dst = t->op == ir::TileOpKind::Gemm ? 2 : (t->op == ir::TileOpKind::Fill || t->op == ir::TileOpKind::Atomic) ? 0 : 1;
            if (t->isRegion(dst)) w.insert(t->region(dst).buffer.get());
        }
    });
}

struct Pointee {
    ir::DType dtype = ir::DType::Float32;
    std::vector<int64_t> shape;
    int64_t span = 0;  ///< elements the tensor covers
    bool written = false;
    bool seen = false;
};

}  // namespace

bool addPointees(CompileResult& r, PointerTableRun& out, std::string& why) {
    out = {};
    const ir::PrimFunc& f = r.elaborated;
    if (!f) return true;
    bool hasTables = false;
    for (auto& p : f->params) hasTables |= ir::isPointerTable(f->attrs, *p);
    if (!hasTables) return true;
    // Idempotent: a second call (tilec tune re-applies launch values) replaces the pointees.
    if (r.kernel.args.size() > f->params.size()) r.kernel.args.resize(f->params.size());
    out.kernelTensors = r.kernel.args.size();
    std::set<const ir::BufferNode*> written;
    collectWrites(f->body, written);
    std::map<std::string, Pointee> tables;
    bool bad = false;
    ir::walk(f->body, [&](const ir::Stmt& s) {
        auto* a = ir::as<ir::AllocNode>(s);
        if (bad || !a || !a->buffer) return;
        const std::string table = ir::pointerTensorTable(f->attrs, *a->buffer);
        if (table.empty()) return;
        const ir::BufferNode& b = *a->buffer;
        std::vector<int64_t> shape;
        int64_t span = 1;
        for (size_t d = 0; d < b.shape.size(); ++d) {
            auto c = ir::constInt(b.shape[d]);
            auto st = d < b.strides.size() ? ir::constInt(b.strides[d]) : std::optional<int64_t>(0);
            if (!c || !st) {
                why = "T.make_tensor '" + b.name + "' (line " + std::to_string(b.span.line) +
                      ") has a shape or strides known only at run time; tilec run allocates the memory its pointer "
                      "table points to from constant shapes";
                bad = true;
                return;
            }
            shape.push_back(*c);
        }
        if (b.strides.empty()) {
            for (int64_t e : shape) span *= e;
        } else {
            span = 1;
            for (size_t d = 0; d < shape.size(); ++d) span += (shape[d] - 1) * *ir::constInt(b.strides[d]);
        }
        Pointee& p = tables[table];
        if (p.seen && p.dtype != b.dtype) {
            why = "pointer table '" + table + "' is made into tensors of dtypes " + std::string(ir::dtypeName(p.dtype)) + " and " +
                  std::string(ir::dtypeName(b.dtype)) + " (line " + std::to_string(b.span.line) +
                  "); tilec run allocates one pointee dtype per table";
            bad = true;
            return;
        }
        const bool sameShape = p.seen && p.shape == shape && b.strides.empty();
        if (!p.seen) p.shape = b.strides.empty() ? shape : std::vector<int64_t>{span};
        else if (!sameShape) p.shape = {std::max(p.span, span)};
        p.span = std::max(p.span, span);
        p.dtype = b.dtype;
        p.written = p.written || written.count(&b);
        p.seen = true;
    });
    if (bad) return false;
    for (size_t i = 0; i < f->params.size() && i < out.kernelTensors; ++i) {
        const ir::BufferNode& t = *f->params[i];
        if (!ir::isPointerTable(f->attrs, t)) continue;
        auto it = tables.find(t.name);
        if (it == tables.end()) {
            why = "pointer table '" + t.name + "' is never passed to T.make_tensor, so tilec cannot tell what its entries point to";
            return false;
        }
        int64_t entries = 1;
        for (int64_t e : r.kernel.args[i].shape) entries *= e;
        if (entries < 0 || entries > 4096) {
            why = "pointer table '" + t.name + "' has " + std::to_string(entries) + " entries; tilec run feeds 0 to 4096";
            return false;
        }
        PointerTableRun::Table tb;
        tb.param = static_cast<int>(i);
        for (int64_t g = 0; g < entries; ++g) {
            TensorArg a;
            a.name = t.name + "[" + std::to_string(g) + "]";
            a.dtype = it->second.dtype;
            a.shape = it->second.shape;
            a.isOutput = it->second.written;
            a.span = t.span;
            tb.pointees.push_back(static_cast<int>(r.kernel.args.size()));
            r.kernel.args.push_back(std::move(a));
        }
        out.tables.push_back(std::move(tb));
    }
    return true;
}

}  // namespace ts::cli
