// The AST-level mutator of the libFuzzer targets (LLVMFuzzerCustomMutator/CustomCrossOver),
// beside libFuzzer's own byte-level mutations. Byte flips almost never get a tile program past
// the parser, so half of the mutations parse the input (compiler/frontend/Parser.h) and edit it
// as a syntax tree, rendered back by splicing source spans:
//   - replace an expression subtree by another subtree of the file, of the other input
//     (cross-over), or by an interesting snippet (0, -1, 2**31, a dtype name, T.ceildiv(N, 0));
//   - delete, duplicate or swap statements of one block, or copy a statement into another block
//     (re-indented), so loops, ifs and tile ops move between scopes.
// Inputs that do not parse, and the other half of the mutations, go to LLVMFuzzerMutate.
// Deterministic for a given seed, as libFuzzer requires.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "compiler/frontend/Parser.h"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t maxSize);

namespace ts::fuzz {

/// Byte ranges of the syntax tree of one input.
struct TreeSpans {
    struct Stmt {
        size_t begin, end;  ///< whole lines: [first line start, one past the last line's '\n')
        int block;          ///< index of the enclosing block (statements of a block are siblings)
        uint32_t indent;    ///< column of the statement's first character - 1
    };
    std::vector<std::pair<size_t, size_t>> exprs;  ///< [begin, end) of each expression
    std::vector<Stmt> stmts;
};

class SpanMapper {
public:
    explicit SpanMapper(const std::string& t) {
        m_starts.push_back(0);
        for (size_t i = 0; i < t.size(); ++i)
            if (t[i] == '\n') m_starts.push_back(i + 1);
        m_size = t.size();
    }
    /// Offset of 1-based (line, col); npos when outside the text.
    size_t offset(uint32_t line, uint32_t col) const {
        if (line == 0 || line > m_starts.size() || col == 0) return std::string::npos;
        size_t o = m_starts[line - 1] + col - 1;
        return o <= m_size ? o : std::string::npos;
    }
    size_t lineStart(uint32_t line) const { return line && line <= m_starts.size() ? m_starts[line - 1] : std::string::npos; }
    size_t lineEnd(uint32_t line) const { return line < m_starts.size() ? m_starts[line] : m_size; }

private:
    std::vector<size_t> m_starts;
    size_t m_size = 0;
};

class TreeCollector {
public:
    TreeCollector(const SpanMapper& m, TreeSpans& out) : m_map(m), m_out(out) {}

    void block(const fe::ast::Block& b) {
        int id = m_blocks++;
        for (auto* s : b) stmt(s, id);
    }

private:
    void expr(const fe::ast::Expr* e, int depth = 0) {
        if (!e || depth > 200) return;
        size_t b = m_map.offset(e->span.line, e->span.col), en = m_map.offset(e->span.endLine, e->span.endCol);
        if (b != std::string::npos && en != std::string::npos && en > b) m_out.exprs.push_back({b, en});
        fe::ast::forEachChild(e, [&](const fe::ast::Expr* c) { expr(c, depth + 1); });
    }
    void stmt(const fe::ast::Stmt* s, int blockId) {
        if (!s) return;
        size_t b = m_map.lineStart(s->span.line);
        size_t en = m_map.lineEnd(s->span.endLine ? s->span.endLine : s->span.line);
        if (b != std::string::npos && en > b) m_out.stmts.push_back({b, en, blockId, s->span.col ? s->span.col - 1 : 0});
        fe::ast::forEachExpr(s, [&](const fe::ast::Expr* e) { expr(e); });
        using namespace fe::ast;
        if (auto* f = dynamic_cast<const FunctionDef*>(s)) block(f->body);
        else if (auto* c = dynamic_cast<const ClassDef*>(s)) block(c->body);
        else if (auto* i = dynamic_cast<const If*>(s)) block(i->body), block(i->orelse);
        else if (auto* fo = dynamic_cast<const For*>(s)) block(fo->body), block(fo->orelse);
        else if (auto* w = dynamic_cast<const While*>(s)) block(w->body), block(w->orelse);
        else if (auto* wi = dynamic_cast<const With*>(s)) block(wi->body);
        else if (auto* t = dynamic_cast<const Try*>(s)) {
            block(t->body), block(t->orelse), block(t->finalbody);
            for (auto& h : t->handlers) block(h.body);
        }
    }
    const SpanMapper& m_map;
    TreeSpans& m_out;
    int m_blocks = 0;
};

/// Parses `text` and collects its expression and statement spans; false when nothing parsed.
inline bool collectTree(const std::string& text, TreeSpans& out) {
    auto src = std::make_shared<SourceFile>("mutate.py", text);
    DiagnosticEngine diags;
    auto mod = fe::parseModule(src, diags);
    if (!mod) return false;
    SpanMapper map(text);
    TreeCollector(map, out).block(mod->body);
    return !out.exprs.empty() || !out.stmts.empty();
}

/// Values and expressions that stress the meta-evaluator, elaboration and the passes.
inline const std::vector<std::string>& interestingSnippets() {
    static const std::vector<std::string> k = {
        "0", "1", "-1", "2", "3", "7", "16", "17", "31", "32", "33", "64", "127", "128", "255", "256", "1000",
        "4096", "65536", "2**31", "2**31 - 1", "-2**31", "2**62", "2**63 - 1", "1e30", "-0.0", "float('inf')",
        "float('nan')", "None", "True", "False", "()", "(1,)", "(0, 0)", "[]", "\"\"", "\"float16\"",
        "\"bfloat16\"", "\"float32\"", "\"float64\"", "\"float8_e4m3\"", "\"float8_e5m2\"", "\"int8\"",
        "\"uint8\"", "\"int16\"", "\"int32\"", "\"int64\"", "\"bool\"", "\"int4\"", "T.float16", "T.int8",
        "T.ceildiv(N, 0)", "T.infinity(\"float16\")", "-T.infinity(\"float32\")", "M // 0", "M % 0",
        "bx * 4096", "k * 24", "T.max(a, b)", "T.exp2(x)", "x[0]", "x[-1]", "x[0:0]", "x[1:0]", "x[:, 0]",
        "T.alloc_fragment((0,), \"float32\")", "T.alloc_shared((1 << 20,), \"float32\")", "lambda i: i",
    };
    return k;
}

/// Replaces [b, e) of `s` by `with`.
inline std::string splice(const std::string& s, size_t b, size_t e, const std::string& with) {
    return s.substr(0, b) + with + s.substr(e);
}

/// Re-indents the lines of `stmtText` from `from` columns to `to` columns.
inline std::string reindent(const std::string& stmtText, uint32_t from, uint32_t to) {
    std::string out, line;
    size_t i = 0;
    while (i < stmtText.size()) {
        size_t nl = stmtText.find('\n', i);
        line = stmtText.substr(i, nl == std::string::npos ? std::string::npos : nl - i + 1);
        i = nl == std::string::npos ? stmtText.size() : nl + 1;
        size_t lead = 0;
        while (lead < line.size() && lead < from && line[lead] == ' ') ++lead;
        out += std::string(to, ' ') + line.substr(lead);
    }
    return out;
}

/// One AST-level mutation of `text` (with `other` as a cross-over donor, may be empty); returns
/// false when the input has no tree to mutate.
inline bool mutateTree(std::string& text, const std::string& other, std::mt19937_64& rng) {
    TreeSpans t;
    if (!collectTree(text, t)) return false;
    auto pick = [&](size_t n) { return static_cast<size_t>(rng() % n); };
    const int kind = static_cast<int>(rng() % 6);
    if (kind <= 1 && !t.exprs.empty()) {  // expression subtree replacement
        auto [b, e] = t.exprs[pick(t.exprs.size())];
        std::string with;
        if (kind == 0) {
            with = interestingSnippets()[pick(interestingSnippets().size())];
        } else {
            TreeSpans donorTree;
            const std::string* donor = &text;
            if (!other.empty() && (rng() & 1) && collectTree(other, donorTree) && !donorTree.exprs.empty()) {
                donor = &other;
            } else {
                donorTree = t;
            }
            auto [db, de] = donorTree.exprs[pick(donorTree.exprs.size())];
            with = donor->substr(db, de - db);
        }
        text = splice(text, b, e, with);
        return true;
    }
    if (t.stmts.empty()) return false;
    const auto& s = t.stmts[pick(t.stmts.size())];
    const std::string body = text.substr(s.begin, s.end - s.begin);
    std::vector<const TreeSpans::Stmt*> siblings;
    for (auto& o : t.stmts)
        if (o.block == s.block && &o != &s && (o.end <= s.begin || o.begin >= s.end)) siblings.push_back(&o);
    switch (kind) {
        case 2:  // delete (keep a block non-empty: only when it has siblings)
            if (siblings.empty()) return false;
            text = splice(text, s.begin, s.end, "");
            return true;
        case 3:  // duplicate
            text = splice(text, s.end, s.end, body.back() == '\n' ? body : body + "\n");
            return true;
        case 4: {  // swap with a sibling
            if (siblings.empty()) return false;
            const auto& o = *siblings[pick(siblings.size())];
            const auto& first = o.begin < s.begin ? o : s;
            const auto& second = o.begin < s.begin ? s : o;
            std::string a = text.substr(first.begin, first.end - first.begin);
            std::string c = text.substr(second.begin, second.end - second.begin);
            if (!a.empty() && a.back() != '\n') a += '\n';
            if (!c.empty() && c.back() != '\n') c += '\n';
            text = text.substr(0, first.begin) + c + text.substr(first.end, second.begin - first.end) + a +
                   text.substr(second.end);
            return true;
        }
        default: {  // copy into another block, before one of its statements
            const auto& dst = t.stmts[pick(t.stmts.size())];
            std::string moved = reindent(body, s.indent, dst.indent);
            if (!moved.empty() && moved.back() != '\n') moved += '\n';
            text = splice(text, dst.begin, dst.begin, moved);
            return true;
        }
    }
}

inline size_t writeOut(const std::string& s, uint8_t* data, size_t maxSize) {
    size_t n = std::min(s.size(), maxSize);
    std::memcpy(data, s.data(), n);
    return n;
}

}  // namespace ts::fuzz

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t maxSize, unsigned int seed) {
    std::mt19937_64 rng(seed);
    if (rng() & 1) return LLVMFuzzerMutate(data, size, maxSize);
    std::string text(reinterpret_cast<const char*>(data), size);
    if (!ts::fuzz::mutateTree(text, {}, rng) || text.size() > maxSize) return LLVMFuzzerMutate(data, size, maxSize);
    return ts::fuzz::writeOut(text, data, maxSize);
}

extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t* data1, size_t size1, const uint8_t* data2, size_t size2,
                                            uint8_t* out, size_t maxOutSize, unsigned int seed) {
    std::mt19937_64 rng(seed);
    std::string a(reinterpret_cast<const char*>(data1), size1), b(reinterpret_cast<const char*>(data2), size2);
    if (!ts::fuzz::mutateTree(a, b, rng)) a = a.substr(0, size1 / 2) + b.substr(size2 / 2);
    return ts::fuzz::writeOut(a, out, maxOutSize);
}
