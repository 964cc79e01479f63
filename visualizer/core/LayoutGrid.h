// Pure data model of the Layout view (no Qt): the logical tile of one buffer of a compiled kernel
// as a grid of cells, each with its owning thread and local (register) index for fragments, or
// its physical element offset, byte address and bank for shared tiles. Everything comes from the
// layouts the compiler attached (PrimFuncNode::layouts, built by compiler/analysis/Layouts.h),
// evaluated with the same functions codegen and the bank analysis use, so the picture is the
// layout the generated code uses. Rank-3+ shared tiles (pipeline stages) show one tile at a time.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/Layout.h"
#include "compiler/ir/Stmt.h"

namespace ts::viz {

/// One logical element.
struct LayoutCell {
    int64_t thread = -1;       ///< owning thread (fragments), -1 for shared tiles
    int64_t local = -1;        ///< register/local index in that thread (fragments)
    int64_t physical = -1;     ///< physical element offset inside the tile (shared)
    int64_t byteAddress = -1;  ///< byte address in dynamic shared memory (shared)
    int bank = -1;             ///< 4-byte bank 0..31 (shared)
};

class LayoutGridModel {
public:
    /// Builds the grid of buffer `name` of a compiled function (any pass after infer-layouts).
    /// `tile` selects the leading index of a rank >= 3 shared tile. nullopt + `why` when the
    /// buffer has no layout or a non-constant shape.
    static std::optional<LayoutGridModel> fromFunction(const ir::PrimFunc& f,
                                                       const std::string& name, std::string* why,
                                                       int64_t tile = 0);
    /// Builds the grid of a layout directly; `eltBytes` and `smemBase` matter for shared tiles.
    static LayoutGridModel fromLayout(const ir::Layout& l, int eltBytes, int64_t smemBase = 0,
                                      int64_t tile = 0, std::string name = {});

    int64_t rows() const { return m_rows; }
    int64_t cols() const { return m_cols; }
    bool isShared() const { return m_shared; }
    const std::string& name() const { return m_name; }
    const std::string& description() const { return m_description; }
    int64_t threads() const { return m_threads; }
    /// Threads per warp of the layout's instruction: 64 for AMD MFMA wavefronts (family
    /// "mfma_*", compiler/analysis/HwLayouts.h), else 32. Warps in describe()/cellsOfWarp() and
    /// the colour families of threadColor() use it.
    int64_t lanesPerWarp() const { return m_lanesPerWarp; }
    int eltBytes() const { return m_eltBytes; }
    const LayoutCell& cell(int64_t r, int64_t c) const { return m_cells[size_t(r * m_cols + c)]; }
    /// Cells owned by `thread` (fragments), as (row, col), row-major order.
    std::vector<std::pair<int64_t, int64_t>> cellsOfThread(int64_t thread) const;
    /// Cells of the lanesPerWarp() threads of warp (wavefront) `warp`.
    std::vector<std::pair<int64_t, int64_t>> cellsOfWarp(int64_t warp) const;
    /// One-line text of a cell for hover/tooltips, e.g. "(3, 17): T12 r5" or
    /// "(3, 17): offset 201, byte 402, bank 4".
    std::string describe(int64_t r, int64_t c) const;

private:
    int64_t m_rows = 0, m_cols = 0, m_threads = 0, m_lanesPerWarp = 32;
    int m_eltBytes = 4;
    bool m_shared = false;
    std::string m_name, m_description;
    std::vector<LayoutCell> m_cells;
};

/// A colour (0xRRGGBB) for a thread id: warps (of `lanesPerWarp` threads) get distinct hues,
/// lanes vary lightness, so a warp reads as one colour family. Used by the SVG writer and the
/// Qt painter alike.
uint32_t threadColor(int64_t thread, int64_t lanesPerWarp = 32);
/// A colour for a bank 0..31 (evenly spaced hues).
uint32_t bankColor(int bank);

}  // namespace ts::viz
