// A program indented with tabs only (and one level of a tab plus spaces after the enclosing
// tab, which is consistent at any tab width) compiles and matches its reference: the lexer's
// TabError rule (Lexer.cpp handleIndentation) rejects only indentation whose meaning depends on
// the tab width. tests/errors/tabs_spaces_mixed.py is the rejected case.
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

const char* kTabs = "tests/e2e/programs/tab_indented.py";

TEST(TabIndent, TabIndentedProgramCompilesAndMatchesItsReference) {
    const std::string text = ts::e2e::readRepoFile(kTabs);
    ASSERT_NE(text.find("\n\t\t\tfor i, j"), std::string::npos) << "the program lost its tabs";
    ASSERT_NE(text.find("\n\t\t\t    B["), std::string::npos) << "the program lost its tab+spaces line";
    ts::CompileOptions opts;
    opts.target = "cuda:sm_80";
    ts::CompileResult r = ts::compile(kTabs, text, opts);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_EQ(r.kernel.grid[0], 4u);  // M=64 rows in blocks of 16
    ts::e2e::expectInterpretersMatchReference(r, "tab_indented");
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kTabs, {});
}

}  // namespace
