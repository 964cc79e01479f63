// Methods of builtin meta values (str, list, tuple, dict, int, float), returned as builtins
// bound to their receiver: `"x".join(...)`, `configs.append(...)`, `d.items()`.
#include <algorithm>
#include <cmath>

#include "compiler/frontend/MetaBuiltins.h"
#include "compiler/frontend/MetaEval.h"

namespace ts::fe {

using namespace meta;

namespace {

std::vector<std::string> splitStr(const std::string& s, const Value& sep, int64_t maxsplit,
                                  Span sp) {
    std::vector<std::string> out;
    if (sep.isNone()) {
        size_t i = 0;
        while (i < s.size()) {
            while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
            if (i >= s.size()) break;
            if (maxsplit >= 0 && static_cast<int64_t>(out.size()) == maxsplit) {
                size_t e = s.size();
                while (e > i && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
                out.push_back(s.substr(i, e - i));
                return out;
            }
            size_t j = i;
            while (j < s.size() && !std::isspace(static_cast<unsigned char>(s[j]))) ++j;
            out.push_back(s.substr(i, j - i));
            i = j;
        }
        return out;
    }
    if (!sep.is(ValueKind::Str) || sep.asStr().empty())
        throw CompileError(sp, "split(): empty or non-string separator");
    const std::string& d = sep.asStr();
    size_t start = 0;
    while (true) {
        size_t p = s.find(d, start);
        if (p == std::string::npos ||
            (maxsplit >= 0 && static_cast<int64_t>(out.size()) == maxsplit))
            break;
        out.push_back(s.substr(start, p - start));
        start = p + d.size();
    }
    out.push_back(s.substr(start));
    return out;
}

std::string stripStr(const std::string& s, const CallArgs& a, bool left, bool right) {
    std::string chars = " \t\n\r\f\v";
    if (!a.pos.empty() && a.pos[0].is(ValueKind::Str)) chars = a.pos[0].asStr();
    size_t b = 0, e = s.size();
    if (left)
        while (b < e && chars.find(s[b]) != std::string::npos) ++b;
    if (right)
        while (e > b && chars.find(s[e - 1]) != std::string::npos) --e;
    return s.substr(b, e - b);
}

Value strMethod(Interp& in, const Value& self, const std::string& name, CallArgs& a) {
    const std::string& s = self.asStr();
    // Every str method reads the string once, some piece by piece (split, replace): charged
    // per character like a sequence's items.
    in.chargeItems(a.span, s.size());
    if (name == "format") return Value::str(strFormat(s, a));
    if (name == "join") {
        a.expectPositional(1, 1);
        std::string out;
        bool first = true;
        for (const Value& v : in.iterate(a.pos[0], a.argSpan(0))) {
            if (!v.is(ValueKind::Str))
                throw CompileError(a.argSpan(0),
                                   "join(): expected str items, found " + typeName(v));
            out += (first ? "" : s) + v.asStr();
            first = false;
        }
        return Value::str(out);
    }
    if (name == "split") {
        auto b = a.bind({"sep", "maxsplit"}, 0);
        std::vector<Value> out;
        for (auto& part :
             splitStr(s, b.get(0, Value::none()), b.has(1) ? b[1].asInt() : -1, a.span))
            out.push_back(Value::str(part));
        return Value::list(std::move(out));
    }
    if (name == "strip") return Value::str(stripStr(s, a, true, true));
    if (name == "lstrip") return Value::str(stripStr(s, a, true, false));
    if (name == "rstrip") return Value::str(stripStr(s, a, false, true));
    if (name == "lower" || name == "upper") {
        a.expectPositional(0, 0);
        std::string out = s;
        std::transform(out.begin(), out.end(), out.begin(),
                       name == "lower" ? ::tolower : ::toupper);
        return Value::str(out);
    }
    if (name == "startswith" || name == "endswith") {
        a.expectPositional(1, 1);
        std::vector<Value> opts =
            a.pos[0].is(ValueKind::Tuple) ? a.pos[0].items() : std::vector<Value>{a.pos[0]};
        for (const Value& o : opts) {
            if (!o.is(ValueKind::Str))
                throw CompileError(a.argSpan(0), name + "(): expected a str");
            const std::string& p = o.asStr();
            bool hit = p.size() <= s.size() &&
                       (name == "startswith" ? s.compare(0, p.size(), p) == 0
                                             : s.compare(s.size() - p.size(), p.size(), p) == 0);
            if (hit) return Value::boolean(true);
        }
        return Value::boolean(false);
    }
    if (name == "replace") {
        a.expectPositional(2, 3);
        if (!a.pos[0].is(ValueKind::Str) || !a.pos[1].is(ValueKind::Str))
            throw CompileError(a.span, "replace(): expected str arguments");
        const std::string &from = a.pos[0].asStr(), &to = a.pos[1].asStr();
        int64_t count = a.pos.size() > 2 ? needInt(a, 2, "count") : -1;
        std::string out;
        size_t i = 0;
        while (count != 0) {
            size_t p = from.empty() ? (i <= s.size() ? i : std::string::npos) : s.find(from, i);
            if (p == std::string::npos) break;
            out += s.substr(i, p - i) + to;
            if (from.empty()) {
                if (p < s.size()) out += s[p];
                i = p + 1;
            } else {
                i = p + from.size();
            }
            --count;
        }
        if (i <= s.size()) out += s.substr(i);
        return Value::str(out);
    }
    if (name == "find" || name == "count") {
        a.expectPositional(1, 1);
        if (!a.pos[0].is(ValueKind::Str))
            throw CompileError(a.argSpan(0), name + "(): expected a str");
        const std::string& sub = a.pos[0].asStr();
        if (name == "find") {
            size_t p = s.find(sub);
            return Value::integer(p == std::string::npos ? -1 : static_cast<int64_t>(p));
        }
        if (sub.empty()) return Value::integer(static_cast<int64_t>(s.size()) + 1);
        int64_t n = 0;
        for (size_t p = s.find(sub); p != std::string::npos; p = s.find(sub, p + sub.size())) ++n;
        return Value::integer(n);
    }
    if (name == "isdigit") {
        a.expectPositional(0, 0);
        return Value::boolean(!s.empty() && std::all_of(s.begin(), s.end(), ::isdigit));
    }
    return Value::none();  // unreachable: names are checked by the caller
}

int64_t indexOf(const std::vector<Value>& items, const Value& x, const CallArgs& a,
                const std::string& type) {
    for (size_t i = 0; i < items.size(); ++i)
        if (metaEquals(items[i], x)) return static_cast<int64_t>(i);
    throw CompileError(a.span, repr(x) + " is not in " + type);
}

Value seqMethod(Interp& in, const Value& self, const std::string& name, CallArgs& a) {
    const std::vector<Value>& items = self.items();
    // Linear in the length: all but append/pop/clear (extend is charged by iterate).
    if (name != "append" && name != "pop" && name != "clear" && name != "extend")
        in.chargeItems(a.span, items.size());
    if (name == "index") {
        a.expectPositional(1, 1);
        return Value::integer(indexOf(items, a.pos[0], a, typeName(self)));
    }
    if (name == "count") {
        a.expectPositional(1, 1);
        return Value::integer(std::count_if(
            items.begin(), items.end(), [&](const Value& v) { return metaEquals(v, a.pos[0]); }));
    }
    std::vector<Value>& m = self.mutableItems();
    if (name == "append") {
        a.expectPositional(1, 1);
        if (m.size() >= in.limits().maxSequence)
            throw CompileError(a.span, "list grew beyond the compile-time size limit");
        m.push_back(a.pos[0]);
        return Value::none();
    }
    if (name == "extend") {
        a.expectPositional(1, 1);
        auto add = in.iterate(a.pos[0], a.argSpan(0));
        m.insert(m.end(), add.begin(), add.end());
        return Value::none();
    }
    if (name == "insert") {
        a.expectPositional(2, 2);
        int64_t n = static_cast<int64_t>(m.size()), i = needInt(a, 0, "index");
        if (i < 0) i = std::max<int64_t>(0, i + n);
        m.insert(m.begin() + std::min(i, n), a.pos[1]);
        return Value::none();
    }
    if (name == "pop") {
        a.expectPositional(0, 1);
        if (m.empty()) throw CompileError(a.span, "pop from empty list");
        int64_t n = static_cast<int64_t>(m.size()),
                i = a.pos.empty() ? n - 1 : needInt(a, 0, "index");
        if (i < 0) i += n;
        if (i < 0 || i >= n) throw CompileError(a.span, "pop index out of range");
        Value v = m[static_cast<size_t>(i)];
        m.erase(m.begin() + i);
        return v;
    }
    if (name == "remove") {
        a.expectPositional(1, 1);
        m.erase(m.begin() + indexOf(m, a.pos[0], a, "list"));
        return Value::none();
    }
    if (name == "copy") return Value::list(m);
    if (name == "clear") {
        m.clear();
        return Value::none();
    }
    if (name == "reverse") {
        std::reverse(m.begin(), m.end());
        return Value::none();
    }
    if (name == "sort") {
        auto b = a.bind({"key", "reverse"}, 0);
        sortValues(in, m, b.has(0) && !b[0].isNone() ? &*b.values[0] : nullptr,
                   b.has(1) && in.truthy(b[1], a.span), a.span);
        return Value::none();
    }
    return Value::none();
}

Value dictMethod(Interp& in, const Value& self, const std::string& name, CallArgs& a) {
    DictObj& d = self.dictObj();
    in.chargeItems(a.span, d.entries.size());  // a linear search or a copy of the entries
    auto pairs = [&](int which) {
        std::vector<Value> out;
        for (auto& [k, v] : d.entries)
            out.push_back(which == 0 ? k : which == 1 ? v : Value::tuple({k, v}));
        return Value::list(std::move(out));
    };
    if (name == "keys") return pairs(0);
    if (name == "values") return pairs(1);
    if (name == "items") return pairs(2);
    if (name == "get") {
        a.expectPositional(1, 2);
        Value* v = d.find(a.pos[0]);
        return v ? *v : a.pos.size() > 1 ? a.pos[1] : Value::none();
    }
    if (name == "pop") {
        a.expectPositional(1, 2);
        if (Value* v = d.find(a.pos[0])) {
            Value r = *v;
            d.erase(a.pos[0]);
            return r;
        }
        if (a.pos.size() > 1) return a.pos[1];
        throw CompileError(a.span, "key " + repr(a.pos[0]) + " not found in dict");
    }
    if (name == "setdefault") {
        a.expectPositional(1, 2);
        if (Value* v = d.find(a.pos[0])) return *v;
        Value dv = a.pos.size() > 1 ? a.pos[1] : Value::none();
        d.set(a.pos[0], dv);
        return dv;
    }
    if (name == "update") {
        if (a.pos.size() > 1)
            throw CompileError(a.span, "update() expected at most 1 positional argument");
        if (!a.pos.empty()) {
            if (!a.pos[0].is(ValueKind::Dict))
                throw CompileError(a.argSpan(0), "update() expects a dict");
            for (auto& [k, v] : a.pos[0].dictObj().entries) d.set(k, v);
        }
        for (auto& [k, v] : a.kw) d.set(Value::str(k), v);
        return Value::none();
    }
    if (name == "copy") return Value::dict(d.entries);
    if (name == "clear") {
        d.entries.clear();
        return Value::none();
    }
    return Value::none();
}

const std::vector<std::string>& methodNames(ValueKind k) {
    static const std::vector<std::string> kStr{
        "format", "join",       "split",    "strip",   "lstrip", "rstrip", "lower",
        "upper",  "startswith", "endswith", "replace", "find",   "count",  "isdigit"};
    static const std::vector<std::string> kList{"index",  "count",   "append", "extend",
                                                "insert", "pop",     "remove", "copy",
                                                "clear",  "reverse", "sort"};
    static const std::vector<std::string> kTuple{"index", "count"};
    static const std::vector<std::string> kDict{"keys",       "values", "items", "get",  "pop",
                                                "setdefault", "update", "copy",  "clear"};
    static const std::vector<std::string> kInt{"bit_length"};
    static const std::vector<std::string> kFloat{"is_integer"};
    static const std::vector<std::string> kNone;
    switch (k) {
        case ValueKind::Str:
            return kStr;
        case ValueKind::List:
            return kList;
        case ValueKind::Tuple:
            return kTuple;
        case ValueKind::Dict:
            return kDict;
        case ValueKind::Int:
        case ValueKind::Bool:
            return kInt;
        case ValueKind::Float:
            return kFloat;
        default:
            return kNone;
    }
}

}  // namespace

Value Interp::methodOf(const Value& obj, const std::string& name, Span s) {
    const auto& names = methodNames(obj.kind());
    if (std::find(names.begin(), names.end(), name) == names.end()) {
        std::string near = closestMatch(name, names);
        throw CompileError(s, "'" + typeName(obj) + "' object has no attribute '" + name + "'",
                           near.empty() ? "" : "did you mean '" + near + "'?");
    }
    std::string qualified = typeName(obj) + "." + name;
    return Value::builtin(qualified, [obj, name, qualified](Interp& in, CallArgs& a) -> Value {
        a.callee = qualified;
        switch (obj.kind()) {
            case ValueKind::Str:
                return strMethod(in, obj, name, a);
            case ValueKind::List:
            case ValueKind::Tuple:
                return seqMethod(in, obj, name, a);
            case ValueKind::Dict:
                return dictMethod(in, obj, name, a);
            case ValueKind::Int:
            case ValueKind::Bool: {
                a.expectPositional(0, 0);
                uint64_t u = static_cast<uint64_t>(obj.asInt() < 0 ? -obj.asInt() : obj.asInt());
                return Value::integer(u == 0 ? 0 : 64 - __builtin_clzll(u));
            }
            case ValueKind::Float:
                a.expectPositional(0, 0);
                return Value::boolean(std::isfinite(obj.asFloat()) &&
                                      obj.asFloat() == std::floor(obj.asFloat()));
            default:
                return Value::none();
        }
    });
}

}  // namespace ts::fe
