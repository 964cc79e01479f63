// TMA boxes in what the user reads (fresh-user finding, 2026-12-05): the notes printed "2 box(es)
// of 64 x 128" -- the tensor map's order, columns first -- which reads as 64 rows x 128 columns
// while the box was 128 rows x 64 columns. Every place that prints a box now names rows and
// columns, rows first (xform::tmaBoxesText): the plain TMA load, the T.Pipelined TMA load, the TMA
// store and the TMA reduce-add notes, the wgmma/TMA operand layout (`tilec layout`, the IDE's
// Layout panel) and the tensor-map comment of the exported host code.
// Expected values from the programs' shapes:
//  - samples/rmsnorm_matmul.py (block_M=128, block_N=128, block_K=32, fp16): X_s is 128 x 32 fp16
//    (64-byte rows, row-major: one box); W_s is 32 x 128 (two 128-byte swizzle panels of 64
//    columns); the staged output tile 128 x 128 (two panels of 64 columns);
//  - tests/e2e/programs/atomic_tma_reduce.py: the 64 x 32 float32 tile (128-byte rows, one box).
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "app/cli/ProjectExport.h"
#include "compiler/Compile.h"
#include "tests/e2e/E2eTestUtil.h"

namespace fs = std::filesystem;

namespace {

ts::CompileResult compileAt90a(const std::string& file, const std::map<std::string, std::string>& p = {}) {
    ts::CompileOptions o;
    o.target = "cuda:sm_90a";
    o.params = p;
    o.recordSnapshots = false;
    return ts::compile(file, ts::e2e::readRepoFile(file), o);
}

std::string noteStartingWith(const ts::CompileResult& r, const std::string& start) {
    for (auto& d : r.diagnostics)
        if (d.severity == ts::Severity::Note && d.message.rfind(start, 0) == 0) return d.message;
    return "no note starting with " + start + "\n" + ts::e2e::diagText(r);
}

TEST(TmaBoxWording, NotesNameRowsAndColumns) {
    ts::CompileResult r = compileAt90a("samples/rmsnorm_matmul.py");
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_EQ(noteStartingWith(r, "T.copy into 'X_s' is loaded by TMA"),
              "T.copy into 'X_s' is loaded by TMA in the T.Pipelined schedule (1 box of 128 rows x 32 columns, 8192 bytes per stage on "
              "the stage's mbarrier; out-of-bounds elements read 0)");
    EXPECT_EQ(noteStartingWith(r, "T.copy into 'W_s' is loaded by TMA"),
              "T.copy into 'W_s' is loaded by TMA in the T.Pipelined schedule (2 boxes of 32 rows x 64 columns, 128-byte swizzle, "
              "8192 bytes per stage on the stage's mbarrier; out-of-bounds elements read 0)");
    EXPECT_EQ(noteStartingWith(r, "T.copy from 'out_stage' into 'Y'"),
              "T.copy from 'out_stage' into 'Y' uses a TMA store (2 boxes of 128 rows x 64 columns, 128-byte swizzle, 32768 bytes; "
              "out-of-bounds elements are not written)");
    // The operand layout prints its panels (one TMA box each) the same way.
    ASSERT_TRUE(r.lowered);
    auto it = r.lowered->layouts.find("W_s");
    ASSERT_NE(it, r.lowered->layouts.end());
    ASSERT_TRUE(it->second);
    EXPECT_EQ(it->second->description.rfind("wgmma/TMA operand tile, 2 panels of 32 rows x 64 columns (128 B), 128-byte swizzle", 0), 0u)
        << it->second->description;

    ts::CompileResult a = compileAt90a("tests/e2e/programs/atomic_tma_reduce.py");
    ASSERT_TRUE(a.ok) << ts::e2e::diagText(a);
    EXPECT_EQ(noteStartingWith(a, "T.copy into 'tile' uses TMA"),
              "T.copy into 'tile' uses TMA (1 box of 64 rows x 32 columns, 8192 bytes on its own mbarrier; out-of-bounds elements "
              "read 0)");
    for (auto& d : a.diagnostics) EXPECT_EQ(d.message.find("box(es)"), std::string::npos) << d.message;
}

// The hints under a copy that keeps cp.async list TMA's box rule in the notes' words: they said
// "a box of at most 256 x 256" (fresh-user finding, helper-95). samples/dequant_gemm.py's S_s
// copy reads rows of 'Scale' that are not a multiple of 16 bytes, so its hint lists the other
// rules, the box among them.
TEST(TmaBoxWording, HintsNameRowsAndColumns) {
    ts::CompileResult r = compileAt90a("samples/dequant_gemm.py");
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    bool seen = false;
    for (auto& d : r.diagnostics) {
        EXPECT_EQ(d.hint.find("256 x 256"), std::string::npos) << d.message << "\n  hint: " << d.hint;
        if (d.message.rfind("T.copy into 'S_s' keeps cp.async", 0) != 0) continue;
        seen = true;
        EXPECT_EQ(d.hint, "change that to load it by TMA; its other rules: a whole 2-D shared tile, a box of at most 256 rows x 256 columns");
    }
    EXPECT_TRUE(seen) << ts::e2e::diagText(r);
}

// The exported host code encodes the map with box[] innermost first (cuTensorMapEncodeTiled's
// order); its comment said "box 64 x 128" for a 128-row, 64-column box.
TEST(TmaBoxWording, ExportedTensorMapCommentNamesRowsAndColumns) {
    ts::CompileResult r = compileAt90a("samples/gemm.py", {{"M", "128"}, {"N", "128"}, {"K", "64"}});
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    const fs::path dir = fs::temp_directory_path() / ("ts_export_box_" + std::to_string(::getpid()));
    std::string error;
    ASSERT_FALSE(ts::cli::exportProject(r, {dir.string(), "gemm", "samples/gemm.py", "sm_90a"}, &error).empty()) << error;
    std::ifstream in(dir / "main.cu");
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string main = ss.str();
    fs::remove_all(dir);
    // C (parameter 2): the staged 128 x 128 fp16 output, two boxes of 128 rows x 64 columns.
    EXPECT_NE(main.find("CUtensorMap tma_map_"), std::string::npos) << main;
    EXPECT_NE(main.find("// C: box 128 rows x 64 columns (box[] lists the\n    // innermost dimension first), 128-byte swizzle"),
              std::string::npos)
        << main;
    EXPECT_NE(main.find("box[2] = {64, 128}"), std::string::npos) << main;
}

}  // namespace
