// Lexer unit tests: token kinds, decoded values and exact spans (1-based line/col, half-open).
#include <gtest/gtest.h>

#include "compiler/frontend/Lexer.h"

using namespace ts;
using namespace ts::fe;

namespace {

struct Lexed {
    std::vector<Token> toks;
    DiagnosticEngine diags;
};

Lexed lex(const std::string& text) {
    Lexed l;
    SourceFile src("t.py", text);
    l.toks = tokenize(src, l.diags);
    return l;
}

std::vector<Tok> kinds(const std::vector<Token>& toks) {
    std::vector<Tok> out;
    for (const auto& t : toks) out.push_back(t.kind);
    return out;
}

Span sp(uint32_t l, uint32_t c, uint32_t el, uint32_t ec) { return Span{l, c, el, ec}; }

}  // namespace

TEST(LexerTest, SimpleAssignmentKindsAndSpans) {
    auto l = lex("x = a + 12\n");
    ASSERT_EQ(kinds(l.toks), (std::vector<Tok>{Tok::Name, Tok::Equal, Tok::Name, Tok::Plus,
                                               Tok::Int, Tok::Newline, Tok::EndOfFile}));
    EXPECT_EQ(l.toks[0].span, sp(1, 1, 1, 2));
    EXPECT_EQ(l.toks[2].span, sp(1, 5, 1, 6));
    EXPECT_EQ(l.toks[4].span, sp(1, 9, 1, 11));
    EXPECT_EQ(l.toks[4].intValue, 12);
    EXPECT_EQ(l.toks[5].span, sp(1, 11, 1, 12));
    EXPECT_FALSE(l.diags.hasErrors());
}

TEST(LexerTest, IndentDedentAndBlankLines) {
    auto l = lex("def f():\n    x = 1\n\n    # comment\n    if x:\n        y\nz\n");
    std::vector<Tok> expected{Tok::KwDef,   Tok::Name,    Tok::LParen,   Tok::RParen, Tok::Colon,
                              Tok::Newline, Tok::Indent,  Tok::Name,     Tok::Equal,  Tok::Int,
                              Tok::Newline, Tok::KwIf,    Tok::Name,     Tok::Colon,  Tok::Newline,
                              Tok::Indent,  Tok::Name,    Tok::Newline,  Tok::Dedent, Tok::Dedent,
                              Tok::Name,    Tok::Newline, Tok::EndOfFile};
    EXPECT_EQ(kinds(l.toks), expected);
    EXPECT_EQ(l.toks[6].span, sp(2, 1, 2, 5));  // the indentation itself
    EXPECT_EQ(l.toks[20].span, sp(7, 1, 7, 2));
    EXPECT_FALSE(l.diags.hasErrors());
}

TEST(LexerTest, DedentsAtEndOfFileWithoutNewline) {
    auto l = lex("if a:\n  b");
    EXPECT_EQ(kinds(l.toks),
              (std::vector<Tok>{Tok::KwIf, Tok::Name, Tok::Colon, Tok::Newline, Tok::Indent,
                                Tok::Name, Tok::Newline, Tok::Dedent, Tok::EndOfFile}));
}

TEST(LexerTest, ImplicitJoiningInsideBrackets) {
    auto l = lex("f(a,\n      b)\nx\n");
    EXPECT_EQ(kinds(l.toks), (std::vector<Tok>{Tok::Name, Tok::LParen, Tok::Name, Tok::Comma,
                                               Tok::Name, Tok::RParen, Tok::Newline, Tok::Name,
                                               Tok::Newline, Tok::EndOfFile}));
    EXPECT_EQ(l.toks[4].span, sp(2, 7, 2, 8));
}

TEST(LexerTest, BackslashContinuation) {
    auto l = lex("x = 1 + \\\n    2\n");
    EXPECT_EQ(kinds(l.toks), (std::vector<Tok>{Tok::Name, Tok::Equal, Tok::Int, Tok::Plus, Tok::Int,
                                               Tok::Newline, Tok::EndOfFile}));
    EXPECT_EQ(l.toks[4].span, sp(2, 5, 2, 6));
}

TEST(LexerTest, Operators) {
    auto l = lex("a ** b // c @ d -> e := f += g **= h //= i != j <= k >> l ... !\n");
    std::vector<Tok> ops;
    for (const auto& t : l.toks)
        if (t.kind != Tok::Name && t.kind != Tok::Newline && t.kind != Tok::EndOfFile)
            ops.push_back(t.kind);
    EXPECT_EQ(ops, (std::vector<Tok>{Tok::DoubleStar, Tok::DoubleSlash, Tok::At, Tok::Arrow,
                                     Tok::ColonEqual, Tok::PlusEqual, Tok::DoubleStarEqual,
                                     Tok::DoubleSlashEqual, Tok::NotEqual, Tok::LessEqual,
                                     Tok::RightShift, Tok::Ellipsis, Tok::Bang}));
}

TEST(LexerTest, Numbers) {
    auto l = lex("0x1F 0o17 0b101 1_000_000 1e-3 1. .5 2.5E+2 0 00 3j\n");
    ASSERT_GE(l.toks.size(), 11u);
    EXPECT_EQ(l.toks[0].intValue, 31);
    EXPECT_EQ(l.toks[1].intValue, 15);
    EXPECT_EQ(l.toks[2].intValue, 5);
    EXPECT_EQ(l.toks[3].intValue, 1000000);
    EXPECT_EQ(l.toks[3].span, sp(1, 17, 1, 26));
    EXPECT_EQ(l.toks[4].kind, Tok::Float);
    EXPECT_DOUBLE_EQ(l.toks[4].floatValue, 1e-3);
    EXPECT_EQ(l.toks[5].kind, Tok::Float);
    EXPECT_DOUBLE_EQ(l.toks[5].floatValue, 1.0);
    EXPECT_DOUBLE_EQ(l.toks[6].floatValue, 0.5);
    EXPECT_DOUBLE_EQ(l.toks[7].floatValue, 250.0);
    EXPECT_EQ(l.toks[8].intValue, 0);
    EXPECT_EQ(l.toks[9].kind, Tok::Int);
    EXPECT_TRUE(l.toks[10].isImaginary);
    EXPECT_FALSE(l.diags.hasErrors());
}

TEST(LexerTest, IntegerOverflowIsADiagnostic) {
    auto l = lex("x = 99999999999999999999\n");
    ASSERT_TRUE(l.diags.hasErrors());
    EXPECT_EQ(l.diags.all()[0].span, sp(1, 5, 1, 25));
    EXPECT_NE(l.diags.all()[0].message.find("64 bits"), std::string::npos);
    auto ok = lex("9223372036854775807\n");
    EXPECT_FALSE(ok.diags.hasErrors());
    EXPECT_EQ(ok.toks[0].intValue, INT64_MAX);
}

TEST(LexerTest, LeadingZeroIsAnError) {
    auto l = lex("012\n");
    EXPECT_TRUE(l.diags.hasErrors());
}

TEST(LexerTest, DotAfterIntIsAttributeOnlyWhenEllipsis) {
    auto l = lex("x[1:...]\n");
    EXPECT_EQ(kinds(l.toks),
              (std::vector<Tok>{Tok::Name, Tok::LBracket, Tok::Int, Tok::Colon, Tok::Ellipsis,
                                Tok::RBracket, Tok::Newline, Tok::EndOfFile}));
}

TEST(LexerTest, StringsAndPrefixes) {
    auto l = lex("'a\\nb' \"q\\\"\" r'\\d' b'xy' f'{x}' u'z' '\\x41\\u00e9'\n");
    ASSERT_GE(l.toks.size(), 7u);
    EXPECT_EQ(l.toks[0].text, "a\nb");
    EXPECT_EQ(l.toks[0].span, sp(1, 1, 1, 7));
    EXPECT_EQ(l.toks[1].text, "q\"");
    EXPECT_EQ(l.toks[2].text, "\\d");
    EXPECT_EQ(l.toks[2].span, sp(1, 14, 1, 19));
    EXPECT_TRUE(l.toks[3].isBytes);
    EXPECT_EQ(l.toks[3].text, "xy");
    EXPECT_TRUE(l.toks[4].isFString);
    EXPECT_EQ(l.toks[4].text, "{x}");
    EXPECT_EQ(l.toks[5].text, "z");
    EXPECT_EQ(l.toks[6].text, "A\xC3\xA9");
    EXPECT_FALSE(l.diags.hasErrors());
}

TEST(LexerTest, TripleQuotedSpansLines) {
    auto l = lex("s = \"\"\"one\ntwo \"quoted\"\n\"\"\"\nx\n");
    ASSERT_EQ(l.toks[2].kind, Tok::String);
    EXPECT_EQ(l.toks[2].text, "one\ntwo \"quoted\"\n");
    EXPECT_EQ(l.toks[2].span, sp(1, 5, 3, 4));
    EXPECT_EQ(l.toks[3].kind, Tok::Newline);
    EXPECT_EQ(l.toks[4].text, "x");
    EXPECT_EQ(l.toks[4].span.line, 4u);
}

TEST(LexerTest, UnterminatedString) {
    auto l = lex("x = 'abc\ny = 1\n");
    ASSERT_TRUE(l.diags.hasErrors());
    EXPECT_EQ(l.diags.all()[0].span.line, 1u);
    EXPECT_EQ(l.diags.all()[0].span.col, 5u);
    // lexing continues on the next line
    bool sawY = false;
    for (const auto& t : l.toks) sawY |= t.kind == Tok::Name && t.text == "y";
    EXPECT_TRUE(sawY);
}

TEST(LexerTest, UnclosedBracketReportedAtOpening) {
    auto l = lex("f(a,\n  b\n");
    ASSERT_TRUE(l.diags.hasErrors());
    EXPECT_EQ(l.diags.all()[0].span, sp(1, 2, 1, 3));
    EXPECT_NE(l.diags.all()[0].message.find("never closed"), std::string::npos);
}

TEST(LexerTest, MismatchedBracket) {
    auto l = lex("f(a]\n");
    ASSERT_TRUE(l.diags.hasErrors());
    EXPECT_EQ(l.diags.all()[0].span.col, 4u);
}

TEST(LexerTest, InconsistentDedent) {
    auto l = lex("if a:\n    b\n  c\n");
    ASSERT_TRUE(l.diags.hasErrors());
    EXPECT_EQ(l.diags.all()[0].span.line, 3u);
    // still balanced
    int depth = 0;
    for (const auto& t : l.toks)
        depth += t.kind == Tok::Indent ? 1 : t.kind == Tok::Dedent ? -1 : 0;
    EXPECT_EQ(depth, 0);
}

// Python's TabError rule: indentation is compared with tabs 8 columns wide and 1 column wide;
// a line whose comparison differs between the two is rejected (each case checked with CPython
// 3's compile()).
TEST(LexerTest, TabsAndSpacesConsistentlyAreAccepted) {
    for (const char* text : {
             "if a:\n\tif b:\n\t\tc\n\td\n",       // tabs only
             "if a:\n\tif b:\n\t    c\n\td\n",     // a tab, then a tab and four spaces
             "if a:\n\tb\nif c:\n    d\n",          // separate blocks, one each
             "if a:\n    if b:\n    \tc\n",         // four spaces, then the same and a tab
             "if a:\n        b\n",                  // eight spaces
         }) {
        auto l = lex(text);
        EXPECT_FALSE(l.diags.hasErrors()) << text;
    }
    auto l = lex("if a:\n\tif b:\n\t\tc\n\td\n");
    EXPECT_EQ(kinds(l.toks),
              (std::vector<Tok>{Tok::KwIf, Tok::Name, Tok::Colon, Tok::Newline, Tok::Indent,
                                Tok::KwIf, Tok::Name, Tok::Colon, Tok::Newline, Tok::Indent,
                                Tok::Name, Tok::Newline, Tok::Dedent, Tok::Name, Tok::Newline,
                                Tok::Dedent, Tok::EndOfFile}));
}

TEST(LexerTest, TabsAndSpacesWhoseMeaningDependsOnTabWidthAreATabError) {
    struct Case {
        const char* text;
        uint32_t line;
        uint32_t blockLine;  // the line the hint compares with
    };
    for (const Case& c : {
             Case{"if a:\n\tb\n        c\n", 3, 2},              // same depth at 8, not at 1
             Case{"if a:\n    if b:\n\tc\n", 3, 2},             // deeper at 8, not at 1
             Case{"if a:\n        if b:\n\t\tc\n", 3, 2},       // deeper at 8, shallower at 1
             Case{"if a:\n\tif b:\n\t\tc\n        d\n", 4, 2},  // dedents to line 2 at 8 only
         }) {
        auto l = lex(c.text);
        ASSERT_EQ(l.diags.all().size(), 1u) << c.text;
        const Diagnostic& d = l.diags.all()[0];
        EXPECT_EQ(d.severity, Severity::Error);
        EXPECT_EQ(d.message, "inconsistent use of tabs and spaces in indentation") << c.text;
        EXPECT_EQ(d.span.line, c.line) << c.text;
        EXPECT_EQ(d.span.col, 1u) << c.text;
        EXPECT_NE(d.hint.find("line " + std::to_string(c.blockLine) + " (indented with "),
                  std::string::npos)
            << d.hint;
        EXPECT_NE(d.hint.find("indent with spaces only, or with tabs only"), std::string::npos);
        int depth = 0;
        for (const auto& t : l.toks) depth += t.kind == Tok::Indent ? 1 : t.kind == Tok::Dedent ? -1 : 0;
        EXPECT_EQ(depth, 0) << c.text;
    }
    // The block's next lines in the same style are not reported again.
    auto l = lex("if a:\n\tb\n        c\n        d\n        e\n");
    EXPECT_EQ(l.diags.all().size(), 1u);
    auto hint = l.diags.all()[0].hint;
    EXPECT_NE(hint.find("this line (indented with spaces) and line 2 (indented with tabs)"),
              std::string::npos)
        << hint;
    // A second switch in the same block compares with the line of the first (helper-100: it named
    // the block's first line with the other line's style, "line 2 (indented with spaces)").
    l = lex("if a:\n\tb\n        c\n\td\n");
    ASSERT_EQ(l.diags.all().size(), 2u);
    hint = l.diags.all()[1].hint;
    EXPECT_EQ(l.diags.all()[1].span.line, 4u);
    EXPECT_NE(hint.find("this line (indented with tabs) and line 3 (indented with spaces)"), std::string::npos) << hint;
}

TEST(LexerTest, KeywordsAndCommentsAndTabs) {
    auto l = lex("if\tnot x: # c\n\tpass\n");
    EXPECT_EQ(kinds(l.toks), (std::vector<Tok>{Tok::KwIf, Tok::KwNot, Tok::Name, Tok::Colon,
                                               Tok::Newline, Tok::Indent, Tok::KwPass, Tok::Newline,
                                               Tok::Dedent, Tok::EndOfFile}));
    EXPECT_EQ(l.toks[2].span, sp(1, 8, 1, 9));
    EXPECT_TRUE(isKeyword("lambda"));
    EXPECT_FALSE(isKeyword("match"));
}

TEST(LexerTest, InvalidCharacterReportedAndSkipped) {
    auto l = lex("a $ b\n");
    ASSERT_TRUE(l.diags.hasErrors());
    EXPECT_EQ(l.diags.all()[0].span, sp(1, 3, 1, 4));
    EXPECT_EQ(kinds(l.toks),
              (std::vector<Tok>{Tok::Name, Tok::Name, Tok::Newline, Tok::EndOfFile}));
}

TEST(LexerTest, CrLfLineEndings) {
    auto l = lex("a = 1\r\nif a:\r\n    b\r\n");
    EXPECT_EQ(kinds(l.toks),
              (std::vector<Tok>{Tok::Name, Tok::Equal, Tok::Int, Tok::Newline, Tok::KwIf, Tok::Name,
                                Tok::Colon, Tok::Newline, Tok::Indent, Tok::Name, Tok::Newline,
                                Tok::Dedent, Tok::EndOfFile}));
    EXPECT_FALSE(l.diags.hasErrors());
}

// Fresh-user trial 2026-12-04: a no-break space pasted into `B[i] = A[i]` became part of a name
// ("name ' A' is not defined"). CPython rejects these characters outside strings and comments
// ("invalid non-printable character U+00A0"); the lexer names the character, says what to do
// and skips it like a space, so it is the only error.
TEST(LexerTest, NonAsciiSpacesAreNamedAndSkipped) {
    const std::string space = "replace it with a plain space: Python accepts only ASCII spaces and tabs between tokens";
    struct Case {
        std::string text, message, hint;
        Span span;
    };
    for (const Case& c : {
             Case{"a =\u00a0b\n", "invalid non-ASCII space U+00A0 NO-BREAK SPACE", space, sp(1, 4, 1, 6)},
             Case{"a\u2003= b\n", "invalid non-ASCII space U+2003 EM SPACE", space, sp(1, 2, 1, 5)},
             Case{"a = b\u200b\n", "invalid invisible character U+200B ZERO WIDTH SPACE",
                  "delete it: Python accepts it only inside strings and comments", sp(1, 6, 1, 9)},
             Case{"a = \ufeffb\n", "invalid invisible character U+FEFF ZERO WIDTH NO-BREAK SPACE",
                  "delete it: a byte order mark is accepted only as the first character of the file", sp(1, 5, 1, 8)},
         }) {
        auto l = lex(c.text);
        ASSERT_EQ(l.diags.all().size(), 1u) << c.text;
        EXPECT_EQ(l.diags.all()[0].message, c.message);
        EXPECT_EQ(l.diags.all()[0].hint, c.hint);
        EXPECT_EQ(l.diags.all()[0].span, c.span) << c.text;
        ASSERT_EQ(kinds(l.toks), (std::vector<Tok>{Tok::Name, Tok::Equal, Tok::Name, Tok::Newline, Tok::EndOfFile})) << c.text;
        EXPECT_EQ(l.toks[0].text, "a");
        EXPECT_EQ(l.toks[2].text, "b");
    }
    // As printed: file:line:col, the line, one caret under the character (2 bytes, 1 character;
    // it was "^~" when carets counted bytes), the hint.
    DiagnosticEngine diags;
    SourceFile src("k.py", "x = 1\ny =\u00a0x\n");
    tokenize(src, diags);
    ASSERT_EQ(diags.all().size(), 1u);
    EXPECT_EQ(formatDiagnostic(diags.all()[0], &src),
              "k.py:2:4: error: invalid non-ASCII space U+00A0 NO-BREAK SPACE\n"
              "  y =\u00a0x\n"
              "     ^\n"
              "  hint: " + space + "\n");

    // In the indentation it counts as the space it was meant to be: one error, blocks intact.
    auto l = lex("if a:\n\u00a0   b\n");
    ASSERT_EQ(l.diags.all().size(), 1u);
    EXPECT_EQ(l.diags.all()[0].span, sp(2, 1, 2, 3));
    EXPECT_EQ(kinds(l.toks), (std::vector<Tok>{Tok::KwIf, Tok::Name, Tok::Colon, Tok::Newline, Tok::Indent, Tok::Name,
                                               Tok::Newline, Tok::Dedent, Tok::EndOfFile}));
    // After a number: one error (not also "invalid character after number literal").
    l = lex("x = 1\u00a0\n");
    ASSERT_EQ(l.diags.all().size(), 1u);
    EXPECT_EQ(l.diags.all()[0].message, "invalid non-ASCII space U+00A0 NO-BREAK SPACE");
    // Inside strings and comments they are text, as in Python.
    l = lex("s = '\u00a0\u200b'  # \u00a0\n");
    EXPECT_FALSE(l.diags.hasErrors());
    EXPECT_EQ(l.toks[2].text, "\u00a0\u200b");
}

// The invisible format characters CPython refuses ("invalid non-printable character"), the
// bidirectional overrides among them: named, one error each, skipped like the zero-width space
// (a fresh-user trial found U+202E echoed inside "name '\u202eA_shared' is not defined").
TEST(LexerTest, InvisibleFormatCharactersAreNamed) {
    const std::string hint = "delete it: Python accepts it only inside strings and comments";
    const std::pair<const char*, const char*> cases[] = {
        {"a = \u202eb\n", "invalid invisible character U+202E RIGHT-TO-LEFT OVERRIDE"},
        {"a = \u200db\n", "invalid invisible character U+200D ZERO WIDTH JOINER"},
        {"a = \u200cb\n", "invalid invisible character U+200C ZERO WIDTH NON-JOINER"},
        {"a = \u200eb\n", "invalid invisible character U+200E LEFT-TO-RIGHT MARK"},
        {"a = \u00adb\n", "invalid invisible character U+00AD SOFT HYPHEN"},
        {"a = \u2066b\n", "invalid invisible character U+2066 LEFT-TO-RIGHT ISOLATE"},
    };
    for (const auto& [text, message] : cases) {
        auto l = lex(text);
        ASSERT_EQ(l.diags.all().size(), 1u) << text;
        EXPECT_EQ(l.diags.all()[0].message, message);
        EXPECT_EQ(l.diags.all()[0].hint, hint);
        ASSERT_EQ(kinds(l.toks), (std::vector<Tok>{Tok::Name, Tok::Equal, Tok::Name, Tok::Newline, Tok::EndOfFile})) << text;
        EXPECT_EQ(l.toks[2].text, "b") << "the character is not part of the name";
    }
    // Inside a string it is data, as in Python.
    EXPECT_TRUE(lex("a = '\u202e'\n").diags.all().empty());
}

TEST(LexerTest, ByteOrderMarkAtTheStartIsAccepted) {
    // Python accepts a UTF-8 BOM as the first character; line 1's columns count after it.
    auto l = lex("\ufeffimport x\n");
    EXPECT_FALSE(l.diags.hasErrors());
    ASSERT_EQ(kinds(l.toks), (std::vector<Tok>{Tok::KwImport, Tok::Name, Tok::Newline, Tok::EndOfFile}));
    EXPECT_EQ(l.toks[0].span, sp(1, 1, 1, 7));
    EXPECT_EQ(l.toks[1].span, sp(1, 8, 1, 9));
}
