#include "compiler/frontend/Parser.h"

#include <algorithm>
#include <unordered_map>

#include "compiler/frontend/ParserImpl.h"

namespace ts::fe {
namespace detail {

Parser::Parser(std::vector<Token> toks, DiagnosticEngine& diags, ast::Module& mod,
               std::set<uint32_t> lexErrorLines)
    : m_toks(std::move(toks)),
      m_diags(diags),
      m_mod(mod),
      m_lexErrorLines(std::move(lexErrorLines)) {
    if (m_toks.empty()) m_toks.push_back(Token{});
}

Parser::DepthGuard::DepthGuard(Parser& parser) : p(parser) {
    if (++p.m_depth > kMaxParseDepth)
        p.fail(
            p.tok().span, "expression or block nested too deeply",
            "split it into smaller pieces (at most " + std::to_string(kMaxParseDepth) + " levels)");
}

void Parser::fail(Span s, std::string msg, std::string hint) const {
    throw ParseError{Diagnostic{Severity::Error, s, std::move(msg), std::move(hint), "parse"}};
}

const Token& Parser::expect(Tok k, const std::string& msg, const std::string& hint) {
    if (!at(k)) {
        std::string full = msg;
        if (!at(Tok::Newline) && !at(Tok::EndOfFile)) full += ", found " + describeCurrent();
        // At the end of a line, point just after the last token (not after a trailing comment).
        Span where = tok().span;
        if ((at(Tok::Newline) || at(Tok::EndOfFile)) && m_last.valid())
            where = Span{m_last.endLine, m_last.endCol, m_last.endLine, m_last.endCol + 1};
        fail(where, full, hint);
    }
    return advance();
}

std::string Parser::describeCurrent() const {
    const Token& t = tok();
    switch (t.kind) {
        case Tok::Name:
            return "'" + t.text + "'";
        case Tok::Int:
        case Tok::Float:
            return "number '" + t.text + "'";
        case Tok::String:
            return "string";
        case Tok::Newline:
            return "end of line";
        case Tok::EndOfFile:
            return "end of file";
        case Tok::Indent:
            return "indentation";
        case Tok::Dedent:
            return "end of block";
        default:
            return "'" + std::string(tokSpelling(t.kind)) + "'";
    }
}

void Parser::report(const Diagnostic& d) {
    // A lexical error already explains this line (or an unclosed bracket explains an error at
    // end of file); a second, derived message would only confuse.
    bool derived = m_lexErrorLines.count(d.span.line) ||
                   (!m_lexErrorLines.empty() && (d.span == m_toks.back().span || tok().synthetic));
    if (!derived) m_diags.add(d);
    ++m_errors;
}

// Skip to the start of the next logical line; INDENT/DEDENT only appear at line starts, so the
// statement loop sees a clean token after this.
void Parser::synchronize() {
    while (!at(Tok::EndOfFile) && !at(Tok::Newline) && !at(Tok::Dedent) && !at(Tok::Indent))
        advance();
    accept(Tok::Newline);
}

void Parser::parseStatementRecovering(ast::Block& out) {
    if (accept(Tok::Newline)) return;
    if (at(Tok::Indent)) {
        // After a failed compound-statement header its body shows up as an unexpected indent:
        // parse it anyway (errors inside still count) without a second message.
        if (!m_recovering)
            report(Diagnostic{
                Severity::Error, tok().span, "unexpected indent",
                "remove the extra indentation or add a block opener such as 'if ...:'", "parse"});
        advance();
        while (!at(Tok::Dedent) && !at(Tok::EndOfFile)) parseStatementRecovering(out);
        accept(Tok::Dedent);
        return;
    }
    if (at(Tok::Dedent)) {  // stray dedent (from an inconsistent-indentation lex error)
        advance();
        return;
    }
    try {
        parseStatement(out);
        m_recovering = false;
    } catch (const ParseError& e) {
        report(e.diag);
        m_recovering = true;
        if (m_errors >= kMaxParseErrors) {
            m_diags.add(Diagnostic{
                Severity::Note, e.diag.span, "too many syntax errors; stopping here", {}, "parse"});
            while (!at(Tok::EndOfFile)) advance();
            return;
        }
        synchronize();
    }
}

ast::Block Parser::parseFile() {
    ast::Block out;
    while (!at(Tok::EndOfFile)) {
        size_t before = m_pos;
        parseStatementRecovering(out);
        if (m_pos == before && !at(Tok::EndOfFile)) advance();  // guarantee progress
    }
    return out;
}

// statement: compound_stmt | simple_stmts
// compound_stmt: function_def | if_stmt | class_def | with_stmt | for_stmt | try_stmt | while_stmt
void Parser::parseStatement(ast::Block& out) {
    DepthGuard guard(*this);
    Span start = tok().span;
    switch (tok().kind) {
        case Tok::At:
            out.push_back(parseDecorated());
            return;
        case Tok::KwDef:
            out.push_back(parseFunctionDef({}, start));
            return;
        case Tok::KwClass:
            out.push_back(parseClassDef({}, start));
            return;
        case Tok::KwIf:
            out.push_back(parseIf());
            return;
        case Tok::KwWhile:
            out.push_back(parseWhile());
            return;
        case Tok::KwFor:
            out.push_back(parseFor(false, start));
            return;
        case Tok::KwWith:
            out.push_back(parseWith(false, start));
            return;
        case Tok::KwTry:
            out.push_back(parseTry());
            return;
        case Tok::KwAsync:
            advance();
            if (at(Tok::KwDef)) {
                auto* f = static_cast<ast::FunctionDef*>(parseFunctionDef({}, start));
                f->isAsync = true;
                out.push_back(f);
                return;
            }
            if (at(Tok::KwFor)) return out.push_back(parseFor(true, start));
            if (at(Tok::KwWith)) return out.push_back(parseWith(true, start));
            fail(tok().span, "expected 'def', 'for' or 'with' after 'async'");
        default:
            parseSimpleStatements(out);
    }
}

// simple_stmts: simple_stmt (';' simple_stmt)* [';'] NEWLINE
void Parser::parseSimpleStatements(ast::Block& out) {
    while (true) {
        out.push_back(parseSimpleStatement());
        if (!accept(Tok::Semi)) break;
        if (at(Tok::Newline) || at(Tok::EndOfFile)) break;
    }
    if (at(Tok::EndOfFile)) return;
    if (!accept(Tok::Newline))
        fail(tok().span, "unexpected " + describeCurrent() + " after the end of a statement",
             "put each statement on its own line (or separate them with ';'); an operator or ',' "
             "may be missing");
}

// simple_stmt: assignment | star_expressions | return_stmt | import_stmt | raise_stmt | 'pass'
//            | del_stmt | yield_stmt | assert_stmt | 'break' | 'continue' | global_stmt
//            | nonlocal_stmt
ast::Stmt* Parser::parseSimpleStatement() {
    Span start = tok().span;
    switch (tok().kind) {
        case Tok::KwPass:
            advance();
            return make<ast::Pass>(start);
        case Tok::KwBreak:
            advance();
            return make<ast::Break>(start);
        case Tok::KwContinue:
            advance();
            return make<ast::Continue>(start);
        case Tok::KwReturn: {
            // return_stmt: 'return' [star_expressions]
            advance();
            auto* r = make<ast::Return>(start);
            if (startsExpression()) r->value = parseStarExpressions();
            r->span = since(start);
            return r;
        }
        case Tok::KwImport:
            return parseImport();
        case Tok::KwFrom:
            return parseImportFrom();
        case Tok::KwRaise: {
            // raise_stmt: 'raise' [expression ['from' expression]]
            advance();
            auto* r = make<ast::Raise>(start);
            if (startsExpression()) {
                r->exc = parseExpression();
                if (accept(Tok::KwFrom)) r->cause = parseExpression();
            }
            r->span = since(start);
            return r;
        }
        case Tok::KwGlobal:
        case Tok::KwNonlocal: {
            // global_stmt: 'global' NAME (',' NAME)* ;  nonlocal_stmt: 'nonlocal' NAME (',' NAME)*
            bool global = at(Tok::KwGlobal);
            advance();
            ast::NameList* n = global ? static_cast<ast::NameList*>(make<ast::Global>(start))
                                      : static_cast<ast::NameList*>(make<ast::Nonlocal>(start));
            do {
                n->names.push_back(expect(Tok::Name, std::string("expected a name after '") +
                                                         (global ? "global" : "nonlocal") + "'")
                                       .text);
            } while (accept(Tok::Comma));
            n->span = since(start);
            return n;
        }
        case Tok::KwDel: {
            // del_stmt: 'del' del_targets
            advance();
            auto* d = make<ast::Del>(start);
            ast::Expr* t = parseStarExpressions();
            if (auto tup = ast::as<ast::Tuple>(t); tup && !tup->parenthesized)
                d->targets = tup->elts;
            else
                d->targets.push_back(t);
            for (const ast::Expr* e : d->targets) checkTarget(e, "delete");
            d->span = since(start);
            return d;
        }
        case Tok::KwAssert: {
            // assert_stmt: 'assert' expression [',' expression]
            advance();
            auto* a = make<ast::Assert>(start);
            a->test = parseExpression();
            if (accept(Tok::Comma)) a->msg = parseExpression();
            a->span = since(start);
            return a;
        }
        default:
            return parseExprOrAssignment();
    }
}

// assignment: NAME ':' expression ['=' annotated_rhs]
//           | (star_targets '=')+ (yield_expr | star_expressions)
//           | single_target augassign (yield_expr | star_expressions)
// expression statement: star_expressions
ast::Stmt* Parser::parseExprOrAssignment() {
    Span start = tok().span;
    if (!startsExpression() && !at(Tok::KwYield) && !at(Tok::Star))
        fail(tok().span, "expected a statement, found " + describeCurrent(),
             at(Tok::KwElse) || at(Tok::KwElif)
                 ? "'else'/'elif' must follow an 'if' block at the same indentation"
                 : "");
    auto rhs = [&]() { return at(Tok::KwYield) ? parseYield() : parseStarExpressions(); };
    ast::Expr* first = rhs();
    if (at(Tok::Colon)) {
        advance();
        if (ast::as<ast::Tuple>(first) || ast::as<ast::List>(first))
            fail(first->span, "only a single target (not a tuple) can be annotated");
        checkTarget(first, "annotate");
        auto* a = make<ast::AnnAssign>(start);
        a->target = first;
        a->annotation = parseExpression();
        if (accept(Tok::Equal)) a->value = rhs();
        a->span = since(start);
        return a;
    }
    if (at(Tok::Equal)) {
        auto* a = make<ast::Assign>(start);
        a->targets.push_back(first);
        while (accept(Tok::Equal)) {
            ast::Expr* next = rhs();
            if (at(Tok::Equal))
                a->targets.push_back(next);
            else
                a->value = next;
        }
        for (const ast::Expr* t : a->targets) checkTarget(t, "assign");
        a->span = since(start);
        return a;
    }
    static const std::pair<Tok, ast::BinOpKind> kAug[] = {
        {Tok::PlusEqual, ast::BinOpKind::Add},
        {Tok::MinusEqual, ast::BinOpKind::Sub},
        {Tok::StarEqual, ast::BinOpKind::Mul},
        {Tok::AtEqual, ast::BinOpKind::MatMul},
        {Tok::SlashEqual, ast::BinOpKind::Div},
        {Tok::DoubleSlashEqual, ast::BinOpKind::FloorDiv},
        {Tok::PercentEqual, ast::BinOpKind::Mod},
        {Tok::DoubleStarEqual, ast::BinOpKind::Pow},
        {Tok::LeftShiftEqual, ast::BinOpKind::LShift},
        {Tok::RightShiftEqual, ast::BinOpKind::RShift},
        {Tok::VBarEqual, ast::BinOpKind::BitOr},
        {Tok::CircumflexEqual, ast::BinOpKind::BitXor},
        {Tok::AmpEqual, ast::BinOpKind::BitAnd},
    };
    for (const auto& [k, op] : kAug) {
        if (!at(k)) continue;
        Span opSpan = advance().span;
        if (!ast::as<ast::Name>(first) && !ast::as<ast::Attribute>(first) &&
            !ast::as<ast::Subscript>(first))
            fail(first->span,
                 std::string("'") + describeExpr(first) +
                     "' is an illegal target for augmented assignment",
                 "augmented assignment needs a single name, attribute or element");
        auto* a = make<ast::AugAssign>(start);
        a->target = first;
        a->op = op;
        if (!startsExpression() && !at(Tok::KwYield) && !at(Tok::Star))
            fail(tok().span,
                 std::string("expected an expression after '") + ast::spelling(op) + "='");
        a->value = rhs();
        a->span = since(start);
        (void)opSpan;
        return a;
    }
    auto* s = make<ast::ExprStmt>(first->span);
    s->value = first;
    return s;
}

// dotted_name: NAME ('.' NAME)*
std::string Parser::parseDottedName(Span& span) {
    const Token& first = expect(Tok::Name, "expected a module name");
    span = first.span;
    std::string name = first.text;
    while (accept(Tok::Dot)) name += "." + expect(Tok::Name, "expected a name after '.'").text;
    span = since(span);
    return name;
}

// import_name: 'import' dotted_as_names ;  dotted_as_name: dotted_name ['as' NAME]
ast::Stmt* Parser::parseImport() {
    Span start = advance().span;
    auto* imp = make<ast::Import>(start);
    do {
        ast::Alias a;
        a.name = parseDottedName(a.span);
        if (accept(Tok::KwAs)) a.asname = expect(Tok::Name, "expected a name after 'as'").text;
        a.span = since(a.span);
        imp->names.push_back(a);
    } while (accept(Tok::Comma));
    imp->span = since(start);
    return imp;
}

// import_from: 'from' ('.' | '...')* dotted_name 'import' import_from_targets
//            | 'from' ('.' | '...')+ 'import' import_from_targets
// import_from_targets: '(' import_from_as_names [','] ')' | import_from_as_names | '*'
ast::Stmt* Parser::parseImportFrom() {
    Span start = advance().span;
    auto* imp = make<ast::ImportFrom>(start);
    while (at(Tok::Dot) || at(Tok::Ellipsis)) imp->level += at(Tok::Dot) ? 1 : 3, advance();
    if (at(Tok::Name)) {
        Span s;
        imp->module = parseDottedName(s);
    } else if (imp->level == 0) {
        fail(tok().span, "expected a module name after 'from'");
    }
    expect(Tok::KwImport, "expected 'import' after the module name");
    if (at(Tok::Star)) {
        imp->names.push_back(ast::Alias{"*", "", advance().span});
    } else {
        bool paren = accept(Tok::LParen);
        do {
            if (paren && at(Tok::RParen)) break;
            ast::Alias a;
            const Token& n = expect(Tok::Name, "expected a name to import");
            a.name = n.text;
            a.span = n.span;
            if (accept(Tok::KwAs)) a.asname = expect(Tok::Name, "expected a name after 'as'").text;
            a.span = since(a.span);
            imp->names.push_back(a);
        } while (accept(Tok::Comma));
        if (paren) expect(Tok::RParen, "expected ')' to close the import list");
    }
    imp->span = since(start);
    return imp;
}

ast::Expr* Parser::parseExpressionInput() {
    try {
        while (accept(Tok::Newline)) {
        }
        ast::Expr* e = parseStarExpressions();
        while (accept(Tok::Newline)) {
        }
        if (!at(Tok::EndOfFile))
            fail(tok().span, "unexpected " + describeCurrent() + " after the expression");
        return e;
    } catch (const ParseError& e) {
        report(e.diag);
        return nullptr;
    }
}

}  // namespace detail

namespace {

// The first node (in pre-order) of `root` whose height (nodes on its longest downward path)
// exceeds kMaxExprHeight, or null. Iterative: the tree may be far too deep to recurse on.
const ast::Expr* tooDeep(const ast::Expr* root) {
    std::vector<const ast::Expr*> order, stack{root};
    while (!stack.empty()) {
        const ast::Expr* e = stack.back();
        stack.pop_back();
        order.push_back(e);
        ast::forEachChild(e, [&](const ast::Expr* c) { stack.push_back(c); });
    }
    if (order.size() <= size_t(kMaxExprHeight)) return nullptr;  // too few nodes to be too deep
    // Children come after their parent in `order`, so a reverse sweep sees them first.
    std::unordered_map<const ast::Expr*, int> height;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        int h = 0;
        ast::forEachChild(*it, [&](const ast::Expr* c) { h = std::max(h, height[c]); });
        height[*it] = h + 1;
    }
    for (const ast::Expr* e : order)
        if (height[e] == kMaxExprHeight + 1) return e;
    return nullptr;
}

Diagnostic tooLong(const ast::Expr* e) {
    std::string n = std::to_string(kMaxExprHeight);
    return Diagnostic{
        Severity::Error, e->span,
        "expression too long: more than " + n +
            " operands/postfix operations (calls, subscripts, attributes) chained "
            "or nested in one expression",
        "split it into several statements with intermediate variables (at most " + n + " levels)",
        "parse"};
}

// Reports and removes every statement of `b` (and of the blocks nested in it) holding an
// expression deeper than kMaxExprHeight, so no later recursive walk ever sees one.
void dropTooDeep(ast::Block& b, DiagnosticEngine& diags) {
    for (size_t i = 0; i < b.size();) {
        ast::Stmt* s = b[i];
        const ast::Expr* bad = nullptr;
        ast::forEachExpr(s, [&](const ast::Expr* e) {
            if (!bad) bad = tooDeep(e);
        });
        if (bad) {
            diags.add(tooLong(bad));
            b.erase(b.begin() + ptrdiff_t(i));
            continue;
        }
        if (auto* f = ast::as<ast::FunctionDef>(s)) dropTooDeep(f->body, diags);
        if (auto* c = ast::as<ast::ClassDef>(s)) dropTooDeep(c->body, diags);
        if (auto* w = ast::as<ast::With>(s)) dropTooDeep(w->body, diags);
        if (auto* x = ast::as<ast::If>(s)) {
            dropTooDeep(x->body, diags);
            dropTooDeep(x->orelse, diags);
        }
        if (auto* x = ast::as<ast::For>(s)) {
            dropTooDeep(x->body, diags);
            dropTooDeep(x->orelse, diags);
        }
        if (auto* x = ast::as<ast::While>(s)) {
            dropTooDeep(x->body, diags);
            dropTooDeep(x->orelse, diags);
        }
        if (auto* t = ast::as<ast::Try>(s)) {
            dropTooDeep(t->body, diags);
            for (auto& h : t->handlers) dropTooDeep(h.body, diags);
            dropTooDeep(t->orelse, diags);
            dropTooDeep(t->finalbody, diags);
        }
        ++i;
    }
}

std::set<uint32_t> lexErrorLines(const DiagnosticEngine& diags, size_t from) {
    std::set<uint32_t> lines;
    for (size_t i = from; i < diags.all().size(); ++i)
        if (diags.all()[i].severity == Severity::Error) lines.insert(diags.all()[i].span.line);
    return lines;
}
}  // namespace

std::shared_ptr<ast::Module> parseModule(SourcePtr src, DiagnosticEngine& diags) {
    auto mod = std::make_shared<ast::Module>(src);
    size_t before = diags.all().size();
    std::vector<Token> toks = tokenize(*src, diags);
    detail::Parser p(std::move(toks), diags, *mod, lexErrorLines(diags, before));
    mod->body = p.parseFile();
    dropTooDeep(mod->body, diags);
    return mod;
}

ParsedExpr parseExpression(SourcePtr src, DiagnosticEngine& diags) {
    auto mod = std::make_shared<ast::Module>(src);
    size_t before = diags.all().size();
    std::vector<Token> toks = tokenize(*src, diags);
    // The expression grammar has no INDENT; leading whitespace is not an error here.
    std::erase_if(toks,
                  [](const Token& t) { return t.kind == Tok::Indent || t.kind == Tok::Dedent; });
    detail::Parser p(std::move(toks), diags, *mod, lexErrorLines(diags, before));
    const ast::Expr* e = p.parseExpressionInput();
    if (e) {
        if (const ast::Expr* bad = tooDeep(e)) diags.add(tooLong(bad));
    }
    for (size_t i = before; i < diags.all().size(); ++i)
        if (diags.all()[i].severity == Severity::Error) e = nullptr;
    return ParsedExpr{mod, e};
}

}  // namespace ts::fe
