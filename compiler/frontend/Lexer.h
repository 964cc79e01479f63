// The tokenizer of the tile language (Python syntax, LANGUAGE.md). It turns a SourceFile into a
// flat token vector with exact spans, following the Python reference manual's lexical rules:
// NEWLINE/INDENT/DEDENT from indentation, implicit line joining inside brackets, backslash
// continuation, comments, string literals with prefixes (f-strings are kept as plain strings),
// integer/float literals with `_` separators, and every operator. Lexical errors are reported to
// the DiagnosticEngine and lexing continues, so the parser can still report syntax errors.
// Integers are 64-bit: a literal above INT64_MAX is a diagnostic (documented limitation; the
// meta-evaluator's arithmetic is 64-bit with overflow checks). Unlike CPython, an unclosed
// bracket does not swallow the rest of the file: a following line that starts with a
// statement-only keyword (def, class, return, import, ...) ends the bracket with a diagnostic,
// so an IDE edit in progress stays local.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/support/Diagnostic.h"
#include "compiler/support/Source.h"

namespace ts::fe {

/// Token kinds. Keywords and operators each get their own kind so the parser never compares text.
enum class Tok : uint8_t {
    EndOfFile,
    Newline,
    Indent,
    Dedent,
    Name,
    Int,
    Float,
    String,
    Error,
    // keywords
    KwFalse,
    KwNone,
    KwTrue,
    KwAnd,
    KwAs,
    KwAssert,
    KwAsync,
    KwAwait,
    KwBreak,
    KwClass,
    KwContinue,
    KwDef,
    KwDel,
    KwElif,
    KwElse,
    KwExcept,
    KwFinally,
    KwFor,
    KwFrom,
    KwGlobal,
    KwIf,
    KwImport,
    KwIn,
    KwIs,
    KwLambda,
    KwNonlocal,
    KwNot,
    KwOr,
    KwPass,
    KwRaise,
    KwReturn,
    KwTry,
    KwWhile,
    KwWith,
    KwYield,
    // delimiters and operators
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Colon,
    Comma,
    Semi,
    Dot,
    Ellipsis,
    Arrow,
    ColonEqual,
    At,
    Equal,
    Plus,
    Minus,
    Star,
    DoubleStar,
    Slash,
    DoubleSlash,
    Percent,
    Amp,
    VBar,
    Circumflex,
    Tilde,
    LeftShift,
    RightShift,
    Less,
    Greater,
    EqEqual,
    NotEqual,
    LessEqual,
    GreaterEqual,
    PlusEqual,
    MinusEqual,
    StarEqual,
    DoubleStarEqual,
    SlashEqual,
    DoubleSlashEqual,
    PercentEqual,
    AmpEqual,
    VBarEqual,
    CircumflexEqual,
    LeftShiftEqual,
    RightShiftEqual,
    AtEqual,
    Bang,
};

/// Human-readable spelling for messages: "':'", "'def'", "identifier", "end of line".
std::string_view tokSpelling(Tok t);

/// One token. `text` holds the identifier for Name, the decoded value for String, and the raw
/// spelling for numbers and operators.
struct Token {
    Tok kind = Tok::EndOfFile;
    Span span;
    std::string text;
    int64_t intValue = 0;      ///< Int: value (0 if it overflowed; a diagnostic was issued)
    double floatValue = 0.0;   ///< Float: value
    bool isImaginary = false;  ///< Float with a `j` suffix (parsed, rejected by the evaluator)
    bool isBytes = false;      ///< String with a b/B prefix
    bool isFString = false;    ///< String with an f/F prefix (kept as the literal text)
    bool synthetic = false;    ///< inserted by error recovery (NEWLINE after an unclosed bracket)
};

/// Tokenizes a whole file. Lexical errors go to `diags` with origin "lex"; the returned vector
/// always ends with EndOfFile and has balanced Indent/Dedent tokens.
std::vector<Token> tokenize(const SourceFile& src, DiagnosticEngine& diags);

/// True if `s` is a Python keyword (hard keywords only).
bool isKeyword(std::string_view s);

}  // namespace ts::fe
