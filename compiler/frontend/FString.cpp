// f-strings of the meta level: f"fp{source_bit}_to_{dtype_map[out_dtype]}" is formatted like
// Python does (replacement fields are expressions evaluated in the current scope, with `!r`/`!s`
// conversions, `:spec` format specs that may hold nested fields, `{{`/`}}` escapes and the
// `{x=}` self-documenting form). TileLang's quantize helpers build dictionary keys and function
// names this way, so leaving f-strings unformatted made their lookups fail.
//
// The lexer keeps an f-string's text after escape processing; its fields are parsed here on
// first use with parseExpression and cached by text (an f-string in a loop parses once).
// Errors inside a field are reported at the string literal, naming the field.
#include "compiler/frontend/MetaBuiltins.h"
#include "compiler/frontend/MetaEval.h"
#include "compiler/frontend/Parser.h"

namespace ts::fe {

namespace {
/// End of the replacement field opened at `open` (index of its '{'): the index of the '}' that
/// closes it, skipping brackets and quoted strings inside the expression; npos if unclosed.
/// `exprEnd` receives the end of the expression part (the first top-level '!' or ':').
size_t fieldEnd(const std::string& t, size_t open, size_t& exprEnd) {
    int depth = 0;
    char quote = 0;
    exprEnd = std::string::npos;
    int specDepth = 0;  // nested '{...}' inside the format spec
    for (size_t i = open + 1; i < t.size(); ++i) {
        char c = t[i];
        if (exprEnd != std::string::npos) {  // inside conversion/spec
            if (c == '{') ++specDepth;
            else if (c == '}') {
                if (specDepth == 0) return i;
                --specDepth;
            }
            continue;
        }
        if (quote) {
            if (c == '\\') ++i;
            else if (c == quote) quote = 0;
            continue;
        }
        if (c == '\'' || c == '"') quote = c;
        else if (c == '(' || c == '[' || c == '{') ++depth;
        else if ((c == ')' || c == ']') && depth > 0) --depth;
        else if (c == '}') {
            if (depth == 0) {
                exprEnd = i;
                return i;
            }
            --depth;
        } else if (depth == 0 && c == '!' && (i + 1 >= t.size() || t[i + 1] != '=')) {
            exprEnd = i;
        } else if (depth == 0 && c == ':') {
            exprEnd = i;
        }
    }
    return std::string::npos;
}

bool endsWithSelfDoc(const std::string& e) {
    // `{x=}` but not `{a==b}`, `{a!=b}`, `{a<=b}`, `{a>=b}`.
    size_t n = e.find_last_not_of(" \t");
    if (n == std::string::npos || e[n] != '=') return false;
    if (n == 0) return true;
    char p = e[n - 1];
    return p != '=' && p != '!' && p != '<' && p != '>';
}
}  // namespace

Value Interp::evalFString(const std::string& text, Span span, const EnvPtr& env) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (c == '}') {
            if (i + 1 < text.size() && text[i + 1] == '}') ++i;
            else throw CompileError(span, "f-string: single '}' is not allowed");
            out += '}';
            continue;
        }
        if (c != '{') {
            out += c;
            continue;
        }
        if (i + 1 < text.size() && text[i + 1] == '{') {
            out += '{';
            ++i;
            continue;
        }
        size_t exprEnd = 0;
        size_t close = fieldEnd(text, i, exprEnd);
        if (close == std::string::npos) throw CompileError(span, "f-string: expecting '}'");
        std::string expr = text.substr(i + 1, exprEnd - i - 1);
        std::string conv, spec;
        if (exprEnd < close) {
            std::string rest = text.substr(exprEnd, close - exprEnd);
            if (rest[0] == '!') {
                size_t colon = rest.find(':');
                conv = rest.substr(1, colon == std::string::npos ? std::string::npos : colon - 1);
                if (colon != std::string::npos) spec = rest.substr(colon + 1);
            } else {
                spec = rest.substr(1);
            }
        }
        i = close;
        std::string prefix;
        if (endsWithSelfDoc(expr)) {
            prefix = expr;
            expr = expr.substr(0, expr.find_last_not_of(" \t"));
            if (conv.empty() && spec.empty()) conv.assign(1, 'r');  // not `= "r"`: GCC 12 -Wrestrict false positive
        }
        if (expr.find_first_not_of(" \t\n") == std::string::npos)
            throw CompileError(span, "f-string: empty expression not allowed");
        auto it = m_fstringFields.find(expr);
        if (it == m_fstringFields.end()) {
            DiagnosticEngine d;
            ParsedExpr p = parseExpression(std::make_shared<SourceFile>("<f-string>", expr), d);
            if (!p.expr || d.hasErrors())
                throw CompileError(span, "f-string: invalid expression '{" + expr + "}'");
            it = m_fstringFields.emplace(expr, std::move(p)).first;
        }
        Value v;
        try {
            v = eval(*it->second.expr, env);
        } catch (const CompileError& e) {
            throw CompileError(span, "in f-string field '{" + expr + "}': " + e.diag.message,
                               e.diag.hint);
        }
        if (spec.find('{') != std::string::npos) spec = str(evalFString(spec, span, env));
        if (conv == "r") v = Value::str(repr(v));
        else if (conv == "s") v = Value::str(str(v));
        else if (conv == "a") v = Value::str(repr(v));
        else if (!conv.empty())
            throw CompileError(span, "f-string: invalid conversion character '" + conv + "'",
                               "expected 's', 'r', or 'a'");
        out += prefix;
        out += spec.empty() ? str(v) : meta::formatWithSpec(v, spec, span);
    }
    return Value::str(out);
}

}  // namespace ts::fe
