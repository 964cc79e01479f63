// The abstract syntax tree of a tile-language file (Python syntax). Nodes mirror Python's `ast`
// module closely enough that TileLang programs map one to one, and every node carries the exact
// Span of the text it came from. Nodes are owned by the ast::Module's arena and referenced by
// plain pointers; they are immutable once the parser returns. A Module must outlive everything
// that points into it (meta-evaluator function values keep raw pointers to FunctionDef/Lambda).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "compiler/support/Source.h"

namespace ts::fe::ast {

enum class ExprKind : uint8_t {
    Name,
    Constant,
    Str,
    Attribute,
    Subscript,
    Slice,
    Call,
    BinOp,
    UnaryOp,
    BoolOp,
    Compare,
    IfExp,
    Lambda,
    Tuple,
    List,
    Set,
    Dict,
    ListComp,
    SetComp,
    DictComp,
    GeneratorExp,
    Starred,
    NamedExpr,
    Yield,
    Await,
};

enum class StmtKind : uint8_t {
    FunctionDef,
    ClassDef,
    Return,
    Assign,
    AugAssign,
    AnnAssign,
    If,
    For,
    While,
    With,
    ExprStmt,
    Pass,
    Break,
    Continue,
    Import,
    ImportFrom,
    Assert,
    Global,
    Nonlocal,
    Try,
    Del,
    Raise,
};

/// Binary operators in Python's spelling order.
enum class BinOpKind : uint8_t {
    Add,
    Sub,
    Mul,
    MatMul,
    Div,
    FloorDiv,
    Mod,
    Pow,
    LShift,
    RShift,
    BitOr,
    BitXor,
    BitAnd,
};
enum class UnaryOpKind : uint8_t { Not, Neg, Pos, Invert };
enum class BoolOpKind : uint8_t { And, Or };
enum class CmpOpKind : uint8_t { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };

/// Python spelling of an operator ("+", "//", "not in", ...).
const char* spelling(BinOpKind op);
const char* spelling(UnaryOpKind op);
const char* spelling(BoolOpKind op);
const char* spelling(CmpOpKind op);

/// Base of every node; owned by a Module arena.
struct Node {
    Span span;
    virtual ~Node() = default;
};

struct Expr : Node {
    const ExprKind kind;
    explicit Expr(ExprKind k) : kind(k) {}
};
struct Stmt : Node {
    const StmtKind kind;
    explicit Stmt(StmtKind k) : kind(k) {}
};
using Block = std::vector<Stmt*>;

/// Checked downcast: returns nullptr when `n` is null or of another kind.
template <class T, class N>
const T* as(const N* n) {
    return n && n->kind == T::kKind ? static_cast<const T*>(n) : nullptr;
}
template <class T, class N>
T* as(N* n) {
    return n && n->kind == T::kKind ? static_cast<T*>(n) : nullptr;
}

// ---- expressions ----------------------------------------------------------------------------

struct Name : Expr {
    static constexpr ExprKind kKind = ExprKind::Name;
    std::string id;
    Name() : Expr(kKind) {}
};

/// None, True/False, int (64-bit), float, `...`, and imaginary literals.
struct Constant : Expr {
    static constexpr ExprKind kKind = ExprKind::Constant;
    enum class Type : uint8_t { None, Bool, Int, Float, Ellipsis, Imaginary } type = Type::None;
    bool boolValue = false;
    int64_t intValue = 0;
    double floatValue = 0.0;  ///< Float and Imaginary (the coefficient of j)
    Constant() : Expr(kKind) {}
};

/// A string literal (adjacent literals already concatenated). f-strings keep their raw text.
struct Str : Expr {
    static constexpr ExprKind kKind = ExprKind::Str;
    std::string value;
    bool isBytes = false, isFString = false;
    Str() : Expr(kKind) {}
};

struct Attribute : Expr {
    static constexpr ExprKind kKind = ExprKind::Attribute;
    Expr* value = nullptr;
    std::string attr;
    Span attrSpan;  ///< just the attribute name after the dot
    Attribute() : Expr(kKind) {}
};

/// `value[index]`; several indices form a Tuple, slices appear as Slice nodes inside it.
struct Subscript : Expr {
    static constexpr ExprKind kKind = ExprKind::Subscript;
    Expr* value = nullptr;
    Expr* index = nullptr;
    Subscript() : Expr(kKind) {}
};

/// `lower:upper:step` inside a subscript; any part may be null.
struct Slice : Expr {
    static constexpr ExprKind kKind = ExprKind::Slice;
    Expr* lower = nullptr;
    Expr* upper = nullptr;
    Expr* step = nullptr;
    Slice() : Expr(kKind) {}
};

/// `name=value` keyword argument, or `**value` when `name` is empty.
struct Keyword {
    std::string name;
    Expr* value = nullptr;
    Span span;
};

/// A call. `args` may contain Starred (`*xs`); `**kw` arguments are keywords without a name.
struct Call : Expr {
    static constexpr ExprKind kKind = ExprKind::Call;
    Expr* func = nullptr;
    std::vector<Expr*> args;
    std::vector<Keyword> keywords;
    Call() : Expr(kKind) {}
};

struct BinOp : Expr {
    static constexpr ExprKind kKind = ExprKind::BinOp;
    BinOpKind op = BinOpKind::Add;
    Expr* left = nullptr;
    Expr* right = nullptr;
    BinOp() : Expr(kKind) {}
};

struct UnaryOp : Expr {
    static constexpr ExprKind kKind = ExprKind::UnaryOp;
    UnaryOpKind op = UnaryOpKind::Neg;
    Expr* operand = nullptr;
    UnaryOp() : Expr(kKind) {}
};

/// `a and b and c` (one node for the whole chain of the same operator).
struct BoolOp : Expr {
    static constexpr ExprKind kKind = ExprKind::BoolOp;
    BoolOpKind op = BoolOpKind::And;
    std::vector<Expr*> values;
    BoolOp() : Expr(kKind) {}
};

/// Chained comparison `left op0 c0 op1 c1 ...`.
struct Compare : Expr {
    static constexpr ExprKind kKind = ExprKind::Compare;
    Expr* left = nullptr;
    std::vector<CmpOpKind> ops;
    std::vector<Expr*> comparators;
    Compare() : Expr(kKind) {}
};

/// `body if test else orelse`.
struct IfExp : Expr {
    static constexpr ExprKind kKind = ExprKind::IfExp;
    Expr* test = nullptr;
    Expr* body = nullptr;
    Expr* orelse = nullptr;
    IfExp() : Expr(kKind) {}
};

enum class ParamKind : uint8_t {
    PosOnly,  ///< before a `/`
    Normal,   ///< positional or keyword
    VarArgs,  ///< `*args`
    KwOnly,   ///< after `*` or `*args`
    VarKw,    ///< `**kwargs`
};

/// One formal parameter of a def or lambda.
struct Param {
    std::string name;
    Span span;  ///< the name
    ParamKind kind = ParamKind::Normal;
    Expr* annotation = nullptr;  ///< `name: annotation`
    Expr* defaultValue = nullptr;
};

struct Lambda : Expr {
    static constexpr ExprKind kKind = ExprKind::Lambda;
    std::vector<Param> params;
    Expr* body = nullptr;
    Lambda() : Expr(kKind) {}
};

/// Tuple, List and Set displays share one layout.
struct Sequence : Expr {
    std::vector<Expr*> elts;
    using Expr::Expr;
};
struct Tuple : Sequence {
    static constexpr ExprKind kKind = ExprKind::Tuple;
    bool parenthesized = false;
    Tuple() : Sequence(kKind) {}
};
struct List : Sequence {
    static constexpr ExprKind kKind = ExprKind::List;
    List() : Sequence(kKind) {}
};
struct Set : Sequence {
    static constexpr ExprKind kKind = ExprKind::Set;
    Set() : Sequence(kKind) {}
};

/// `{k: v, **other}`; a null key marks a `**other` entry.
struct Dict : Expr {
    static constexpr ExprKind kKind = ExprKind::Dict;
    std::vector<Expr*> keys;
    std::vector<Expr*> values;
    Dict() : Expr(kKind) {}
};

/// One `for target in iter if cond...` clause of a comprehension.
struct Comprehension {
    Expr* target = nullptr;
    Expr* iter = nullptr;
    std::vector<Expr*> ifs;
    bool isAsync = false;
    Span span;
};

/// ListComp, SetComp and GeneratorExp: `elt for ... if ...`.
struct Comp : Expr {
    Expr* elt = nullptr;
    std::vector<Comprehension> generators;
    using Expr::Expr;
};
struct ListComp : Comp {
    static constexpr ExprKind kKind = ExprKind::ListComp;
    ListComp() : Comp(kKind) {}
};
struct SetComp : Comp {
    static constexpr ExprKind kKind = ExprKind::SetComp;
    SetComp() : Comp(kKind) {}
};
struct GeneratorExp : Comp {
    static constexpr ExprKind kKind = ExprKind::GeneratorExp;
    GeneratorExp() : Comp(kKind) {}
};
struct DictComp : Expr {
    static constexpr ExprKind kKind = ExprKind::DictComp;
    Expr* key = nullptr;
    Expr* value = nullptr;
    std::vector<Comprehension> generators;
    DictComp() : Expr(kKind) {}
};

/// `*value` in a call, display or assignment target.
struct Starred : Expr {
    static constexpr ExprKind kKind = ExprKind::Starred;
    Expr* value = nullptr;
    Starred() : Expr(kKind) {}
};

/// `target := value`.
struct NamedExpr : Expr {
    static constexpr ExprKind kKind = ExprKind::NamedExpr;
    Expr* target = nullptr;
    Expr* value = nullptr;
    NamedExpr() : Expr(kKind) {}
};

/// `yield value` / `yield from value` (parsed so real files load; not evaluated).
struct Yield : Expr {
    static constexpr ExprKind kKind = ExprKind::Yield;
    Expr* value = nullptr;
    bool isFrom = false;
    Yield() : Expr(kKind) {}
};

struct Await : Expr {
    static constexpr ExprKind kKind = ExprKind::Await;
    Expr* value = nullptr;
    Await() : Expr(kKind) {}
};

// ---- statements -----------------------------------------------------------------------------

struct FunctionDef : Stmt {
    static constexpr StmtKind kKind = StmtKind::FunctionDef;
    std::string name;
    Span nameSpan;
    std::vector<Expr*> decorators;  ///< in source order (outermost first)
    std::vector<Param> params;
    Expr* returns = nullptr;
    Block body;
    bool isAsync = false;
    FunctionDef() : Stmt(kKind) {}
};

struct ClassDef : Stmt {
    static constexpr StmtKind kKind = StmtKind::ClassDef;
    std::string name;
    Span nameSpan;
    std::vector<Expr*> decorators;
    std::vector<Expr*> bases;
    std::vector<Keyword> keywords;
    Block body;
    ClassDef() : Stmt(kKind) {}
};

struct Return : Stmt {
    static constexpr StmtKind kKind = StmtKind::Return;
    Expr* value = nullptr;
    Return() : Stmt(kKind) {}
};

/// `t0 = t1 = value`; targets in source order.
struct Assign : Stmt {
    static constexpr StmtKind kKind = StmtKind::Assign;
    std::vector<Expr*> targets;
    Expr* value = nullptr;
    Assign() : Stmt(kKind) {}
};

struct AugAssign : Stmt {
    static constexpr StmtKind kKind = StmtKind::AugAssign;
    Expr* target = nullptr;
    BinOpKind op = BinOpKind::Add;
    Expr* value = nullptr;
    AugAssign() : Stmt(kKind) {}
};

/// `target: annotation [= value]` (the eager pattern binds tensor parameters this way).
struct AnnAssign : Stmt {
    static constexpr StmtKind kKind = StmtKind::AnnAssign;
    Expr* target = nullptr;
    Expr* annotation = nullptr;
    Expr* value = nullptr;
    AnnAssign() : Stmt(kKind) {}
};

/// `if`; an `elif` chain is an If nested as the only statement of `orelse`, flagged `isElif`.
struct If : Stmt {
    static constexpr StmtKind kKind = StmtKind::If;
    Expr* test = nullptr;
    Block body, orelse;
    bool isElif = false;
    If() : Stmt(kKind) {}
};

struct For : Stmt {
    static constexpr StmtKind kKind = StmtKind::For;
    Expr* target = nullptr;
    Expr* iter = nullptr;
    Block body, orelse;
    bool isAsync = false;
    For() : Stmt(kKind) {}
};

struct While : Stmt {
    static constexpr StmtKind kKind = StmtKind::While;
    Expr* test = nullptr;
    Block body, orelse;
    While() : Stmt(kKind) {}
};

struct WithItem {
    Expr* context = nullptr;
    Expr* target = nullptr;  ///< the `as` target, may be null
};

struct With : Stmt {
    static constexpr StmtKind kKind = StmtKind::With;
    std::vector<WithItem> items;
    Block body;
    bool isAsync = false;
    With() : Stmt(kKind) {}
};

struct ExprStmt : Stmt {
    static constexpr StmtKind kKind = StmtKind::ExprStmt;
    Expr* value = nullptr;
    ExprStmt() : Stmt(kKind) {}
};

struct Pass : Stmt {
    static constexpr StmtKind kKind = StmtKind::Pass;
    Pass() : Stmt(kKind) {}
};
struct Break : Stmt {
    static constexpr StmtKind kKind = StmtKind::Break;
    Break() : Stmt(kKind) {}
};
struct Continue : Stmt {
    static constexpr StmtKind kKind = StmtKind::Continue;
    Continue() : Stmt(kKind) {}
};

/// `name as asname` in an import; `name` is dotted ("tilelang.language").
struct Alias {
    std::string name, asname;
    Span span;
};

struct Import : Stmt {
    static constexpr StmtKind kKind = StmtKind::Import;
    std::vector<Alias> names;
    Import() : Stmt(kKind) {}
};

/// `from [.]module import names`; `names` = {"*"} for a star import.
struct ImportFrom : Stmt {
    static constexpr StmtKind kKind = StmtKind::ImportFrom;
    std::string module;
    int level = 0;  ///< leading dots
    std::vector<Alias> names;
    ImportFrom() : Stmt(kKind) {}
};

struct Assert : Stmt {
    static constexpr StmtKind kKind = StmtKind::Assert;
    Expr* test = nullptr;
    Expr* msg = nullptr;
    Assert() : Stmt(kKind) {}
};

/// Global and Nonlocal share a layout.
struct NameList : Stmt {
    std::vector<std::string> names;
    using Stmt::Stmt;
};
struct Global : NameList {
    static constexpr StmtKind kKind = StmtKind::Global;
    Global() : NameList(kKind) {}
};
struct Nonlocal : NameList {
    static constexpr StmtKind kKind = StmtKind::Nonlocal;
    Nonlocal() : NameList(kKind) {}
};

struct ExceptHandler {
    Expr* type = nullptr;
    std::string name;
    Block body;
    Span span;
};

/// Parsed fully; the meta-evaluator skips it (with a warning).
struct Try : Stmt {
    static constexpr StmtKind kKind = StmtKind::Try;
    Block body;
    std::vector<ExceptHandler> handlers;
    Block orelse, finalbody;
    Try() : Stmt(kKind) {}
};

struct Del : Stmt {
    static constexpr StmtKind kKind = StmtKind::Del;
    std::vector<Expr*> targets;
    Del() : Stmt(kKind) {}
};

struct Raise : Stmt {
    static constexpr StmtKind kKind = StmtKind::Raise;
    Expr* exc = nullptr;
    Expr* cause = nullptr;
    Raise() : Stmt(kKind) {}
};

// ---- module ---------------------------------------------------------------------------------

/// A parsed file: top-level statements plus the arena that owns every node.
class Module {
public:
    explicit Module(SourcePtr src) : m_source(std::move(src)) {}
    Module(const Module&) = delete;
    Module& operator=(const Module&) = delete;

    /// Allocates a node owned by this module.
    template <class T>
    T* make(Span s) {
        auto n = std::make_unique<T>();
        n->span = s;
        T* raw = n.get();
        m_arena.push_back(std::move(n));
        return raw;
    }

    Block body;
    const SourcePtr& source() const { return m_source; }
    size_t nodeCount() const { return m_arena.size(); }

private:
    SourcePtr m_source;
    std::vector<std::unique_ptr<Node>> m_arena;
};

/// Calls `fn` on each direct sub-expression of `e` (operands, call arguments, keyword values,
/// comprehension clauses, a lambda's defaults and body), skipping absent (null) parts.
void forEachChild(const Expr* e, const std::function<void(const Expr*)>& fn);
/// Calls `fn` on each expression held by statement `s` itself (targets, values, tests,
/// decorators, parameter defaults and annotations), not by the statements of its bodies.
void forEachExpr(const Stmt* s, const std::function<void(const Expr*)>& fn);

/// Compact one-line rendering for tests and debugging, e.g.
/// `BinOp(+, Name(a), Call(Attribute(Name(T), ceildiv), [Name(N), Int(128)]))`.
std::string dump(const Expr* e);
/// Indented multi-line rendering of statements (one per line, children indented by 2).
std::string dump(const Stmt* s, int indent = 0);
std::string dump(const Block& b, int indent = 0);

}  // namespace ts::fe::ast
