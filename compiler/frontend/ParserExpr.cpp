// Expression half of the recursive-descent parser (see ParserImpl.h). Precedence follows the
// Python grammar, lowest first: named_expression > expression (if-else, lambda) > or > and >
// not > comparison > | > ^ > & > shifts > + - > * / // % @ > unary > ** > primary > atom.
#include "compiler/frontend/ParserImpl.h"

namespace ts::fe::detail {

const char* describeExpr(const ast::Expr* e) {
    using K = ast::ExprKind;
    switch (e->kind) {
        case K::Name:
            return "name";
        case K::Constant:
        case K::Str:
            return "literal";
        case K::Attribute:
            return "attribute";
        case K::Subscript:
            return "subscript";
        case K::Slice:
            return "slice";
        case K::Call:
            return "function call";
        case K::BinOp:
        case K::UnaryOp:
            return "expression";
        case K::BoolOp:
            return "boolean expression";
        case K::Compare:
            return "comparison";
        case K::IfExp:
            return "conditional expression";
        case K::Lambda:
            return "lambda";
        case K::Tuple:
            return "tuple";
        case K::List:
            return "list";
        case K::Set:
            return "set display";
        case K::Dict:
            return "dict literal";
        case K::ListComp:
            return "list comprehension";
        case K::SetComp:
            return "set comprehension";
        case K::DictComp:
            return "dict comprehension";
        case K::GeneratorExp:
            return "generator expression";
        case K::Starred:
            return "starred expression";
        case K::NamedExpr:
            return "named expression";
        case K::Yield:
            return "yield expression";
        case K::Await:
            return "await expression";
    }
    return "expression";
}

void Parser::checkTarget(const ast::Expr* e, const char* context) const {
    using K = ast::ExprKind;
    switch (e->kind) {
        case K::Name:
        case K::Attribute:
        case K::Subscript:
            return;
        case K::Tuple:
        case K::List:
            for (const ast::Expr* x : static_cast<const ast::Sequence*>(e)->elts)
                checkTarget(x, context);
            return;
        case K::Starred:
            checkTarget(ast::as<ast::Starred>(e)->value, context);
            return;
        default:
            break;
    }
    std::string hint;
    if (e->kind == K::Compare)
        hint = "did you mean '=='?";
    else if (e->kind == K::Call)
        hint = "a function call produces a value; assign to a name or an element instead";
    else if (e->kind == K::Constant || e->kind == K::Str)
        hint = "put the name on the left of '='";
    fail(e->span, std::string("cannot ") + context + " to " + describeExpr(e), hint);
}

bool Parser::startsExpression() const {
    switch (tok().kind) {
        case Tok::Name:
        case Tok::Int:
        case Tok::Float:
        case Tok::String:
        case Tok::KwNone:
        case Tok::KwTrue:
        case Tok::KwFalse:
        case Tok::LParen:
        case Tok::LBracket:
        case Tok::LBrace:
        case Tok::Minus:
        case Tok::Plus:
        case Tok::Tilde:
        case Tok::KwNot:
        case Tok::KwLambda:
        case Tok::Ellipsis:
        case Tok::KwAwait:
        case Tok::Star:
            return true;
        default:
            return false;
    }
}

// star_expressions: star_expression (',' star_expression)* [',']
ast::Expr* Parser::parseStarExpressions() {
    Span start = tok().span;
    ast::Expr* first = parseStarExpression();
    if (!at(Tok::Comma)) return first;
    auto* t = make<ast::Tuple>(start);
    t->elts.push_back(first);
    while (accept(Tok::Comma)) {
        if (!startsExpression()) break;
        t->elts.push_back(parseStarExpression());
    }
    t->span = since(start);
    return t;
}

// star_expression: '*' bitwise_or | expression
ast::Expr* Parser::parseStarExpression() {
    if (at(Tok::Star)) {
        Span start = advance().span;
        auto* s = make<ast::Starred>(start);
        s->value = parseBitOr();
        s->span = since(start);
        return s;
    }
    return parseExpression();
}

// star_named_expression: '*' bitwise_or | named_expression
ast::Expr* Parser::parseStarNamedExpression() {
    if (at(Tok::Star)) return parseStarExpression();
    return parseNamedExpression();
}

// named_expression: NAME ':=' expression | expression
ast::Expr* Parser::parseNamedExpression() {
    if (at(Tok::Name) && tok(1).kind == Tok::ColonEqual) {
        Span start = tok().span;
        auto* target = make<ast::Name>(start);
        target->id = advance().text;
        advance();  // ':='
        auto* n = make<ast::NamedExpr>(start);
        n->target = target;
        n->value = parseExpression();
        n->span = since(start);
        return n;
    }
    return parseExpression();
}

// expression: disjunction 'if' disjunction 'else' expression | disjunction | lambdef
ast::Expr* Parser::parseExpression() {
    DepthGuard guard(*this);
    if (at(Tok::KwLambda)) return parseLambda();
    Span start = tok().span;
    ast::Expr* body = parseDisjunction();
    if (!at(Tok::KwIf)) return body;
    advance();
    auto* e = make<ast::IfExp>(start);
    e->body = body;
    e->test = parseDisjunction();
    expect(Tok::KwElse, "expected 'else' in conditional expression",
           "write 'a if condition else b'");
    e->orelse = parseExpression();
    e->span = since(start);
    return e;
}

// lambdef: 'lambda' [lambda_params] ':' expression
ast::Expr* Parser::parseLambda() {
    Span start = advance().span;
    auto* l = make<ast::Lambda>(start);
    l->params = parseParams(Tok::Colon, false);
    expect(Tok::Colon, "expected ':' after lambda parameters");
    l->body = parseExpression();
    l->span = since(start);
    return l;
}

// disjunction: conjunction ('or' conjunction)*
ast::Expr* Parser::parseDisjunction() {
    Span start = tok().span;
    ast::Expr* first = parseConjunction();
    if (!at(Tok::KwOr)) return first;
    auto* b = make<ast::BoolOp>(start);
    b->op = ast::BoolOpKind::Or;
    b->values.push_back(first);
    while (accept(Tok::KwOr)) b->values.push_back(parseConjunction());
    b->span = since(start);
    return b;
}

// conjunction: inversion ('and' inversion)*
ast::Expr* Parser::parseConjunction() {
    Span start = tok().span;
    ast::Expr* first = parseInversion();
    if (!at(Tok::KwAnd)) return first;
    auto* b = make<ast::BoolOp>(start);
    b->op = ast::BoolOpKind::And;
    b->values.push_back(first);
    while (accept(Tok::KwAnd)) b->values.push_back(parseInversion());
    b->span = since(start);
    return b;
}

// inversion: 'not' inversion | comparison
ast::Expr* Parser::parseInversion() {
    if (!at(Tok::KwNot)) return parseComparison();
    DepthGuard guard(*this);
    Span start = advance().span;
    auto* u = make<ast::UnaryOp>(start);
    u->op = ast::UnaryOpKind::Not;
    u->operand = parseInversion();
    u->span = since(start);
    return u;
}

// comparison: bitwise_or (compare_op bitwise_or)*
// compare_op: '==' | '!=' | '<=' | '<' | '>=' | '>' | 'not' 'in' | 'in' | 'is' 'not' | 'is'
ast::Expr* Parser::parseComparison() {
    Span start = tok().span;
    ast::Expr* left = parseBitOr();
    ast::Compare* c = nullptr;
    while (true) {
        ast::CmpOpKind op;
        switch (tok().kind) {
            case Tok::EqEqual:
                op = ast::CmpOpKind::Eq;
                break;
            case Tok::NotEqual:
                op = ast::CmpOpKind::NotEq;
                break;
            case Tok::Less:
                op = ast::CmpOpKind::Lt;
                break;
            case Tok::LessEqual:
                op = ast::CmpOpKind::LtE;
                break;
            case Tok::Greater:
                op = ast::CmpOpKind::Gt;
                break;
            case Tok::GreaterEqual:
                op = ast::CmpOpKind::GtE;
                break;
            case Tok::KwIn:
                op = ast::CmpOpKind::In;
                break;
            case Tok::KwIs:
                op = ast::CmpOpKind::Is;
                break;
            case Tok::KwNot:
                if (tok(1).kind != Tok::KwIn) return c ? c : left;
                op = ast::CmpOpKind::NotIn;
                advance();
                break;
            default:
                return c ? static_cast<ast::Expr*>(c) : left;
        }
        advance();
        if (op == ast::CmpOpKind::Is && accept(Tok::KwNot)) op = ast::CmpOpKind::IsNot;
        if (!c) {
            c = make<ast::Compare>(start);
            c->left = left;
        }
        c->ops.push_back(op);
        c->comparators.push_back(parseBitOr());
        c->span = since(start);
    }
}

namespace {
// One left-associative binary precedence level.
template <class Next>
ast::Expr* binaryLevel(Parser& p, std::initializer_list<std::pair<Tok, ast::BinOpKind>> ops,
                       Next next) {
    Span start = p.tok().span;
    ast::Expr* left = next();
    while (true) {
        const std::pair<Tok, ast::BinOpKind>* hit = nullptr;
        for (const auto& o : ops)
            if (p.at(o.first)) hit = &o;
        if (!hit) return left;
        p.advance();
        auto* b = p.make<ast::BinOp>(start);
        b->op = hit->second;
        b->left = left;
        if (!p.startsExpression() || p.at(Tok::Star) || p.at(Tok::KwLambda))
            p.fail(p.tok().span, std::string("expected an expression after '") +
                                     ast::spelling(hit->second) + "', found " +
                                     p.describeCurrent());
        b->right = next();
        b->span = p.since(start);
        left = b;
    }
}
}  // namespace

// bitwise_or: bitwise_or '|' bitwise_xor | bitwise_xor
ast::Expr* Parser::parseBitOr() {
    return binaryLevel(*this, {{Tok::VBar, ast::BinOpKind::BitOr}}, [&] { return parseBitXor(); });
}
// bitwise_xor: bitwise_xor '^' bitwise_and | bitwise_and
ast::Expr* Parser::parseBitXor() {
    return binaryLevel(*this, {{Tok::Circumflex, ast::BinOpKind::BitXor}},
                       [&] { return parseBitAnd(); });
}
// bitwise_and: bitwise_and '&' shift_expr | shift_expr
ast::Expr* Parser::parseBitAnd() {
    return binaryLevel(*this, {{Tok::Amp, ast::BinOpKind::BitAnd}}, [&] { return parseShift(); });
}
// shift_expr: shift_expr ('<<' | '>>') sum | sum
ast::Expr* Parser::parseShift() {
    return binaryLevel(
        *this,
        {{Tok::LeftShift, ast::BinOpKind::LShift}, {Tok::RightShift, ast::BinOpKind::RShift}},
        [&] { return parseSum(); });
}
// sum: sum ('+' | '-') term | term
ast::Expr* Parser::parseSum() {
    return binaryLevel(*this, {{Tok::Plus, ast::BinOpKind::Add}, {Tok::Minus, ast::BinOpKind::Sub}},
                       [&] { return parseTerm(); });
}
// term: term ('*' | '/' | '//' | '%' | '@') factor | factor
ast::Expr* Parser::parseTerm() {
    return binaryLevel(*this,
                       {{Tok::Star, ast::BinOpKind::Mul},
                        {Tok::Slash, ast::BinOpKind::Div},
                        {Tok::DoubleSlash, ast::BinOpKind::FloorDiv},
                        {Tok::Percent, ast::BinOpKind::Mod},
                        {Tok::At, ast::BinOpKind::MatMul}},
                       [&] { return parseFactor(); });
}

// factor: ('+' | '-' | '~') factor | power
ast::Expr* Parser::parseFactor() {
    ast::UnaryOpKind op;
    if (at(Tok::Minus))
        op = ast::UnaryOpKind::Neg;
    else if (at(Tok::Plus))
        op = ast::UnaryOpKind::Pos;
    else if (at(Tok::Tilde))
        op = ast::UnaryOpKind::Invert;
    else
        return parsePower();
    DepthGuard guard(*this);
    Span start = advance().span;
    auto* u = make<ast::UnaryOp>(start);
    u->op = op;
    u->operand = parseFactor();
    u->span = since(start);
    return u;
}

// power: await_primary ['**' factor] ;  await_primary: ['await'] primary
ast::Expr* Parser::parsePower() {
    Span start = tok().span;
    ast::Expr* base;
    if (at(Tok::KwAwait)) {
        advance();
        auto* a = make<ast::Await>(start);
        a->value = parsePrimary();
        a->span = since(start);
        base = a;
    } else {
        base = parsePrimary();
    }
    if (!accept(Tok::DoubleStar)) return base;
    auto* b = make<ast::BinOp>(start);
    b->op = ast::BinOpKind::Pow;
    b->left = base;
    if (!startsExpression() || at(Tok::Star))
        fail(tok().span, "expected an exponent after '**', found " + describeCurrent());
    DepthGuard guard(*this);  // `a ** b ** c ...` nests to the right: bound it like brackets
    b->right = parseFactor();
    b->span = since(start);
    return b;
}

// primary: atom ('.' NAME | '(' [arguments] ')' | '[' slices ']')*
ast::Expr* Parser::parsePrimary() {
    Span start = tok().span;
    ast::Expr* e = parseAtom();
    while (true) {
        if (at(Tok::Dot)) {
            advance();
            auto* a = make<ast::Attribute>(start);
            a->value = e;
            const Token& n = expect(Tok::Name, "expected an attribute name after '.'");
            a->attr = n.text;
            a->attrSpan = n.span;
            a->span = since(start);
            e = a;
        } else if (at(Tok::LParen)) {
            const Token& open = advance();
            auto* c = make<ast::Call>(start);
            c->func = e;
            parseCallArguments(c, open);
            c->span = since(start);
            e = c;
        } else if (at(Tok::LBracket)) {
            Span open = advance().span;
            auto* s = make<ast::Subscript>(start);
            s->value = e;
            if (at(Tok::RBracket)) fail(tok().span, "expected an index or slice inside '[]'");
            s->index = parseSlices();
            expect(Tok::RBracket, "expected ']' to close the subscript",
                   "'[' opened at line " + std::to_string(open.line) + ", column " +
                       std::to_string(column(open)));
            s->span = since(start);
            e = s;
        } else {
            return e;
        }
    }
}

// slices: slice !',' | ','.(slice | starred_expression)+ [',']
ast::Expr* Parser::parseSlices() {
    Span start = tok().span;
    ast::Expr* first = at(Tok::Star) ? parseStarExpression() : parseSlice();
    if (!at(Tok::Comma)) return first;
    auto* t = make<ast::Tuple>(start);
    t->elts.push_back(first);
    while (accept(Tok::Comma)) {
        if (at(Tok::RBracket)) break;
        t->elts.push_back(at(Tok::Star) ? parseStarExpression() : parseSlice());
    }
    t->span = since(start);
    return t;
}

// slice: [expression] ':' [expression] [':' [expression]] | named_expression
ast::Expr* Parser::parseSlice() {
    Span start = tok().span;
    ast::Expr* lower = nullptr;
    if (!at(Tok::Colon)) {
        lower = parseNamedExpression();
        if (!at(Tok::Colon)) return lower;
    }
    advance();  // ':'
    auto* s = make<ast::Slice>(start);
    s->lower = lower;
    auto ends = [&] { return at(Tok::Colon) || at(Tok::Comma) || at(Tok::RBracket); };
    if (!ends()) s->upper = parseExpression();
    if (accept(Tok::Colon) && !at(Tok::Comma) && !at(Tok::RBracket)) s->step = parseExpression();
    s->span = since(start);
    return s;
}

// arguments: ','.(starred_expression | '**' expression | NAME '=' expression
//                 | named_expression [for_if_clauses])+ [',']
void Parser::parseCallArguments(ast::Call* call, const Token& open) {
    Span openSpan = open.span;
    std::string where = "'(' opened at line " + std::to_string(openSpan.line) + ", column " +
                        std::to_string(openSpan.col);
    bool sawKeyword = false;
    while (!at(Tok::RParen)) {
        Span start = tok().span;
        if (at(Tok::DoubleStar)) {
            advance();
            call->keywords.push_back(ast::Keyword{"", parseExpression(), since(start)});
            sawKeyword = true;
        } else if (at(Tok::Name) && tok(1).kind == Tok::Equal) {
            std::string name = advance().text;
            advance();
            for (const auto& k : call->keywords)
                if (k.name == name) fail(start, "keyword argument '" + name + "' repeated");
            if (!startsExpression())
                fail(tok().span, "expected a value for keyword argument '" + name + "'");
            ast::Expr* v = parseExpression();
            call->keywords.push_back(ast::Keyword{name, v, since(start)});
            sawKeyword = true;
        } else if (at(Tok::Star)) {
            call->args.push_back(parseStarExpression());
        } else {
            if (!startsExpression())
                fail(tok().span, "expected an argument or ')', found " + describeCurrent(), where);
            ast::Expr* arg = parseNamedExpression();
            if (at(Tok::KwFor)) {
                auto* g = make<ast::GeneratorExp>(start);
                g->elt = arg;
                g->generators = parseComprehensionClauses();
                g->span = since(start);
                arg = g;
            } else if (at(Tok::Equal)) {
                fail(tok().span, "expected argument name before '='",
                     "keyword arguments look like 'name=value'");
            }
            if (sawKeyword)
                fail(arg->span, "positional argument follows keyword argument",
                     "move positional arguments before keyword arguments");
            call->args.push_back(arg);
        }
        if (!accept(Tok::Comma)) break;
    }
    expect(Tok::RParen, "expected ',' or ')' after call argument", where);
}

// star_targets: star_target (',' star_target)* [','] ;  star_target: ['*'] target
ast::Expr* Parser::parseTargetList() {
    Span start = tok().span;
    auto one = [&]() -> ast::Expr* { return at(Tok::Star) ? parseStarExpression() : parseBitOr(); };
    ast::Expr* first = one();
    if (!at(Tok::Comma)) return first;
    auto* t = make<ast::Tuple>(start);
    t->elts.push_back(first);
    while (accept(Tok::Comma)) {
        if (at(Tok::KwIn) || at(Tok::Equal)) break;
        t->elts.push_back(one());
    }
    t->span = since(start);
    return t;
}

// yield_expr: 'yield' 'from' expression | 'yield' [star_expressions]
ast::Expr* Parser::parseYield() {
    Span start = advance().span;
    auto* y = make<ast::Yield>(start);
    if (accept(Tok::KwFrom)) {
        y->isFrom = true;
        y->value = parseExpression();
    } else if (startsExpression()) {
        y->value = parseStarExpressions();
    }
    y->span = since(start);
    return y;
}

}  // namespace ts::fe::detail
