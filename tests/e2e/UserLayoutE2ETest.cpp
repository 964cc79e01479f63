// User layouts end to end (tests/e2e/programs/user_*.py, row_tail.py): each program compiles,
// the layout it got is the one printed in the IR comment after infer-layouts (`# layout X: ...`),
// it runs on the tile interpreter AND on the thread-level interpreter of the lowered IR (which
// walks the layouts' inverses register by register and reports races and unwritten registers)
// against the float64 ref_program, and its CUDA compiles with NVRTC for sm_80.
// row_tail.py is the other inference item: (1, N) fragments whose width is not a
// multiple of the thread count (192 on 128 threads, odd N) get a padded block fragment whose
// tail is predicated.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/frontend/Module.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/interp/ThreadInterpreter.h"
#include "profiler/check/Compare.h"
#include "profiler/check/Inputs.h"
#include "profiler/check/Reference.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"

namespace {

struct Case {
    std::string program;
    std::map<std::string, std::string> params;
    std::vector<std::string> layouts;  ///< expected `# layout ...` lines (exact, trimmed)
    std::string label;
};

std::string readProgram(const std::string& name) {
    return ts::e2e::readRepoFile("tests/e2e/programs/" + name);
}
using ts::e2e::diagText;

std::vector<std::string> layoutLines(const std::string& ir) {
    std::vector<std::string> out;
    std::istringstream in(ir);
    std::string line;
    while (std::getline(in, line)) {
        auto p = line.find("# layout ");
        if (p != std::string::npos) out.push_back(line.substr(p));
    }
    return out;
}

class UserLayoutPrograms : public ::testing::TestWithParam<Case> {};

TEST_P(UserLayoutPrograms, LayoutPrintedAndBothInterpretersMatchFloat64Reference) {
    const Case& c = GetParam();
    std::string text = readProgram(c.program);
    ASSERT_FALSE(text.empty()) << c.program;
    ts::CompileOptions opts;
    opts.params = c.params;
    opts.target = "cuda:sm_80";
    ts::CompileResult r = ts::compile("tests/e2e/programs/" + c.program, text, opts);
    ASSERT_TRUE(r.ok) << diagText(r);

    const ts::PassSnapshot* infer = nullptr;
    for (auto& p : r.passes)
        if (p.name == "infer-layouts") infer = &p;
    ASSERT_TRUE(infer);
    auto lines = layoutLines(infer->ir);
    for (auto& want : c.layouts)
        EXPECT_NE(std::find(lines.begin(), lines.end(), want), lines.end()) << want << "\nIR:\n"
                                                                            << infer->ir;

    ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, c.label));

    if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
    auto nv = ts::rt::compileCuda(r.cuda, "sm_80", {}, true);
    EXPECT_TRUE(nv.ok) << nv.log;
}

// Expected layouts, derived by hand from the programs:
//  - i * (N + 4) + j on 64x64 fp32 is row-major with 4 padding elements per 256-byte row;
//  - [j, i] is no swizzle/padding form: a plain index map over 64 * 64 elements;
//  - thread (j % 16) * 8 + i % 8, register (i // 8) * 4 + j // 16: 64 * 64 / 128 = 32 registers,
//    no family (the thread's low bits come from i); inverse i = t % 8 + (r // 4) * 8,
//    j = t // 8 + (r % 4) * 16 (bn = 32: r // 2 and r % 2);
//  - thread (i % 8) * 16 + (j // 4) % 16, register (i // 8) * 4 + j % 4 is makeBlockFragment with
//    gr = 8, gc = 16, vec = 4;
//  - (192,) interleaved over 128 threads: ceil(192 / 128) = 2 registers, 64 slots empty,
//    j = 2 * (t % 64) + t // 64 + 128 * r; (64,) on threads i and i + 64: 1 register,
//    replicated twice, i = t % 64;
//  - thread (i % 8) * 16 + rep (16 replicas), register i // 8: the row values of the 64x64 block
//    fragment (gr = 8 row groups of gc = 16 threads);
//  - row_tail (1, 192) fp32: vec 4, 48 chunks -> gc 32, gr 4, ceil(192 / 128) = 2 chunks per
//    thread = 8 registers; (1, 77): vec 1, 77 chunks -> gc 64, gr 2, 2 registers.
const Case kCases[] = {
    {"user_layouts_copy.py",
     {},
     {"# layout S1: T.Layout at line 17 = shared, row 256 B, padded by 4 elements",
      "# layout S2: T.Layout at line 18: index map over 4096 elements",
      "# layout X: T.Fragment at line 19: 32 regs/thread over 128 threads, inverse (i, j) = (t % 8 "
      "+ r // 4 * 8, t // 8 + r % 4 * 16)",
      "# layout Y: T.Fragment at line 21 = block fragment: 8 row groups x 16 threads/row, 4-wide "
      "vectors, 32 "
      "regs/thread"},
     "copy_paths"},
    {"user_layouts_pipelined.py",
     {},
     {"# layout S: T.Layout at line 15: index map over 4096 elements",
      "# layout X: T.Fragment at line 16: 32 regs/thread over 128 threads, inverse (i, j) = (t % 8 "
      "+ r // 4 * 8, t // 8 + r % 4 * 16)",
      "# layout acc: T.Fragment at line 16: 32 regs/thread over 128 threads, inverse (i, j) = (t % "
      "8 + r // 4 * 8, t // 8 + r % 4 * 16)"},
     "pipelined_64x256"},
    {"user_layouts_pipelined.py",
     {{"M", "32"}, {"N", "96"}, {"bn", "32"}},
     {"# layout S: T.Layout at line 15: index map over 1024 elements",
      "# layout X: T.Fragment at line 16: 8 regs/thread over 128 threads, inverse (i, j) = (t % 8 "
      "+ r // 2 * 8, t // 8 + r % 2 * 16)"},
     "pipelined_32x96"},
    {"user_mma_accumulator.py",
     {},
     {"# layout acc: T.Fragment at line 12 = mma.sync m16n8k16 accumulator, warps 2x2, warp tile "
      "32x32, 32 "
      "regs/thread"},
     "mma_accumulator"},
    {"user_fragment_tail.py",
     {},
     {"# layout X: T.Fragment at line 16: 2 regs/thread over 128 threads (padded slots), "
      "inverse j = t % 64 * 2 + t // 64 + r * 128",
      "# layout Y: T.Fragment at line 18: 1 regs/thread over 128 threads, replicated x2, "
      "inverse i = t % 64"},
     "interleaved_tail_and_replicated"},
    {"user_row_sum.py",
     {},
     {"# layout s: T.Fragment at line 13 = row values of a block fragment: 8 row groups, "
      "replicated over 16 threads"},
     "row_reduced_vector"},
    {"row_tail.py",
     {{"N", "192"}},
     // 48 16-byte vectors would idle 96 of the 128 threads: scalar elements, every thread busy.
     {"# layout X: block fragment: 1 row groups x 128 threads/row, 1-wide vectors, 2 regs/thread "
      "(padded tail)"},
     "row_192_on_128_threads"},
    {"row_tail.py",
     {{"N", "77"}},
     {"# layout X: block fragment: 2 row groups x 64 threads/row, 1-wide vectors, 2 regs/thread "
      "(padded tail)"},
     "row_77_on_128_threads"},
    {"row_tail.py", {{"N", "129"}}, {}, "row_129_on_128_threads"},
    {"row_tail.py", {{"N", "1"}}, {}, "row_1_on_128_threads"},
    // Not a layout case: TileLang spellings (module-level values, dtype values, T.Cast, ...).
    {"spellings.py", {}, {}, "tilelang_spellings"},
    // x[i] / s[0] in T.Parallel: s, the (1,) result of a full reduction, held by every thread.
    {"broadcast_scalar.py", {}, {}, "broadcast_scalar_256"},
    {"broadcast_scalar.py", {{"N", "200"}}, {}, "broadcast_scalar_200"},
    // Not layout cases: T.cumsum along the axis after a unit axis, forwards and reversed, and
    // the float16 rounding of a product before a float32 add (GPU == interpreters).
    {"cumsum_unit_axis.py", {}, {}, "cumsum_unit_axis"},
    {"cumsum_unit_axis.py", {{"reverse", "True"}, {"N", "192"}}, {}, "cumsum_unit_axis_reverse"},
    {"half_product_rounding.py", {}, {}, "half_product_rounding"},
    {"reduce_max_half.py", {}, {}, "reduce_max_min_float16"},
    {"reduce_max_half.py", {{"dtype", "\"bfloat16\""}}, {}, "reduce_max_min_bfloat16"},
    // Not layout cases: iket markers and T.tfloat32 storage compile to the plain kernel.
    {"instrumented_tf32.py", {}, {}, "iket_markers_and_tfloat32"},
    {"instrumented_tf32.py", {{"N", "200"}, {"scale", "-3.0"}}, {}, "iket_markers_ragged"},
};

INSTANTIATE_TEST_SUITE_P(All, UserLayoutPrograms, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& i) { return i.param.label; });

}  // namespace
