#include "compiler/frontend/Lexer.h"

#include "compiler/frontend/UnicodeSpaces.h"

#include <array>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <limits>
#include <utility>

namespace ts::fe {
namespace {

struct Spelled {
    std::string_view text;
    Tok kind;
};

constexpr std::array<Spelled, 35> kKeywords{{
    {"False", Tok::KwFalse},
    {"None", Tok::KwNone},
    {"True", Tok::KwTrue},
    {"and", Tok::KwAnd},
    {"as", Tok::KwAs},
    {"assert", Tok::KwAssert},
    {"async", Tok::KwAsync},
    {"await", Tok::KwAwait},
    {"break", Tok::KwBreak},
    {"class", Tok::KwClass},
    {"continue", Tok::KwContinue},
    {"def", Tok::KwDef},
    {"del", Tok::KwDel},
    {"elif", Tok::KwElif},
    {"else", Tok::KwElse},
    {"except", Tok::KwExcept},
    {"finally", Tok::KwFinally},
    {"for", Tok::KwFor},
    {"from", Tok::KwFrom},
    {"global", Tok::KwGlobal},
    {"if", Tok::KwIf},
    {"import", Tok::KwImport},
    {"in", Tok::KwIn},
    {"is", Tok::KwIs},
    {"lambda", Tok::KwLambda},
    {"nonlocal", Tok::KwNonlocal},
    {"not", Tok::KwNot},
    {"or", Tok::KwOr},
    {"pass", Tok::KwPass},
    {"raise", Tok::KwRaise},
    {"return", Tok::KwReturn},
    {"try", Tok::KwTry},
    {"while", Tok::KwWhile},
    {"with", Tok::KwWith},
    {"yield", Tok::KwYield},
}};

// Longest operators first so a greedy scan picks "**=" before "**" before "*".
constexpr std::array<Spelled, 48> kOperators{{
    {"**=", Tok::DoubleStarEqual},
    {"//=", Tok::DoubleSlashEqual},
    {">>=", Tok::RightShiftEqual},
    {"<<=", Tok::LeftShiftEqual},
    {"...", Tok::Ellipsis},
    {"**", Tok::DoubleStar},
    {"//", Tok::DoubleSlash},
    {"<<", Tok::LeftShift},
    {">>", Tok::RightShift},
    {"<=", Tok::LessEqual},
    {">=", Tok::GreaterEqual},
    {"==", Tok::EqEqual},
    {"!=", Tok::NotEqual},
    {"->", Tok::Arrow},
    {":=", Tok::ColonEqual},
    {"+=", Tok::PlusEqual},
    {"-=", Tok::MinusEqual},
    {"*=", Tok::StarEqual},
    {"/=", Tok::SlashEqual},
    {"%=", Tok::PercentEqual},
    {"&=", Tok::AmpEqual},
    {"|=", Tok::VBarEqual},
    {"^=", Tok::CircumflexEqual},
    {"@=", Tok::AtEqual},
    {"(", Tok::LParen},
    {")", Tok::RParen},
    {"[", Tok::LBracket},
    {"]", Tok::RBracket},
    {"{", Tok::LBrace},
    {"}", Tok::RBrace},
    {":", Tok::Colon},
    {",", Tok::Comma},
    {";", Tok::Semi},
    {".", Tok::Dot},
    {"@", Tok::At},
    {"=", Tok::Equal},
    {"+", Tok::Plus},
    {"-", Tok::Minus},
    {"*", Tok::Star},
    {"/", Tok::Slash},
    {"%", Tok::Percent},
    {"&", Tok::Amp},
    {"|", Tok::VBar},
    {"^", Tok::Circumflex},
    {"~", Tok::Tilde},
    {"<", Tok::Less},
    {">", Tok::Greater},
    {"!", Tok::Bang},
}};

bool isIdentStart(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
bool isIdentChar(unsigned char c) { return std::isalnum(c) || c == '_' || c >= 0x80; }

void appendUtf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

int hexDigit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

class Lexer {
public:
    Lexer(const SourceFile& src, DiagnosticEngine& diags) : m_text(src.text()), m_diags(diags) {}

    std::vector<Token> run();

private:
    char peek(size_t ahead = 0) const {
        return m_pos + ahead < m_text.size() ? m_text[m_pos + ahead] : '\0';
    }
    bool atEnd() const { return m_pos >= m_text.size(); }
    void advance() {
        if (m_text[m_pos] == '\n') {
            ++m_line;
            m_lineStart = m_pos + 1;
        }
        ++m_pos;
    }
    uint32_t col() const { return static_cast<uint32_t>(m_pos - m_lineStart + 1); }
    Span spanFrom(uint32_t line, uint32_t col0) const { return Span{line, col0, m_line, col()}; }
    void error(Span s, std::string msg, std::string hint = {}) {
        m_diags.error(s, std::move(msg), std::move(hint), "lex");
    }
    void push(Tok kind, Span s, std::string text = {}) {
        Token t;
        t.kind = kind;
        t.span = s;
        t.text = std::move(text);
        m_toks.push_back(std::move(t));
    }

    void handleIndentation();
    const UnicodeSpace* skipUnicodeSpace();
    bool statementStartsInsideBracket();
    void lexNumber();
    void lexString(uint32_t line0, uint32_t col0, std::string_view prefix);
    bool lexOperator();

    std::string_view m_text;
    DiagnosticEngine& m_diags;
    size_t m_pos = 0, m_lineStart = 0;
    uint32_t m_line = 1;
    bool m_atLineStart = true;
    /// One open indentation level: its width with tab size 8 and with tab size 1, the line
    /// that opened it (0: the file's top level) and what it was indented with (for the hint).
    struct Level {
        int width = 0, alt = 0;
        uint32_t line = 0;
        std::string mix = "no indentation";
    };
    std::vector<Level> m_indents{Level{}};
    std::vector<std::pair<char, Span>> m_brackets;
    std::vector<Token> m_toks;
};

// Recovery heuristic (see Lexer.h): does the next physical line start with a keyword that can
// never appear inside an expression?
bool Lexer::statementStartsInsideBracket() {
    static constexpr std::string_view kStmtOnly[] = {
        "def",  "class", "return",   "import", "with",   "while",    "try", "except", "finally",
        "pass", "break", "continue", "raise",  "global", "nonlocal", "del", "assert", "elif"};
    size_t p = m_pos + 1;
    while (p < m_text.size() && (m_text[p] == ' ' || m_text[p] == '\t')) ++p;
    size_t b = p;
    while (p < m_text.size() && isIdentChar(static_cast<unsigned char>(m_text[p]))) ++p;
    std::string_view word = m_text.substr(b, p - b);
    for (auto kw : kStmtOnly)
        if (word == kw) return true;
    return false;
}

// A non-ASCII space or invisible character at the current position (outside strings and
// comments) is an error, as in CPython; it is reported with its code point and name and skipped
// like whitespace. Returns it, or nullptr (nothing consumed) when the position holds another
// character.
const UnicodeSpace* Lexer::skipUnicodeSpace() {
    size_t bytes = 0;
    const UnicodeSpace* u = unicodeSpaceAt(m_text, m_pos, bytes);
    if (!u) return nullptr;
    const uint32_t line0 = m_line, col0 = col();
    for (size_t i = 0; i < bytes; ++i) advance();
    const std::string what = codePointText(*u);
    if (u->invisible)
        error(spanFrom(line0, col0), "invalid invisible character " + what,
              u->codePoint == 0xFEFF ? "delete it: a byte order mark is accepted only as the first character of the file"
                                     : "delete it: Python accepts it only inside strings and comments");
    else
        error(spanFrom(line0, col0), "invalid non-ASCII space " + what,
              "replace it with a plain space: Python accepts only ASCII spaces and tabs between tokens");
    return u;
}

// Python's rule: indentation is measured at the start of each logical line outside brackets;
// blank and comment-only lines do not count; tabs advance to the next multiple of 8. Like
// CPython, the indentation is also measured with tabs one column wide: a line whose indent
// compares differently with the two tab sizes than the block's (its meaning depends on the tab
// width) is an error (Python's TabError), reported at the line's indentation.
void Lexer::handleIndentation() {
    while (true) {
        size_t start = m_pos;
        int width = 0, alt = 0;  // tab size 8 / tab size 1
        bool tabs = false, spaces = false;
        while (!atEnd()) {
            // A pasted no-break space in the indentation: reported, then measured as the space
            // it was meant to be, so the block structure (and the rest of the errors) stays right.
            if (const UnicodeSpace* u = skipUnicodeSpace()) {
                if (!u->invisible) {
                    ++width;
                    ++alt;
                    spaces = true;
                }
                continue;
            }
            if (peek() != ' ' && peek() != '\t' && peek() != '\f') break;
            if (peek() == '\t') {
                width = (width / 8 + 1) * 8;
                ++alt;
                tabs = true;
            } else if (peek() == '\f') {
                width = alt = 0;
            } else {
                ++width;
                ++alt;
                spaces = true;
            }
            advance();
        }
        if (peek() == '\r') advance();
        if (atEnd()) return;
        if (peek() == '#') {
            while (!atEnd() && peek() != '\n') advance();
        }
        if (!atEnd() && peek() == '\n') {
            advance();
            continue;  // blank line: no NEWLINE, no INDENT
        }
        if (atEnd()) return;
        Span ws{m_line, static_cast<uint32_t>(start - m_lineStart + 1), m_line, col()};
        const std::string mix = tabs && spaces ? "tabs and spaces" : tabs ? "tabs" : "spaces";
        auto tabError = [&](const Level& block) {
            error(ws, "inconsistent use of tabs and spaces in indentation",
                  "this line (indented with " + mix + ") and " +
                      (block.line ? "line " + std::to_string(block.line) + " (indented with " +
                                        block.mix + ")"
                                  : std::string("the file's top level")) +
                      " compare differently at tab width 8 and at tab width 1, so the block "
                      "depends on the tab width (Python raises TabError); indent with spaces "
                      "only, or with tabs only");
        };
        if (width == m_indents.back().width) {
            if (alt != m_indents.back().alt) {
                tabError(m_indents.back());
                // One error per inconsistent block, not per line; a later error compares with
                // this line, so it names this line (not the block's first, indented otherwise).
                m_indents.back().alt = alt;
                m_indents.back().mix = mix;
                m_indents.back().line = m_line;
            }
        } else if (width > m_indents.back().width) {
            if (alt <= m_indents.back().alt) tabError(m_indents.back());
            m_indents.push_back({width, alt, m_line, mix});
            push(Tok::Indent, ws);
        } else {
            Span at{m_line, col(), m_line, col()};
            while (width < m_indents.back().width) {
                m_indents.pop_back();
                push(Tok::Dedent, at);
            }
            if (width != m_indents.back().width) {
                error(ws, "unindent does not match any outer indentation level",
                      "indent this line like the block it belongs to");
                m_indents.push_back({width, alt, m_line, mix});  // adopt the odd level so the rest still lexes
                push(Tok::Indent, ws);
            } else if (alt != m_indents.back().alt) {
                tabError(m_indents.back());
                m_indents.back().alt = alt;
                m_indents.back().mix = mix;
            }
        }
        m_atLineStart = false;
        return;
    }
}

void Lexer::lexNumber() {
    uint32_t line0 = m_line, col0 = col();
    size_t start = m_pos;
    Token t;
    bool overflow = false;
    auto readDigits = [&](auto isDigit, std::string& digits) {
        while (!atEnd()) {
            char c = peek();
            if (isDigit(c)) {
                digits += c;
                advance();
            } else if (c == '_' && isDigit(peek(1)) && !digits.empty()) {
                advance();
            } else {
                break;
            }
        }
    };
    if (peek() == '0' && (peek(1) == 'x' || peek(1) == 'X' || peek(1) == 'o' || peek(1) == 'O' ||
                          peek(1) == 'b' || peek(1) == 'B')) {
        char base = static_cast<char>(std::tolower(peek(1)));
        advance();
        advance();
        int radix = base == 'x' ? 16 : base == 'o' ? 8 : 2;
        std::string digits;
        if (peek() == '_') advance();
        readDigits(
            [&](char c) {
                int d = hexDigit(c);
                return d >= 0 && d < radix;
            },
            digits);
        uint64_t v = 0;
        for (char c : digits) {
            uint64_t d = static_cast<uint64_t>(hexDigit(c));
            if (v > (std::numeric_limits<uint64_t>::max() - d) / radix) overflow = true;
            v = v * radix + d;
        }
        if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) overflow = true;
        t.kind = Tok::Int;
        t.intValue = overflow ? 0 : static_cast<int64_t>(v);
        if (digits.empty())
            error(spanFrom(line0, col0),
                  "invalid " +
                      std::string(base == 'x'   ? "hexadecimal"
                                  : base == 'o' ? "octal"
                                                : "binary") +
                      " literal",
                  "expected digits after the base prefix");
    } else {
        std::string digits, frac, exp;
        bool isFloat = false;
        auto isDec = [](char c) { return c >= '0' && c <= '9'; };
        readDigits(isDec, digits);
        if (peek() == '.' && !(peek(1) == '.' && peek(2) == '.')) {
            isFloat = true;
            advance();
            readDigits(isDec, frac);
        }
        if ((peek() == 'e' || peek() == 'E') &&
            (isDec(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && isDec(peek(2))))) {
            isFloat = true;
            advance();
            if (peek() == '+' || peek() == '-') {
                exp += peek();
                advance();
            }
            std::string e;
            readDigits(isDec, e);
            exp += e;
        }
        if (peek() == 'j' || peek() == 'J') {
            advance();
            isFloat = true;
            t.isImaginary = true;
        }
        if (isFloat) {
            std::string s = (digits.empty() ? "0" : digits) + "." + frac;
            if (!exp.empty()) s += "e" + exp;
            t.kind = Tok::Float;
            t.floatValue = std::strtod(s.c_str(), nullptr);
        } else {
            t.kind = Tok::Int;
            if (digits.size() > 1 && digits[0] == '0' &&
                digits.find_first_not_of('0') != std::string::npos)
                error(spanFrom(line0, col0),
                      "leading zeros in decimal integer literals are not permitted",
                      "use an 0o prefix for octal integers");
            uint64_t v = 0;
            for (char c : digits) {
                uint64_t d = static_cast<uint64_t>(c - '0');
                if (v > (static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) - d) / 10)
                    overflow = true;
                if (!overflow) v = v * 10 + d;
            }
            t.intValue = overflow ? 0 : static_cast<int64_t>(v);
        }
    }
    t.span = spanFrom(line0, col0);
    t.text = std::string(m_text.substr(start, m_pos - start));
    if (overflow)
        error(t.span, "integer literal '" + t.text + "' does not fit in 64 bits",
              "TileScope evaluates compile-time integers as signed 64-bit values");
    size_t spaceBytes = 0;  // a non-ASCII space after the number is reported on its own
    if (!atEnd() && isIdentStart(static_cast<unsigned char>(peek())) && !unicodeSpaceAt(m_text, m_pos, spaceBytes))
        error(Span{m_line, col(), m_line, col() + 1}, "invalid character after number literal",
              "put an operator or a space between a number and a name");
    m_toks.push_back(std::move(t));
}

void Lexer::lexString(uint32_t line0, uint32_t col0, std::string_view prefix) {
    bool raw = false, bytes = false, fstr = false;
    for (char c : prefix) {
        char l = static_cast<char>(std::tolower(c));
        raw |= l == 'r';
        bytes |= l == 'b';
        fstr |= l == 'f';
    }
    char q = peek();
    bool triple = peek(1) == q && peek(2) == q;
    for (int i = 0; i < (triple ? 3 : 1); ++i) advance();
    std::string value;
    bool closed = false;
    while (!atEnd()) {
        char c = peek();
        if (c == q && (!triple || (peek(1) == q && peek(2) == q))) {
            for (int i = 0; i < (triple ? 3 : 1); ++i) advance();
            closed = true;
            break;
        }
        if (c == '\n' && !triple) break;
        if (c == '\\' && m_pos + 1 < m_text.size()) {
            char n = peek(1);
            if (raw) {
                // Raw strings keep the backslash but it still protects a following quote.
                value += c;
                value += n;
                advance();
                advance();
                continue;
            }
            advance();
            advance();
            switch (n) {
                case '\n':
                    break;
                case '\r':
                    if (peek() == '\n') advance();
                    break;
                case '\\':
                    value += '\\';
                    break;
                case '\'':
                    value += '\'';
                    break;
                case '"':
                    value += '"';
                    break;
                case 'a':
                    value += '\a';
                    break;
                case 'b':
                    value += '\b';
                    break;
                case 'f':
                    value += '\f';
                    break;
                case 'n':
                    value += '\n';
                    break;
                case 'r':
                    value += '\r';
                    break;
                case 't':
                    value += '\t';
                    break;
                case 'v':
                    value += '\v';
                    break;
                case 'x': {
                    int h1 = hexDigit(peek()), h2 = hexDigit(peek(1));
                    if (h1 < 0 || h2 < 0) {
                        error(spanFrom(m_line, col() - 2), "invalid \\x escape in string literal",
                              "write two hex digits after \\x");
                        break;
                    }
                    advance();
                    advance();
                    if (bytes)
                        value += static_cast<char>(h1 * 16 + h2);
                    else
                        appendUtf8(value, static_cast<uint32_t>(h1 * 16 + h2));
                    break;
                }
                case 'u':
                case 'U': {
                    if (bytes) {
                        value += '\\';
                        value += n;
                        break;
                    }
                    int len = n == 'u' ? 4 : 8;
                    uint32_t cp = 0;
                    bool ok = true;
                    for (int i = 0; i < len; ++i) {
                        int d = hexDigit(peek());
                        if (d < 0) {
                            ok = false;
                            break;
                        }
                        cp = cp * 16 + static_cast<uint32_t>(d);
                        advance();
                    }
                    if (!ok || cp > 0x10FFFF)
                        error(spanFrom(m_line, col()),
                              "invalid \\" + std::string(1, n) + " escape in string literal");
                    else
                        appendUtf8(value, cp);
                    break;
                }
                default:
                    if (n >= '0' && n <= '7') {
                        uint32_t v = static_cast<uint32_t>(n - '0');
                        for (int i = 0; i < 2 && peek() >= '0' && peek() <= '7'; ++i) {
                            v = v * 8 + static_cast<uint32_t>(peek() - '0');
                            advance();
                        }
                        if (bytes)
                            value += static_cast<char>(v & 0xFF);
                        else
                            appendUtf8(value, v);
                    } else {
                        value += '\\';  // unknown escapes keep the backslash, like Python
                        value += n;
                    }
            }
            continue;
        }
        value += c;
        advance();
    }
    Token t;
    t.kind = Tok::String;
    t.span = spanFrom(line0, col0);
    t.text = std::move(value);
    t.isBytes = bytes;
    t.isFString = fstr;
    if (!closed)
        error(t.span,
              triple ? "unterminated triple-quoted string literal" : "unterminated string literal",
              std::string("close the string with ") +
                  (triple ? std::string(3, q) : std::string(1, q)));
    m_toks.push_back(std::move(t));
}

bool Lexer::lexOperator() {
    for (const auto& op : kOperators) {
        if (m_text.compare(m_pos, op.text.size(), op.text) != 0) continue;
        uint32_t line0 = m_line, col0 = col();
        for (size_t i = 0; i < op.text.size(); ++i) advance();
        Span s = spanFrom(line0, col0);
        char c = op.text[0];
        if (op.text.size() == 1 && (c == '(' || c == '[' || c == '{')) {
            m_brackets.push_back({c, s});
        } else if (op.text.size() == 1 && (c == ')' || c == ']' || c == '}')) {
            char open = c == ')' ? '(' : c == ']' ? '[' : '{';
            if (m_brackets.empty()) {
                error(s, std::string("unmatched '") + c + "'",
                      "remove it or add the opening bracket");
            } else {
                if (m_brackets.back().first != open)
                    error(s, std::string("closing '") + c + "' does not match opening '" +
                                 m_brackets.back().first + "' at line " +
                                 std::to_string(m_brackets.back().second.line));
                m_brackets.pop_back();
            }
        }
        push(op.kind, s, std::string(op.text));
        return true;
    }
    return false;
}

std::vector<Token> Lexer::run() {
    // A UTF-8 byte order mark as the file's first character is accepted silently, as by
    // Python; columns of line 1 count from after it, as an editor (which hides it) shows them.
    if (m_text.substr(0, 3) == "\xEF\xBB\xBF") m_pos = m_lineStart = 3;
    while (true) {
        if (m_atLineStart && m_brackets.empty()) {
            handleIndentation();
            m_atLineStart = false;
        }
        while (!atEnd() && (peek() == ' ' || peek() == '\t' || peek() == '\f' || peek() == '\r'))
            advance();
        if (atEnd()) break;
        char c = peek();
        uint32_t line0 = m_line, col0 = col();
        if (c == '#') {
            while (!atEnd() && peek() != '\n') advance();
            continue;
        }
        if (c == '\n') {
            if (!m_brackets.empty() && statementStartsInsideBracket()) {
                for (const auto& [ch, bs] : m_brackets)
                    error(bs, std::string("'") + ch + "' was never closed",
                          "add the matching closing bracket");
                m_brackets.clear();
                push(Tok::Newline, Span{line0, col0, line0, col0 + 1});
                m_toks.back().synthetic = true;
                m_atLineStart = true;
                advance();
                continue;
            }
            if (m_brackets.empty()) {
                push(Tok::Newline, Span{line0, col0, line0, col0 + 1});
                m_atLineStart = true;
            }
            advance();
            continue;
        }
        if (c == '\\') {
            size_t save = m_pos;
            advance();
            if (peek() == '\r') advance();
            if (peek() == '\n') {
                advance();
                continue;
            }
            m_pos = save;
            advance();
            error(Span{line0, col0, line0, col0 + 1},
                  "unexpected character after line continuation character",
                  "a backslash continues a line only as the last character of it");
            continue;
        }
        if (skipUnicodeSpace()) continue;
        if (isIdentStart(static_cast<unsigned char>(c))) {
            size_t start = m_pos;
            // Non-ASCII bytes are identifier characters, but a pasted space ends the name (it
            // is reported next) instead of becoming part of it ("name ' A' is not defined").
            size_t spaceBytes = 0;
            while (!atEnd() && isIdentChar(static_cast<unsigned char>(peek())) && !unicodeSpaceAt(m_text, m_pos, spaceBytes))
                advance();
            std::string_view word = m_text.substr(start, m_pos - start);
            bool isPrefix = word.size() <= 2 && (peek() == '\'' || peek() == '"');
            for (char w : word) {
                char l = static_cast<char>(std::tolower(w));
                isPrefix &= l == 'r' || l == 'b' || l == 'f' || l == 'u';
            }
            if (isPrefix) {
                lexString(line0, col0, word);
                continue;
            }
            Tok kind = Tok::Name;
            for (const auto& kw : kKeywords)
                if (kw.text == word) kind = kw.kind;
            push(kind, spanFrom(line0, col0), std::string(word));
            continue;
        }
        if ((c >= '0' && c <= '9') || (c == '.' && peek(1) >= '0' && peek(1) <= '9')) {
            lexNumber();
            continue;
        }
        if (c == '\'' || c == '"') {
            lexString(line0, col0, {});
            continue;
        }
        if (lexOperator()) continue;
        advance();
        while (!atEnd() && (static_cast<unsigned char>(peek()) & 0xC0) == 0x80) advance();
        error(spanFrom(line0, col0),
              std::string("invalid character '") +
                  std::string(m_text.substr(m_pos - (col() - col0), col() - col0)) + "' in source",
              "only Python syntax is accepted");
    }
    Span eof{m_line, col(), m_line, col()};
    for (const auto& [ch, s] : m_brackets)
        error(s, std::string("'") + ch + "' was never closed", "add the matching closing bracket");
    if (!m_toks.empty() && m_toks.back().kind != Tok::Newline &&
        m_toks.back().kind != Tok::Dedent && m_toks.back().kind != Tok::Indent) {
        push(Tok::Newline, eof);
        m_toks.back().synthetic = !m_brackets.empty();
    }
    while (m_indents.size() > 1) {
        m_indents.pop_back();
        push(Tok::Dedent, eof);
    }
    push(Tok::EndOfFile, eof);
    return std::move(m_toks);
}

}  // namespace

std::vector<Token> tokenize(const SourceFile& src, DiagnosticEngine& diags) {
    return Lexer(src, diags).run();
}

bool isKeyword(std::string_view s) {
    for (const auto& kw : kKeywords)
        if (kw.text == s) return true;
    return false;
}

std::string_view tokSpelling(Tok t) {
    switch (t) {
        case Tok::EndOfFile:
            return "end of file";
        case Tok::Newline:
            return "end of line";
        case Tok::Indent:
            return "indentation";
        case Tok::Dedent:
            return "end of indented block";
        case Tok::Name:
            return "identifier";
        case Tok::Int:
            return "integer";
        case Tok::Float:
            return "number";
        case Tok::String:
            return "string";
        case Tok::Error:
            return "invalid token";
        default:
            break;
    }
    for (const auto& kw : kKeywords)
        if (kw.kind == t) return kw.text;
    for (const auto& op : kOperators)
        if (op.kind == t) return op.text;
    return "token";
}

}  // namespace ts::fe
