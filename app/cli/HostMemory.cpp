#include "app/cli/HostMemory.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <unistd.h>

#include "compiler/interp/Interpreter.h"
#include "compiler/support/TextColumn.h"

namespace ts::cli {

int64_t physicalMemoryBytes() {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? int64_t(pages) * page : 0;
}

std::optional<std::string> hostMemoryProblem(const std::vector<rt::TensorParam>& sig, int64_t physicalBytes) {
    if (physicalBytes <= 0) return std::nullopt;
    struct Big { int64_t elements; const rt::TensorParam* p; };
    std::vector<Big> sizes;
    double total = 0;  // double: a typo'd extent can overflow int64 products
    for (const auto& p : sig) {
        double n = 1;
        for (int64_t e : p.shape) n *= double(std::max<int64_t>(e, 1));
        total += n;
        sizes.push_back({n > 9e18 ? INT64_MAX : int64_t(n), &p});
    }
    const double need = total * kHostBytesPerElement;
    if (need <= 0.8 * double(physicalBytes)) return std::nullopt;
    std::sort(sizes.begin(), sizes.end(), [](const Big& a, const Big& b) { return a.elements > b.elements; });
    auto gb = [](double b) { char s[32]; std::snprintf(s, sizeof s, "%.1f GB", b / 1e9); return std::string(s); };
    std::string msg = "the kernel's tensors need about " + gb(need) + " of host memory (" +
                      std::to_string(kHostBytesPerElement) + " bytes per element: inputs, outputs and the reference's "
                      "copy as doubles), more than 80% of this machine's " + gb(double(physicalBytes)) + "; largest:";
    for (size_t i = 0; i < sizes.size() && i < 3; ++i) {
        msg += std::string(i ? "," : "") + " " + sizes[i].p->name + " (";
        for (size_t d = 0; d < sizes[i].p->shape.size(); ++d)
            msg += (d ? ", " : "") + std::to_string(sizes[i].p->shape[d]);
        msg += ")";
    }
    msg += "\n  hint: pass smaller shape parameters (--param NAME=VALUE; `tilec kernels FILE` lists each kernel's parameters) -- the "
           "interpreter checks a kernel at small sizes as well as at large ones";
    return msg;
}

namespace {

/// The source text of extent `d` of a shape written at `at` as a tuple or list literal of `rank`
/// elements ("(M, K)", d = 1 -> "K"); "" when the shape is written otherwise (a variable).
std::string extentText(const SourceFile& src, const Span& at, size_t d, size_t rank) {
    if (!at.valid()) return {};
    std::string text;
    for (uint32_t l = at.line; l <= at.endLine; ++l) {
        std::string_view line = src.lineText(l);
        const size_t from = l == at.line ? at.col - 1 : 0;
        const size_t to = l == at.endLine ? at.endCol - 1 : line.size();
        if (from <= to && to <= line.size()) text += std::string(line.substr(from, to - from)) + " ";
    }
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
    if (text.size() < 2 || (text.front() != '(' && text.front() != '[')) return {};
    std::vector<std::string> items(1);
    int depth = 0;
    for (size_t i = 1; i + 1 < text.size(); ++i) {
        const char ch = text[i];
        depth += ch == '(' || ch == '[' || ch == '{' ? 1 : ch == ')' || ch == ']' || ch == '}' ? -1 : 0;
        if (ch == ',' && depth == 0)
            items.emplace_back();
        else
            items.back() += ch;
    }
    if (items.size() > 1 && items.back().find_first_not_of(' ') == std::string::npos) items.pop_back();  // "(M,)"
    return items.size() == rank && d < rank ? items[d] : std::string();
}

}  // namespace

std::optional<std::string> interpreterSizeProblem(const CompileResult& r) {
    std::vector<std::string> settable;  // what --param sets: factory parameters, scalar arguments
    for (const FactoryParam& p : r.params) settable.push_back(p.name);
    for (const ScalarArg& s : r.kernel.scalars) settable.push_back(s.name);
    std::string tensors, declared;
    std::vector<std::string> names;  // the settable names the oversized shapes are written with
    auto elements = [](const TensorArg& a) {
        double n = 1;  // double: a typo'd extent can overflow int64 products
        for (int64_t e : a.shape) n *= double(std::max<int64_t>(e, 1));
        return n;
    };
    auto describe = [&](const TensorArg& a) {
        const double n = elements(a);
        tensors += std::string(tensors.empty() ? "" : ", ") + a.name + " (";
        for (size_t d = 0; d < a.shape.size(); ++d) tensors += (d ? ", " : "") + std::to_string(a.shape[d]);
        char count[32];
        std::snprintf(count, sizeof count, "%.0f", n);
        tensors += std::string("): ") + count + " elements";
        const ir::BufferNode* b = nullptr;
        if (r.elaborated)
            for (const ir::Buffer& p : r.elaborated->params)
                if (p && p->name == a.name) b = p.get();
        if (!b || !r.source || b->shape.size() != a.shape.size()) return;
        for (size_t d = 0; d < a.shape.size(); ++d) {
            if (a.shape[d] <= 1) continue;
            const Span at = b->shape[d]->span;
            const std::string text = extentText(*r.source, at, d, a.shape.size());
            for (size_t i = 0; i < text.size();) {  // the identifiers of the extent's expression
                if (!std::isalpha(static_cast<unsigned char>(text[i])) && text[i] != '_') { ++i; continue; }
                size_t j = i;
                while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_')) ++j;
                const std::string id = text.substr(i, j - i);
                if (std::count(settable.begin(), settable.end(), id) && !std::count(names.begin(), names.end(), id))
                    names.push_back(id);
                i = j;
            }
            if (declared.empty() && !text.empty())
                declared = " (" + a.name + "'s shape is written at " + r.source->path() + ":" + std::to_string(at.line) +
                           ":" + std::to_string(charColumn(r.source->lineText(at.line), at.col)) + ")";
        }
    };
    double total = 0;
    for (const TensorArg& a : r.kernel.args) {
        total += elements(a);
        if (elements(a) > double(interp::kMaxBufferElements)) describe(a);
    }
    // Each tensor within the limit but all of them together beyond it: the interpreters hold them
    // all (and the reference its own copies, in float64) -- a fresh user's attention at
    // seq_len=65536 spent 30 s making inputs and 7 GB before the time limit could stop it.
    bool together = false;
    if (tensors.empty() && total > double(interp::kMaxBufferElements)) {
        together = true;
        for (const TensorArg& a : r.kernel.args) describe(a);
    }
    if (tensors.empty()) return std::nullopt;
    std::string msg = together ? "tensors too large for the CPU interpreter together (at most " +
                                     std::to_string(interp::kMaxBufferElements) + " = 2^28 elements in all): " + tensors + "\n  hint: "
                               : "tensors too large for the CPU interpreter (at most " + std::to_string(interp::kMaxBufferElements) +
                                     " = 2^28 elements each): " + tensors + "\n  hint: ";
    if (names.empty())
        return msg + "pass smaller shape parameters (--param NAME=VALUE; `tilec kernels FILE` lists each kernel's parameters)";
    msg += "pass smaller sizes:";
    for (size_t i = 0; i < names.size(); ++i) msg += std::string(i ? "," : "") + " --param " + names[i] + "=...";
    return msg + declared;
}

}  // namespace ts::cli
