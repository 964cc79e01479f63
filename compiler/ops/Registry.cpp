// The tile-op registry (Registry.h). Slots are atomic pointers indexed by kind, so lookups from
// concurrent compiles never lock; registration (built-ins once, extension ops from tests or
// plugins) takes a mutex and only appends.
#include "compiler/ops/Registry.h"

#include <array>
#include <atomic>
#include <mutex>
#include <stdexcept>
#include <string>

#include "compiler/ops/Builtins.h"

namespace ts::ops {

namespace {

constexpr size_t kSlots = 256;  // ir::TileOpKind is a uint8_t

struct Table {
    std::array<std::atomic<const TileOp*>, kSlots> byKind{};
    std::mutex mutex;
    std::vector<std::unique_ptr<TileOp>> owned;
    size_t next = ir::kFirstExtensionTileOp;

    void put(size_t k, std::unique_ptr<TileOp> op) {
        for (size_t i = 0; i < kSlots; ++i)
            if (const TileOp* other = byKind[i].load())
                for (auto n : op->signature().names)
                    for (auto m : other->signature().names)
                        if (n == m) throw std::logic_error("tile op name T." + std::string(n) + " is registered twice");
        byKind[k].store(op.get());
        owned.push_back(std::move(op));
    }
};

Table& table() {
    static Table* t = [] {
        auto* tb = new Table;  // never destroyed: compiles may run during static destruction
        // The built-in ops, in ir::TileOpKind order (their kinds are fixed by the enum).
        tb->put(size_t(ir::TileOpKind::Copy), makeCopyOp());
        tb->put(size_t(ir::TileOpKind::Gemm), makeGemmOp());
        tb->put(size_t(ir::TileOpKind::Fill), makeFillOp());
        tb->put(size_t(ir::TileOpKind::Reduce), makeReduceOp());
        tb->put(size_t(ir::TileOpKind::Cumsum), makeCumsumOp());
        tb->put(size_t(ir::TileOpKind::Atomic), makeAtomicOp());
        return tb;
    }();
    return *t;
}

}  // namespace

const TileOp* find(ir::TileOpKind k) { return table().byKind[static_cast<uint8_t>(k)].load(); }

const TileOp& get(ir::TileOpKind k) {
    if (const TileOp* op = find(k)) return *op;
    throw std::logic_error("no tile op is registered for kind " + std::to_string(static_cast<int>(k)));
}

const TileOp* findByName(std::string_view tName) {
    Table& t = table();
    for (size_t i = 0; i < kSlots; ++i)
        if (const TileOp* op = t.byKind[i].load())
            for (auto n : op->signature().names)
                if (n == tName) return op;
    return nullptr;
}

ir::TileOpKind kindOf(const TileOp& op) {
    Table& t = table();
    for (size_t i = 0; i < kSlots; ++i)
        if (t.byKind[i].load() == &op) return static_cast<ir::TileOpKind>(i);
    throw std::logic_error("tile op '" + std::string(op.name()) + "' is not registered");
}

std::vector<ir::TileOpKind> kinds() {
    std::vector<ir::TileOpKind> out;
    Table& t = table();
    for (size_t i = 0; i < kSlots; ++i)
        if (t.byKind[i].load()) out.push_back(static_cast<ir::TileOpKind>(i));
    return out;
}

ir::TileOpKind registerOp(std::unique_ptr<TileOp> op) {
    Table& t = table();
    std::lock_guard<std::mutex> lock(t.mutex);
    if (t.next >= kSlots) throw std::logic_error("no tile-op kinds left to register '" + std::string(op->name()) + "'");
    size_t k = t.next++;
    auto kind = static_cast<ir::TileOpKind>(k);
    const TileOp* raw = op.get();
    t.put(k, std::move(op));
    ir::setTileOpName(kind, raw->name().data());
    return kind;
}

std::string TileOp::spelling(const ir::TileOpNode&) const { return std::string(name()); }

std::vector<SharedAccess> TileOp::sharedAccesses(const ir::TileOpNode& n) const {
    std::vector<SharedAccess> out;
    for (size_t i = 0; i < n.args.size(); ++i) {
        auto* r = std::get_if<ir::Region>(&n.args[i]);
        uint8_t a = access(n, i);
        if (r && r->buffer && r->buffer->scope == ir::Scope::Shared && a != kNoAccess) out.push_back({i, r, a});
    }
    return out;
}

}  // namespace ts::ops
