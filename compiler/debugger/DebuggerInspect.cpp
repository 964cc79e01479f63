// Inspection of the paused machine: buffers, per-thread registers with their fragment layout
// (the same ir::Layout the lowering and codegen used, through analysis::fragmentInverse), shared
// memory with last writers, loop frames, named barriers and watch expressions. Called only while
// the worker waits (or after it finished), so the machine is read without locking.
#include <algorithm>
#include <cctype>
#include <cmath>

#include "compiler/analysis/Layouts.h"
#include "compiler/debugger/Debugger.h"
#include "compiler/interp/ThreadMachine.h"
#include "compiler/ir/Builder.h"
#include "compiler/ir/Functor.h"
#include "compiler/ir/Layout.h"

namespace ts::dbg {
using namespace ts::ir;
using interp::detail::BufferState;

namespace {

const BufferState* findBuffer(const interp::detail::ThreadMachine* m, const std::string& name) {
    if (!m) return nullptr;
    const BufferState* best = nullptr;
    for (auto& b : m->m_buffers)
        if (b->node && b->node->name == name && (b->live || b->global) && b->data) best = b.get();
    return best;
}

const LayoutNode* fragmentLayout(const PrimFunc& f, const std::string& name) {
    if (!f) return nullptr;
    auto it = f->layouts.find(name);
    return it != f->layouts.end() && it->second && it->second->kind == LayoutKind::Fragment
               ? it->second.get()
               : nullptr;
}

std::string indexText(const std::vector<int64_t>& idx) {
    std::string s;
    for (size_t i = 0; i < idx.size(); ++i) s += (i ? ", " : "") + std::to_string(idx[i]);
    return s;
}

/// Tokens of a watch expression: NAME or NAME[a, b, ...] with integer or variable indices.
struct WatchParse {
    std::string name;
    std::vector<std::string> indices;
    bool subscript = false;
};

std::optional<WatchParse> parseWatch(const std::string& text) {
    WatchParse w;
    size_t i = 0;
    auto skip = [&] {
        while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    };
    skip();
    while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_'))
        w.name += text[i++];
    skip();
    if (w.name.empty() || std::isdigit(static_cast<unsigned char>(w.name[0]))) return std::nullopt;
    if (i == text.size()) return w;
    if (text[i] != '[') return std::nullopt;
    w.subscript = true;
    size_t close = text.find(']', i);
    if (close == std::string::npos || text.find_first_not_of(" \t", close + 1) != std::string::npos)
        return std::nullopt;
    std::string inner = text.substr(i + 1, close - i - 1), cur;
    for (char c : inner + ",") {
        if (c == ',') {
            cur.erase(0, cur.find_first_not_of(" \t"));
            cur.erase(cur.find_last_not_of(" \t") + 1);
            if (cur.empty()) return std::nullopt;
            w.indices.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    return w;
}

/// The shape `b` has in the program's T.alloc_* (the tile-level IR's allocation of the same
/// name and declaration span) when the lowering stores it with another shape; nullopt when the
/// shapes agree or the declaration is not found.
std::optional<std::vector<int64_t>> declaredShape(const PrimFunc& elaborated, const BufferState& b) {
    if (!elaborated || !b.node) return std::nullopt;
    std::optional<std::vector<int64_t>> out;
    walk(elaborated->body, [&](const Stmt& s) {
        auto* a = as<AllocNode>(s);
        if (!out && a && a->buffer->name == b.node->name && a->buffer->span == b.node->span) out = constShape(*a->buffer);
    });
    if (out && *out == b.shape) return std::nullopt;
    return out;
}

std::string extentsText(const std::vector<int64_t>& shape) {
    std::string s;
    for (size_t i = 0; i < shape.size(); ++i) s += (i ? " x " : "") + std::to_string(shape[i]);
    return s;
}

/// Why NAME[idx] cannot be read from a buffer the lowering re-shaped: T.Pipelined stacks its
/// stages in front of a shared tile ((2, 64, 32) for a 64 x 32 tile), and the wgmma/TMA path
/// stores a tile flat ((2, 2048), or (4096) unstaged), so the source's indices no longer fit.
/// Fresh-user trial 2026-12-04: `--print K_s[0, 1]` said only "outside the buffer (shape 2, 64,
/// 64)". Names the stored dimensions and what to type; empty when the shape is not one of these.
std::string reshapedWhy(const std::string& name, const std::vector<int64_t>& idx, const std::vector<int64_t>& stored,
                        const std::vector<int64_t>& declared, uint32_t line) {
    int64_t tile = 1;
    for (int64_t e : declared) tile *= e;
    const bool stagedAsDeclared = stored.size() == declared.size() + 1 && std::equal(declared.begin(), declared.end(), stored.begin() + 1);
    const bool stagedFlat = stored.size() == 2 && declared.size() > 1 && stored[1] == tile;
    const bool flat = stored.size() == 1 && declared.size() > 1 && stored[0] == tile;
    if (!stagedAsDeclared && !stagedFlat && !flat) return {};
    const std::string decl = "the " + extentsText(declared) + " tile declared at line " + std::to_string(line);
    std::string dims, how;
    if (flat) {
        dims = "offset";
        how = decl + " is stored flat; give one offset, e.g. " + name + "[0]";
    } else {
        const std::string stages = stored[0] == 1 ? "stage 0 only" : "stage 0.." + std::to_string(stored[0] - 1);
        const std::string keeps = "T.Pipelined keeps " + (stored[0] == 1 ? std::string("1 copy") : std::to_string(stored[0]) + " copies");
        if (stagedFlat) {
            dims = "stage, offset";
            how = keeps + " of " + decl +
                  ", each stored flat; give the stage first, then the offset in the stage, e.g. " + name + "[0, 0] (" + stages + ")";
        } else {
            dims = declared.size() == 2 ? "stage, row, column" : declared.size() == 1 ? "stage, element" : "stage, then the tile's dimensions";
            bool fits = idx.size() == declared.size();
            for (size_t d = 0; fits && d < idx.size(); ++d) fits = idx[d] >= 0 && idx[d] < declared[d];
            std::vector<int64_t> example(stored.size(), 0);
            if (fits) std::copy(idx.begin(), idx.end(), example.begin() + 1);
            how = keeps + " of " + decl + "; give the stage first, e.g. " + name + "[" +
                  indexText(example) + "] (" + stages + "), or one flat offset";
        }
    }
    const std::string n = std::to_string(stored.size());
    const std::string has = n + (stored.size() == 1 ? " dimension" : " dimensions") + " in the lowered kernel, (" + dims + ") = (" +
                            indexText(stored) + ")";
    const std::string lead = idx.size() != stored.size()
                                 ? name + "[" + indexText(idx) + "] gives " + std::to_string(idx.size()) +
                                       (idx.size() == 1 ? " index" : " indices") + ", but " + name + " has " + has
                                 : name + "[" + indexText(idx) + "] is outside " + name + ", which has " + has;
    // Shared tiles are read as stored (swizzled or padded): the layout view maps the elements.
    return lead + ": " + how + "; indices address the tile as stored (`tilec layout FILE --buffer " + name +
           "` shows where each element is)";
}

}  // namespace

int32_t Debugger::threads() const { return m_machine ? m_machine->m_threads : 0; }

std::vector<LoopFrame> Debugger::loops() const {
    std::vector<LoopFrame> out;
    if (!m_machine) return out;
    for (const StmtNode* s : m_machine->m_stack) {
        auto* f = dynamic_cast<const ForNode*>(s);
        if (!f || !f->var) continue;
        LoopFrame lf;
        lf.loop = f;
        lf.pipelined = f->forKind == ForKind::Pipelined || attrInt(f->attrs, "num_stages", -1) >= 0;
        for (auto it = m_machine->m_bindings.rbegin(); it != m_machine->m_bindings.rend(); ++it)
            if (it->var == f->var.get()) {
                lf.value = it->i;
                break;
            }
        out.push_back(lf);
    }
    return out;
}

std::vector<BufferView> Debugger::buffers() const {
    std::vector<BufferView> out;
    if (!m_machine) return out;
    for (auto& b : m_machine->m_buffers) {
        if (!b->node || !(b->live || b->global) || !b->data) continue;
        BufferView v;
        v.name = b->node->name;
        v.scope = b->node->scope;
        v.dtype = b->dtype;
        v.shape = b->shape;
        v.perThread = b->threadStride != 0;
        v.elements = v.perThread ? b->threadStride : b->size;
        v.declared = b->node->span;
        out.push_back(std::move(v));
    }
    return out;
}

std::optional<double> Debugger::element(const std::string& buffer, int64_t offset,
                                        int32_t thread) const {
    const BufferState* b = findBuffer(m_machine.get(), buffer);
    if (!b || offset < 0) return std::nullopt;
    if (b->threadStride) {
        if (offset >= b->threadStride || thread < 0 || thread >= m_machine->m_threads)
            return std::nullopt;
        return b->data[int64_t(thread) * b->threadStride + offset];
    }
    if (offset >= b->size) return std::nullopt;
    return b->data[offset];
}

std::vector<FragmentElement> Debugger::fragment(const std::string& buffer, int32_t thread) const {
    std::vector<FragmentElement> out;
    const LayoutNode* l = fragmentLayout(m_lowered, buffer);
    const BufferState* b = findBuffer(m_machine.get(), buffer);
    if (!l || !b || !b->threadStride) return out;
    for (int64_t r = 0; r < l->localSize && r < b->threadStride; ++r) {
        auto idx = analysis::fragmentInverse(*l, thread, r);
        if (!idx) continue;
        bool inShape = idx->size() == l->shape.size();
        for (size_t d = 0; inShape && d < idx->size(); ++d)
            inShape = (*idx)[d] >= 0 && (*idx)[d] < l->shape[d];
        if (!inShape) continue;  // padding register of a layout wider than the tile
        out.push_back({r, *idx, *element(buffer, r, thread)});
    }
    return out;
}

std::string Debugger::holds(const std::string& buffer, int32_t thread) const {
    auto regs = fragment(buffer, thread);
    if (regs.empty()) return {};
    std::vector<std::vector<int64_t>> idx;
    for (auto& e : regs) idx.push_back(e.index);
    std::sort(idx.begin(), idx.end());
    idx.erase(std::unique(idx.begin(), idx.end()), idx.end());
    // Runs of consecutive last indices with equal leading indices: [1, 2..3].
    std::vector<std::string> runs;
    for (size_t i = 0; i < idx.size();) {
        size_t j = i;
        while (j + 1 < idx.size() &&
               std::equal(idx[j].begin(), idx[j].end() - 1, idx[j + 1].begin()) &&
               idx[j + 1].back() == idx[j].back() + 1)
            ++j;
        std::vector<int64_t> lead(idx[i].begin(), idx[i].end() - 1);
        std::string r = indexText(lead) + (lead.empty() ? "" : ", ") + std::to_string(idx[i].back());
        if (j > i) r += ".." + std::to_string(idx[j].back());
        runs.push_back("[" + r + "]");
        i = j + 1;
    }
    std::string s = "thread " + std::to_string(thread) + " holds " + buffer + runs[0];
    const size_t shown = std::min<size_t>(runs.size(), 8);
    for (size_t i = 1; i < shown; ++i) s += ", " + runs[i];
    if (runs.size() > shown) s += ", ... (" + std::to_string(runs.size() - shown) + " more)";
    return s;
}

std::vector<SharedElement> Debugger::shared(const std::string& buffer) const {
    std::vector<SharedElement> out;
    const BufferState* b = findBuffer(m_machine.get(), buffer);
    if (!b || b->threadStride || b->global) return out;
    auto cells = m_machine->m_cells.find(b);
    out.resize(static_cast<size_t>(b->size));
    for (int64_t i = 0; i < b->size; ++i) {
        SharedElement& e = out[size_t(i)];
        e.value = b->data[i];
        e.written = b->written.empty() ? !std::isnan(e.value) : b->written[size_t(i)] != 0;
        e.pending = size_t(i) < b->pending.size() && b->pending[size_t(i)] > 0;
        if (cells != m_machine->m_cells.end() && size_t(i) < cells->second.size())
            e.lastWriter = cells->second[size_t(i)].writer;
    }
    return out;
}

std::vector<interp::BarrierState> Debugger::barriers() const {
    std::vector<interp::BarrierState> out;
    if (!m_machine) return out;
    for (auto& [id, b] : m_machine->m_named)
        out.push_back({id, b.expected, b.arrived, b.phase, b.at, {}});
    return out;
}

std::vector<interp::MbarrierInfo> Debugger::mbarriers() const {
    return m_machine ? m_machine->mbarrierInfos() : std::vector<interp::MbarrierInfo>{};
}

std::optional<double> Debugger::watch(const std::string& expr, int32_t thread,
                                      std::string& why) const {
    auto* m = m_machine.get();
    if (!m) {
        why = "the kernel is not running";
        return std::nullopt;
    }
    auto w = parseWatch(expr);
    if (!w) {
        why = "cannot read '" + expr + "': write NAME or NAME[i, j, ...]";
        return std::nullopt;
    }
    if (thread < 0 || thread >= m->m_threads) {
        why = "thread " + std::to_string(thread) + " is not in the block (0.." +
              std::to_string(m->m_threads - 1) + ")";
        return std::nullopt;
    }
    // Variables as `thread` sees them: its indices and per-thread loop variables are written
    // into the bindings for the lookup and the previous values restored (the paused statement
    // resumes with exactly the state it had).
    auto saved = m->m_bindings;
    int32_t savedCur = m->m_cur;
    // After the block has finished its scopes are gone (the bindings no longer hold the thread
    // index slots): buffers are still readable, variables are not, and nothing is re-bound.
    bool bound = true;
    for (size_t pos : m->m_threadPos) bound &= pos < m->m_bindings.size();
    for (auto& v : m->m_perThread) bound &= size_t(v.pos) < m->m_bindings.size();
    if (bound) m->setThread(thread);
    auto variable = [&](const std::string& name) -> std::optional<int64_t> {
        for (auto it = m->m_bindings.rbegin(); it != m->m_bindings.rend(); ++it)
            if (it->var && it->var->name == name) return it->i;
        return std::nullopt;
    };
    std::optional<double> result;
    std::vector<int64_t> idx;
    bool ok = true;
    for (auto& t : w->indices) {
        char* end = nullptr;
        long long v = std::strtoll(t.c_str(), &end, 10);
        if (end && *end == '\0') {
            idx.push_back(v);
        } else if (auto var = variable(t)) {
            idx.push_back(*var);
        } else {
            why = "unknown index '" + t + "' (an integer or a variable in scope)";
            ok = false;
        }
    }
    const BufferState* b = ok ? findBuffer(m, w->name) : nullptr;
    if (ok && !w->subscript) {
        if (auto v = variable(w->name))
            result = double(*v);
        else if (b && b->size == 1)
            result = *element(w->name, 0, thread);
        else if (b) {
            // A whole buffer: say what it is and how to read an element of it.
            std::string shape;
            for (size_t d = 0; d < b->shape.size(); ++d) shape += (d ? ", " : "") + std::to_string(b->shape[d]);
            std::string zeros;
            for (size_t d = 0; d < b->shape.size(); ++d) zeros += d ? ", 0" : "0";
            why = "'" + w->name + "' is a buffer of shape (" + shape + "), not a scalar: print one element, e.g. " + w->name + "[" +
                  zeros + "]";
        } else
            why = "no variable '" + w->name + "' in scope";
    } else if (ok && !b) {
        why = "no buffer '" + w->name + "' is live in this block";
    } else if (ok) {
        const LayoutNode* l = fragmentLayout(m_lowered, w->name);
        if (l && l->shape.size() > 1 && idx.size() != 1 && idx.size() != l->shape.size()) {
            // A fragment takes its logical indices, or one: a register of the thread.
            why = w->name + " is a " + std::to_string(l->shape.size()) + "-D fragment (shape " + indexText(l->shape) + "): give " +
                  std::to_string(l->shape.size()) + " indices for a logical element, or 1 for a register of thread " + std::to_string(thread);
        } else if (l && idx.size() == l->shape.size() && idx.size() > 1) {
            // Logical fragment element: which register of which thread holds it.
            bool mine = false;
            for (auto& e : fragment(w->name, thread))
                if (e.index == idx) {
                    result = e.value;
                    mine = true;
                }
            bool inside = true;
            for (size_t d = 0; d < idx.size(); ++d)
                if (idx[d] < 0 || idx[d] >= l->shape[d]) inside = false;
            if (!mine && !inside) {
                why = w->name + "[" + indexText(idx) + "] is outside the fragment (shape " +
                      indexText(l->shape) + ")";
            } else if (!mine) {
                auto owner = analysis::fragmentLocate(*l, idx);
                why = w->name + "[" + indexText(idx) + "] is " +
                      (owner ? "held by thread " + std::to_string(owner->first) + " (register " +
                                   std::to_string(owner->second) + ")"
                             : std::string("outside the fragment")) +
                      ", not by thread " + std::to_string(thread);
            }
        } else {
            // As stored: one index = flat offset, else row-major over the allocated shape.
            int64_t off = 0;
            if (idx.size() == 1) {
                off = idx[0];
            } else if (idx.size() == b->shape.size()) {
                for (size_t d = 0; d < idx.size(); ++d) {
                    if (idx[d] < 0 || idx[d] >= b->shape[d]) off = -1;
                    if (off >= 0) off = off * b->shape[d] + idx[d];
                }
            } else {
                off = -1;
            }
            result = off >= 0 ? element(w->name, off, thread) : std::nullopt;
            if (result && l && l->shape.size() > 1 && idx.size() == 1)  // say how one index was read
                why = "register " + std::to_string(off) + " of thread " + std::to_string(thread) + ", as stored; " +
                      std::to_string(l->shape.size()) + " indices read a logical element";
            else if (result && !l && idx.size() == 1 && b->shape.size() > 1)  // a flat offset into a buffer of several dimensions
                why = "element " + std::to_string(off) + " as stored (flat, row-major over shape " + indexText(b->shape) + ")";
            if (!result) {
                auto declared = idx.size() > 1 ? declaredShape(m_elaborated, *b) : std::nullopt;
                why = declared ? reshapedWhy(w->name, idx, b->shape, *declared, b->node->span.line) : std::string();
                if (why.empty())
                    why = w->name + "[" + indexText(idx) + "] is outside the buffer (shape " +
                          indexText(b->shape) + (b->threadStride ? ", per thread" : "") + ")";
            }
        }
    }
    m->m_bindings = std::move(saved);
    m->m_cur = savedCur;
    return result;
}

}  // namespace ts::dbg
