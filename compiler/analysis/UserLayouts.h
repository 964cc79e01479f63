// User layouts (T.Layout / T.Fragment, LANGUAGE.md §3 "layout"): turns the index maps the
// front end elaborated from the user's lambdas into checked ir::Layouts that every lowering path
// accepts.
//
// The maps are only known as expressions over the logical indices, and lowering needs the other
// direction (a fragment's logical indices as functions of (thread, register)). Shapes are
// compile-time constants, so the maps are enumerated: that validates them (thread range,
// collisions, negative offsets) and gives the inverse as a table. The table is then turned into
// a closed form:
//  1. if it equals one of our families element for element (block fragment, mma accumulator,
//     row-reduced values; shared row-major, padded or XOR-swizzled), the layout *is* that family
//     (family tag, params and symbolic inverse), so the specialised lowering paths (reductions,
//     paired epilogue stores, gemm_ss swizzles, vector copies) apply unchanged;
//  2. otherwise fragments get a mixed-radix affine inverse: thread and register index are split
//     into digits (prime factors of `threads` and of the register count, tried in ascending and
//     descending order), and each logical index must be an affine function of those digits --
//     this covers transposed/permuted thread orders, bit permutations and strided maps. Slots
//     holding no element must map outside the shape (lowering guards `index < shape`). Shared
//     layouts need no inverse: lower-to-threads substitutes the forward map ("user_shared").
// A fragment whose inverse is not digit-affine (e.g. XOR-based thread maps) is rejected with a
// diagnostic instead of being lowered through a lookup table: tables would cost a constant-memory
// load per register access, and every such layout can be written affinely or inferred.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/Layout.h"

namespace ts::analysis {

/// A user layout as written, elaborated but unchecked. `index` holds the outputs of the
/// T.Layout lambda or of forward_index_fn (several outputs are flattened row-major over their
/// extents, max+1 each, as TileLang does); `thread` is forward_thread_fn (fragments only) and may
/// use `rep` in [0, replicate) when replicate > 1.
struct UserLayoutSpec {
    bool fragment = false;
    std::vector<int64_t> shape;
    std::vector<ir::Var> inputs;  ///< one per dim of `shape`
    std::vector<ir::Expr> index;
    ir::Expr thread;
    ir::Var rep;
    int64_t replicate = 1;
    Span span;  ///< the T.Layout / T.Fragment call
};

/// A checked layout, or an error in the user's terms (message + hint) about `buffer`.
struct UserLayoutResult {
    ir::Layout layout;
    std::string error, hint;
};

/// Checks and finishes a T.Fragment for a fragment buffer of `eltBytes`-byte elements in a
/// kernel of `threads` threads. Errors: a map that is not integer arithmetic of the indices, a
/// thread outside [0, threads), a negative local index, two elements (or two copies) in one
/// (thread, local) slot, and an inverse with no closed form (see the header comment).
UserLayoutResult buildUserFragment(const UserLayoutSpec& s, int64_t threads, int eltBytes,
                                   const std::string& buffer);

/// Checks and finishes a T.Layout for a shared buffer: offsets must be >= 0, distinct, and the
/// physical extent must fit the 227 KB a block can allocate (sm_90, CUDA C++ Programming Guide,
/// "Technical Specifications per Compute Capability"); the allocation grows to that extent.
UserLayoutResult buildUserShared(const UserLayoutSpec& s, int eltBytes, const std::string& buffer);

/// Fits the mixed-radix affine inverse of a slot table. `slots[t * localSize + r]` is the
/// logical index held by (t, r), or empty for a padding slot. Returns one expression per dim
/// over `t`/`r` that reproduces every used slot and sends padding slots outside `shape` (all
/// coordinates >= 0, one >= its extent); nullopt if no such form exists.
std::optional<std::vector<ir::Expr>> fitDigitAffineInverse(
    const std::vector<std::vector<int64_t>>& slots, int64_t threads, int64_t localSize,
    const std::vector<int64_t>& shape, const ir::Var& t, const ir::Var& r);

/// True if two layouts place every element identically (fragments: the same (thread, local)
/// slots; shared: the same offsets). Cheap when family and params agree.
bool sameMapping(const ir::LayoutNode& a, const ir::LayoutNode& b);

}  // namespace ts::analysis
