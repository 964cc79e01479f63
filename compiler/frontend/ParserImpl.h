// Internal: the recursive-descent Parser class shared by Parser.cpp (statements, recovery) and
// ParserExpr.cpp (expressions). Not part of the public API; include Parser.h instead. A syntax
// error throws ParseError inside one statement; the statement loop catches it, records the
// diagnostic and resynchronises at the next line, so errors never escape parseModule().
#pragma once
#include <set>
#include <string>
#include <vector>

#include "compiler/frontend/Ast.h"
#include "compiler/frontend/Lexer.h"
#include "compiler/support/Diagnostic.h"
#include "compiler/support/TextColumn.h"

namespace ts::fe::detail {

/// A syntax error on its way to the statement-level handler.
struct ParseError {
    Diagnostic diag;
};

class Parser {
public:
    Parser(std::vector<Token> toks, DiagnosticEngine& diags, ast::Module& mod,
           std::set<uint32_t> lexErrorLines);

    ast::Block parseFile();
    /// Expression input (for parseExpression); throws nothing, reports and returns null on error.
    ast::Expr* parseExpressionInput();

    // ---- token helpers ----
    const Token& tok(size_t ahead = 0) const {
        size_t i = m_pos + ahead;
        return i < m_toks.size() ? m_toks[i] : m_toks.back();
    }
    bool at(Tok k) const { return tok().kind == k; }
    bool accept(Tok k) {
        if (!at(k)) return false;
        advance();
        return true;
    }
    const Token& advance() {
        const Token& t = tok();
        if (m_pos + 1 < m_toks.size()) ++m_pos;
        // Layout tokens do not extend node spans: a block ends at its last real token.
        if (t.kind != Tok::Newline && t.kind != Tok::Indent && t.kind != Tok::Dedent &&
            t.kind != Tok::EndOfFile)
            m_last = t.span;
        return t;
    }
    /// Consumes `k` or fails with `msg` (and `hint`) at the current token.
    const Token& expect(Tok k, const std::string& msg, const std::string& hint = {});
    [[noreturn]] void fail(Span s, std::string msg, std::string hint = {}) const;
    /// "unexpected X" message for the current token, used when nothing else fits.
    std::string describeCurrent() const;
    /// Span from `start` to the end of the last consumed token.
    Span since(Span start) const { return Span::merge(start, m_last); }
    /// The character column of `s` for messages ("'(' opened at line 3, column 9"): spans count
    /// bytes, people count characters (formatDiagnostic prints the same unit).
    uint32_t column(const Span& s) const {
        return m_mod.source() ? charColumn(m_mod.source()->lineText(s.line), s.col) : s.col;
    }
    template <class T>
    T* make(Span s) {
        return m_mod.make<T>(s);
    }

    // ---- statements (Parser.cpp) ----
    void parseStatementRecovering(ast::Block& out);
    void parseStatement(ast::Block& out);
    void parseSimpleStatements(ast::Block& out);
    ast::Stmt* parseSimpleStatement();
    ast::Stmt* parseExprOrAssignment();
    ast::Block parseBlock(const std::string& owner);
    ast::Stmt* parseDecorated();
    ast::Stmt* parseFunctionDef(std::vector<ast::Expr*> decorators, Span start);
    ast::Stmt* parseClassDef(std::vector<ast::Expr*> decorators, Span start);
    std::vector<ast::Param> parseParams(Tok close, bool allowAnnotations);
    ast::Stmt* parseIf();
    ast::Stmt* parseWhile();
    ast::Stmt* parseFor(bool isAsync, Span start);
    ast::Stmt* parseWith(bool isAsync, Span start);
    ast::Stmt* parseTry();
    ast::Stmt* parseImport();
    ast::Stmt* parseImportFrom();
    std::string parseDottedName(Span& span);
    void synchronize();

    // ---- expressions (ParserExpr.cpp) ----
    bool startsExpression() const;
    ast::Expr* parseStarExpressions();
    ast::Expr* parseStarExpression();
    ast::Expr* parseStarNamedExpression();
    ast::Expr* parseNamedExpression();
    ast::Expr* parseExpression();
    ast::Expr* parseLambda();
    ast::Expr* parseDisjunction();
    ast::Expr* parseConjunction();
    ast::Expr* parseInversion();
    ast::Expr* parseComparison();
    ast::Expr* parseBitOr();
    ast::Expr* parseBitXor();
    ast::Expr* parseBitAnd();
    ast::Expr* parseShift();
    ast::Expr* parseSum();
    ast::Expr* parseTerm();
    ast::Expr* parseFactor();
    ast::Expr* parsePower();
    ast::Expr* parsePrimary();
    ast::Expr* parseAtom();
    ast::Expr* parseStrings();
    ast::Expr* parseParenthesized();
    ast::Expr* parseListDisplay();
    ast::Expr* parseBraceDisplay();
    ast::Expr* parseSlices();
    ast::Expr* parseSlice();
    void parseCallArguments(ast::Call* call, const Token& open);
    std::vector<ast::Comprehension> parseComprehensionClauses();
    ast::Expr* parseTargetList();
    ast::Expr* parseYield();
    /// Reports an error if `e` cannot be assigned to ("cannot assign to function call").
    void checkTarget(const ast::Expr* e, const char* context) const;

    /// Bounds recursion so hostile input ("((((((..." ) fails cleanly instead of overflowing.
    struct DepthGuard {
        Parser& p;
        explicit DepthGuard(Parser& parser);
        ~DepthGuard() { --p.m_depth; }
    };

private:
    std::vector<Token> m_toks;
    DiagnosticEngine& m_diags;
    ast::Module& m_mod;
    std::set<uint32_t> m_lexErrorLines;
    size_t m_pos = 0;
    Span m_last;
    int m_depth = 0;
    int m_errors = 0;
    bool m_recovering = false;

    void report(const Diagnostic& d);
};

/// Words for an expression kind in messages: "function call", "literal", "comparison".
const char* describeExpr(const ast::Expr* e);

}  // namespace ts::fe::detail
