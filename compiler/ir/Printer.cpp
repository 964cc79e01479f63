#include "compiler/ir/Printer.h"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "compiler/ir/Builder.h"
#include "compiler/ir/Functor.h"
#include "compiler/ir/Layout.h"
#include "compiler/ir/PointerTensors.h"
#include "compiler/ir/Views.h"

namespace ts::ir {
namespace {

int precedence(const Expr& e) {
    auto* b = as<BinaryNode>(e);
    if (!b) return 100;
    switch (b->op) {
        case BinOp::Or: return 1;
        case BinOp::And: return 2;
        case BinOp::Eq: case BinOp::Ne: case BinOp::Lt: case BinOp::Le: case BinOp::Gt: case BinOp::Ge: return 4;
        case BinOp::BitOr: return 5;
        case BinOp::BitXor: return 6;
        case BinOp::BitAnd: return 7;
        case BinOp::Shl: case BinOp::Shr: return 8;
        case BinOp::Add: case BinOp::Sub: return 9;
        case BinOp::Mul: case BinOp::Div: case BinOp::FloorDiv: case BinOp::FloorMod: return 10;
        case BinOp::Pow: return 12;
        case BinOp::Min: case BinOp::Max: return 100;
    }
    return 100;
}

std::string fmtFloat(double v) {
    if (std::isinf(v)) return v > 0 ? "T.infinity(\"float32\")" : "-T.infinity(\"float32\")";
    if (std::isnan(v)) return "float(\"nan\")";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    // Shortest representation that round-trips.
    for (int p = 1; p <= 17; ++p) {
        char b2[64];
        std::snprintf(b2, sizeof b2, "%.*g", p, v);
        if (std::strtod(b2, nullptr) == v) {
            std::snprintf(buf, sizeof buf, "%s", b2);
            break;
        }
    }
    std::string s = buf;
    if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
    return s;
}

class ExprPrinter {
public:
    std::string print(const Expr& e) {
        std::ostringstream os;
        emit(os, e);
        return os.str();
    }

private:
    void emit(std::ostringstream& os, const Expr& e) {
        switch (e->kind) {
            case ExprKind::IntImm: {
                auto v = static_cast<const IntImmNode*>(e.get())->value;
                if (e->dtype == DType::Bool) os << (v ? "True" : "False");
                else os << v;
                break;
            }
            case ExprKind::FloatImm: os << fmtFloat(static_cast<const FloatImmNode*>(e.get())->value); break;
            case ExprKind::StrImm: os << '"' << static_cast<const StrImmNode*>(e.get())->value << '"'; break;
            case ExprKind::Var: os << static_cast<const VarNode*>(e.get())->name; break;
            case ExprKind::Binary: {
                auto* n = static_cast<const BinaryNode*>(e.get());
                if (n->op == BinOp::Min || n->op == BinOp::Max) {
                    os << (n->op == BinOp::Min ? "T.min(" : "T.max(");
                    emit(os, n->a), os << ", ", emit(os, n->b), os << ')';
                    break;
                }
                int p = precedence(e);
                bool rightAssoc = n->op == BinOp::Pow;
                emitParen(os, n->a, rightAssoc ? p + 1 : p);
                os << ' ' << binOpSymbol(n->op) << ' ';
                emitParen(os, n->b, rightAssoc ? p : p + 1);
                break;
            }
            case ExprKind::Unary: {
                auto* n = static_cast<const UnaryNode*>(e.get());
                os << (n->op == UnOp::Neg ? "-" : n->op == UnOp::Not ? "not " : "~");
                emitParen(os, n->a, 11);
                break;
            }
            case ExprKind::Select: {
                auto* n = static_cast<const SelectNode*>(e.get());
                os << "T.if_then_else(";
                emit(os, n->cond), os << ", ", emit(os, n->t), os << ", ", emit(os, n->f), os << ')';
                break;
            }
            case ExprKind::Call: {
                auto* n = static_cast<const CallNode*>(e.get());
                bool intrinsic = n->op.rfind("tl.", 0) == 0;
                if (n->op == "infinity" || n->op == "ninfinity") {
                    os << (n->op == "ninfinity" ? "-" : "") << "T.infinity(" << dtypeLiteral(n->dtype) << ')';
                    break;
                }
                os << (intrinsic ? "" : "T.") << n->op << '(';
                for (size_t i = 0; i < n->args.size(); ++i) {
                    if (i) os << ", ";
                    emit(os, n->args[i]);
                }
                if (n->op == "reinterpret") os << ", " << dtypeLiteral(n->dtype);  // re-parses
                os << ')';
                break;
            }
            case ExprKind::Load: {
                auto* n = static_cast<const LoadNode*>(e.get());
                os << n->buffer->name << '[';
                for (size_t i = 0; i < n->indices.size(); ++i) {
                    if (i) os << ", ";
                    emit(os, n->indices[i]);
                }
                os << ']';
                break;
            }
            case ExprKind::Cast: {
                auto* n = static_cast<const CastNode*>(e.get());
                os << "T.cast(";
                emit(os, n->value);
                os << ", " << dtypeLiteral(n->dtype) << ')';
                break;
            }
        }
    }
    void emitParen(std::ostringstream& os, const Expr& e, int minPrec) {
        bool paren = precedence(e) < minPrec || (as<UnaryNode>(e) && minPrec > 11);
        if (paren) os << '(';
        emit(os, e);
        if (paren) os << ')';
    }
};

class StmtPrinter {
public:
    PrintResult result;

    void line(int indent, const std::string& text, const StmtNode* s) {
        result.text.append(static_cast<size_t>(indent) * 4, ' ');
        result.text += text;
        result.text += '\n';
        result.lines.push_back({s, s ? s->span : Span{}});
    }

    std::string expr(const Expr& e) { return m_ep.print(e); }

    std::string shapeTuple(const std::vector<Expr>& shape) {
        std::string s = "(";
        for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + expr(shape[i]);
        if (shape.size() == 1) s += ",";
        return s + ")";
    }

    std::string region(const Region& r) {
        bool full = true;
        for (size_t i = 0; i < r.ranges.size(); ++i) {
            auto mn = constInt(r.ranges[i].min);
            full &= mn && *mn == 0 && i < r.buffer->shape.size() && constInt(r.ranges[i].extent) &&
                    constInt(r.buffer->shape[i]) && *constInt(r.ranges[i].extent) == *constInt(r.buffer->shape[i]);
        }
        if (full) return r.buffer->name;
        std::string s = r.buffer->name + "[";
        for (size_t i = 0; i < r.ranges.size(); ++i) {
            if (i) s += ", ";
            auto& rg = r.ranges[i];
            s += expr(rg.min) + ":" + expr(add(rg.min, rg.extent));
        }
        return s + "]";
    }

    std::string tileArg(const TileArg& a) {
        if (auto* r = std::get_if<Region>(&a)) return region(*r);
        return expr(std::get<Expr>(a));
    }

    void stmt(const Stmt& s, int ind) {
        if (!s) return;
        switch (s->kind) {
            case StmtKind::Seq:
                for (auto& c : static_cast<const SeqNode*>(s.get())->stmts) stmt(c, ind);
                break;
            case StmtKind::For: {
                auto* n = static_cast<const ForNode*>(s.get());
                std::string hdr = "for " + n->var->name + " in ";
                std::string range = constInt(n->min) && *constInt(n->min) == 0 ? expr(n->extent)
                                                                               : expr(n->min) + ", " + expr(add(n->min, n->extent));
                switch (n->forKind) {
                    case ForKind::Serial: hdr += "T.serial(" + range; break;
                    case ForKind::Unrolled: hdr += "T.unroll(" + range; break;
                    case ForKind::Vectorized: hdr += "T.vectorized(" + range; break;
                    case ForKind::Parallel: hdr += "T.Parallel(" + range; break;
                    case ForKind::Pipelined: hdr += "T.Pipelined(" + range; break;
                }
                for (auto& [k, v] : n->attrs) hdr += ", " + k + "=" + attrToString(v);
                line(ind, hdr + "):", s.get());
                stmt(n->body, ind + 1);
                break;
            }
            case StmtKind::If: {
                auto* n = static_cast<const IfNode*>(s.get());
                // A StoreCheck guard (Stmt.h): the interpreters report the store it skips.
                line(ind, "if " + expr(n->cond) + ":" + (n->check ? "  # bounds guard of a T.Parallel store" : ""), s.get());
                stmt(n->then, ind + 1);
                if (n->otherwise) {
                    line(ind, "else:", s.get());
                    stmt(n->otherwise, ind + 1);
                }
                break;
            }
            case StmtKind::Store: {
                auto* n = static_cast<const StoreNode*>(s.get());
                std::string lhs = n->buffer->name + "[";
                for (size_t i = 0; i < n->indices.size(); ++i) lhs += (i ? ", " : "") + expr(n->indices[i]);
                line(ind, lhs + "] = " + expr(n->value), s.get());
                break;
            }
            case StmtKind::Alloc: {
                auto* n = static_cast<const AllocNode*>(s.get());
                auto& b = *n->buffer;
                std::string fn = b.scope == Scope::Shared ? "T.alloc_shared" : b.scope == Scope::Fragment ? "T.alloc_fragment" : "T.alloc_local";
                std::string text;
                if (b.scope == Scope::Global && n->init)  // a pointer tensor (ir/PointerTensors.h)
                    text = b.name + " = T.make_tensor(" + expr(n->init) + ", " + shapeTuple(b.shape) + ", " + dtypeLiteral(b.dtype) +
                           (b.strides.empty() ? std::string() : ", strides=" + shapeTuple(b.strides)) + ")";
                else if (n->init) text = b.name + " = T.alloc_var(" + dtypeLiteral(b.dtype) + ", " + expr(n->init) + ")";
                else text = b.name + " = " + fn + "(" + shapeTuple(b.shape) + ", " + dtypeLiteral(b.dtype) + ")";
                line(ind, text, s.get());
                if (m_func) {
                    auto it = m_func->layouts.find(b.name);
                    if (it != m_func->layouts.end() && it->second) line(ind, "# layout " + b.name + ": " + it->second->description, s.get());
                }
                break;
            }
            case StmtKind::Kernel: {
                auto* n = static_cast<const KernelNode*>(s.get());
                std::string g;
                for (size_t i = 0; i < n->grid.size(); ++i) g += (i ? ", " : "") + expr(n->grid[i]);
                std::string th;
                if (n->threads.size() == 1) th = std::to_string(n->threads[0]);
                else {
                    th = "[";
                    for (size_t i = 0; i < n->threads.size(); ++i) th += (i ? ", " : "") + std::to_string(n->threads[i]);
                    th += "]";
                }
                std::string vars;
                for (size_t i = 0; i < n->blockVars.size(); ++i) vars += (i ? ", " : "") + n->blockVars[i]->name;
                if (n->blockVars.size() == 1) vars += ",";
                line(ind, "with T.Kernel(" + g + ", threads=" + th + ") as (" + vars + "):", s.get());
                // Views of tensors (ir/Views.h) and thread indices have no statement of their
                // own: declare the ones the body uses first, so the text re-parses.
                std::vector<std::pair<const BufferNode*, const BufferNode*>> views;  // view, tensor
                std::vector<bool> threadUsed(n->threadVars.size(), false);  // T.get_thread_binding
                auto note = [&](const BufferNode* b) {
                    const BufferNode* base = b && m_func ? viewBase(*m_func, *b) : nullptr;
                    if (!base) return;
                    for (auto& v : views)
                        if (v.first == b) return;
                    views.emplace_back(b, base);
                };
                walk(n->body,
                     [&](const Stmt& st) {
                         if (auto* w = as<StoreNode>(st)) note(w->buffer.get());
                         if (auto* t = as<TileOpNode>(st))
                             for (auto& a : t->args)
                                 if (auto* r = std::get_if<Region>(&a)) note(r->buffer.get());
                     },
                     [&](const Expr& e) {
                         if (auto* l = as<LoadNode>(e)) note(l->buffer.get());
                         for (size_t d = 0; d < n->threadVars.size(); ++d)
                             if (e.get() == n->threadVars[d].get()) threadUsed[d] = true;
                     });
                for (size_t d = 0; d < n->threadVars.size(); ++d)
                    if (threadUsed[d])
                        line(ind + 1, n->threadVars[d]->name + " = T.get_thread_binding(" + std::to_string(d) + ")", s.get());
                for (auto [v, base] : views)
                    line(ind + 1, v->name + " = T.Tensor(" + shapeTuple(v->shape) + ", " + dtypeLiteral(v->dtype) + ", " +
                                      base->name + ".data)",
                         s.get());
                stmt(n->body, ind + 1);
                break;
            }
            case StmtKind::TileOp: {
                auto* n = static_cast<const TileOpNode*>(s.get());
                std::string text;
                switch (n->op) {
                    case TileOpKind::Fill:
                        if (attrBool(n->attrs, "clear", false)) text = "T.clear(" + tileArg(n->args[0]) + ")";
                        else text = "T.fill(" + tileArg(n->args[0]) + ", " + tileArg(n->args[1]) + ")";
                        break;
                    case TileOpKind::Reduce: {
                        text = "T.reduce_" + attrStr(n->attrs, "op", "sum") + "(" + tileArg(n->args[0]) + ", " + tileArg(n->args[1]);
                        text += ", dim=" + std::to_string(attrInt(n->attrs, "dim", -1));
                        if (!attrBool(n->attrs, "clear", true)) text += ", clear=False";
                        if (attrBool(n->attrs, "nan_propagate", false)) text += ", nan_propagate=True";
                        text += ")";
                        break;
                    }
                    case TileOpKind::Atomic:
                        text = "T.atomic_" + attrStr(n->attrs, "op", "add") + "(" + tileArg(n->args[0]) + ", " + tileArg(n->args[1]) +
                               (attrStr(n->attrs, "memory_order", "").empty() ? "" : ", memory_order=\"" + attrStr(n->attrs, "memory_order", "") + "\"") +
                               (attrBool(n->attrs, "use_tma", false) ? ", use_tma=True" : "") + ")";
                        break;
                    default: {
                        text = std::string("T.") + tileOpName(n->op) + "(";
                        for (size_t i = 0; i < n->args.size(); ++i) text += (i ? ", " : "") + tileArg(n->args[i]);
                        for (auto& [k, v] : n->attrs) text += ", " + k + "=" + attrToString(v);
                        text += ")";
                    }
                }
                line(ind, text, s.get());
                break;
            }
            case StmtKind::Eval: line(ind, expr(static_cast<const EvalNode*>(s.get())->call), s.get()); break;
        }
    }

    const PrimFuncNode* m_func = nullptr;

private:
    ExprPrinter m_ep;
};

}  // namespace

std::string dtypeLiteral(DType t) { return "\"" + std::string(dtypeName(t)) + "\""; }

std::string toString(const Expr& e) { return e ? ExprPrinter().print(e) : "<null>"; }

std::string toString(const Stmt& s) {
    StmtPrinter p;
    p.stmt(s, 0);
    return p.result.text;
}

PrintResult print(const PrimFunc& f) {
    StmtPrinter p;
    p.m_func = f.get();
    p.line(0, "@T.prim_func", nullptr);
    std::string params;
    for (size_t i = 0; i < f->params.size(); ++i) {
        auto& b = *f->params[i];
        std::string shape = "(";
        for (size_t d = 0; d < b.shape.size(); ++d) shape += (d ? ", " : "") + toString(b.shape[d]);
        if (b.shape.size() == 1) shape += ",";
        shape += ")";
        const std::string dt = isPointerTable(f->attrs, b) ? std::string("T.ptr") : dtypeLiteral(b.dtype);  // a pointer table
        params += (i ? ", " : "") + b.name + ": T.Tensor(" + shape + ", " + dt + ")";
    }
    for (auto& v : f->scalars)
        params += (params.empty() ? "" : ", ") + v->name + ": T." + std::string(dtypeName(v->dtype));
    p.line(0, "def " + f->name + "(" + params + "):", nullptr);
    // Function-level facts that passes attach (shared-memory plan, ...) as comments, so the pass
    // viewer shows what changed and the text still re-parses.
    for (auto& [k, v] : f->attrs) p.line(1, "# " + k + " = " + attrToString(v), nullptr);
    if (!f->body) p.line(1, "pass", nullptr);
    p.stmt(f->body, 1);
    return std::move(p.result);
}

}  // namespace ts::ir
