// The `# tilescope:` parameter pragma outside the IDE (compiler/support/ParamPragma.h): name
// positions, compile() pointing a bad pragma name at the pragma instead of the factory's `def`,
// and tilec applying the pragma with --param on top (app/cli/CliCommon.cpp).
#include <gtest/gtest.h>

#include "CliTestUtil.h"
#include "compiler/Compile.h"
#include "compiler/support/ParamPragma.h"

using namespace ts;
using namespace ts::cli::test;

TEST(ParamPragma, EntriesCarryNameColumns) {
    auto e = paramPragmaEntries("import x\n#  tilescope: M=4096 dtype=\"a b\"  tile=(64, 32)\n");
    ASSERT_EQ(e.size(), 3u);
    EXPECT_EQ(e[0].name, "M");
    EXPECT_EQ(e[0].value, "4096");
    // "#  tilescope: " is 14 bytes, so M is column 15 of line 2.
    EXPECT_EQ(e[0].span.line, 2u);
    EXPECT_EQ(e[0].span.col, 15u);
    EXPECT_EQ(e[0].span.endCol, 16u);
    EXPECT_EQ(e[1].name, "dtype");
    EXPECT_EQ(e[1].value, "\"a b\"");
    EXPECT_EQ(e[1].span.col, 22u);  // after "M=4096 " (7 bytes)
    EXPECT_EQ(e[1].span.endCol, 27u);
    EXPECT_EQ(e[2].name, "tile");
    EXPECT_EQ(e[2].value, "(64, 32)");
    EXPECT_EQ(e[2].span.col, 35u);  // after `dtype="a b"  ` (13 bytes)
    EXPECT_TRUE(paramPragmaEntries("x = 1\n").empty());
}

TEST(ParamPragma, UnknownPragmaNameIsReportedAtThePragma) {
    const std::string text = "# tilescope: M=64 bogus=3\n" + sampleText("add.py");
    CompileOptions opts;
    opts.params = parseParamPragma(text);  // what tilec and the IDE pass
    auto r = compile("add.py", text, opts);
    ASSERT_FALSE(r.ok);
    bool found = false;
    for (auto& d : r.diagnostics)
        if (d.severity == Severity::Error && contains(d.message, "unknown parameter 'bogus'")) {
            found = true;
            EXPECT_EQ(d.span.line, 1u);
            EXPECT_EQ(d.span.col, 19u);  // "# tilescope: M=64 " is 18 bytes
            EXPECT_EQ(d.span.endCol, 24u);
        }
    EXPECT_TRUE(found);
}

TEST(ParamPragma, UnknownCommandLineNameStaysAtTheDef) {
    // Not in the file: the factory's def is still the place to look.
    const std::string text = "# tilescope: M=64\n" + sampleText("add.py");
    CompileOptions opts;
    opts.params = {{"M", "64"}, {"bogus", "3"}};
    auto r = compile("add.py", text, opts);
    for (auto& d : r.diagnostics)
        if (contains(d.message, "unknown parameter 'bogus'")) {
            EXPECT_NE(d.span.line, 1u);
        }
}

TEST(ParamPragma, TilecAppliesPragmaAndParamOverridesIt) {
    // M=64 from the pragma; N from --param beats the pragma's N=512. add.py's C is (M, N).
    auto f = writeScratch("pragma_add.py", "# tilescope: M=64 N=512\n" + sampleText("add.py"));
    ts::cli::CompileCommand c;
    c.flags.file = f;
    c.flags.params = {"N=256"};
    c.flags.target = "cuda:sm_80";
    c.noNvrtc = true;
    c.emit = "ir";
    auto o = captureCli([&] { return ts::cli::runCompile(c); });
    ASSERT_EQ(o.rc, 0) << o.err;
    EXPECT_TRUE(contains(o.err, "pragma (line 1): M=64 N=512 (overridden by --param)")) << o.err;
    EXPECT_TRUE(contains(o.out, "(64, 256)")) << o.out.substr(0, 600);
    EXPECT_FALSE(contains(o.out, "(1024, 1024)"));
}
