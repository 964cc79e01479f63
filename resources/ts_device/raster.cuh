// Block rasterization (T.use_swizzle): which output tile the block launched as (blockIdx.x,
// blockIdx.y) computes. Included inside `namespace ts` by ts_device.cuh and ts_hip.h (TS_HD
// defined first) and by the host test tests/unit/RasterizeBlocksTest.cpp, so the one formula the
// GPU runs is the one the test proves bijective.
//
// Why: the hardware dispatches blocks in launch order, x fastest (CUDA C++ Programming Guide,
// "Thread Hierarchy": the order is unspecified, but in practice linear). A GEMM grid walked row by
// row has each wave of resident blocks share a few A row panels and reread all of B; walking
// `panel` rows of blocks column by column makes a wave share `panel` A panels and about
// wave/panel B panels, so more of both stays in L2. Odd panels walk their columns in reverse
// (serpentine) so the B panels of a panel's last columns are still in L2 when the next one starts.
//
// order "row" (columns = false): panels of `panel` block rows; "col": panels of `panel` block
// columns, walked row by row. The last panel may be narrower. Every (x, y) of the gx x gy grid is
// produced exactly once for any panel >= 1.

struct BlockCoord {
    int x, y;
};

TS_HD BlockCoord rasterize_blocks(int bx, int by, int gx, int gy, int panel, bool columns) {
    const int linear = bx + by * gx;  // launch order, x fastest
    // The panels run along y ("row": `panel` rows each) or along x ("col": `panel` columns).
    const int across = columns ? gx : gy;  // extent the panels split
    const int along = columns ? gy : gx;   // extent each panel spans
    const int span = panel * along;        // blocks of one full panel
    const int p = linear / span;
    const int offset = linear - p * span;
    const int rest = across - p * panel;
    const int width = rest < panel ? rest : panel;  // the last panel may be narrower
    int a = offset / width;                   // position along the panel
    const int c = p * panel + offset % width;  // row (or column) within the grid
    if (p & 1) a = along - 1 - a;             // serpentine
    return columns ? BlockCoord{c, a} : BlockCoord{a, c};
}
