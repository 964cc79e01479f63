// einops.rearrange and einops.einsum for references (ReferenceEinops.h): DeepSeek MLA's decode
// references reshape heads with `rearrange(q, "b (h g) d -> b g h d", g=groups)` and contract
// with `einsum(q, k, "b g h d, b h s d -> b g h s")`.
#include "profiler/check/ReferenceEinops.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "compiler/frontend/MetaEval.h"
#include "profiler/check/ReferenceTorch.h"

namespace ts::rt {

using fe::CallArgs;
using fe::Interp;
using fe::Value;

namespace {

/// One side of a pattern: per dimension, the elementary axes it is made of ("(h g)" -> {h, g};
/// "1" -> {}: a unit axis).
using Side = std::vector<std::vector<std::string>>;

Side parseSide(const std::string& text, Span s) {
    Side side;
    bool inGroup = false;
    size_t i = 0;
    while (i < text.size()) {
        char c = text[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
        } else if (c == '(') {
            if (inGroup) throw CompileError(s, "einops: nested parentheses in '" + text + "'");
            inGroup = true;
            side.emplace_back();
            ++i;
        } else if (c == ')') {
            if (!inGroup) throw CompileError(s, "einops: unbalanced ')' in '" + text + "'");
            inGroup = false;
            ++i;
        } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
            size_t j = i;
            while (j < text.size() &&
                   (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_'))
                ++j;
            std::string name = text.substr(i, j - i);
            i = j;
            if (name == "1") {
                if (!inGroup) side.emplace_back();
                continue;
            }
            if (std::isdigit(static_cast<unsigned char>(name[0])))
                throw CompileError(s, "einops: axis '" + name + "' (only 1 is a literal size)");
            if (inGroup)
                side.back().push_back(name);
            else
                side.push_back({name});
        } else {
            throw CompileError(s, std::string("einops: unexpected '") + c + "' in '" + text +
                                      "' (ellipsis is not supported)");
        }
    }
    if (inGroup) throw CompileError(s, "einops: unbalanced '(' in '" + text + "'");
    return side;
}

/// einops.rearrange, or (repeat) einops.repeat: output axes that are not input axes are new
/// axes of the size given by keyword (`repeat(x, "b t h d -> b t (h g) d", g=G)` repeats each
/// head G times, `"k -> s k"` stacks s copies), and every input axis must appear in the output.
Value rearrangeFn(Interp&, CallArgs& a, bool repeat) {
    const std::string fn = repeat ? "einops.repeat" : "einops.rearrange";
    if (a.pos.size() != 2 || !a.pos[1].is(fe::ValueKind::Str))
        throw CompileError(a.span, fn + "(tensor, pattern, **sizes)");
    RefArray x = toArray(a.pos[0], a.argSpan(0), fn + " input");
    const std::string pattern = a.pos[1].asStr();
    size_t arrow = pattern.find("->");
    if (arrow == std::string::npos) throw CompileError(a.argSpan(1), "einops: pattern without '->'");
    Side lhs = parseSide(pattern.substr(0, arrow), a.argSpan(1));
    Side rhs = parseSide(pattern.substr(arrow + 2), a.argSpan(1));
    std::map<std::string, int64_t> size;
    for (size_t k = 0; k < a.kw.size(); ++k)
        size[a.kw[k].first] = argInt(a.kw[k].second, a.kwSpans[k], a.kw[k].first);
    if (lhs.size() != x.shape.size())
        throw CompileError(a.argSpan(1), fn + ": pattern has " + std::to_string(lhs.size()) +
                                             " input dimensions, the tensor " +
                                             std::to_string(x.shape.size()));
    // Sizes of the input's elementary axes: at most one unknown per group.
    std::vector<std::string> axes;
    Shape elementary;
    for (size_t d = 0; d < lhs.size(); ++d) {
        int64_t known = 1;
        std::string unknown;
        for (const std::string& n : lhs[d]) {
            if (auto it = size.find(n); it != size.end())
                known *= it->second;
            else if (unknown.empty() && lhs[d].size() > 1)
                unknown = n;
            else if (lhs[d].size() == 1)
                unknown = n;
            else
                throw CompileError(a.argSpan(1), fn + ": give the size of '" + n + "'");
        }
        if (!unknown.empty()) {
            if (known == 0 || x.shape[d] % known)
                throw CompileError(a.argSpan(1), fn + ": dimension " + std::to_string(d) +
                                                     " of size " + std::to_string(x.shape[d]) +
                                                     " does not split by " + std::to_string(known));
            size[unknown] = x.shape[d] / known;
        } else if (known != x.shape[d]) {
            throw CompileError(a.argSpan(1), fn + ": dimension " + std::to_string(d) +
                                                 " has size " + std::to_string(x.shape[d]) +
                                                 ", the pattern " + std::to_string(known));
        }
        for (const std::string& n : lhs[d]) {
            axes.push_back(n);
            elementary.push_back(size[n]);
        }
    }
    // The output's elementary axes: input axes (permuted) and, for repeat, new ones.
    std::vector<int64_t> perm;
    Shape withOnes, full, out;
    for (const auto& group : rhs) {
        int64_t n = 1;
        for (const std::string& name : group) {
            auto it = std::find(axes.begin(), axes.end(), name);
            if (it != axes.end()) {
                perm.push_back(it - axes.begin());
                withOnes.push_back(size[name]);
            } else if (!repeat) {
                throw CompileError(a.argSpan(1), fn + ": output axis '" + name +
                                                     "' is not in the input");
            } else if (auto sz = size.find(name); sz != size.end()) {
                withOnes.push_back(1);
            } else {
                throw CompileError(a.argSpan(1), fn + ": give the size of the new axis '" +
                                                     name + "' (" + name + "=N)");
            }
            full.push_back(size[name]);
            n *= size[name];
        }
        out.push_back(n);
    }
    if (perm.size() != axes.size())
        throw CompileError(a.argSpan(1), fn + ": every input axis must appear in the output "
                                              "(use einops.reduce to drop one)");
    RefArray y = reshape(permute(reshape(x, elementary), perm), withOnes);
    if (withOnes != full) y = expand(y, full);
    return wrap(reshape(y, out));
}

Value einsumFn(Interp&, CallArgs& a) {
    if (a.pos.size() < 2 || !a.pos.back().is(fe::ValueKind::Str))
        throw CompileError(a.span, "einops.einsum(tensor, ..., pattern)");
    std::string pattern = a.pos.back().asStr();
    // Names -> letters: "b g h d, b h s d -> b g h s" -> "bghd,bhsd->bghs".
    std::map<std::string, char> letter;
    std::string eq;
    size_t i = 0;
    while (i < pattern.size()) {
        char c = pattern[i];
        if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
            size_t j = i;
            while (j < pattern.size() &&
                   (std::isalnum(static_cast<unsigned char>(pattern[j])) || pattern[j] == '_'))
                ++j;
            std::string name = pattern.substr(i, j - i);
            if (!letter.count(name)) {
                if (letter.size() >= 52)
                    throw CompileError(a.argSpan(a.pos.size() - 1), "einops.einsum: too many axes");
                size_t k = letter.size();
                letter[name] = static_cast<char>(k < 26 ? 'a' + k : 'A' + (k - 26));
            }
            eq += letter[name];
            i = j;
        } else if (c == ',' || c == '-' || c == '>') {
            eq += c;
            ++i;
        } else if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
        } else {
            throw CompileError(a.argSpan(a.pos.size() - 1),
                               std::string("einops.einsum: unexpected '") + c + "' in the pattern");
        }
    }
    std::vector<RefArray> ops;
    for (size_t k = 0; k + 1 < a.pos.size(); ++k)
        ops.push_back(toArray(a.pos[k], a.argSpan(k), "einops.einsum operand"));
    try {
        return wrap(einsum(eq, ops));
    } catch (const RefError& e) {
        throw CompileError(a.span, std::string("ref_program: einops.einsum: ") + e.what());
    }
}

}  // namespace

void registerEinops(fe::Interp& in) {
    auto ns = in.registerModule("einops");
    for (bool repeat : {false, true}) {
        const char* name = repeat ? "repeat" : "rearrange";
        ns->set(name, Value::builtin(std::string("einops.") + name,
                                     [repeat, name](Interp& i, CallArgs& a) {
                                         try {
                                             return rearrangeFn(i, a, repeat);
                                         } catch (const RefError& e) {
                                             throw CompileError(
                                                 a.span, std::string("ref_program: einops.") +
                                                             name + ": " + e.what());
                                         }
                                     }));
    }
    ns->set("einsum", Value::builtin("einops.einsum", einsumFn));
    ns->opaque = true;
    ns->opaqueReason = "ref_program: this einops name is not supported by the reference evaluator";
}

}  // namespace ts::rt
