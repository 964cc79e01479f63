#include "compiler/frontend/MetaValue.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "compiler/frontend/LanguageRegistry.h"
#include "compiler/frontend/MetaGc.h"

namespace ts::fe {

namespace {
template <class T>
std::shared_ptr<T> newObj() {
    return std::make_shared<T>();
}
}  // namespace

Value Value::boolean(bool b) {
    Value v;
    v.m_kind = ValueKind::Bool;
    v.m_u.b = b;
    return v;
}
Value Value::integer(int64_t i) {
    Value v;
    v.m_kind = ValueKind::Int;
    v.m_u.i = i;
    return v;
}
Value Value::real(double f) {
    Value v;
    v.m_kind = ValueKind::Float;
    v.m_u.f = f;
    return v;
}
Value Value::str(std::string s) {
    Value v;
    v.m_kind = ValueKind::Str;
    auto o = newObj<StrObj>();
    o->s = std::move(s);
    v.m_obj = o;
    return v;
}
Value Value::dtype(ir::DType t) {
    Value v;
    v.m_kind = ValueKind::DType;
    v.m_u.dt = t;
    return v;
}
Value Value::tuple(std::vector<Value> items) {
    Value v;
    v.m_kind = ValueKind::Tuple;
    auto o = newSeqObj();
    o->items = std::move(items);
    v.m_obj = o;
    return v;
}
Value Value::list(std::vector<Value> items) {
    Value v = tuple(std::move(items));
    v.m_kind = ValueKind::List;
    return v;
}
Value Value::dict(std::vector<std::pair<Value, Value>> entries) {
    Value v;
    v.m_kind = ValueKind::Dict;
    auto o = newDictObj();
    for (auto& [k, val] : entries) o->set(k, std::move(val));
    v.m_obj = o;
    return v;
}
Value Value::range(int64_t start, int64_t stop, int64_t step) {
    Value v;
    v.m_kind = ValueKind::Range;
    auto o = newObj<RangeObj>();
    o->start = start;
    o->stop = stop;
    o->step = step;
    v.m_obj = o;
    return v;
}
Value Value::slice(Value lower, Value upper, Value step) {
    Value v;
    v.m_kind = ValueKind::Slice;
    auto o = newObj<SliceObj>();
    o->lower = std::move(lower);
    o->upper = std::move(upper);
    o->step = std::move(step);
    v.m_obj = o;
    return v;
}
Value Value::function(std::shared_ptr<FunctionObj> f) {
    Value v;
    v.m_kind = ValueKind::Function;
    v.m_obj = std::move(f);
    return v;
}
Value Value::builtin(std::string name, BuiltinFn fn) {
    Value v;
    v.m_kind = ValueKind::Builtin;
    auto o = newObj<BuiltinObj>();
    o->name = std::move(name);
    o->fn = std::move(fn);
    v.m_obj = o;
    return v;
}
Value Value::ns(std::shared_ptr<NamespaceObj> n) {
    Value v;
    v.m_kind = ValueKind::Namespace;
    v.m_obj = std::move(n);
    return v;
}
Value Value::ext(std::shared_ptr<ExtValue> e) {
    Value v;
    v.m_kind = ValueKind::Ext;
    v.m_obj = std::move(e);
    return v;
}
Value Value::poison(Diagnostic diag) {
    Value v;
    v.m_kind = ValueKind::Poison;
    auto o = newObj<PoisonObj>();
    o->diag = std::move(diag);
    v.m_obj = o;
    return v;
}

int64_t Value::asInt() const { return m_kind == ValueKind::Bool ? (m_u.b ? 1 : 0) : m_u.i; }
double Value::asFloat() const {
    if (m_kind == ValueKind::Float) return m_u.f;
    return static_cast<double>(asInt());
}
const std::string& Value::asStr() const { return static_cast<const StrObj*>(m_obj.get())->s; }
const std::vector<Value>& Value::items() const {
    static const std::vector<Value> kEmpty;
    return isSequence() ? static_cast<const SeqObj*>(m_obj.get())->items : kEmpty;
}
std::vector<Value>& Value::mutableItems() const { return static_cast<SeqObj*>(m_obj.get())->items; }
DictObj& Value::dictObj() const { return *static_cast<DictObj*>(m_obj.get()); }
const RangeObj& Value::rangeObj() const { return *static_cast<const RangeObj*>(m_obj.get()); }
const SliceObj& Value::sliceObj() const { return *static_cast<const SliceObj*>(m_obj.get()); }
std::shared_ptr<FunctionObj> Value::functionPtr() const {
    return std::static_pointer_cast<FunctionObj>(m_obj);
}
FunctionObj& Value::functionObj() const { return *static_cast<FunctionObj*>(m_obj.get()); }
BuiltinObj& Value::builtinObj() const { return *static_cast<BuiltinObj*>(m_obj.get()); }
NamespaceObj& Value::nsObj() const { return *static_cast<NamespaceObj*>(m_obj.get()); }
std::shared_ptr<NamespaceObj> Value::nsPtr() const {
    return std::static_pointer_cast<NamespaceObj>(m_obj);
}
const PoisonObj& Value::poisonObj() const { return *static_cast<const PoisonObj*>(m_obj.get()); }
std::shared_ptr<ExtValue> Value::extPtr() const {
    return std::static_pointer_cast<ExtValue>(m_obj);
}
ExtValue& Value::extObj() const { return *static_cast<ExtValue*>(m_obj.get()); }

Value* DictObj::find(const Value& key) {
    for (auto& [k, v] : entries)
        if (metaEquals(k, key)) return &v;
    return nullptr;
}
void DictObj::set(const Value& key, Value v) {
    if (Value* slot = find(key))
        *slot = std::move(v);
    else
        entries.emplace_back(key, std::move(v));
}
bool DictObj::erase(const Value& key) {
    for (auto it = entries.begin(); it != entries.end(); ++it)
        if (metaEquals(it->first, key)) {
            entries.erase(it);
            return true;
        }
    return false;
}

int64_t RangeObj::size() const {
    if (step > 0 && start < stop) return (stop - start + step - 1) / step;
    if (step < 0 && start > stop) return (start - stop - step - 1) / (-step);
    return 0;
}

const std::vector<ast::Param>& FunctionObj::params() const {
    return def ? def->params : lambda->params;
}
Span FunctionObj::span() const { return def ? def->nameSpan : lambda->span; }

Value* NamespaceObj::find(const std::string& n) {
    auto it = members.find(n);
    return it == members.end() ? nullptr : &it->second;
}

Value* Env::findLocal(const std::string& n) {
    auto it = vars.find(n);
    return it == vars.end() ? nullptr : &it->second;
}
Value* Env::lookup(const std::string& n) {
    for (Env* e = this; e; e = e->parent.get())
        if (Value* v = e->findLocal(n)) return v;
    return nullptr;
}
Env* Env::moduleEnv() {
    for (Env* e = this; e; e = e->parent.get())
        if (e->isModule) return e;
    return this;
}

// ---- CallArgs --------------------------------------------------------------------------------

CallArgs::Bound CallArgs::bind(const std::vector<std::string>& names, size_t required) const {
    Bound b;
    b.values.resize(names.size());
    b.spans.assign(names.size(), span);
    if (pos.size() > names.size())
        throw CompileError(argSpan(names.size()),
                           callee + "() takes " + (required == names.size() ? "" : "at most ") +
                               std::to_string(names.size()) + " positional argument" +
                               (names.size() == 1 ? "" : "s") + " but " +
                               std::to_string(pos.size()) + " were given");
    for (size_t i = 0; i < pos.size(); ++i) {
        b.values[i] = pos[i];
        b.spans[i] = argSpan(i);
    }
    for (size_t k = 0; k < kw.size(); ++k) {
        const std::string& name = kw[k].first;
        auto it = std::find(names.begin(), names.end(), name);
        Span ks = k < kwSpans.size() ? kwSpans[k] : span;
        if (it == names.end()) {
            std::string near = closestMatch(name, names);
            std::string known;
            for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
            throw CompileError(
                ks, callee + "() got an unexpected keyword argument '" + name + "'",
                near.empty() ? "accepted arguments: " + known : "did you mean '" + near + "'?");
        }
        size_t i = static_cast<size_t>(it - names.begin());
        if (b.values[i])
            throw CompileError(ks, callee + "() got multiple values for argument '" + name + "'");
        b.values[i] = kw[k].second;
        b.spans[i] = ks;
    }
    for (size_t i = 0; i < required; ++i)
        if (!b.values[i])
            throw CompileError(
                span, callee + "() missing required argument '" + names[i] + "'",
                "pass it as argument " + std::to_string(i + 1) + " or as " + names[i] + "=...");
    return b;
}

void CallArgs::expectPositional(size_t min, size_t max) const {
    if (!kw.empty())
        throw CompileError(kwSpans.empty() ? span : kwSpans[0],
                           callee + "() takes no keyword arguments");
    if (pos.size() < min || pos.size() > max) {
        std::string want = min == max        ? std::to_string(min)
                           : max == SIZE_MAX ? "at least " + std::to_string(min)
                                             : std::to_string(min) + " to " + std::to_string(max);
        // A T.* name says its signature (helper-124: `T.isnan(x, y)` had no hint).
        std::string hint;
        if (callee.rfind("T.", 0) == 0)
            if (const LangEntry* e = findLanguageEntry(std::string_view(callee).substr(2)))
                hint = "T." + std::string(e->signature);
        throw CompileError(pos.size() > max ? argSpan(max) : span,
                           callee + "() takes " + want + " argument" +
                               (max == 1 && min == 1 ? "" : "s") + " but " +
                               std::to_string(pos.size()) + (pos.size() == 1 ? " was" : " were") +
                               " given", hint);
    }
}

const Value* CallArgs::keyword(const std::string& name) const {
    for (const auto& [k, v] : kw)
        if (k == name) return &v;
    return nullptr;
}

// ---- printing and equality ------------------------------------------------------------------

std::string typeName(const Value& v) {
    switch (v.kind()) {
        case ValueKind::None:
            return "NoneType";
        case ValueKind::Bool:
            return "bool";
        case ValueKind::Int:
            return "int";
        case ValueKind::Float:
            return "float";
        case ValueKind::Str:
            return "str";
        case ValueKind::DType:
            return "dtype";
        case ValueKind::Tuple:
            return "tuple";
        case ValueKind::List:
            return "list";
        case ValueKind::Dict:
            return "dict";
        case ValueKind::Range:
            return "range";
        case ValueKind::Slice:
            return "slice";
        case ValueKind::Function:
            return "function";
        case ValueKind::Builtin:
            return "builtin_function_or_method";
        case ValueKind::Namespace:
            return "module";
        case ValueKind::Ext:
            return v.extObj().typeName();
        case ValueKind::Poison:
            return "undefined";
    }
    return "object";
}

std::string formatFloat(double f) {
    if (std::isnan(f)) return "nan";
    if (std::isinf(f)) return f > 0 ? "inf" : "-inf";
    if (f == 0) return std::signbit(f) ? "-0.0" : "0.0";
    // Shortest round-trip digits, laid out like Python's repr: positional for 1e-4 <= |f| < 1e16.
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, f, std::chars_format::scientific);
    std::string sci(buf, res.ptr);
    size_t e = sci.find('e');
    std::string mant = sci.substr(0, e);
    int exp = std::stoi(sci.substr(e + 1));
    bool neg = mant[0] == '-';
    if (neg) mant.erase(0, 1);
    std::string digits;
    for (char c : mant)
        if (c != '.') digits += c;
    std::string out;
    if (exp >= -4 && exp < 16) {
        if (exp >= 0) {
            if (digits.size() <= static_cast<size_t>(exp) + 1) {
                out =
                    digits + std::string(static_cast<size_t>(exp) + 1 - digits.size(), '0') + ".0";
            } else {
                out = digits.substr(0, static_cast<size_t>(exp) + 1) + "." +
                      digits.substr(static_cast<size_t>(exp) + 1);
            }
        } else {
            out = "0." + std::string(static_cast<size_t>(-exp - 1), '0') + digits;
        }
    } else {
        out = digits.substr(0, 1);
        if (digits.size() > 1) out += "." + digits.substr(1);
        char eb[16];
        std::snprintf(eb, sizeof eb, "e%c%02d", exp < 0 ? '-' : '+', std::abs(exp));
        out += eb;
    }
    return neg ? "-" + out : out;
}

namespace {
std::string quoteStr(const std::string& s) {
    bool hasSingle = s.find('\'') != std::string::npos,
         hasDouble = s.find('"') != std::string::npos;
    char q = hasSingle && !hasDouble ? '"' : '\'';
    std::string out(1, q);
    for (char c : s) {
        switch (c) {
            case '\n':
                out += "\\n";
                break;
            case '\t':
                out += "\\t";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\\':
                out += "\\\\";
                break;
            default:
                if (c == q) out += '\\';
                out += c;
        }
    }
    return out + q;
}
}  // namespace

Value::~Value() {
    if (!m_obj || m_obj.use_count() != 1) return;  // not the last handle: just a decrement
    constexpr int kMaxNestedRelease = 256;
    thread_local int depth = 0;
    thread_local std::vector<std::shared_ptr<Object>> deferred;
    if (depth >= kMaxNestedRelease) {
        deferred.push_back(std::move(m_obj));
        return;
    }
    ++depth;
    m_obj.reset();
    while (depth == 1 && !deferred.empty()) {
        std::shared_ptr<Object> o = std::move(deferred.back());
        deferred.pop_back();
        o.reset();  // may queue more
    }
    --depth;
}

namespace {
// Nesting below which repr() prints "..." and beyond which metaEquals() gives up: both recurse on
// the structure. A container that contains itself (`a.append(a)`) is printed as Python does,
// `[...]` where it recurs (the containers being printed are on g_reprActive, Python's
// Py_ReprEnter), and compares equal to itself by identity before any recursion (Python's
// PyObject_RichCompareBool): both were exponential in the width (`a.append(a)` twice: 2^64).
// Shared sublists that are not cycles (`x = [x, x]` n times) have an exponential expansion in
// Python too: repr() stops expanding after about kMaxReprChars characters ("..." for the rest)
// and a comparison that visits more than kMaxCompareNodes containers is an error (a flat list
// is one: the step budget charges its elements).
constexpr int kMaxReprDepth = 64;
constexpr int kMaxCompareDepth = 200;
constexpr size_t kMaxReprChars = size_t(1) << 18;
constexpr uint64_t kMaxCompareNodes = 200000;
thread_local int g_reprDepth = 0;
thread_local int g_compareDepth = 0;
thread_local size_t g_reprChars = 0;  // characters of element reprs in the running top-level repr()
thread_local uint64_t g_compareNodes = 0;  // containers visited by the running top-level metaEquals()
thread_local std::vector<const Object*> g_reprActive;
struct DepthScope {
    int& d;
    explicit DepthScope(int& depth) : d(depth) { ++d; }
    ~DepthScope() { --d; }
};
struct ReprEnter {
    explicit ReprEnter(const Object* o) { g_reprActive.push_back(o); }
    ~ReprEnter() { g_reprActive.pop_back(); }
    ReprEnter(const ReprEnter&) = delete;
    ReprEnter& operator=(const ReprEnter&) = delete;
};
bool reprActive(const Object* o) {
    return o && std::find(g_reprActive.begin(), g_reprActive.end(), o) != g_reprActive.end();
}
// repr() of a container element; the separator counts against kMaxReprChars.
std::string elementRepr(const Value& v) {
    g_reprChars += 2;
    return repr(v);
}
std::string reprNode(const Value& v);
}  // namespace

// g_reprChars approximates the length of the output so far: every leaf's text, 2 per container
// (brackets) and 2 per element (separator).
std::string repr(const Value& v) {
    DepthScope scope(g_reprDepth);
    if (g_reprDepth == 1) g_reprChars = 0;
    bool container = v.isSequence() || v.is(ValueKind::Dict) || v.is(ValueKind::Slice);
    std::string out;
    if (container && (g_reprDepth > kMaxReprDepth || g_reprChars > kMaxReprChars)) {
        out = "...";
    } else if ((v.isSequence() || v.is(ValueKind::Dict)) && reprActive(v.identity())) {
        out = v.is(ValueKind::List) ? "[...]" : v.is(ValueKind::Tuple) ? "(...)" : "{...}";
    } else if (container) {
        g_reprChars += 2;
        std::optional<ReprEnter> enter;
        if (v.identity()) enter.emplace(v.identity());
        return reprNode(v);
    } else {
        out = reprNode(v);
    }
    g_reprChars += out.size();
    return out;
}

namespace {
std::string reprNode(const Value& v) {
    switch (v.kind()) {
        case ValueKind::None:
            return "None";
        case ValueKind::Bool:
            return v.asBool() ? "True" : "False";
        case ValueKind::Int:
            return std::to_string(v.asInt());
        case ValueKind::Float:
            return formatFloat(v.asFloat());
        case ValueKind::Str:
            return quoteStr(v.asStr());
        case ValueKind::DType:
            return std::string(ir::dtypeName(v.asDType()));
        case ValueKind::Tuple:
        case ValueKind::List: {
            bool t = v.is(ValueKind::Tuple);
            std::string out = t ? "(" : "[";
            const auto& items = v.items();
            for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + elementRepr(items[i]);
            if (t && items.size() == 1) out += ",";
            return out + (t ? ")" : "]");
        }
        case ValueKind::Dict: {
            std::string out = "{";
            bool first = true;
            for (const auto& [k, val] : v.dictObj().entries) {
                out += (first ? "" : ", ") + elementRepr(k) + ": " + elementRepr(val);
                first = false;
            }
            return out + "}";
        }
        case ValueKind::Range: {
            const auto& r = v.rangeObj();
            return "range(" + std::to_string(r.start) + ", " + std::to_string(r.stop) +
                   (r.step == 1 ? "" : ", " + std::to_string(r.step)) + ")";
        }
        case ValueKind::Slice: {
            const auto& s = v.sliceObj();
            return "slice(" + repr(s.lower) + ", " + repr(s.upper) + ", " + repr(s.step) + ")";
        }
        case ValueKind::Function:
            return "<function " + v.functionObj().name + ">";
        case ValueKind::Builtin:
            return "<built-in function " + v.builtinObj().name + ">";
        case ValueKind::Namespace:
            return "<module '" + v.nsObj().name + "'>";
        case ValueKind::Ext:
            return v.extObj().repr();
        case ValueKind::Poison:
            return "<undefined>";
    }
    return "?";
}
}  // namespace

std::string str(const Value& v) { return v.is(ValueKind::Str) ? v.asStr() : repr(v); }

std::optional<ir::DType> asDType(const Value& v) {
    if (v.is(ValueKind::DType)) return v.asDType();
    if (v.is(ValueKind::Str)) return ir::parseDType(v.asStr());
    // Python's bool as a dtype (TVM and torch both read it as bool; `--ref-param dst=bool` passes
    // the builtin). Not int / float: torch reads float as float64 where TVM reads float32.
    if (v.is(ValueKind::Builtin) && v.builtinObj().name == "bool") return ir::DType::Bool;
    return std::nullopt;
}

bool metaEquals(const Value& a, const Value& b) {
    DepthScope scope(g_compareDepth);
    if (g_compareDepth == 1) g_compareNodes = 0;
    if (g_compareDepth > kMaxCompareDepth)
        throw CompileError(
            Span{},
            "comparison nested more than " + std::to_string(kMaxCompareDepth) + " levels deep",
            "compare values with fewer levels of nested lists/tuples/dicts");
    bool container = a.isSequence() || a.is(ValueKind::Dict);
    if (container && ++g_compareNodes > kMaxCompareNodes)
        throw CompileError(Span{},
                           "comparison visits more than " + std::to_string(kMaxCompareNodes) +
                               " nested lists/tuples/dicts (lists that share sublists expand "
                               "exponentially)",
                           "compare smaller values");
    // The same list, tuple or dict object: equal without looking inside (Python compares
    // elements by identity first), so a list that contains itself compares in O(1).
    if (container && a.kind() == b.kind() && a.identity() &&
        a.identity() == b.identity())
        return true;
    if (a.isNumber() && b.isNumber()) {
        if (a.isIntLike() && b.isIntLike()) return a.asInt() == b.asInt();
        return a.asFloat() == b.asFloat();
    }
    if (a.is(ValueKind::DType) || b.is(ValueKind::DType)) {
        auto da = asDType(a), db = asDType(b);
        return da && db && *da == *db;
    }
    if (a.kind() != b.kind()) return false;
    switch (a.kind()) {
        case ValueKind::None:
            return true;
        case ValueKind::Str:
            return a.asStr() == b.asStr();
        case ValueKind::Tuple:
        case ValueKind::List: {
            const auto &x = a.items(), &y = b.items();
            if (x.size() != y.size()) return false;
            for (size_t i = 0; i < x.size(); ++i)
                if (!metaEquals(x[i], y[i])) return false;
            return true;
        }
        case ValueKind::Dict: {
            auto& x = a.dictObj();
            auto& y = b.dictObj();
            if (x.entries.size() != y.entries.size()) return false;
            for (auto& [k, v] : x.entries) {
                Value* o = y.find(k);
                if (!o || !metaEquals(v, *o)) return false;
            }
            return true;
        }
        case ValueKind::Range: {
            const auto &x = a.rangeObj(), &y = b.rangeObj();
            if (x.size() != y.size()) return false;
            return x.size() == 0 || (x.start == y.start && (x.size() == 1 || x.step == y.step));
        }
        default:
            return a.identity() == b.identity();
    }
}

std::string closestMatch(std::string_view name, const std::vector<std::string>& candidates) {
    auto lower = [](std::string_view v) {
        std::string l(v);
        for (char& ch : l) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        return l;
    };
    // Edit distance counting a swap of two neighbours as one edit (optimal string alignment):
    // `T.cpoy` is one slip from `T.copy`. Lower-cased once: this runs for every unknown name an
    // evaluation meets (the call-site search tries many), over every member of a namespace.
    std::vector<size_t> prev2, prev, cur;
    auto dist = [&](const std::string& a, const std::string& b) {
        prev2.assign(b.size() + 1, 0);
        prev.resize(b.size() + 1);
        cur.assign(b.size() + 1, 0);
        for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
        for (size_t i = 1; i <= a.size(); ++i) {
            cur[0] = i;
            for (size_t j = 1; j <= b.size(); ++j) {
                cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
                if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) cur[j] = std::min(cur[j], prev2[j - 2] + 1);
            }
            prev2.swap(prev);
            prev.swap(cur);
        }
        return prev[b.size()];
    };
    std::string best;
    size_t bestD = std::max<size_t>(1, name.size() / 3) + 1;
    // A name that starts another ("coalesced" -> "coalesced_width") is a likely abbreviation.
    if (name.size() >= 4)
        for (const auto& c : candidates)
            if (c.size() > name.size() && c.compare(0, name.size(), name) == 0) return c;
    if (name.size() < 3) return best;  // one- and two-letter names match everything
    const std::string n = lower(name);
    for (const auto& c : candidates) {
        if (c == name) continue;
        // The distance is at least the difference in length: skip what cannot beat the best.
        const size_t gap = c.size() > n.size() ? c.size() - n.size() : n.size() - c.size();
        if (gap >= bestD) continue;
        size_t d = dist(n, lower(c));
        if (d < bestD) {
            bestD = d;
            best = c;
        }
    }
    return best;
}

}  // namespace ts::fe
