// Atoms, displays and comprehensions of the recursive-descent parser (see ParserImpl.h): names,
// literals, parenthesised forms (group, tuple, generator), list/dict/set displays and their
// comprehensions, and the `for ... in ... if ...` clauses they share with generator arguments.
#include "compiler/frontend/ParserImpl.h"

namespace ts::fe::detail {

// for_if_clauses: (['async'] 'for' star_targets 'in' disjunction ('if' disjunction)*)+
std::vector<ast::Comprehension> Parser::parseComprehensionClauses() {
    std::vector<ast::Comprehension> gens;
    while (at(Tok::KwFor) || (at(Tok::KwAsync) && tok(1).kind == Tok::KwFor)) {
        ast::Comprehension c;
        Span start = tok().span;
        c.isAsync = accept(Tok::KwAsync);
        advance();  // 'for'
        c.target = parseTargetList();
        checkTarget(c.target, "assign");
        expect(Tok::KwIn, "expected 'in' after the comprehension variable");
        c.iter = parseDisjunction();
        while (accept(Tok::KwIf)) c.ifs.push_back(parseDisjunction());
        c.span = since(start);
        gens.push_back(c);
    }
    return gens;
}

// atom: NAME | 'True' | 'False' | 'None' | '...' | NUMBER | STRING+
//     | (tuple | group | genexp) | (list | listcomp) | (dict | set | dictcomp | setcomp)
ast::Expr* Parser::parseAtom() {
    const Token& t = tok();
    Span start = t.span;
    switch (t.kind) {
        case Tok::Name: {
            auto* n = make<ast::Name>(start);
            n->id = advance().text;
            return n;
        }
        case Tok::KwNone:
        case Tok::KwTrue:
        case Tok::KwFalse:
        case Tok::Ellipsis: {
            auto* c = make<ast::Constant>(start);
            c->type = t.kind == Tok::KwNone     ? ast::Constant::Type::None
                      : t.kind == Tok::Ellipsis ? ast::Constant::Type::Ellipsis
                                                : ast::Constant::Type::Bool;
            c->boolValue = t.kind == Tok::KwTrue;
            advance();
            return c;
        }
        case Tok::Int:
        case Tok::Float: {
            auto* c = make<ast::Constant>(start);
            if (t.kind == Tok::Int) {
                c->type = ast::Constant::Type::Int;
                c->intValue = t.intValue;
            } else {
                c->type =
                    t.isImaginary ? ast::Constant::Type::Imaginary : ast::Constant::Type::Float;
                c->floatValue = t.floatValue;
            }
            advance();
            return c;
        }
        case Tok::String:
            return parseStrings();
        case Tok::LParen:
            return parseParenthesized();
        case Tok::LBracket:
            return parseListDisplay();
        case Tok::LBrace:
            return parseBraceDisplay();
        default:
            break;
    }
    std::string hint;
    if (at(Tok::RParen) || at(Tok::RBracket) || at(Tok::RBrace))
        hint = "an operand or argument may be missing";
    else if (at(Tok::Newline))
        hint = "the line ends in the middle of an expression";
    else if (at(Tok::Indent))
        hint = "unexpected indentation inside an expression";
    fail(t.span, "expected an expression, found " + describeCurrent(), hint);
}

// STRING+ (adjacent literals concatenate)
ast::Expr* Parser::parseStrings() {
    Span start = tok().span;
    auto* s = make<ast::Str>(start);
    bool first = true;
    // Braces of a plain literal concatenated with an f-string are text, not fields: they are
    // kept escaped ('{{') once the whole literal is an f-string.
    auto escaped = [](const std::string& text) {
        std::string out;
        for (char c : text) {
            out += c;
            if (c == '{' || c == '}') out += c;
        }
        return out;
    };
    while (at(Tok::String)) {
        const Token& t = advance();
        if (!first && t.isBytes != s->isBytes)
            fail(t.span, "cannot mix bytes and nonbytes literals");
        s->isBytes = t.isBytes;
        if (t.isFString && !s->isFString && !first) s->value = escaped(s->value);
        s->value += s->isFString && !t.isFString ? escaped(t.text) : t.text;
        s->isFString |= t.isFString;
        first = false;
    }
    s->span = since(start);
    return s;
}

// tuple: '(' [star_named_expression ',' [star_named_expressions]] ')'
// group: '(' (yield_expr | named_expression) ')'
// genexp: '(' named_expression for_if_clauses ')'
ast::Expr* Parser::parseParenthesized() {
    DepthGuard guard(*this);
    Span start = advance().span;
    std::string where = "'(' opened at line " + std::to_string(start.line) + ", column " +
                        std::to_string(column(start));
    if (accept(Tok::RParen)) {
        auto* t = make<ast::Tuple>(since(start));
        t->parenthesized = true;
        return t;
    }
    if (at(Tok::KwYield)) {
        ast::Expr* y = parseYield();
        expect(Tok::RParen, "expected ')'", where);
        return y;
    }
    ast::Expr* first = parseStarNamedExpression();
    if (at(Tok::KwFor)) {
        auto* g = make<ast::GeneratorExp>(start);
        g->elt = first;
        g->generators = parseComprehensionClauses();
        expect(Tok::RParen, "expected ')' to close the generator expression", where);
        g->span = since(start);
        return g;
    }
    if (!at(Tok::Comma)) {
        expect(Tok::RParen, "expected ')'", where);
        return first;  // a group keeps the inner expression's span
    }
    auto* t = make<ast::Tuple>(start);
    t->parenthesized = true;
    t->elts.push_back(first);
    while (accept(Tok::Comma)) {
        if (at(Tok::RParen)) break;
        t->elts.push_back(parseStarNamedExpression());
    }
    expect(Tok::RParen, "expected ',' or ')' in tuple", where);
    t->span = since(start);
    return t;
}

// list: '[' [star_named_expressions] ']' ;  listcomp: '[' named_expression for_if_clauses ']'
ast::Expr* Parser::parseListDisplay() {
    DepthGuard guard(*this);
    Span start = advance().span;
    std::string where = "'[' opened at line " + std::to_string(start.line) + ", column " +
                        std::to_string(column(start));
    auto* l = make<ast::List>(start);
    if (accept(Tok::RBracket)) {
        l->span = since(start);
        return l;
    }
    ast::Expr* first = parseStarNamedExpression();
    if (at(Tok::KwFor)) {
        auto* c = make<ast::ListComp>(start);
        c->elt = first;
        c->generators = parseComprehensionClauses();
        expect(Tok::RBracket, "expected ']' to close the list comprehension", where);
        c->span = since(start);
        return c;
    }
    l->elts.push_back(first);
    while (accept(Tok::Comma)) {
        if (at(Tok::RBracket)) break;
        l->elts.push_back(parseStarNamedExpression());
    }
    expect(Tok::RBracket, "expected ',' or ']' in list", where);
    l->span = since(start);
    return l;
}

// dict: '{' [double_starred_kvpairs] '}' ;  set: '{' star_named_expressions '}'
// dictcomp: '{' kvpair for_if_clauses '}' ;  setcomp: '{' named_expression for_if_clauses '}'
ast::Expr* Parser::parseBraceDisplay() {
    DepthGuard guard(*this);
    Span start = advance().span;
    std::string where = "'{' opened at line " + std::to_string(start.line) + ", column " +
                        std::to_string(column(start));
    if (accept(Tok::RBrace)) return make<ast::Dict>(since(start));
    bool isDict = at(Tok::DoubleStar);
    ast::Expr* firstKey = nullptr;
    ast::Expr* firstValue = nullptr;
    if (isDict) {
        advance();
        firstValue = parseBitOr();
    } else {
        firstKey = parseStarNamedExpression();
        if (accept(Tok::Colon)) {
            isDict = true;
            firstValue = parseExpression();
        }
    }
    if (isDict) {
        if (firstKey && at(Tok::KwFor)) {
            auto* c = make<ast::DictComp>(start);
            c->key = firstKey;
            c->value = firstValue;
            c->generators = parseComprehensionClauses();
            expect(Tok::RBrace, "expected '}' to close the dict comprehension", where);
            c->span = since(start);
            return c;
        }
        auto* d = make<ast::Dict>(start);
        d->keys.push_back(firstKey);
        d->values.push_back(firstValue);
        while (accept(Tok::Comma)) {
            if (at(Tok::RBrace)) break;
            if (accept(Tok::DoubleStar)) {
                d->keys.push_back(nullptr);
                d->values.push_back(parseBitOr());
            } else {
                d->keys.push_back(parseExpression());
                expect(Tok::Colon, "expected ':' after dict key");
                d->values.push_back(parseExpression());
            }
        }
        expect(Tok::RBrace, "expected ',' or '}' in dict literal", where);
        d->span = since(start);
        return d;
    }
    if (at(Tok::KwFor)) {
        auto* c = make<ast::SetComp>(start);
        c->elt = firstKey;
        c->generators = parseComprehensionClauses();
        expect(Tok::RBrace, "expected '}' to close the set comprehension", where);
        c->span = since(start);
        return c;
    }
    auto* s = make<ast::Set>(start);
    s->elts.push_back(firstKey);
    while (accept(Tok::Comma)) {
        if (at(Tok::RBrace)) break;
        s->elts.push_back(parseStarNamedExpression());
    }
    expect(Tok::RBrace, "expected ',' or '}' in set display", where);
    s->span = since(start);
    return s;
}

}  // namespace ts::fe::detail
