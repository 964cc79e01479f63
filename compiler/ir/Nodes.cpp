// Small out-of-line helpers of the IR node headers (names, attribute lookups).
#include <array>
#include <atomic>
#include <iterator>
#include <sstream>

#include "compiler/ir/Stmt.h"

namespace ts::ir {

const char* binOpSymbol(BinOp op) {
    switch (op) {
        case BinOp::Add: return "+";
        case BinOp::Sub: return "-";
        case BinOp::Mul: return "*";
        case BinOp::Div: return "/";
        case BinOp::FloorDiv: return "//";
        case BinOp::FloorMod: return "%";
        case BinOp::Min: return "min";
        case BinOp::Max: return "max";
        case BinOp::Pow: return "**";
        case BinOp::Eq: return "==";
        case BinOp::Ne: return "!=";
        case BinOp::Lt: return "<";
        case BinOp::Le: return "<=";
        case BinOp::Gt: return ">";
        case BinOp::Ge: return ">=";
        case BinOp::And: return "and";
        case BinOp::Or: return "or";
        case BinOp::BitAnd: return "&";
        case BinOp::BitOr: return "|";
        case BinOp::BitXor: return "^";
        case BinOp::Shl: return "<<";
        case BinOp::Shr: return ">>";
    }
    return "?";
}

bool isComparison(BinOp op) {
    return op == BinOp::Eq || op == BinOp::Ne || op == BinOp::Lt || op == BinOp::Le || op == BinOp::Gt ||
           op == BinOp::Ge;
}

const char* scopeName(Scope s) {
    switch (s) {
        case Scope::Global: return "global";
        case Scope::Shared: return "shared";
        case Scope::Fragment: return "fragment";
        case Scope::Local: return "local";
    }
    return "?";
}

const char* forKindName(ForKind k) {
    switch (k) {
        case ForKind::Serial: return "serial";
        case ForKind::Unrolled: return "unroll";
        case ForKind::Vectorized: return "vectorized";
        case ForKind::Parallel: return "Parallel";
        case ForKind::Pipelined: return "Pipelined";
    }
    return "?";
}

namespace {
// Names of the tile-op kinds: the built-in ones, then those compiler/ops/Registry.cpp adds for
// ops registered at run time (ops::registerOp). Atomic slots: a compile on another thread may
// print while a test registers its op.
std::array<std::atomic<const char*>, 256>& tileOpNames() {
    static std::array<std::atomic<const char*>, 256> names{};
    static const bool init = [] {
        const char* builtin[] = {"copy", "gemm", "fill", "reduce", "cumsum", "atomic"};
        for (size_t i = 0; i < std::size(builtin); ++i) names[i].store(builtin[i]);
        return true;
    }();
    (void)init;
    return names;
}
}  // namespace

const char* tileOpName(TileOpKind k) {
    const char* n = tileOpNames()[static_cast<uint8_t>(k)].load();
    return n ? n : "?";
}

void setTileOpName(TileOpKind k, const char* name) { tileOpNames()[static_cast<uint8_t>(k)].store(name); }

int64_t KernelNode::threadCount() const {
    int64_t n = 1;
    for (auto t : threads) n *= t;
    return n;
}

int64_t attrInt(const Attrs& a, const std::string& key, int64_t dflt) {
    auto it = a.find(key);
    if (it == a.end()) return dflt;
    if (auto* v = std::get_if<int64_t>(&it->second)) return *v;
    if (auto* b = std::get_if<bool>(&it->second)) return *b ? 1 : 0;
    return dflt;
}
bool attrBool(const Attrs& a, const std::string& key, bool dflt) {
    auto it = a.find(key);
    if (it == a.end()) return dflt;
    if (auto* v = std::get_if<bool>(&it->second)) return *v;
    if (auto* i = std::get_if<int64_t>(&it->second)) return *i != 0;
    return dflt;
}
std::string attrStr(const Attrs& a, const std::string& key, const std::string& dflt) {
    auto it = a.find(key);
    if (it == a.end()) return dflt;
    if (auto* v = std::get_if<std::string>(&it->second)) return *v;
    return dflt;
}
std::vector<int64_t> attrInts(const Attrs& a, const std::string& key) {
    auto it = a.find(key);
    if (it == a.end()) return {};
    if (auto* v = std::get_if<std::vector<int64_t>>(&it->second)) return *v;
    return {};
}
std::string attrToString(const AttrValue& v) {
    std::ostringstream os;
    std::visit(
        [&](const auto& x) {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, bool>) os << (x ? "True" : "False");
            else if constexpr (std::is_same_v<T, std::string>) os << '"' << x << '"';
            else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
                os << '[';
                for (size_t i = 0; i < x.size(); ++i) os << (i ? ", " : "") << x[i];
                os << ']';
            } else os << x;
        },
        v);
    return os.str();
}

}  // namespace ts::ir
