// Compound statements of the recursive-descent parser (see ParserImpl.h): blocks, decorators,
// def (with the full parameter grammar), class, if/elif/else, while, for, with (including
// Python 3.9 parenthesised items) and try/except/else/finally.
#include "compiler/frontend/ParserImpl.h"

namespace ts::fe::detail {

// block: NEWLINE INDENT statement+ DEDENT | simple_stmts
ast::Block Parser::parseBlock(const std::string& owner) {
    ast::Block body;
    if (!accept(Tok::Newline)) {
        if (at(Tok::EndOfFile)) fail(tok().span, "expected a statement after " + owner);
        parseSimpleStatements(body);
        return body;
    }
    if (!at(Tok::Indent))
        fail(tok().span, "expected an indented block after " + owner,
             "indent the body (4 spaces), or write 'pass' for an empty block");
    advance();
    while (!at(Tok::Dedent) && !at(Tok::EndOfFile)) {
        size_t before = m_pos;
        parseStatementRecovering(body);
        if (m_pos == before && !at(Tok::EndOfFile) && !at(Tok::Dedent)) advance();
    }
    accept(Tok::Dedent);
    return body;
}

// decorators: ('@' named_expression NEWLINE)+ (function_def | class_def)
ast::Stmt* Parser::parseDecorated() {
    Span start = tok().span;
    std::vector<ast::Expr*> decorators;
    while (accept(Tok::At)) {
        decorators.push_back(parseNamedExpression());
        expect(Tok::Newline, "expected end of line after decorator");
    }
    bool isAsync = accept(Tok::KwAsync);
    if (at(Tok::KwDef)) {
        auto* f = static_cast<ast::FunctionDef*>(parseFunctionDef(std::move(decorators), start));
        f->isAsync = isAsync;
        return f;
    }
    if (at(Tok::KwClass) && !isAsync) return parseClassDef(std::move(decorators), start);
    fail(tok().span, "expected 'def' or 'class' after decorator",
         "a decorator must be followed by a function or class");
}

// function_def: decorators? ['async'] 'def' NAME '(' [params] ')' ['->' expression] ':' block
ast::Stmt* Parser::parseFunctionDef(std::vector<ast::Expr*> decorators, Span start) {
    advance();  // 'def'
    auto* f = make<ast::FunctionDef>(start);
    f->decorators = std::move(decorators);
    const Token& name = expect(Tok::Name, "expected a function name after 'def'");
    f->name = name.text;
    f->nameSpan = name.span;
    const Token& open = expect(Tok::LParen, "expected '(' after function name '" + f->name + "'");
    (void)open;
    f->params = parseParams(Tok::RParen, true);
    expect(Tok::RParen, "expected ',' or ')' in the parameter list of '" + f->name + "'");
    if (accept(Tok::Arrow)) f->returns = parseExpression();
    expect(Tok::Colon, "expected ':' after the signature of '" + f->name + "'");
    Span header = since(start);
    f->body = parseBlock("'def " + f->name + "'");
    f->span = since(start);
    (void)header;
    return f;
}

// params: param_item (',' param_item)* [',']
// param_item: '/' | '*' [NAME [':' expression]] | '**' NAME [':' expression]
//           | NAME [':' expression] ['=' expression]
std::vector<ast::Param> Parser::parseParams(Tok close, bool allowAnnotations) {
    std::vector<ast::Param> ps;
    bool kwOnly = false, sawDefault = false, sawVarKw = false;
    auto checkDup = [&](const Token& t) {
        for (const auto& p : ps)
            if (p.name == t.text) fail(t.span, "duplicate parameter '" + t.text + "'");
    };
    while (!at(close)) {
        if (sawVarKw) fail(tok().span, "no parameter may follow '**" + ps.back().name + "'");
        ast::Param p;
        if (accept(Tok::Slash)) {
            for (auto& q : ps)
                if (q.kind == ast::ParamKind::Normal) q.kind = ast::ParamKind::PosOnly;
        } else if (at(Tok::Star) || at(Tok::DoubleStar)) {
            bool dbl = at(Tok::DoubleStar);
            Span s = advance().span;
            if (!dbl && !at(Tok::Name)) {
                if (kwOnly) fail(s, "'*' may appear only once in a parameter list");
                kwOnly = true;  // bare '*': keyword-only marker
            } else {
                const Token& n =
                    expect(Tok::Name, std::string("expected a parameter name after '") +
                                          (dbl ? "**" : "*") + "'");
                checkDup(n);
                p.name = n.text;
                p.span = n.span;
                p.kind = dbl ? ast::ParamKind::VarKw : ast::ParamKind::VarArgs;
                if (allowAnnotations && accept(Tok::Colon)) p.annotation = parseExpression();
                if (at(Tok::Equal))
                    fail(tok().span, "a variadic parameter cannot have a default value");
                if (dbl)
                    sawVarKw = true;
                else
                    kwOnly = true;
                ps.push_back(p);
            }
        } else {
            const Token& n = expect(Tok::Name, "expected a parameter name");
            checkDup(n);
            p.name = n.text;
            p.span = n.span;
            p.kind = kwOnly ? ast::ParamKind::KwOnly : ast::ParamKind::Normal;
            if (allowAnnotations && accept(Tok::Colon)) p.annotation = parseExpression();
            if (accept(Tok::Equal)) {
                p.defaultValue = parseExpression();
                if (!kwOnly) sawDefault = true;
            } else if (sawDefault && !kwOnly) {
                fail(n.span,
                     "parameter '" + n.text +
                         "' without a default follows a parameter with a default",
                     "give '" + n.text +
                         "' a default value or move it before the defaulted parameters");
            }
            ps.push_back(p);
        }
        if (!accept(Tok::Comma)) break;
    }
    return ps;
}

// class_def: decorators? 'class' NAME ['(' [arguments] ')'] ':' block
ast::Stmt* Parser::parseClassDef(std::vector<ast::Expr*> decorators, Span start) {
    advance();  // 'class'
    auto* c = make<ast::ClassDef>(start);
    c->decorators = std::move(decorators);
    const Token& name = expect(Tok::Name, "expected a class name after 'class'");
    c->name = name.text;
    c->nameSpan = name.span;
    if (at(Tok::LParen)) {
        const Token& open = advance();
        auto* call = make<ast::Call>(open.span);
        parseCallArguments(call, open);
        c->bases = call->args;
        c->keywords = call->keywords;
    }
    expect(Tok::Colon, "expected ':' after the class header of '" + c->name + "'");
    c->body = parseBlock("'class " + c->name + "'");
    c->span = since(start);
    return c;
}

// if_stmt: 'if' named_expression ':' block elif_stmt | 'if' named_expression ':' block [else_block]
// elif_stmt: 'elif' named_expression ':' block (elif_stmt | [else_block])
// else_block: 'else' ':' block
ast::Stmt* Parser::parseIf() {
    Span start = tok().span;
    bool isElif = at(Tok::KwElif);
    const char* kw = isElif ? "elif" : "if";
    advance();
    auto* s = make<ast::If>(start);
    s->isElif = isElif;
    if (!startsExpression())
        fail(tok().span, std::string("expected a condition after '") + kw + "'");
    s->test = parseNamedExpression();
    expect(Tok::Colon, std::string("expected ':' after '") + kw + "' condition",
           at(Tok::Equal) ? "use '==' to compare; '=' assigns" : "");
    s->body = parseBlock(std::string("'") + kw + "'");
    if (at(Tok::KwElif)) {
        s->orelse.push_back(parseIf());
    } else if (at(Tok::KwElse)) {
        advance();
        expect(Tok::Colon, "expected ':' after 'else'");
        s->orelse = parseBlock("'else'");
    }
    s->span = since(start);
    return s;
}

// while_stmt: 'while' named_expression ':' block [else_block]
ast::Stmt* Parser::parseWhile() {
    Span start = advance().span;
    auto* s = make<ast::While>(start);
    if (!startsExpression()) fail(tok().span, "expected a condition after 'while'");
    s->test = parseNamedExpression();
    expect(Tok::Colon, "expected ':' after 'while' condition",
           at(Tok::Equal) ? "use '==' to compare; '=' assigns" : "");
    s->body = parseBlock("'while'");
    if (accept(Tok::KwElse)) {
        expect(Tok::Colon, "expected ':' after 'else'");
        s->orelse = parseBlock("'else'");
    }
    s->span = since(start);
    return s;
}

// for_stmt: ['async'] 'for' star_targets 'in' star_expressions ':' block [else_block]
ast::Stmt* Parser::parseFor(bool isAsync, Span start) {
    advance();  // 'for'
    auto* s = make<ast::For>(start);
    s->isAsync = isAsync;
    if (!startsExpression() && !at(Tok::Star))
        fail(tok().span, "expected a loop variable after 'for'");
    s->target = parseTargetList();
    checkTarget(s->target, "assign");
    expect(Tok::KwIn, "expected 'in' after the 'for' loop variable");
    if (!startsExpression() && !at(Tok::Star)) fail(tok().span, "expected an iterable after 'in'");
    s->iter = parseStarExpressions();
    expect(Tok::Colon, "expected ':' after the 'for' iterable", "write 'for i in T.Parallel(n):'");
    s->body = parseBlock("'for'");
    if (accept(Tok::KwElse)) {
        expect(Tok::Colon, "expected ':' after 'else'");
        s->orelse = parseBlock("'else'");
    }
    s->span = since(start);
    return s;
}

// with_stmt: ['async'] 'with' ('(' ','.with_item+ [','] ')' | ','.with_item+) ':' block
// with_item: expression ['as' star_target]
ast::Stmt* Parser::parseWith(bool isAsync, Span start) {
    advance();  // 'with'
    auto* s = make<ast::With>(start);
    s->isAsync = isAsync;
    auto parseItems = [&](bool parenthesized) {
        std::vector<ast::WithItem> items;
        do {
            if (parenthesized && at(Tok::RParen)) break;
            ast::WithItem it;
            it.context = parseExpression();
            if (accept(Tok::KwAs)) {
                it.target = parseBitOr();
                checkTarget(it.target, "assign");
            }
            items.push_back(it);
        } while (accept(Tok::Comma));
        return items;
    };
    bool done = false;
    if (at(Tok::LParen)) {
        // Python 3.9 parenthesised items; fall back to an ordinary expression if it isn't one.
        size_t save = m_pos;
        Span saveLast = m_last;
        try {
            advance();
            auto items = parseItems(true);
            expect(Tok::RParen, "expected ')'");
            if (!at(Tok::Colon)) fail(tok().span, "not parenthesised with-items");
            s->items = std::move(items);
            done = true;
        } catch (const ParseError&) {
            m_pos = save;
            m_last = saveLast;
        }
    }
    if (!done) s->items = parseItems(false);
    expect(Tok::Colon, "expected ':' after the 'with' items",
           "write 'with T.Kernel(...) as (bx, by):'");
    s->body = parseBlock("'with'");
    s->span = since(start);
    return s;
}

// try_stmt: 'try' ':' block (except_block+ [else_block] [finally_block] | finally_block)
// except_block: 'except' ['*'] [expression ['as' NAME]] ':' block
ast::Stmt* Parser::parseTry() {
    Span start = advance().span;
    auto* t = make<ast::Try>(start);
    expect(Tok::Colon, "expected ':' after 'try'");
    t->body = parseBlock("'try'");
    while (at(Tok::KwExcept)) {
        ast::ExceptHandler h;
        h.span = advance().span;
        accept(Tok::Star);
        if (!at(Tok::Colon)) {
            h.type = parseExpression();
            if (accept(Tok::KwAs)) h.name = expect(Tok::Name, "expected a name after 'as'").text;
        }
        expect(Tok::Colon, "expected ':' after 'except' clause");
        h.body = parseBlock("'except'");
        t->handlers.push_back(std::move(h));
    }
    if (!t->handlers.empty() && accept(Tok::KwElse)) {
        expect(Tok::Colon, "expected ':' after 'else'");
        t->orelse = parseBlock("'else'");
    }
    if (accept(Tok::KwFinally)) {
        expect(Tok::Colon, "expected ':' after 'finally'");
        t->finalbody = parseBlock("'finally'");
    }
    if (t->handlers.empty() && t->finalbody.empty())
        fail(tok().span, "expected 'except' or 'finally' block after 'try'");
    t->span = since(start);
    return t;
}

}  // namespace ts::fe::detail
