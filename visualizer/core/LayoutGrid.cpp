#include "visualizer/core/LayoutGrid.h"

#include <cmath>
#include <sstream>

#include "compiler/analysis/LoopLayouts.h"
#include "compiler/analysis/Banks.h"
#include "compiler/analysis/Layouts.h"
#include "compiler/analysis/SharedViewLayout.h"
#include "compiler/ir/IR.h"

namespace ts::viz {
using namespace ts::ir;

LayoutGridModel LayoutGridModel::fromLayout(const Layout& l, int eltBytes, int64_t smemBase,
                                            int64_t tile, std::string name) {
    LayoutGridModel m;
    m.m_name = std::move(name);
    m.m_description = l->description;
    m.m_eltBytes = eltBytes;
    m.m_shared = l->kind == LayoutKind::Shared;
    m.m_threads = l->threads;
    m.m_lanesPerWarp = l->family.rfind("mfma", 0) == 0 ? 64 : 32;
    const auto& s = l->shape;
    m.m_rows = s.size() >= 2 ? s[s.size() - 2] : 1;
    m.m_cols = s.empty() ? 1 : s.back();
    m.m_cells.resize(size_t(m.m_rows * m.m_cols));
    for (int64_t r = 0; r < m.m_rows; ++r)
        for (int64_t c = 0; c < m.m_cols; ++c) {
            LayoutCell& cell = m.m_cells[size_t(r * m.m_cols + c)];
            std::vector<int64_t> idx;
            if (s.size() >= 3)
                for (size_t d = 0; d + 2 < s.size(); ++d) idx.push_back(d == 0 ? tile : 0);
            if (s.size() >= 2) idx.push_back(r);
            idx.push_back(c);
            if (m.m_shared) {
                cell.physical = analysis::sharedElementOffset(*l, idx, eltBytes);
                cell.byteAddress = smemBase + cell.physical * eltBytes;
                cell.bank = int((cell.byteAddress / analysis::kBankBytes) % analysis::kBanks);
            } else if (auto tl = analysis::fragmentLocate(*l, idx)) {
                cell.thread = tl->first;
                cell.local = tl->second;
            }
        }
    return m;
}

std::optional<LayoutGridModel> LayoutGridModel::fromFunction(const PrimFunc& f,
                                                             const std::string& name,
                                                             std::string* why, int64_t tile) {
    auto fail = [&](const std::string& s) -> std::optional<LayoutGridModel> {
        if (why) *why = s;
        return std::nullopt;
    };
    if (!f) return fail("no compiled function");
    auto it = f->layouts.find(name);
    if (it == f->layouts.end() || !it->second) {
        std::string known;
        for (const std::string& n : analysis::layoutKeysInListOrder(f->layouts)) known += (known.empty() ? "" : ", ") + n;
        return fail("buffer '" + name + "' has no layout (buffers with layouts: " +
                    (known.empty() ? "none" : known) + ")");
    }
    int elt = 4;
    walk(f->body, [&](const Stmt& s) {
        if (auto* a = as<AllocNode>(s); a && a->buffer->name == name)
            elt = dtypeBytes(a->buffer->dtype);
    });
    int64_t base = attrInt(f->attrs, "smem_offset." + name, 0);
    LayoutGridModel m = fromLayout(it->second, elt, base, tile, name);
    // A tile or view whose bytes another member of its group places (analysis/SharedViewLayout.h):
    // its cells sit where lower-to-threads puts them, not where its own row-major layout says.
    auto placed = analysis::sharedPlacements(*f);
    if (auto pl = placed.find(name); m.m_shared && pl != placed.end() && pl->second.through) {
        const BufferNode* self = nullptr;
        walk(f->body, [&](const Stmt& s) {
            if (auto* a = as<AllocNode>(s); a && a->buffer->name == name) self = a->buffer.get();
        });
        auto shape = self ? constShape(*self) : std::nullopt;
        if (shape && !shape->empty()) {
            m.m_description = "placed through '" + pl->second.through->name + "' (" + pl->second.layout->description + ")";
            for (int64_t r = 0; r < m.m_rows; ++r)
                for (int64_t c = 0; c < m.m_cols; ++c) {
                    std::vector<int64_t> idx(shape->size(), 0);
                    if (shape->size() >= 3) idx[0] = tile;
                    if (shape->size() >= 2) idx[shape->size() - 2] = r;
                    idx.back() = c;
                    LayoutCell& cell = m.m_cells[size_t(r * m.m_cols + c)];
                    if (auto o = analysis::placedElementOffset(pl->second, *self, idx)) {
                        cell.physical = *o;
                        cell.byteAddress = base + *o * elt;
                        cell.bank = int((cell.byteAddress / analysis::kBankBytes) % analysis::kBanks);
                    }
                }
        }
    }
    return m;
}

std::vector<std::pair<int64_t, int64_t>> LayoutGridModel::cellsOfThread(int64_t thread) const {
    std::vector<std::pair<int64_t, int64_t>> out;
    for (int64_t r = 0; r < m_rows; ++r)
        for (int64_t c = 0; c < m_cols; ++c)
            if (cell(r, c).thread == thread) out.push_back({r, c});
    return out;
}

std::vector<std::pair<int64_t, int64_t>> LayoutGridModel::cellsOfWarp(int64_t warp) const {
    std::vector<std::pair<int64_t, int64_t>> out;
    for (int64_t r = 0; r < m_rows; ++r)
        for (int64_t c = 0; c < m_cols; ++c)
            if (cell(r, c).thread >= 0 && cell(r, c).thread / m_lanesPerWarp == warp)
                out.push_back({r, c});
    return out;
}

std::string LayoutGridModel::describe(int64_t r, int64_t c) const {
    std::ostringstream os;
    os << "(" << r << ", " << c << "): ";
    const LayoutCell& x = cell(r, c);
    if (m_shared)
        os << "offset " << x.physical << ", byte " << x.byteAddress << ", bank " << x.bank;
    else if (x.thread >= 0)
        os << "thread " << x.thread << " (" << (m_lanesPerWarp == 32 ? "warp " : "wave ")
           << x.thread / m_lanesPerWarp << ", lane " << x.thread % m_lanesPerWarp << "), local "
           << x.local;
    else
        os << "no owner";
    return os.str();
}

namespace {
uint32_t hsl(double h, double s, double l) {
    auto f = [&](double n) {
        double k = std::fmod(n + h / 30.0, 12.0);
        double a = s * std::min(l, 1 - l);
        return l - a * std::max(-1.0, std::min({k - 3, 9 - k, 1.0}));
    };
    auto b = [](double v) { return uint32_t(std::lround(std::clamp(v, 0.0, 1.0) * 255)); };
    return b(f(0)) << 16 | b(f(8)) << 8 | b(f(4));
}
}  // namespace

uint32_t threadColor(int64_t thread, int64_t lanesPerWarp) {
    if (thread < 0) return 0xdddddd;
    double hue = std::fmod(double(thread / lanesPerWarp) * 137.508, 360.0);
    double light = 0.45 + 0.35 * double(thread % lanesPerWarp) / double(lanesPerWarp - 1);
    return hsl(hue, 0.65, light);
}

uint32_t bankColor(int bank) { return bank < 0 ? 0xdddddd : hsl(360.0 * bank / 32.0, 0.6, 0.7); }

}  // namespace ts::viz
