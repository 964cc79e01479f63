// The `# tilescope: k=v ...` pragma line (ParamPragma.h).
#include "compiler/support/ParamPragma.h"

#include <cctype>
#include <iterator>
#include <vector>

namespace ts {
namespace {

constexpr std::string_view kPrefix = "tilescope:";

struct LineRef {
    size_t begin, end;  // [begin, end) without the newline
};

std::vector<LineRef> lineRefs(std::string_view text) {
    std::vector<LineRef> out;
    size_t start = 0;
    while (start <= text.size()) {
        size_t nl = text.find('\n', start);
        if (nl == std::string_view::npos) {
            if (start < text.size()) out.push_back({start, text.size()});
            break;
        }
        out.push_back({start, nl});
        start = nl + 1;
    }
    return out;
}

// The part after "tilescope:" if `line` is a pragma line.
bool pragmaBody(std::string_view line, std::string_view* body) {
    size_t i = 0;
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i >= line.size() || line[i] != '#') return false;
    ++i;
    while (i < line.size() && line[i] == ' ') ++i;
    if (line.substr(i, kPrefix.size()) != kPrefix) return false;
    *body = line.substr(i + kPrefix.size());
    return true;
}

struct Word {
    std::string text;
    size_t offset;  // of the first character in the scanned string
};

// Splits at whitespace outside quotes/brackets, so dtype="float16" and tile=(64, 64) stay whole.
std::vector<Word> words(std::string_view s) {
    std::vector<Word> out;
    std::string cur;
    size_t start = 0;
    char quote = 0;
    int depth = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (cur.empty() && !std::isspace(static_cast<unsigned char>(c))) start = i;
        if (quote) {
            cur += c;
            if (c == quote) quote = 0;
        } else if (c == '"' || c == '\'') {
            quote = c;
            cur += c;
        } else if (c == '(' || c == '[') {
            ++depth;
            cur += c;
        } else if ((c == ')' || c == ']') && depth > 0) {
            --depth;
            cur += c;
        } else if (std::isspace(static_cast<unsigned char>(c)) && depth == 0) {
            if (!cur.empty()) out.push_back({std::move(cur), start});
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty()) out.push_back({std::move(cur), start});
    return out;
}

}  // namespace

int paramPragmaLine(std::string_view text) {
    auto lines = lineRefs(text);
    std::string_view body;
    for (size_t i = 0; i < lines.size(); ++i)
        if (pragmaBody(text.substr(lines[i].begin, lines[i].end - lines[i].begin), &body))
            return static_cast<int>(i) + 1;
    return 0;
}

std::vector<PragmaParam> paramPragmaEntries(std::string_view text) {
    std::vector<PragmaParam> out;
    int line = paramPragmaLine(text);
    if (line == 0) return out;
    LineRef r = lineRefs(text)[line - 1];
    std::string_view lineText = text.substr(r.begin, r.end - r.begin);
    std::string_view body;
    pragmaBody(lineText, &body);
    const size_t bodyCol = static_cast<size_t>(body.data() - lineText.data());  // 0-based
    for (const Word& w : words(body)) {
        size_t eq = w.text.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 >= w.text.size()) continue;
        PragmaParam p;
        p.name = w.text.substr(0, eq);
        p.value = w.text.substr(eq + 1);
        p.span.line = p.span.endLine = static_cast<uint32_t>(line);
        p.span.col = static_cast<uint32_t>(bodyCol + w.offset + 1);
        p.span.endCol = p.span.col + static_cast<uint32_t>(eq);
        out.push_back(std::move(p));
    }
    return out;
}

std::map<std::string, std::string> parseParamPragma(std::string_view text) {
    std::map<std::string, std::string> out;
    for (auto& p : paramPragmaEntries(text)) out[p.name] = p.value;
    return out;
}

std::map<std::string, std::string> pragmaParamValues(std::map<std::string, std::string> values) {
    for (auto it = values.begin(); it != values.end();)
        it = isPragmaSetting(it->first) ? values.erase(it) : std::next(it);
    return values;
}

std::string pragmaSetting(const std::map<std::string, std::string>& values, std::string_view key) {
    auto it = values.find(std::string(key));
    return it == values.end() ? std::string() : it->second;
}

std::string formatParamPragma(const std::map<std::string, std::string>& values) {
    if (values.empty()) return {};
    std::string s = "# tilescope:";
    for (const auto& [k, v] : values) s += " " + k + "=" + v;
    return s;
}

std::string withParamPragma(std::string_view text,
                            const std::map<std::string, std::string>& values) {
    auto lines = lineRefs(text);
    std::string pragma = formatParamPragma(values);
    int existing = paramPragmaLine(text);
    std::string out;
    if (existing) {
        LineRef r = lines[existing - 1];
        out.append(text.substr(0, r.begin));
        if (!pragma.empty()) {
            out += pragma;
            out.append(text.substr(r.end));
        } else {
            // Drop the line together with its newline.
            out.append(text.substr(r.end < text.size() ? r.end + 1 : r.end));
        }
        return out;
    }
    if (pragma.empty()) return std::string(text);
    // Insert after the leading block of comments and blank lines (shebang, licence, docstring-free
    // headers), so the pragma sits with the file's header rather than inside code.
    size_t insertAt = 0;
    for (const LineRef& r : lines) {
        std::string_view l = text.substr(r.begin, r.end - r.begin);
        size_t i = l.find_first_not_of(" \t\r");
        if (i != std::string_view::npos && l[i] != '#') break;
        insertAt = r.end < text.size() ? r.end + 1 : r.end;
    }
    out.append(text.substr(0, insertAt));
    if (!out.empty() && out.back() != '\n') out += '\n';
    out += pragma + "\n";
    out.append(text.substr(insertAt));
    return out;
}

}  // namespace ts
