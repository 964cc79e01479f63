#include "compiler/frontend/Ast.h"

#include <sstream>

namespace ts::fe::ast {

const char* spelling(BinOpKind op) {
    switch (op) {
        case BinOpKind::Add:
            return "+";
        case BinOpKind::Sub:
            return "-";
        case BinOpKind::Mul:
            return "*";
        case BinOpKind::MatMul:
            return "@";
        case BinOpKind::Div:
            return "/";
        case BinOpKind::FloorDiv:
            return "//";
        case BinOpKind::Mod:
            return "%";
        case BinOpKind::Pow:
            return "**";
        case BinOpKind::LShift:
            return "<<";
        case BinOpKind::RShift:
            return ">>";
        case BinOpKind::BitOr:
            return "|";
        case BinOpKind::BitXor:
            return "^";
        case BinOpKind::BitAnd:
            return "&";
    }
    return "?";
}

const char* spelling(UnaryOpKind op) {
    switch (op) {
        case UnaryOpKind::Not:
            return "not";
        case UnaryOpKind::Neg:
            return "-";
        case UnaryOpKind::Pos:
            return "+";
        case UnaryOpKind::Invert:
            return "~";
    }
    return "?";
}

const char* spelling(BoolOpKind op) { return op == BoolOpKind::And ? "and" : "or"; }

const char* spelling(CmpOpKind op) {
    switch (op) {
        case CmpOpKind::Eq:
            return "==";
        case CmpOpKind::NotEq:
            return "!=";
        case CmpOpKind::Lt:
            return "<";
        case CmpOpKind::LtE:
            return "<=";
        case CmpOpKind::Gt:
            return ">";
        case CmpOpKind::GtE:
            return ">=";
        case CmpOpKind::Is:
            return "is";
        case CmpOpKind::IsNot:
            return "is not";
        case CmpOpKind::In:
            return "in";
        case CmpOpKind::NotIn:
            return "not in";
    }
    return "?";
}

namespace {

std::string quote(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out += c;
    }
    return out + "\"";
}

std::string opt(const Expr* e) { return e ? dump(e) : "_"; }

std::string list(const std::vector<Expr*>& xs) {
    std::string out;
    for (size_t i = 0; i < xs.size(); ++i) out += (i ? ", " : "") + dump(xs[i]);
    return out;
}

std::string params(const std::vector<Param>& ps) {
    std::string out;
    for (size_t i = 0; i < ps.size(); ++i) {
        const Param& p = ps[i];
        if (i) out += ", ";
        if (p.kind == ParamKind::VarArgs) out += "*";
        if (p.kind == ParamKind::VarKw) out += "**";
        out += p.name;
        if (p.kind == ParamKind::KwOnly) out += "(kw)";
        if (p.kind == ParamKind::PosOnly) out += "(pos)";
        if (p.annotation) out += ": " + dump(p.annotation);
        if (p.defaultValue) out += "=" + dump(p.defaultValue);
    }
    return out;
}

std::string comps(const std::vector<Comprehension>& gs) {
    std::string out;
    for (const auto& g : gs) {
        out += "; for " + dump(g.target) + " in " + dump(g.iter);
        for (const Expr* c : g.ifs) out += " if " + dump(c);
    }
    return out;
}

std::string keywords(const std::vector<Keyword>& ks) {
    std::string out;
    for (const auto& k : ks)
        out += ", " + (k.name.empty() ? std::string("**") : k.name + "=") + dump(k.value);
    return out;
}

}  // namespace

std::string dump(const Expr* e) {
    if (!e) return "null";
    switch (e->kind) {
        case ExprKind::Name:
            return "Name(" + as<Name>(e)->id + ")";
        case ExprKind::Constant: {
            auto c = as<Constant>(e);
            std::ostringstream os;
            switch (c->type) {
                case Constant::Type::None:
                    return "None";
                case Constant::Type::Bool:
                    return c->boolValue ? "True" : "False";
                case Constant::Type::Int:
                    return "Int(" + std::to_string(c->intValue) + ")";
                case Constant::Type::Float:
                    os << "Float(" << c->floatValue << ")";
                    return os.str();
                case Constant::Type::Imaginary:
                    os << "Imag(" << c->floatValue << ")";
                    return os.str();
                case Constant::Type::Ellipsis:
                    return "Ellipsis";
            }
            return "Constant";
        }
        case ExprKind::Str: {
            auto s = as<Str>(e);
            return std::string(s->isFString ? "FStr("
                               : s->isBytes ? "Bytes("
                                            : "Str(") +
                   quote(s->value) + ")";
        }
        case ExprKind::Attribute: {
            auto a = as<Attribute>(e);
            return "Attribute(" + dump(a->value) + ", " + a->attr + ")";
        }
        case ExprKind::Subscript: {
            auto s = as<Subscript>(e);
            return "Subscript(" + dump(s->value) + ", " + dump(s->index) + ")";
        }
        case ExprKind::Slice: {
            auto s = as<Slice>(e);
            return "Slice(" + opt(s->lower) + ", " + opt(s->upper) + ", " + opt(s->step) + ")";
        }
        case ExprKind::Call: {
            auto c = as<Call>(e);
            return "Call(" + dump(c->func) + (c->args.empty() ? "" : ", " + list(c->args)) +
                   keywords(c->keywords) + ")";
        }
        case ExprKind::BinOp: {
            auto b = as<BinOp>(e);
            return std::string("BinOp(") + spelling(b->op) + ", " + dump(b->left) + ", " +
                   dump(b->right) + ")";
        }
        case ExprKind::UnaryOp: {
            auto u = as<UnaryOp>(e);
            return std::string("UnaryOp(") + spelling(u->op) + ", " + dump(u->operand) + ")";
        }
        case ExprKind::BoolOp: {
            auto b = as<BoolOp>(e);
            return std::string("BoolOp(") + spelling(b->op) + ", " + list(b->values) + ")";
        }
        case ExprKind::Compare: {
            auto c = as<Compare>(e);
            std::string out = "Compare(" + dump(c->left);
            for (size_t i = 0; i < c->ops.size(); ++i)
                out += std::string(", ") + spelling(c->ops[i]) + ", " + dump(c->comparators[i]);
            return out + ")";
        }
        case ExprKind::IfExp: {
            auto i = as<IfExp>(e);
            return "IfExp(" + dump(i->test) + ", " + dump(i->body) + ", " + dump(i->orelse) + ")";
        }
        case ExprKind::Lambda: {
            auto l = as<Lambda>(e);
            return "Lambda(" + params(l->params) + "; " + dump(l->body) + ")";
        }
        case ExprKind::Tuple:
            return "Tuple(" + list(as<Tuple>(e)->elts) + ")";
        case ExprKind::List:
            return "List(" + list(as<List>(e)->elts) + ")";
        case ExprKind::Set:
            return "Set(" + list(as<Set>(e)->elts) + ")";
        case ExprKind::Dict: {
            auto d = as<Dict>(e);
            std::string out = "Dict(";
            for (size_t i = 0; i < d->keys.size(); ++i)
                out += (i ? ", " : "") +
                       (d->keys[i] ? dump(d->keys[i]) + ": " : std::string("**")) +
                       dump(d->values[i]);
            return out + ")";
        }
        case ExprKind::ListComp:
            return "ListComp(" + dump(as<ListComp>(e)->elt) + comps(as<ListComp>(e)->generators) +
                   ")";
        case ExprKind::SetComp:
            return "SetComp(" + dump(as<SetComp>(e)->elt) + comps(as<SetComp>(e)->generators) + ")";
        case ExprKind::GeneratorExp:
            return "GeneratorExp(" + dump(as<GeneratorExp>(e)->elt) +
                   comps(as<GeneratorExp>(e)->generators) + ")";
        case ExprKind::DictComp: {
            auto d = as<DictComp>(e);
            return "DictComp(" + dump(d->key) + ": " + dump(d->value) + comps(d->generators) + ")";
        }
        case ExprKind::Starred:
            return "Starred(" + dump(as<Starred>(e)->value) + ")";
        case ExprKind::NamedExpr:
            return "NamedExpr(" + dump(as<NamedExpr>(e)->target) + ", " +
                   dump(as<NamedExpr>(e)->value) + ")";
        case ExprKind::Yield:
            return std::string(as<Yield>(e)->isFrom ? "YieldFrom(" : "Yield(") +
                   opt(as<Yield>(e)->value) + ")";
        case ExprKind::Await:
            return "Await(" + dump(as<Await>(e)->value) + ")";
    }
    return "?";
}

std::string dump(const Block& b, int indent) {
    std::string out;
    for (const Stmt* s : b) out += dump(s, indent);
    return out;
}

std::string dump(const Stmt* s, int indent) {
    std::string pad(static_cast<size_t>(indent), ' ');
    auto line = [&](const std::string& text) { return pad + text + "\n"; };
    auto sub = [&](const Block& b) { return dump(b, indent + 2); };
    switch (s->kind) {
        case StmtKind::FunctionDef: {
            auto f = as<FunctionDef>(s);
            std::string head;
            for (const Expr* d : f->decorators) head += line("@" + dump(d));
            return head +
                   line(std::string(f->isAsync ? "async " : "") + "def " + f->name + "(" +
                        params(f->params) + ")" + (f->returns ? " -> " + dump(f->returns) : "")) +
                   sub(f->body);
        }
        case StmtKind::ClassDef: {
            auto c = as<ClassDef>(s);
            return line("class " + c->name + "(" + list(c->bases) + keywords(c->keywords) + ")") +
                   sub(c->body);
        }
        case StmtKind::Return:
            return line("Return " + opt(as<Return>(s)->value));
        case StmtKind::Assign: {
            auto a = as<Assign>(s);
            std::string out = "Assign ";
            for (const Expr* t : a->targets) out += dump(t) + " = ";
            return line(out + dump(a->value));
        }
        case StmtKind::AugAssign: {
            auto a = as<AugAssign>(s);
            return line("AugAssign " + dump(a->target) + " " + spelling(a->op) + "= " +
                        dump(a->value));
        }
        case StmtKind::AnnAssign: {
            auto a = as<AnnAssign>(s);
            return line("AnnAssign " + dump(a->target) + ": " + dump(a->annotation) +
                        (a->value ? " = " + dump(a->value) : ""));
        }
        case StmtKind::If: {
            auto i = as<If>(s);
            std::string out = line("If " + dump(i->test)) + sub(i->body);
            if (!i->orelse.empty()) out += line("Else") + sub(i->orelse);
            return out;
        }
        case StmtKind::For: {
            auto f = as<For>(s);
            std::string out =
                line("For " + dump(f->target) + " in " + dump(f->iter)) + sub(f->body);
            if (!f->orelse.empty()) out += line("Else") + sub(f->orelse);
            return out;
        }
        case StmtKind::While: {
            auto w = as<While>(s);
            std::string out = line("While " + dump(w->test)) + sub(w->body);
            if (!w->orelse.empty()) out += line("Else") + sub(w->orelse);
            return out;
        }
        case StmtKind::With: {
            auto w = as<With>(s);
            std::string out = "With ";
            for (size_t i = 0; i < w->items.size(); ++i) {
                out += (i ? ", " : "") + dump(w->items[i].context);
                if (w->items[i].target) out += " as " + dump(w->items[i].target);
            }
            return line(out) + sub(w->body);
        }
        case StmtKind::ExprStmt:
            return line("Expr " + dump(as<ExprStmt>(s)->value));
        case StmtKind::Pass:
            return line("Pass");
        case StmtKind::Break:
            return line("Break");
        case StmtKind::Continue:
            return line("Continue");
        case StmtKind::Import:
        case StmtKind::ImportFrom: {
            const std::vector<Alias>& names =
                s->kind == StmtKind::Import ? as<Import>(s)->names : as<ImportFrom>(s)->names;
            std::string out =
                s->kind == StmtKind::Import
                    ? std::string("Import ")
                    : "ImportFrom " +
                          std::string(static_cast<size_t>(as<ImportFrom>(s)->level), '.') +
                          as<ImportFrom>(s)->module + ": ";
            for (size_t i = 0; i < names.size(); ++i)
                out += (i ? ", " : "") + names[i].name +
                       (names[i].asname.empty() ? "" : " as " + names[i].asname);
            return line(out);
        }
        case StmtKind::Assert:
            return line("Assert " + dump(as<Assert>(s)->test) +
                        (as<Assert>(s)->msg ? ", " + dump(as<Assert>(s)->msg) : ""));
        case StmtKind::Global:
        case StmtKind::Nonlocal: {
            auto n = static_cast<const NameList*>(s);
            std::string out = s->kind == StmtKind::Global ? "Global" : "Nonlocal";
            for (const auto& name : n->names) out += " " + name;
            return line(out);
        }
        case StmtKind::Try: {
            auto t = as<Try>(s);
            std::string out = line("Try") + sub(t->body);
            for (const auto& h : t->handlers)
                out += line("Except " + opt(h.type) + (h.name.empty() ? "" : " as " + h.name)) +
                       sub(h.body);
            if (!t->orelse.empty()) out += line("Else") + sub(t->orelse);
            if (!t->finalbody.empty()) out += line("Finally") + sub(t->finalbody);
            return out;
        }
        case StmtKind::Del:
            return line("Del " + list(as<Del>(s)->targets));
        case StmtKind::Raise:
            return line("Raise " + opt(as<Raise>(s)->exc) +
                        (as<Raise>(s)->cause ? " from " + dump(as<Raise>(s)->cause) : ""));
    }
    return line("?");
}

void forEachChild(const Expr* e, const std::function<void(const Expr*)>& fn) {
    auto one = [&](const Expr* c) {
        if (c) fn(c);
    };
    auto all = [&](const std::vector<Expr*>& v) {
        for (const Expr* c : v) one(c);
    };
    auto comps = [&](const std::vector<Comprehension>& gens) {
        for (const auto& g : gens) {
            one(g.target);
            one(g.iter);
            all(g.ifs);
        }
    };
    switch (e->kind) {
        case ExprKind::Name:
        case ExprKind::Constant:
        case ExprKind::Str:
            return;
        case ExprKind::Attribute:
            return one(as<Attribute>(e)->value);
        case ExprKind::Subscript:
            one(as<Subscript>(e)->value);
            return one(as<Subscript>(e)->index);
        case ExprKind::Slice:
            one(as<Slice>(e)->lower);
            one(as<Slice>(e)->upper);
            return one(as<Slice>(e)->step);
        case ExprKind::Call: {
            auto c = as<Call>(e);
            one(c->func);
            all(c->args);
            for (const auto& k : c->keywords) one(k.value);
            return;
        }
        case ExprKind::BinOp:
            one(as<BinOp>(e)->left);
            return one(as<BinOp>(e)->right);
        case ExprKind::UnaryOp:
            return one(as<UnaryOp>(e)->operand);
        case ExprKind::BoolOp:
            return all(as<BoolOp>(e)->values);
        case ExprKind::Compare:
            one(as<Compare>(e)->left);
            return all(as<Compare>(e)->comparators);
        case ExprKind::IfExp:
            one(as<IfExp>(e)->test);
            one(as<IfExp>(e)->body);
            return one(as<IfExp>(e)->orelse);
        case ExprKind::Lambda: {
            auto l = as<Lambda>(e);
            for (const auto& p : l->params) one(p.defaultValue);
            return one(l->body);
        }
        case ExprKind::Tuple:
        case ExprKind::List:
        case ExprKind::Set:
            return all(static_cast<const Sequence*>(e)->elts);
        case ExprKind::Dict:
            all(as<Dict>(e)->keys);
            return all(as<Dict>(e)->values);
        case ExprKind::ListComp:
        case ExprKind::SetComp:
        case ExprKind::GeneratorExp: {
            auto c = static_cast<const Comp*>(e);
            one(c->elt);
            return comps(c->generators);
        }
        case ExprKind::DictComp:
            one(as<DictComp>(e)->key);
            one(as<DictComp>(e)->value);
            return comps(as<DictComp>(e)->generators);
        case ExprKind::Starred:
            return one(as<Starred>(e)->value);
        case ExprKind::NamedExpr:
            one(as<NamedExpr>(e)->target);
            return one(as<NamedExpr>(e)->value);
        case ExprKind::Yield:
            return one(as<Yield>(e)->value);
        case ExprKind::Await:
            return one(as<Await>(e)->value);
    }
}

void forEachExpr(const Stmt* s, const std::function<void(const Expr*)>& fn) {
    auto one = [&](const Expr* c) {
        if (c) fn(c);
    };
    auto all = [&](const std::vector<Expr*>& v) {
        for (const Expr* c : v) one(c);
    };
    auto params = [&](const std::vector<Param>& ps) {
        for (const auto& p : ps) {
            one(p.annotation);
            one(p.defaultValue);
        }
    };
    switch (s->kind) {
        case StmtKind::FunctionDef: {
            auto f = as<FunctionDef>(s);
            all(f->decorators);
            params(f->params);
            return one(f->returns);
        }
        case StmtKind::ClassDef: {
            auto c = as<ClassDef>(s);
            all(c->decorators);
            all(c->bases);
            for (const auto& k : c->keywords) one(k.value);
            return;
        }
        case StmtKind::Return:
            return one(as<Return>(s)->value);
        case StmtKind::Assign:
            all(as<Assign>(s)->targets);
            return one(as<Assign>(s)->value);
        case StmtKind::AugAssign:
            one(as<AugAssign>(s)->target);
            return one(as<AugAssign>(s)->value);
        case StmtKind::AnnAssign:
            one(as<AnnAssign>(s)->target);
            one(as<AnnAssign>(s)->annotation);
            return one(as<AnnAssign>(s)->value);
        case StmtKind::If:
            return one(as<If>(s)->test);
        case StmtKind::For:
            one(as<For>(s)->target);
            return one(as<For>(s)->iter);
        case StmtKind::While:
            return one(as<While>(s)->test);
        case StmtKind::With:
            for (const auto& it : as<With>(s)->items) {
                one(it.context);
                one(it.target);
            }
            return;
        case StmtKind::ExprStmt:
            return one(as<ExprStmt>(s)->value);
        case StmtKind::Assert:
            one(as<Assert>(s)->test);
            return one(as<Assert>(s)->msg);
        case StmtKind::Try:
            for (const auto& h : as<Try>(s)->handlers) one(h.type);
            return;
        case StmtKind::Del:
            return all(as<Del>(s)->targets);
        case StmtKind::Raise:
            one(as<Raise>(s)->exc);
            return one(as<Raise>(s)->cause);
        case StmtKind::Pass:
        case StmtKind::Break:
        case StmtKind::Continue:
        case StmtKind::Import:
        case StmtKind::ImportFrom:
        case StmtKind::Global:
        case StmtKind::Nonlocal:
            return;
    }
}

}  // namespace ts::fe::ast
