// Python builtins of the meta level (range, len, min, max, int, zip, sorted, ...) and the
// methods of builtin values (str.join, list.append, dict.items, ...). Each follows CPython's
// behaviour for the argument kinds a tile program's meta code uses; anything else is a
// diagnostic naming the call.
#include "compiler/frontend/MetaBuiltins.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "compiler/frontend/MetaEval.h"

namespace ts::fe {

namespace meta {

int64_t needInt(const CallArgs& a, size_t i, const std::string& what) {
    const Value& v = a.pos[i];
    if (v.isIntLike()) return v.asInt();
    std::string hint = v.is(ValueKind::Ext) ? "this value is only known at run time" : "";
    throw CompileError(a.argSpan(i),
                       a.callee + "() " + what + " must be an int, not " + typeName(v), hint);
}

double needFloat(const CallArgs& a, size_t i) {
    const Value& v = a.pos[i];
    if (v.isNumber()) return v.asFloat();
    std::string hint = v.is(ValueKind::Ext)
                           ? "for run-time values use the T.* intrinsic (T.exp, T.sqrt, ...)"
                           : "";
    throw CompileError(a.argSpan(i), a.callee + "() argument must be a number, not " + typeName(v),
                       hint);
}

bool less(Interp& in, const Value& a, const Value& b, Span s) {
    return in.truthy(in.compareOp(ast::CmpOpKind::Lt, a, b, s), s);
}

Value callWith(Interp& in, const Value& fn, std::vector<Value> args, Span s,
               const std::string& name) {
    CallArgs c;
    c.pos = std::move(args);
    c.posSpans.assign(c.pos.size(), s);
    c.span = s;
    c.callee = name;
    return in.call(fn, c);
}

int64_t floatToInt(double f, Span s) {
    if (std::isnan(f)) throw CompileError(s, "cannot convert float NaN to integer");
    if (std::isinf(f)) throw CompileError(s, "cannot convert float infinity to integer");
    if (f >= 9.2233720368547758e18 || f < -9.2233720368547758e18)
        throw CompileError(s, "float " + formatFloat(f) + " does not fit in a 64-bit integer");
    return static_cast<int64_t>(f);
}

// Python format-spec mini-language: [[fill]align][sign][0][width][,][.precision][type]
std::string formatWithSpec(const Value& v, const std::string& spec, Span s) {
    size_t i = 0;
    char fill = ' ', align = 0, sign = '-', type = 0;
    bool grouping = false;
    int width = 0, precision = -1;
    auto isAlign = [](char c) { return c == '<' || c == '>' || c == '^' || c == '='; };
    if (spec.size() >= 2 && isAlign(spec[1])) {
        fill = spec[0];
        align = spec[1];
        i = 2;
    } else if (!spec.empty() && isAlign(spec[0])) {
        align = spec[0];
        i = 1;
    }
    if (i < spec.size() && (spec[i] == '+' || spec[i] == '-' || spec[i] == ' ')) sign = spec[i++];
    if (i < spec.size() && spec[i] == '#') ++i;
    if (i < spec.size() && spec[i] == '0') {
        if (!align) {
            fill = '0';
            align = '=';
        }
        ++i;
    }
    while (i < spec.size() && std::isdigit(static_cast<unsigned char>(spec[i])))
        width = width * 10 + (spec[i++] - '0');
    if (i < spec.size() && (spec[i] == ',' || spec[i] == '_')) grouping = true, ++i;
    if (i < spec.size() && spec[i] == '.') {
        precision = 0;
        ++i;
        while (i < spec.size() && std::isdigit(static_cast<unsigned char>(spec[i])))
            precision = precision * 10 + (spec[i++] - '0');
    }
    if (i < spec.size()) type = spec[i++];
    if (i != spec.size()) throw CompileError(s, "invalid format specifier '" + spec + "'");

    std::string body;
    bool numeric = v.isNumber();
    if (!numeric) {
        body = str(v);
        if (precision >= 0 && static_cast<size_t>(precision) < body.size())
            body.resize(static_cast<size_t>(precision));
    } else {
        char buf[512];
        double f = v.asFloat();
        bool neg = v.isIntLike() ? v.asInt() < 0 : std::signbit(f);
        switch (type) {
            case 'd':
            case 0:
                if (v.isIntLike() || type == 'd') {
                    if (!v.isIntLike()) throw CompileError(s, "format code 'd' needs an integer");
                    body = std::to_string(v.asInt() < 0 ? -v.asInt() : v.asInt());
                } else if (precision >= 0) {
                    std::snprintf(buf, sizeof buf, "%.*g", precision, std::fabs(f));
                    body = buf;
                } else {
                    body = formatFloat(std::fabs(f));
                }
                break;
            case 'f':
            case 'F':
                std::snprintf(buf, sizeof buf, "%.*f", precision < 0 ? 6 : precision, std::fabs(f));
                body = buf;
                break;
            case 'e':
            case 'E':
                std::snprintf(buf, sizeof buf, type == 'e' ? "%.*e" : "%.*E",
                              precision < 0 ? 6 : precision, std::fabs(f));
                body = buf;
                break;
            case 'g':
            case 'G':
                std::snprintf(buf, sizeof buf, "%.*g", precision < 0 ? 6 : precision, std::fabs(f));
                body = buf;
                break;
            case '%':
                std::snprintf(buf, sizeof buf, "%.*f%%", precision < 0 ? 6 : precision,
                              std::fabs(f) * 100);
                body = buf;
                break;
            case 'x':
            case 'X':
            case 'b':
            case 'o': {
                if (!v.isIntLike())
                    throw CompileError(s,
                                       std::string("format code '") + type + "' needs an integer");
                uint64_t u = static_cast<uint64_t>(v.asInt() < 0 ? -v.asInt() : v.asInt());
                int base = type == 'b' ? 2 : type == 'o' ? 8 : 16;
                do {
                    int d = static_cast<int>(u % static_cast<uint64_t>(base));
                    body.insert(
                        body.begin(),
                        static_cast<char>(d < 10 ? '0' + d : (type == 'X' ? 'A' : 'a') + d - 10));
                    u /= static_cast<uint64_t>(base);
                } while (u);
                break;
            }
            default:
                throw CompileError(
                    s, std::string("unknown format code '") + type + "' for " + typeName(v));
        }
        if (grouping) {
            size_t end = body.find_first_of(".eE%");
            if (end == std::string::npos) end = body.size();
            for (int p = static_cast<int>(end) - 3; p > 0; p -= 3)
                body.insert(static_cast<size_t>(p), ",");
        }
        std::string signStr = neg ? "-" : sign == '+' ? "+" : sign == ' ' ? " " : "";
        if (align == '=' && width > 0) {
            int pad = width - static_cast<int>(signStr.size() + body.size());
            return signStr + std::string(static_cast<size_t>(std::max(pad, 0)), fill) + body;
        }
        body = signStr + body;
    }
    int pad = width - static_cast<int>(body.size());
    if (pad <= 0) return body;
    char a = align ? align : numeric ? '>' : '<';
    if (a == '<') return body + std::string(static_cast<size_t>(pad), fill);
    if (a == '^')
        return std::string(static_cast<size_t>(pad / 2), fill) + body +
               std::string(static_cast<size_t>(pad - pad / 2), fill);
    return std::string(static_cast<size_t>(pad), fill) + body;
}

std::string strFormat(const std::string& fmt, const CallArgs& a) {
    std::string out;
    size_t autoIdx = 0;
    for (size_t i = 0; i < fmt.size(); ++i) {
        char c = fmt[i];
        if (c == '}') {
            if (i + 1 < fmt.size() && fmt[i + 1] == '}') ++i;
            out += '}';
            continue;
        }
        if (c != '{') {
            out += c;
            continue;
        }
        if (i + 1 < fmt.size() && fmt[i + 1] == '{') {
            out += '{';
            ++i;
            continue;
        }
        size_t close = fmt.find('}', i);
        if (close == std::string::npos)
            throw CompileError(a.span, "single '{' encountered in format string");
        std::string field = fmt.substr(i + 1, close - i - 1);
        i = close;
        std::string spec, conv;
        if (size_t colon = field.find(':'); colon != std::string::npos) {
            spec = field.substr(colon + 1);
            field.resize(colon);
        }
        if (size_t bang = field.find('!'); bang != std::string::npos) {
            conv = field.substr(bang + 1);
            field.resize(bang);
        }
        const Value* v = nullptr;
        if (field.empty() || std::all_of(field.begin(), field.end(), ::isdigit)) {
            size_t idx = field.empty() ? autoIdx++ : static_cast<size_t>(std::stoul(field));
            if (idx >= a.pos.size())
                throw CompileError(a.span, "format index " + std::to_string(idx) + " out of range");
            v = &a.pos[idx];
        } else {
            v = a.keyword(field);
            if (!v)
                throw CompileError(a.span, "format field '" + field + "' has no keyword argument");
        }
        Value shown = conv == "r" ? Value::str(repr(*v)) : *v;
        out += formatWithSpec(shown, spec, a.span);
    }
    return out;
}

}  // namespace meta

using namespace meta;

void Interp::installBuiltins() {
    auto def = [&](const std::string& name, BuiltinFn fn) {
        m_builtins->vars[name] = Value::builtin(name, std::move(fn));
    };

    def("range", [](Interp& in, CallArgs& a) {
        a.expectPositional(1, 3);
        int64_t start = 0, stop, step = 1;
        if (a.pos.size() == 1) {
            stop = needInt(a, 0, "argument");
        } else {
            start = needInt(a, 0, "start");
            stop = needInt(a, 1, "stop");
            if (a.pos.size() == 3) step = needInt(a, 2, "step");
        }
        if (step == 0) throw CompileError(a.argSpan(2), "range() step must not be zero");
        return Value::range(start, stop, step);
    });
    def("len", [](Interp& in, CallArgs& a) {
        a.expectPositional(1, 1);
        return Value::integer(in.length(a.pos[0], a.argSpan(0)));
    });
    auto minmax = [](bool isMax) {
        return [isMax](Interp& in, CallArgs& a) {
            const Value* key = a.keyword("key");
            const Value* dflt = a.keyword("default");
            for (size_t k = 0; k < a.kw.size(); ++k)
                if (a.kw[k].first != "key" && a.kw[k].first != "default")
                    throw CompileError(
                        a.kwSpans[k],
                        a.callee + "() got an unexpected keyword argument '" + a.kw[k].first + "'");
            if (a.pos.empty())
                throw CompileError(a.span, a.callee + "() expects at least 1 argument, got 0");
            std::vector<Value> items =
                a.pos.size() == 1 ? in.iterate(a.pos[0], a.argSpan(0)) : a.pos;
            if (items.empty()) {
                if (dflt) return *dflt;
                throw CompileError(a.span, a.callee + "() arg is an empty sequence");
            }
            for (const Value& v : items)
                if (v.is(ValueKind::Ext))
                    throw CompileError(
                        a.span, a.callee + "() of a value known only at run time",
                        std::string("use T.") + (isMax ? "max" : "min") + "(a, b) inside a kernel");
            Value best = items[0];
            Value bestKey = key ? callWith(in, *key, {best}, a.span, "key") : best;
            for (size_t i = 1; i < items.size(); ++i) {
                Value k = key ? callWith(in, *key, {items[i]}, a.span, "key") : items[i];
                if (isMax ? less(in, bestKey, k, a.span) : less(in, k, bestKey, a.span)) {
                    best = items[i];
                    bestKey = k;
                }
            }
            return best;
        };
    };
    def("min", minmax(false));
    def("max", minmax(true));
    def("abs", [](Interp& in, CallArgs& a) {
        a.expectPositional(1, 1);
        const Value& v = a.pos[0];
        if (v.isIntLike()) {
            if (v.asInt() == INT64_MIN) throw CompileError(a.span, "integer overflow in abs()");
            return Value::integer(std::llabs(v.asInt()));
        }
        if (v.is(ValueKind::Float)) return Value::real(std::fabs(v.asFloat()));
        if (v.is(ValueKind::Ext))
            throw CompileError(a.span, "abs() of a value known only at run time", "use T.abs(x)");
        throw CompileError(a.argSpan(0), "bad operand type for abs(): '" + typeName(v) + "'");
    });
    def("int", [](Interp& in, CallArgs& a) {
        auto b = a.bind({"x", "base"}, 0);
        if (!b.has(0)) return Value::integer(0);
        const Value& v = b[0];
        if (v.is(ValueKind::Str)) {
            int base = b.has(1) ? static_cast<int>(b[1].asInt()) : 10;
            std::string t;
            for (char c : v.asStr())
                if (c != '_' && !std::isspace(static_cast<unsigned char>(c))) t += c;
            errno = 0;
            char* end = nullptr;
            long long r = t.empty() ? 0 : std::strtoll(t.c_str(), &end, base);
            if (t.empty() || *end || errno)
                throw CompileError(b.spans[0], "invalid literal for int() with base " +
                                                   std::to_string(base) + ": " + repr(v));
            return Value::integer(r);
        }
        if (v.isIntLike()) return Value::integer(v.asInt());
        if (v.is(ValueKind::Float)) return Value::integer(floatToInt(v.asFloat(), b.spans[0]));
        std::string hint =
            v.is(ValueKind::Ext) ? "use T.cast(x, \"int32\") for run-time values" : "";
        throw CompileError(b.spans[0],
                           "int() argument must be a string or a number, not '" + typeName(v) + "'",
                           hint);
    });
    def("float", [](Interp& in, CallArgs& a) {
        a.expectPositional(0, 1);
        if (a.pos.empty()) return Value::real(0.0);
        const Value& v = a.pos[0];
        if (v.isNumber()) return Value::real(v.asFloat());
        if (v.is(ValueKind::Str)) {
            std::string t = v.asStr();
            t.erase(
                std::remove_if(
                    t.begin(), t.end(),
                    [](char c) { return std::isspace(static_cast<unsigned char>(c)) || c == '_'; }),
                t.end());
            std::string low = t;
            std::transform(low.begin(), low.end(), low.begin(), ::tolower);
            if (low == "inf" || low == "+inf" || low == "infinity") return Value::real(INFINITY);
            if (low == "-inf" || low == "-infinity") return Value::real(-INFINITY);
            if (low == "nan") return Value::real(NAN);
            char* end = nullptr;
            double d = t.empty() ? 0 : std::strtod(t.c_str(), &end);
            if (t.empty() || *end)
                throw CompileError(a.argSpan(0), "could not convert string to float: " + repr(v));
            return Value::real(d);
        }
        std::string hint =
            v.is(ValueKind::Ext) ? "use T.cast(x, \"float32\") for run-time values" : "";
        throw CompileError(
            a.argSpan(0),
            "float() argument must be a string or a number, not '" + typeName(v) + "'", hint);
    });
    def("bool", [](Interp& in, CallArgs& a) {
        a.expectPositional(0, 1);
        return Value::boolean(!a.pos.empty() && in.truthy(a.pos[0], a.argSpan(0)));
    });
    // Text of a value: work in proportion to its top-level length.
    auto chargeText = [](Interp& in, const Value& v, Span s) {
        if (v.isSequence()) in.chargeItems(s, v.items().size());
        if (v.is(ValueKind::Dict)) in.chargeItems(s, v.dictObj().entries.size());
        if (v.is(ValueKind::Str)) in.chargeChars(s, v.asStr().size());
    };
    def("str", [chargeText](Interp& in, CallArgs& a) {
        a.expectPositional(0, 1);
        if (!a.pos.empty()) chargeText(in, a.pos[0], a.span);
        return Value::str(a.pos.empty() ? "" : str(a.pos[0]));
    });
    def("repr", [chargeText](Interp& in, CallArgs& a) {
        a.expectPositional(1, 1);
        chargeText(in, a.pos[0], a.span);
        return Value::str(repr(a.pos[0]));
    });
    def("format", [](Interp& in, CallArgs& a) {
        a.expectPositional(1, 2);
        return Value::str(formatWithSpec(a.pos[0], a.pos.size() > 1 ? str(a.pos[1]) : "", a.span));
    });
    def("list", [](Interp& in, CallArgs& a) {
        a.expectPositional(0, 1);
        return Value::list(a.pos.empty() ? std::vector<Value>{}
                                         : in.iterate(a.pos[0], a.argSpan(0)));
    });
    def("tuple", [](Interp& in, CallArgs& a) {
        a.expectPositional(0, 1);
        return Value::tuple(a.pos.empty() ? std::vector<Value>{}
                                          : in.iterate(a.pos[0], a.argSpan(0)));
    });
    def("dict", [](Interp& in, CallArgs& a) {
        if (a.pos.size() > 1)
            throw CompileError(a.argSpan(1), "dict() expected at most 1 positional argument");
        Value d = Value::dict();
        if (!a.pos.empty()) {
            if (a.pos[0].is(ValueKind::Dict)) {
                for (auto& [k, v] : a.pos[0].dictObj().entries) d.dictObj().set(k, v);
            } else {
                for (const Value& pair : in.iterate(a.pos[0], a.argSpan(0))) {
                    auto kv = in.iterate(pair, a.argSpan(0));
                    if (kv.size() != 2)
                        throw CompileError(a.argSpan(0),
                                           "dict() sequence elements must have length 2");
                    d.dictObj().set(kv[0], kv[1]);
                }
            }
        }
        for (auto& [k, v] : a.kw) d.dictObj().set(Value::str(k), v);
        return d;
    });
    def("zip", [](Interp& in, CallArgs& a) {
        std::vector<std::vector<Value>> its;
        for (size_t i = 0; i < a.pos.size(); ++i) its.push_back(in.iterate(a.pos[i], a.argSpan(i)));
        size_t n = its.empty() ? 0 : SIZE_MAX;
        for (auto& it : its) n = std::min(n, it.size());
        if (const Value* strict = a.keyword("strict"); strict && in.truthy(*strict, a.span))
            for (auto& it : its)
                if (it.size() != n)
                    throw CompileError(a.span, "zip() arguments have different lengths");
        std::vector<Value> out;
        for (size_t i = 0; i < n; ++i) {
            std::vector<Value> row;
            for (auto& it : its) row.push_back(it[i]);
            out.push_back(Value::tuple(std::move(row)));
        }
        return Value::list(std::move(out));
    });
    def("enumerate", [](Interp& in, CallArgs& a) {
        auto b = a.bind({"iterable", "start"}, 1);
        int64_t start = b.has(1) ? b[1].asInt() : 0;
        std::vector<Value> out;
        for (const Value& v : in.iterate(b[0], b.spans[0]))
            out.push_back(Value::tuple({Value::integer(start++), v}));
        return Value::list(std::move(out));
    });
    def("sorted", [](Interp& in, CallArgs& a) {
        auto b = a.bind({"iterable", "key", "reverse"}, 1);
        std::vector<Value> items = in.iterate(b[0], b.spans[0]);
        sortValues(in, items, b.has(1) && !b[1].isNone() ? &*b.values[1] : nullptr,
                   b.has(2) && in.truthy(b[2], a.span), a.span);
        return Value::list(std::move(items));
    });
    def("reversed", [](Interp& in, CallArgs& a) {
        a.expectPositional(1, 1);
        auto items = in.iterate(a.pos[0], a.argSpan(0));
        std::reverse(items.begin(), items.end());
        return Value::list(std::move(items));
    });
    def("sum", [](Interp& in, CallArgs& a) {
        auto b = a.bind({"iterable", "start"}, 1);
        Value acc = b.get(1, Value::integer(0));
        for (const Value& v : in.iterate(b[0], b.spans[0]))
            acc = in.binaryOp(ast::BinOpKind::Add, acc, v, a.span);
        return acc;
    });
    def("all", [](Interp& in, CallArgs& a) {
        a.expectPositional(1, 1);
        for (const Value& v : in.iterate(a.pos[0], a.argSpan(0)))
            if (!in.truthy(v, a.span)) return Value::boolean(false);
        return Value::boolean(true);
    });
    def("any", [](Interp& in, CallArgs& a) {
        a.expectPositional(1, 1);
        for (const Value& v : in.iterate(a.pos[0], a.argSpan(0)))
            if (in.truthy(v, a.span)) return Value::boolean(true);
        return Value::boolean(false);
    });
    def("map", [](Interp& in, CallArgs& a) {
        a.expectPositional(2, SIZE_MAX);
        std::vector<std::vector<Value>> its;
        size_t n = SIZE_MAX;
        for (size_t i = 1; i < a.pos.size(); ++i) {
            its.push_back(in.iterate(a.pos[i], a.argSpan(i)));
            n = std::min(n, its.back().size());
        }
        std::vector<Value> out;
        for (size_t i = 0; i < n; ++i) {
            std::vector<Value> args;
            for (auto& it : its) args.push_back(it[i]);
            out.push_back(callWith(in, a.pos[0], std::move(args), a.span, "map function"));
        }
        return Value::list(std::move(out));
    });
    def("filter", [](Interp& in, CallArgs& a) {
        a.expectPositional(2, 2);
        std::vector<Value> out;
        for (const Value& v : in.iterate(a.pos[1], a.argSpan(1))) {
            bool keep =
                a.pos[0].isNone()
                    ? in.truthy(v, a.span)
                    : in.truthy(callWith(in, a.pos[0], {v}, a.span, "filter function"), a.span);
            if (keep) out.push_back(v);
        }
        return Value::list(std::move(out));
    });
    def("divmod", [](Interp& in, CallArgs& a) {
        a.expectPositional(2, 2);
        return Value::tuple({in.binaryOp(ast::BinOpKind::FloorDiv, a.pos[0], a.pos[1], a.span),
                             in.binaryOp(ast::BinOpKind::Mod, a.pos[0], a.pos[1], a.span)});
    });
    def("pow", [](Interp& in, CallArgs& a) {
        auto b = a.bind({"base", "exp", "mod"}, 2);
        if (!b.has(2) || b[2].isNone()) return in.binaryOp(ast::BinOpKind::Pow, b[0], b[1], a.span);
        if (!b[0].isIntLike() || !b[1].isIntLike() || !b[2].isIntLike() || b[1].asInt() < 0 ||
            b[2].asInt() == 0)
            throw CompileError(
                a.span,
                "pow() with a modulus needs non-negative integer exponent and nonzero modulus");
        __int128 r = 1, base = pyMod(b[0].asInt(), b[2].asInt()), m = b[2].asInt();
        for (int64_t e = b[1].asInt(); e > 0; e >>= 1) {
            if (e & 1) r = (r * base) % m;
            base = (base * base) % m;
        }
        return Value::integer(pyMod(static_cast<int64_t>(r), b[2].asInt()));
    });
    def("round", [](Interp& in, CallArgs& a) {
        auto b = a.bind({"number", "ndigits"}, 1);
        const Value& v = b[0];
        if (!v.isNumber())
            throw CompileError(b.spans[0], "type " + typeName(v) + " doesn't define __round__");
        bool noDigits = !b.has(1) || b[1].isNone();
        if (v.isIntLike()) return Value::integer(v.asInt());
        if (noDigits)
            return Value::integer(floatToInt(std::nearbyint(v.asFloat()), a.span));  // ties to even
        double scale = std::pow(10.0, static_cast<double>(b[1].asInt()));
        return Value::real(std::nearbyint(v.asFloat() * scale) / scale);
    });
    def("isinstance", [](Interp& in, CallArgs& a) {
        a.expectPositional(2, 2);
        std::vector<Value> types =
            a.pos[1].is(ValueKind::Tuple) ? a.pos[1].items() : std::vector<Value>{a.pos[1]};
        const Value& x = a.pos[0];
        for (const Value& t : types) {
            if (!t.is(ValueKind::Builtin))
                throw CompileError(a.argSpan(1),
                                   "isinstance() supports only builtin types (int, float, str, "
                                   "bool, tuple, list, dict)");
            const std::string& n = t.builtinObj().name;
            bool match =
                (n == "int" && x.isIntLike()) || (n == "float" && x.is(ValueKind::Float)) ||
                (n == "str" && x.is(ValueKind::Str)) || (n == "bool" && x.is(ValueKind::Bool)) ||
                (n == "tuple" && x.is(ValueKind::Tuple)) ||
                (n == "list" && x.is(ValueKind::List)) || (n == "dict" && x.is(ValueKind::Dict)) ||
                (n == "range" && x.is(ValueKind::Range));
            if (match) return Value::boolean(true);
            if (n != "int" && n != "float" && n != "str" && n != "bool" && n != "tuple" &&
                n != "list" && n != "dict" && n != "range")
                throw CompileError(a.argSpan(1), "isinstance() does not support type '" + n + "'");
        }
        return Value::boolean(false);
    });
    def("callable", [](Interp& in, CallArgs& a) {
        a.expectPositional(1, 1);
        auto k = a.pos[0].kind();
        return Value::boolean(k == ValueKind::Function || k == ValueKind::Builtin ||
                              k == ValueKind::DType);
    });
    def("getattr", [](Interp& in, CallArgs& a) {
        a.expectPositional(2, 3);
        if (!a.pos[1].is(ValueKind::Str))
            throw CompileError(a.argSpan(1), "getattr(): attribute name must be a string");
        try {
            return in.getAttr(a.pos[0], a.pos[1].asStr(), a.span);
        } catch (const CompileError&) {
            if (a.pos.size() == 3) return a.pos[2];
            throw;
        }
    });
    def("hasattr", [](Interp& in, CallArgs& a) {
        a.expectPositional(2, 2);
        if (!a.pos[1].is(ValueKind::Str))
            throw CompileError(a.argSpan(1), "hasattr(): attribute name must be a string");
        try {
            in.getAttr(a.pos[0], a.pos[1].asStr(), a.span);
            return Value::boolean(true);
        } catch (const CompileError&) {
            return Value::boolean(false);
        }
    });
    def("print", [](Interp&, CallArgs&) { return Value::none(); });  // libraries are silent
    for (const char* exc :
         {"Exception", "ValueError", "TypeError", "RuntimeError", "NotImplementedError",
          "AssertionError", "KeyError", "IndexError", "ZeroDivisionError", "AttributeError"}) {
        std::string name = exc;
        def(name, [name](Interp&, CallArgs& a) {
            return Value::str(a.pos.empty() ? name : name + ": " + str(a.pos[0]));
        });
    }
}

void meta::sortValues(Interp& in, std::vector<Value>& items, const Value* key, bool reverse,
                      Span s) {
    std::vector<std::pair<Value, Value>> keyed;
    for (const Value& v : items) keyed.emplace_back(key ? callWith(in, *key, {v}, s, "key") : v, v);
    std::stable_sort(keyed.begin(), keyed.end(), [&](const auto& x, const auto& y) {
        return reverse ? less(in, y.first, x.first, s) : less(in, x.first, y.first, s);
    });
    for (size_t i = 0; i < items.size(); ++i) items[i] = keyed[i].second;
}

}  // namespace ts::fe
