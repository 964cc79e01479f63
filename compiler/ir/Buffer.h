// Buffers (tensors, shared tiles, fragments, locals), regions of buffers, and loop/tile-op
// attributes. Buffers are identified by pointer; names are unique inside one PrimFunc.
#pragma once
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "compiler/ir/Expr.h"

namespace ts::ir {

/// Memory scope of a buffer (LANGUAGE.md §3).
enum class Scope : uint8_t {
    Global,    ///< kernel tensor parameter (T.Tensor), row-major unless strides given
    Shared,    ///< T.alloc_shared: one copy per block, dynamic shared memory
    Fragment,  ///< T.alloc_fragment: distributed over the block's threads by an inferred layout
    Local,     ///< T.alloc_local / alloc_var: private per thread
};
const char* scopeName(Scope s);  ///< "global", "shared", "fragment", "local"

struct BufferNode {
    std::string name;
    DType dtype;
    std::vector<Expr> shape;    ///< extents, outermost first (element counts)
    std::vector<Expr> strides;  ///< element strides; empty = row-major contiguous
    Scope scope;
    Span span;                  ///< where it was declared
    BufferNode(std::string n, DType t, std::vector<Expr> sh, Scope sc, Span s,
               std::vector<Expr> st = {})
        : name(std::move(n)), dtype(t), shape(std::move(sh)), strides(std::move(st)), scope(sc), span(s) {}
    size_t rank() const { return shape.size(); }
};

/// Half-open range [min, min + extent).
struct Range {
    Expr min, extent;
};

/// A rectangular region of a buffer, one Range per buffer dimension. Dimensions given by an
/// integer index in the source have extent 1 and are "squeezed" when shapes are matched.
struct Region {
    Buffer buffer;
    std::vector<Range> ranges;
    Span span;
};

/// Attribute values of loops and tile ops (num_stages, order, transpose_A, policy, ...).
using AttrValue = std::variant<int64_t, double, bool, std::string, std::vector<int64_t>>;
using Attrs = std::map<std::string, AttrValue>;

/// Typed lookups with a default (wrong type -> default).
int64_t attrInt(const Attrs& a, const std::string& key, int64_t dflt);
bool attrBool(const Attrs& a, const std::string& key, bool dflt);
std::string attrStr(const Attrs& a, const std::string& key, const std::string& dflt);
std::vector<int64_t> attrInts(const Attrs& a, const std::string& key);
std::string attrToString(const AttrValue& v);

}  // namespace ts::ir
