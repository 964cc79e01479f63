// Values of the meta level (LANGUAGE.md §2): what the meta-evaluator computes when it runs the
// Python-level code of a tile program (factory functions, shapes, tiling parameters, autotune
// configs). A Value is a small tagged handle: None/bool/int/float/dtype live inline; strings,
// tuples, lists, dicts, ranges, slices, functions, builtins, namespaces ("modules" such as `T`,
// `math`, `torch`) and extension values live on the heap behind shared pointers, so lists and
// dicts alias like Python objects. ExtValue is the extension hook: the elaborator defines
// tile-level values (IR expressions, buffers, regions, loop specs) as ExtValue subclasses, and
// they flow through the same environments, calls and operators as ordinary Python values.
// Integers are signed 64-bit; arithmetic that overflows is a diagnostic, not a wrap-around.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "compiler/frontend/Ast.h"
#include "compiler/ir/DType.h"
#include "compiler/support/Diagnostic.h"

namespace ts::fe {

class Interp;
class Value;
struct Env;
using EnvPtr = std::shared_ptr<Env>;

enum class ValueKind : uint8_t {
    None,
    Bool,
    Int,
    Float,
    Str,
    DType,
    Tuple,
    List,
    Dict,
    Range,
    Slice,
    Function,
    Builtin,
    Namespace,
    Ext,
    Poison,
};

/// Base of every heap-allocated value payload.
struct Object : std::enable_shared_from_this<Object> {
    virtual ~Object() = default;
};

struct StrObj;
struct SeqObj;
struct DictObj;
struct RangeObj;
struct SliceObj;
struct FunctionObj;
struct BuiltinObj;
struct NamespaceObj;
struct PoisonObj;
class ExtValue;
struct CallArgs;

/// Signature of a builtin: receives the interpreter and the call's arguments (with spans).
using BuiltinFn = std::function<Value(Interp&, CallArgs&)>;

/// A meta-level value. Copying a Value copies the handle (lists and dicts are shared).
class Value {
public:
    Value() = default;  ///< None
    Value(const Value& o) = default;
    Value(Value&& o) noexcept = default;
    /// Assignment releases the old payload through ~Value (copy and swap), so dropping a deeply
    /// nested value is never a recursion either.
    Value& operator=(const Value& o) {
        Value t(o);
        swap(t);
        return *this;
    }
    Value& operator=(Value&& o) noexcept {
        Value t(std::move(o));
        swap(t);
        return *this;
    }
    /// Releasing the last handle of a deeply nested value (`x = [x]` a million times, a chain
    /// of closures) would destroy it recursively and overflow the stack: below a fixed depth
    /// the payloads are queued and destroyed iteratively by the outermost release.
    ~Value();
    static Value none() { return Value(); }
    static Value boolean(bool b);
    static Value integer(int64_t i);
    static Value real(double f);
    static Value str(std::string s);
    static Value dtype(ir::DType t);
    static Value tuple(std::vector<Value> items);
    static Value list(std::vector<Value> items);
    static Value dict(std::vector<std::pair<Value, Value>> entries = {});
    static Value range(int64_t start, int64_t stop, int64_t step);
    static Value slice(Value lower, Value upper, Value step);
    static Value function(std::shared_ptr<FunctionObj> f);
    static Value builtin(std::string name, BuiltinFn fn);
    static Value ns(std::shared_ptr<NamespaceObj> n);
    static Value ext(std::shared_ptr<ExtValue> e);
    /// A name whose module-level definition could not be evaluated; using it reports `diag`.
    static Value poison(Diagnostic diag);

    ValueKind kind() const { return m_kind; }
    bool is(ValueKind k) const { return m_kind == k; }
    bool isNone() const { return m_kind == ValueKind::None; }
    /// bool or int (Python's bool is an int subtype).
    bool isIntLike() const { return m_kind == ValueKind::Int || m_kind == ValueKind::Bool; }
    /// bool, int or float.
    bool isNumber() const { return isIntLike() || m_kind == ValueKind::Float; }
    bool isSequence() const { return m_kind == ValueKind::Tuple || m_kind == ValueKind::List; }

    bool asBool() const { return m_u.b; }         ///< requires Bool
    int64_t asInt() const;                        ///< requires Int or Bool
    double asFloat() const;                       ///< requires a number
    const std::string& asStr() const;             ///< requires Str
    ir::DType asDType() const { return m_u.dt; }  ///< requires DType
    /// Elements of a Tuple or List (empty for other kinds).
    const std::vector<Value>& items() const;
    std::vector<Value>& mutableItems() const;  ///< requires List
    DictObj& dictObj() const;
    const RangeObj& rangeObj() const;
    const SliceObj& sliceObj() const;
    std::shared_ptr<FunctionObj> functionPtr() const;
    FunctionObj& functionObj() const;
    BuiltinObj& builtinObj() const;
    NamespaceObj& nsObj() const;
    std::shared_ptr<NamespaceObj> nsPtr() const;
    const PoisonObj& poisonObj() const;
    std::shared_ptr<ExtValue> extPtr() const;
    ExtValue& extObj() const;
    /// The extension payload as T, or nullptr when this is not an ExtValue of type T.
    template <class T>
    T* extAs() const;
    /// Heap identity (for `is` and dict keys of ExtValues); null for inline kinds.
    const Object* identity() const { return m_obj.get(); }

private:
    void swap(Value& o) noexcept {
        std::swap(m_kind, o.m_kind);
        std::swap(m_u, o.m_u);
        m_obj.swap(o.m_obj);
    }

    ValueKind m_kind = ValueKind::None;
    union {
        bool b;
        int64_t i;
        double f;
        ir::DType dt;
    } m_u{};
    std::shared_ptr<Object> m_obj;
};

struct StrObj : Object {
    std::string s;
};

/// Tuple (immutable by convention) or list payload.
struct SeqObj : Object {
    std::vector<Value> items;
};

/// Insertion-ordered dict; keys compare with meta-level equality (dicts are small).
struct DictObj : Object {
    std::vector<std::pair<Value, Value>> entries;
    Value* find(const Value& key);
    void set(const Value& key, Value v);
    bool erase(const Value& key);
};

/// range(start, stop, step), lazy; step != 0.
struct RangeObj : Object {
    int64_t start = 0, stop = 0, step = 1;
    int64_t size() const;
    int64_t at(int64_t i) const { return start + i * step; }
};

struct SliceObj : Object {
    Value lower, upper, step;
};

/// What a decorator turned a function into (`@T.prim_func`, `@T.macro`).
enum class FunctionTag : uint8_t { Plain, PrimFunc, Macro };

/// A user function (def or lambda) with its defining environment (a closure).
struct FunctionObj : Object {
    std::string name;
    const ast::FunctionDef* def = nullptr;  ///< exactly one of def/lambda is set
    const ast::Lambda* lambda = nullptr;
    EnvPtr closure;
    std::vector<std::optional<Value>> defaults;  ///< per parameter, evaluated at definition time
    FunctionTag tag = FunctionTag::Plain;
    std::vector<Value> decoratorArgs;  ///< keyword arguments of a parameterised tag decorator
    const std::vector<ast::Param>& params() const;
    Span span() const;  ///< the def's name, or the lambda
};

struct BuiltinObj : Object {
    std::string name;  ///< qualified for messages: "len", "math.ceil", "T.ceildiv"
    BuiltinFn fn;
};

/// A module-like namespace: `T`, `tilelang`, `math`, `itertools`, `torch`, or an unknown import.
/// Members can be added by the elaborator. An opaque namespace (an import we do not model)
/// reports `opaqueReason` on any attribute it lacks.
struct NamespaceObj : Object {
    std::string name;
    std::map<std::string, Value> members;
    bool opaque = false;
    std::string opaqueReason;
    std::string siblingFile;  ///< a sibling module's file name (MetaEval.h setSiblingDir)
    Value* find(const std::string& n);
    void set(const std::string& n, Value v) { members[n] = std::move(v); }
};

struct PoisonObj : Object {
    Diagnostic diag;
};

/// Arguments of one call, with spans for precise diagnostics.
struct CallArgs {
    std::vector<Value> pos;
    std::vector<Span> posSpans;
    std::vector<std::pair<std::string, Value>> kw;
    std::vector<Span> kwSpans;
    Span span;           ///< the whole call expression
    std::string callee;  ///< name for messages ("range", "T.copy")

    /// Result of bind(): one slot per declared name.
    struct Bound {
        std::vector<std::optional<Value>> values;
        std::vector<Span> spans;
        bool has(size_t i) const { return values[i].has_value(); }
        const Value& operator[](size_t i) const { return *values[i]; }
        /// Value at `i`, or `fallback` if the argument was not given.
        Value get(size_t i, Value fallback) const {
            return has(i) ? *values[i] : std::move(fallback);
        }
    };
    /// Binds arguments like a Python signature `callee(names...)`: positionals fill names in
    /// order, keywords match by name; the first `required` names must be supplied. Errors
    /// (too many, unknown keyword with a close-match hint, duplicate, missing) throw CompileError
    /// naming the callee.
    Bound bind(const std::vector<std::string>& names, size_t required) const;
    /// Throws unless the call has between min and max positional and no keyword arguments.
    void expectPositional(size_t min, size_t max) const;
    /// Span of positional argument i (the call span if out of range).
    Span argSpan(size_t i) const { return i < posSpans.size() ? posSpans[i] : span; }
    const Value* keyword(const std::string& name) const;
};

/// Extension values defined outside the meta-evaluator (the elaborator's IR expressions,
/// buffers, regions, loop specs). Every hook returns "not handled" by default (nullopt/false), in
/// which case the evaluator reports the usual Python-style error ("unsupported operand").
class ExtValue : public Object {
public:
    /// Python-style type name used in messages ("Buffer", "PrimExpr").
    virtual std::string typeName() const = 0;
    virtual std::string repr() const { return "<" + typeName() + ">"; }
    virtual std::optional<Value> getAttr(Interp&, const std::string& name, Span) {
        return std::nullopt;
    }
    virtual bool setAttr(Interp&, const std::string& name, const Value& v, Span) { return false; }
    virtual std::optional<Value> call(Interp&, CallArgs&) { return std::nullopt; }
    /// `self op other` (selfOnLeft) or `other op self`.
    virtual std::optional<Value> binaryOp(Interp&, ast::BinOpKind op, const Value& other,
                                          bool selfOnLeft, Span) {
        return std::nullopt;
    }
    virtual std::optional<Value> unaryOp(Interp&, ast::UnaryOpKind op, Span) {
        return std::nullopt;
    }
    /// `self op other` (selfOnLeft) or `other op self`; may return a dynamic (Ext) boolean.
    virtual std::optional<Value> compare(Interp&, ast::CmpOpKind op, const Value& other,
                                         bool selfOnLeft, Span) {
        return std::nullopt;
    }
    virtual std::optional<Value> getItem(Interp&, const Value& index, Span) { return std::nullopt; }
    virtual bool setItem(Interp&, const Value& index, const Value& v, Span) { return false; }
    /// Known truth value, or nullopt if it is only known at run time (a dynamic condition).
    virtual std::optional<bool> truth(Interp&, Span) { return std::nullopt; }
    virtual std::optional<std::vector<Value>> iterate(Interp&, Span) { return std::nullopt; }
    virtual std::optional<int64_t> length(Interp&, Span) { return std::nullopt; }
};

template <class T>
T* Value::extAs() const {
    return m_kind == ValueKind::Ext ? dynamic_cast<T*>(static_cast<ExtValue*>(m_obj.get()))
                                    : nullptr;
}

/// One scope: module globals, a function call's locals, or a comprehension.
struct Env {
    std::unordered_map<std::string, Value> vars;
    EnvPtr parent;
    bool isModule = false;
    /// On the globals of a sibling module (MetaEval.h setSiblingDir): its file name, for
    /// diagnostics raised inside its functions; empty for the compiled file's own globals.
    std::string siblingFile;
    /// ... and the package its relative imports start from (`from .lop3 import f` in
    /// quantize/__init__.py: "quantize"; in quantize/utils.py: "quantize" too).
    std::string siblingPackage;
    std::unordered_set<std::string> globals, nonlocals;  ///< declared in this scope
    /// The Interp that registered this scope as a closure scope (it clears the scope when it
    /// is destroyed, breaking function <-> scope cycles); registered once, not once per `def`.
    const void* closureOwner = nullptr;
    Value* findLocal(const std::string& n);
    /// Nearest binding along the parent chain, or nullptr.
    Value* lookup(const std::string& n);
    Env* moduleEnv();
};

/// Python type name of a value ("int", "list", "NoneType", an ExtValue's typeName()).
std::string typeName(const Value& v);
/// Python repr() / str() of a value.
std::string repr(const Value& v);
std::string str(const Value& v);
/// Python float repr ("1.0", "0.1", "1e+16", "inf").
std::string formatFloat(double f);
/// Meta-level equality (numbers by value across bool/int/float, dtype == its name, sequences
/// elementwise, ExtValues and functions by identity). Never calls ExtValue hooks.
bool metaEquals(const Value& a, const Value& b);
/// The dtype named by a Str or DType value, or nullopt.
std::optional<ir::DType> asDType(const Value& v);
/// The candidate closest to `name` by edit distance if it is close enough to be a likely typo
/// (distance <= max(1, |name|/3), names of 3+ characters), or one that `name` (4+ characters)
/// is a prefix of; else "".
/// Used for "did you mean" hints.
std::string closestMatch(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace ts::fe
