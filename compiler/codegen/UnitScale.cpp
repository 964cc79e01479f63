#include "compiler/codegen/UnitScale.h"

#include <cstdlib>

#include "compiler/ir/Printer.h"

namespace ts::codegen {
using namespace ts::ir;

namespace {
bool perThreadFloat(const BufferNode& b) {
    return (b.scope == Scope::Fragment || b.scope == Scope::Local) && isFloat(b.dtype);
}
std::optional<int64_t> constElements(const BufferNode& b) {
    int64_t n = 1;
    for (auto& e : b.shape) {
        auto* c = as<IntImmNode>(e);
        if (!c || c->value <= 0) return std::nullopt;
        n *= c->value;
    }
    return n;
}
}  // namespace

std::optional<UnitScale> unitScaleLoop(const ForNode& loop) {
    if (loop.forKind != ForKind::Unrolled) return std::nullopt;
    auto* st = as<StoreNode>(loop.body);
    if (!st || !perThreadFloat(*st->buffer)) return std::nullopt;
    auto* mul = as<BinaryNode>(st->value);
    if (!mul || mul->op != BinOp::Mul) return std::nullopt;
    auto sameElement = [&](const Expr& e) {
        auto* l = as<LoadNode>(e);
        if (!l || l->buffer.get() != st->buffer.get() || l->indices.size() != st->indices.size()) return false;
        for (size_t i = 0; i < l->indices.size(); ++i)
            if (toString(l->indices[i]) != toString(st->indices[i])) return false;
        return true;
    };
    const LoadNode* scale = nullptr;
    if (sameElement(mul->a)) scale = as<LoadNode>(mul->b);
    else if (sameElement(mul->b)) scale = as<LoadNode>(mul->a);
    if (!scale || scale->buffer.get() == st->buffer.get() || !perThreadFloat(*scale->buffer)) return std::nullopt;
    auto n = constElements(*scale->buffer);
    if (!n || *n > kMaxUnitScaleElements) return std::nullopt;
    return UnitScale{scale->buffer, *n};
}

std::string unitScaleGuard(const UnitScale& u, Span at, const std::function<std::string(const Expr&)>& print) {
    std::string cond;
    const char* one = u.scale->dtype == DType::Float64 ? " != 1.0" : " != 1.0f";
    for (int64_t k = 0; k < u.elements; ++k)
        cond += (k ? " || " : "") +
                print(std::make_shared<LoadNode>(u.scale, std::vector<Expr>{std::make_shared<IntImmNode>(k, DType::Int32, at)}, u.scale->dtype, at)) + one;
    return cond;
}

bool unitScaleSkipEnabled() {
    const char* e = std::getenv("TILESCOPE_UNIT_SCALE_SKIP");
    return e && *e == '1';
}

}  // namespace ts::codegen
