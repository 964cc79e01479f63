// Layout descriptors attached to buffers by layout inference (PrimFuncNode::layouts). They are
// expression-based (like TileLang's Layout/Fragment): the same maps drive codegen, the
// interpreter and the layout views. Constructors for hardware layouts (mma fragments,
// swizzles) live in compiler/analysis/; this header is only the data.
#pragma once
#include <string>
#include <vector>

#include "compiler/ir/Stmt.h"

namespace ts::ir {

enum class LayoutKind : uint8_t { Shared, Fragment };

struct LayoutNode {
    LayoutKind kind;
    std::vector<int64_t> shape;  ///< logical extents of the buffer
    std::string description;     ///< human-readable origin, e.g. "mma.sync m16n8k16 C, warps 2x2"
    /// Which constructor made it ("mma_c", "block", "row_reduced", "shared", "user",
    /// "user_shared") and its integer parameters (see compiler/analysis/Layouts.h and
    /// UserLayouts.h), so lowering can pick algorithms. A user layout that equals a family
    /// element for element carries that family; "user"/"user_shared" are the general ones.
    std::string family;
    std::vector<int64_t> familyParams;
    /// For user layouts (T.Layout / T.Fragment): the call that built it, for diagnostics.
    Span origin;

    // --- Fragment: element (i0, i1, ...) lives in thread `thread` at local slot `local`. ------
    std::vector<Var> inputs;     ///< one Var per logical dim, free in `thread`/`local`
    Expr thread, local;          ///< thread in [0, threads), local in [0, localSize)
    int64_t threads = 0;         ///< threads the fragment is distributed over
    int64_t localSize = 0;       ///< registers (elements) per thread
    int64_t replicate = 1;       ///< copies of each element (e.g. a row vector held by 4 lanes)
    /// Inverse: logical indices as functions of (invThread, invLocal). For replicated layouts it
    /// gives one of the copies. Indices may exceed `shape` for padded layouts (width not a
    /// multiple of the thread count): users guard with `i < shape`.
    Var invThread, invLocal;
    std::vector<Expr> inverse;

    // --- Shared: physical element offset = swizzle(row-major offset with padded rows). --------
    int swizzleBytes = 0;        ///< 0 (none), 32, 64, 128: see analysis/Swizzle.h for the map
    int64_t rowBytes = 0;        ///< bytes of one (unpadded) row = innermost extent * elt size
    int64_t padElems = 0;        ///< extra elements appended to each row (bank-conflict padding)
    /// "user_shared" only: physical element offset of (inputs...) inside one tile, in
    /// [0, physicalElems); leading buffer dims beyond `shape` (pipeline stages) stack tiles of
    /// physicalElems elements. Swizzle/padding fields are unused then.
    Expr offset;
    int64_t physicalElems = 0;
};

}  // namespace ts::ir
