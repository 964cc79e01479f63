// The IR walk of the bank-conflict analysis (analysis/Banks.h): a small concrete executor over
// the lowered statement tree. Loop variables take their values one iteration at a time (long
// loops sampled), If conditions become per-warp lane masks, and at every shared-memory access the
// index expression is evaluated for each active lane with threadIdx substituted.
#include "compiler/analysis/Banks.h"

#include <cmath>
#include <map>
#include <sstream>

#include "compiler/analysis/Layouts.h"
#include "compiler/analysis/Ldmatrix.h"
#include "compiler/analysis/LdsBanks.h"
#include "compiler/ir/IR.h"
#include "compiler/ir/Intrinsics.h"

namespace ts::analysis {
using namespace ts::ir;

namespace {

using Env = std::vector<std::pair<const VarNode*, int64_t>>;

/// The shared Load inside tl.address_of(Load), or null.
const LoadNode* sharedAddressOf(const Expr& e) {
    auto* c = as<CallNode>(e);
    if (!c || c->op != intrin::kAddressOf || c->args.empty()) return nullptr;
    auto* l = as<LoadNode>(c->args[0]);
    return l && l->buffer->scope == Scope::Shared ? l : nullptr;
}

/// The CDNA name of an access the walker names in PTX terms: ld/st.shared -> ds_read/ds_write
/// with the width suffix of the ISA (b32, b64, b128, u16/b16, u8/b8); cp.async (a synchronous
/// copy on the HIP path: global load + ds_write) becomes the ds_write of its width.
std::string ldsInstructionName(const std::string& ptx) {
    static const std::pair<const char*, const char*> kWidths[] = {
        {".v4 (16 B)", "_b128"}, {".v2 (8 B)", "_b64"}, {".b32", "_b32"}, {".b16", "_b16"},
        {".b8", "_b8"}};
    for (const char* prefix : {"ld.shared", "st.shared"}) {
        if (ptx.rfind(prefix, 0) != 0) continue;
        std::string rest = ptx.substr(std::string(prefix).size());
        std::string out = prefix[0] == 'l' ? "ds_read" : "ds_write";
        for (auto& [ptxWidth, lds] : kWidths)
            if (rest.rfind(ptxWidth, 0) == 0) {
                const bool u = prefix[0] == 'l' && (lds == std::string("_b16") || lds == std::string("_b8"));
                return out + (u ? "_u" + std::string(lds + 2) : std::string(lds)) +
                       rest.substr(std::string(ptxWidth).size());
            }
        return out + rest;
    }
    if (ptx.rfind("cp.async 16", 0) == 0) return "ds_write_b128 (cp.async fallback)";
    if (ptx.rfind("cp.async 8", 0) == 0) return "ds_write_b64 (cp.async fallback)";
    if (ptx.rfind("cp.async 4", 0) == 0) return "ds_write_b32 (cp.async fallback)";
    return ptx;
}

std::string vecName(int bytes, int elt) {
    if (bytes == 16) return ".v4 (16 B)";
    if (bytes == 8) return ".v2 (8 B)";
    return "." + std::string(bytes == 4 ? "b32" : bytes == 2 ? "b16" : "b8");
}

class Walker {
public:
    Walker(const PrimFuncNode& f, const BankOptions& o, KernelBankReport& r)
        : m_f(f), m_opts(o), m_rep(r) {}

    void run(const Stmt& s) {
        std::vector<uint64_t> none;
        stmt(s, none, 1.0);
    }

private:
    struct Meta {
        Span span;
        std::string buffer, instruction;
        AccessKind kind;
        int bytes;
    };

    void stmt(const Stmt& s, const std::vector<uint64_t>& masks, double w) {
        if (!s) return;
        if (s->span.valid()) m_stmtSpan = s->span;  // for expressions that carry no span
        switch (s->kind) {
            case StmtKind::Seq:
                for (auto& c : static_cast<const SeqNode*>(s.get())->stmts) stmt(c, masks, w);
                return;
            case StmtKind::Kernel:
                return kernel(*static_cast<const KernelNode*>(s.get()));
            case StmtKind::For:
                return loop(*static_cast<const ForNode*>(s.get()), masks, w);
            case StmtKind::If: {
                auto* n = static_cast<const IfNode*>(s.get());
                scan(n->cond, masks, w);
                std::vector<uint64_t> t(masks.size(), 0), f(masks.size(), 0);
                bool unknown = false;
                for (size_t wp = 0; wp < masks.size(); ++wp)
                    for (int l = 0; l < m_lanes; ++l) {
                        if (!(masks[wp] >> l & 1)) continue;
                        setLane(int(wp), l);
                        auto c = evalInt(n->cond, m_env);
                        if (!c) unknown = true;
                        (!c || *c ? t : f)[wp] |= 1u << l;
                    }
                if (unknown) note("a data-dependent condition was taken as true");
                if (any(t)) stmt(n->then, t, w);
                if (n->otherwise && any(f)) stmt(n->otherwise, f, w);
                return;
            }
            case StmtKind::Store: {
                auto* n = static_cast<const StoreNode*>(s.get());
                for (auto& i : n->indices) scan(i, masks, w);
                scan(n->value, masks, w);
                if (n->buffer->scope == Scope::Shared && n->indices.size() == 1) {
                    int elt = dtypeBytes(n->buffer->dtype);
                    Meta m{n->span, n->buffer->name, "st.shared" + vecName(elt, elt),
                           AccessKind::Store, elt};
                    elementAccess(n, 0, m, n->buffer, n->indices[0], masks, w);
                }
                return;
            }
            case StmtKind::Alloc: {
                auto* n = static_cast<const AllocNode*>(s.get());
                if (n->init) scan(n->init, masks, w);
                return;
            }
            case StmtKind::Eval:
                return eval(*static_cast<const EvalNode*>(s.get()), masks, w);
            case StmtKind::TileOp:
                return;
        }
    }

    void kernel(const KernelNode& k) {
        m_rep.threads = k.threadCount();
        m_dims = k.threads;
        while (m_dims.size() < 3) m_dims.push_back(1);
        m_env.clear();
        for (auto& v : k.threadVars) m_env.push_back({v.get(), 0});
        m_threadSlots = k.threadVars.size();
        bool blockDependent = false;
        for (auto& v : k.blockVars) m_env.push_back({v.get(), 0});
        for (auto& g : k.grid) {
            auto e = evalInt(g, m_env);
            if (e)
                m_rep.blocks *= *e;
            else
                blockDependent = true;
        }
        if (blockDependent) note("grid extent not constant; per-kernel totals use one block");
        int warps = int((m_rep.threads + m_lanes - 1) / m_lanes);
        std::vector<uint64_t> masks(warps, fullMask());
        if (m_rep.threads % m_lanes) masks.back() = (uint64_t(1) << (m_rep.threads % m_lanes)) - 1;
        stmt(k.body, masks, 1.0);
    }

    void loop(const ForNode& n, const std::vector<uint64_t>& masks, double w) {
        setLane(0, 0);
        auto mn = evalInt(n.min, m_env), ext = evalInt(n.extent, m_env);
        if (!mn || !ext) {
            note("loop '" + n.var->name +
                 "' has a data-dependent range; its body was evaluated once");
            mn = mn.value_or(0), ext = 1;
        }
        int64_t e = *ext, steps = std::min<int64_t>(e, std::max<int64_t>(1, m_opts.maxIterations));
        bool sampled = steps < e;
        if (sampled)
            note("loop '" + n.var->name + "' (" + std::to_string(e) + " iterations) sampled at " +
                 std::to_string(steps));
        double wi = sampled ? w * double(e) / double(steps) : w;
        m_sampled += sampled;
        m_env.push_back({n.var.get(), 0});
        ++m_depth;
        // A fully unrolled loop: its scalar accesses are buffered per iteration so that
        // flushMerge() can model ptxas merging consecutive elements into vector accesses (and the
        // pairs codegen writes itself, VectorAccess.h). 256: a 128 x 256 accumulator's 128
        // registers per thread, staged into shared memory as 64 pair stores (stage-epilogue).
        const bool merge = n.forKind == ForKind::Unrolled && !sampled && e >= 2 && e <= 256;
        if (merge) m_merge.push_back({m_depth, e, *mn, {}, 0});
        for (int64_t i = 0; i < steps; ++i) {
            m_env.back().second = *mn + (sampled ? i * e / steps : i);
            if (merge) m_merge.back().iter = i;
            stmt(n.body, masks, wi);
        }
        if (merge) {
            MergeFrame fr = std::move(m_merge.back());
            m_merge.pop_back();
            flushMerge(fr);
        }
        --m_depth;
        m_env.pop_back();
        m_sampled -= sampled;
    }

    /// One buffered scalar access site of an unrolled loop: per iteration, warp -> request.
    struct Pending {
        const void* key = nullptr;
        int sub = 0;
        Meta meta;
        int elt = 4;
        double w = 1;
        std::vector<std::map<int, WarpRequest>> iters;
        bool unresolved = false;
    };
    struct MergeFrame {
        int depth = 0;
        int64_t extent = 0, min = 0;
        std::vector<Pending> pending;  // in first-seen (program) order
        int64_t iter = 0;
    };

    static bool contiguous(const std::map<int, WarpRequest>& a, const std::map<int, WarpRequest>& b,
                           int64_t delta) {
        if (a.size() != b.size()) return false;
        for (auto ia = a.begin(), ib = b.begin(); ia != a.end(); ++ia, ++ib) {
            if (ia->first != ib->first) return false;
            for (int l = 0; l < kMaxLanes; ++l) {
                const int64_t x = ia->second.addr[l], y = ib->second.addr[l];
                if ((x < 0) != (y < 0) || (x >= 0 && y != x + delta)) return false;
            }
        }
        return true;
    }

    static bool aligned(const std::map<int, WarpRequest>& a, int64_t bytes) {
        for (auto& [wp, r] : a)
            for (int64_t x : r.addr)
                if (x >= 0 && x % bytes) return false;
        return true;
    }

    void flushMerge(MergeFrame& fr) {
        for (Pending& p : fr.pending) {
            const int64_t E = int64_t(p.iters.size());
            for (int64_t i = 0; i < E;) {
                int64_t take = 1;
                for (int bytes : {16, 8, 4}) {
                    const int64_t g = bytes / p.elt;
                    if (g < 2 || i + g > E || p.iters[i].empty() || !aligned(p.iters[i], bytes))
                        continue;
                    bool ok = true;
                    for (int64_t k = 1; k < g && ok; ++k)
                        ok = contiguous(p.iters[i], p.iters[i + k], k * p.elt);
                    if (ok) {
                        take = g;
                        break;
                    }
                }
                m_env.back().second = fr.min + i;  // the loop variable, for worstWhere
                if (take == 1) {
                    AccessReport& a = site(p.key, p.sub, p.meta);
                    a.unresolved |= p.unresolved;
                    for (auto& [wp, r] : p.iters[i]) record(a, r, wp, p.w);
                } else {
                    const int bytes = int(take * p.elt);
                    Meta m = p.meta;
                    m.bytes = bytes;
                    m.instruction = (m.kind == AccessKind::Load ? "ld.shared" : "st.shared") +
                                    vecName(bytes, 0) + " = " + std::to_string(take) + " x " +
                                    vecName(p.elt, p.elt).substr(1);
                    AccessReport& a = site(p.key, 16 + bytes, m);
                    a.unresolved |= p.unresolved;
                    for (auto& [wp, r0] : p.iters[i]) {
                        WarpRequest r = r0;
                        r.bytes = bytes;
                        record(a, r, wp, p.w);
                    }
                }
                i += take;
            }
        }
    }

    void eval(const EvalNode& n, const std::vector<uint64_t>& masks, double w) {
        auto* c = as<CallNode>(n.call);
        if (!c) return scan(n.call, masks, w);
        auto arg = [&](size_t i) { return i < c->args.size() ? c->args[i] : nullptr; };
        auto bytesArg = [&](size_t i) { return int(arg(i) ? constInt(arg(i)).value_or(4) : 4); };
        if (c->op == intrin::kGemmSS || c->op == intrin::kGemmRS) return gemm(n, *c, masks, w);
        if (c->op == intrin::kCpAsync || c->op == intrin::kCopyVec || c->op == intrin::kZeroVec) {
            bool zero = c->op == intrin::kZeroVec;
            int bytes = bytesArg(zero ? 1 : 2);
            if (auto* d = sharedAddressOf(arg(0))) {
                bool cp = c->op == intrin::kCpAsync;
                Meta m{n.span, d->buffer->name,
                       cp ? "cp.async " + std::to_string(bytes) + " B (shared write)"
                          : "st.shared" + vecName(bytes, 0),
                       cp ? AccessKind::CpAsync : AccessKind::Store, bytes};
                elementAccess(&n, 0, m, d->buffer, d->indices.empty() ? nullptr : d->indices[0],
                              masks, w);
            }
            if (!zero)
                if (auto* s = sharedAddressOf(arg(1))) {
                    Meta m{n.span, s->buffer->name, "ld.shared" + vecName(bytes, 0),
                           AccessKind::Load, bytes};
                    elementAccess(&n, 1, m, s->buffer, s->indices.empty() ? nullptr : s->indices[0],
                                  masks, w);
                }
            return;
        }
        if (c->op == "tl.store_pair") {  // two adjacent elements, one 2x-wide store
            for (size_t i = 1; i < c->args.size(); ++i) scan(c->args[i], masks, w);
            if (auto* d = sharedAddressOf(arg(0))) {
                int bytes = 2 * dtypeBytes(d->buffer->dtype);
                Meta m{n.span, d->buffer->name, "st.shared" + vecName(bytes, 0), AccessKind::Store,
                       bytes};
                elementAccess(&n, 0, m, d->buffer, d->indices.empty() ? nullptr : d->indices[0],
                              masks, w);
            }
            return;
        }
        if (c->op == intrin::kAtomic) {
            if (auto* d = sharedAddressOf(arg(1))) {
                int elt = dtypeBytes(d->buffer->dtype);
                Meta m{n.span, d->buffer->name, "atom.shared" + vecName(elt, elt),
                       AccessKind::Atomic, elt};
                elementAccess(&n, 0, m, d->buffer, d->indices.empty() ? nullptr : d->indices[0],
                              masks, w);
            }
            if (arg(2)) scan(arg(2), masks, w);
            return;
        }
        scan(n.call, masks, w);
    }

    // Shared Loads inside an expression (not under tl.address_of: those are addresses).
    void scan(const Expr& e, const std::vector<uint64_t>& masks, double w) {
        if (!e) return;
        switch (e->kind) {
            case ExprKind::Load: {
                auto* l = static_cast<const LoadNode*>(e.get());
                for (auto& i : l->indices) scan(i, masks, w);
                if (l->buffer->scope == Scope::Shared && l->indices.size() == 1) {
                    int elt = dtypeBytes(l->buffer->dtype);
                    Meta m{l->span.valid() ? l->span : m_stmtSpan, l->buffer->name,
                           "ld.shared" + vecName(elt, elt), AccessKind::Load, elt};
                    elementAccess(l, 0, m, l->buffer, l->indices[0], masks, w);
                }
                return;
            }
            case ExprKind::Call: {
                auto* c = static_cast<const CallNode*>(e.get());
                if (c->op == intrin::kAddressOf) return;
                for (auto& a : c->args) scan(a, masks, w);
                return;
            }
            case ExprKind::Binary: {
                auto* b = static_cast<const BinaryNode*>(e.get());
                scan(b->a, masks, w), scan(b->b, masks, w);
                return;
            }
            case ExprKind::Unary:
                return scan(static_cast<const UnaryNode*>(e.get())->a, masks, w);
            case ExprKind::Cast:
                return scan(static_cast<const CastNode*>(e.get())->value, masks, w);
            case ExprKind::Select: {
                auto* s = static_cast<const SelectNode*>(e.get());
                scan(s->cond, masks, w), scan(s->t, masks, w), scan(s->f, masks, w);
                return;
            }
            default:
                return;
        }
    }

    int64_t baseOf(const std::string& buffer) const {
        return attrInt(m_f.attrs, "smem_offset." + buffer, 0);
    }

    void elementAccess(const void* key, int sub, const Meta& m, const Buffer& buf, const Expr& idx,
                       const std::vector<uint64_t>& masks, double w) {
        const int elt = dtypeBytes(buf->dtype);
        // Scalar ld/st directly inside a short unrolled loop: buffer for flushMerge().
        Pending* pend = nullptr;
        if (!m_merge.empty() && m_merge.back().depth == m_depth && m.bytes == elt && elt < 16 &&
            (m.kind == AccessKind::Load || m.kind == AccessKind::Store)) {
            MergeFrame& fr = m_merge.back();
            for (auto& p : fr.pending)
                if (p.key == key && p.sub == sub) pend = &p;
            if (!pend) {
                fr.pending.push_back({key, sub, m, elt, w,
                                      std::vector<std::map<int, WarpRequest>>(size_t(fr.extent)),
                                      false});
                pend = &fr.pending.back();
            }
        }
        AccessReport* a = pend ? nullptr : &site(key, sub, m);
        const int64_t base = baseOf(buf->name);
        for (size_t wp = 0; wp < masks.size(); ++wp) {
            if (!masks[wp]) continue;
            WarpRequest r = WarpRequest::forRules(m_rules);
            r.bytes = m.bytes;
            r.load = m.kind == AccessKind::Load;
            for (int l = 0; l < m_lanes; ++l) {
                if (!(masks[wp] >> l & 1)) continue;
                setLane(int(wp), l);
                auto v = idx ? evalInt(idx, m_env) : std::optional<int64_t>(0);
                if (!v) {
                    (pend ? pend->unresolved : a->unresolved) = true;
                    continue;
                }
                r.addr[l] = base + *v * elt;
            }
            if (pend) {
                pend->iters[size_t(m_merge.back().iter)][int(wp)] = r;
                continue;
            }
            record(*a, r, int(wp), w);
        }
    }

    void gemm(const EvalNode& n, const CallNode& c, const std::vector<uint64_t>& masks, double w) {
        // gemm_rs (A in registers) issues only gemm_ss's B loads (ts_device.cuh GemmSS::loadB).
        const bool regA = c.op == intrin::kGemmRS;
        if (c.args.size() < (regA ? 10u : 12u)) return;
        const unsigned view = intrin::gemmViewIndex(regA, c.args.size());
        auto* A = regA ? nullptr : sharedAddressOf(c.args[0]);
        auto* B = sharedAddressOf(c.args[1]);
        auto ci = [&](size_t i) { return constInt(c.args[i]).value_or(0); };
        GemmSSShape g;
        g.M = ci(3), g.N = ci(4), g.K = ci(5), g.wm = int(ci(6)), g.wn = int(ci(7));
        if (regA)
            g.transB = ci(8) != 0, g.swizzleB = int(ci(9));
        else
            g.transA = ci(8) != 0, g.transB = ci(9) != 0, g.swizzleA = int(ci(10)),
            g.swizzleB = int(ci(11));
        if (view)  // sub-tile operands read in place: the parent's rows and the origin offsets
            g.ldA = ci(view), g.offA = ci(view + 1), g.ldB = ci(view + 2), g.offB = ci(view + 3);
        if ((!A && !regA) || !B || g.wm <= 0 || g.wn <= 0) return;
        // gemmOperandLoads ports GemmSS::load (fp16/bf16 with an f32 accumulator); the other
        // dtypes take GemmSSAtom's loads (per-element loads for transposed 8/32-bit operands).
        auto* acc = as<CallNode>(c.args[2]);
        auto* accLoad = acc && !acc->args.empty() ? as<LoadNode>(acc->args[0]) : nullptr;
        const DType bt = B->buffer->dtype;
        if ((bt != DType::Float16 && bt != DType::BFloat16) || !accLoad ||
            accLoad->buffer->dtype != DType::Float32)
            return note(c.op + " of " + std::string(dtypeName(bt)) +
                        " operands: its shared loads are not modelled (fp16/bf16 -> f32 only)");
        g.eltBytes = dtypeBytes(B->buffer->dtype);
        setLane(0, 0);
        auto baseIdx = [&](const LoadNode* l) {
            if (!l) return std::optional<int64_t>(0);
            return l->indices.empty() ? std::optional<int64_t>(0) : evalInt(l->indices[0], m_env);
        };
        auto ia = baseIdx(A), ib = baseIdx(B);
        if (!ia || !ib) return note(c.op + " with a data-dependent tile address was skipped");
        const int64_t baseA = A ? baseOf(A->buffer->name) + *ia * g.eltBytes : 0,
                      baseB = baseOf(B->buffer->name) + *ib * g.eltBytes;
        int warps = g.wm * g.wn;
        if (m_rules == BankRules::AmdLds) return mfmaGemm(n, g, A, B, baseA, baseB, masks, w);
        for (int wp = 0; wp < warps && wp < int(masks.size()); ++wp) {
            if (masks[wp] != fullMask()) continue;  // gemm_ss needs whole warps (.sync.aligned)
            for (const LdmatrixIssue& is : gemmOperandLoads(g, wp)) {
                if (regA && is.operand == 'A') continue;
                const LoadNode* op = is.operand == 'A' ? A : B;
                std::string instr =
                    "ldmatrix.x" + std::to_string(is.matrices) + (is.trans ? ".trans" : "");
                Meta m{n.span, op->buffer->name, instr, AccessKind::Ldmatrix, 16};
                AccessReport& a = site(&n, (is.operand == 'A' ? 0 : 2) + (is.matrices == 2), m);
                WarpRequest r;
                r.bytes = 16;
                r.ldmatrix = is.matrices;
                for (int l = 0; l < kWarpSize; ++l)
                    if (is.laneOffset[l] >= 0)
                        r.addr[l] = (is.operand == 'A' ? baseA : baseB) + is.laneOffset[l];
                m_extraWhere = ", kk=" + std::to_string(is.kk) +
                               (is.operand == 'A' ? ", mi=" : ", ni=") + std::to_string(is.index);
                record(a, r, wp, w);
                m_extraWhere.clear();
            }
        }
    }

    /// The HIP gemm (ts_hip.h GemmSS::step): per-element (or merged b64) LDS reads of the MFMA
    /// operands, one request per wave, k-step, atom and item.
    void mfmaGemm(const EvalNode& n, const GemmSSShape& g, const LoadNode* A, const LoadNode* B,
                  int64_t baseA, int64_t baseB, const std::vector<uint64_t>& masks, double w) {
        for (int wp = 0; wp < g.wm * g.wn && wp < int(masks.size()); ++wp) {
            if (masks[wp] != fullMask()) continue;
            for (const MfmaOperandRead& rd : mfmaOperandReads(g, wp)) {
                const LoadNode* op = rd.operand == 'A' ? A : B;
                std::string instr = rd.bytes == 8 ? "ds_read_b64 (MFMA " : "ds_read_u16 (MFMA ";
                instr += std::string(1, rd.operand) + ")";
                Meta m{n.span, op->buffer->name, instr, AccessKind::Load, rd.bytes};
                AccessReport& a = site(&n, (rd.operand == 'A' ? 0 : 2) + (rd.bytes == 8), m);
                WarpRequest r = WarpRequest::forRules(m_rules);
                r.bytes = rd.bytes;
                r.load = true;
                for (int l = 0; l < kWaveSize; ++l)
                    r.addr[size_t(l)] = (rd.operand == 'A' ? baseA : baseB) + rd.laneOffset[size_t(l)];
                m_extraWhere = ", kk=" + std::to_string(rd.kk) +
                               (rd.operand == 'A' ? ", mi=" : ", ni=") + std::to_string(rd.index);
                record(a, r, wp, w);
                m_extraWhere.clear();
            }
        }
    }

    AccessReport& site(const void* key, int sub, const Meta& m) {
        auto k = std::make_pair(key, sub);
        auto it = m_sites.find(k);
        if (it != m_sites.end()) return m_rep.accesses[it->second];
        m_sites[k] = m_rep.accesses.size();
        AccessReport a;
        a.span = m.span, a.buffer = m.buffer, a.kind = m.kind,
        a.instruction = m_rules == BankRules::AmdLds ? ldsInstructionName(m.instruction) : m.instruction,
        a.bytes = m.bytes;
        m_rep.accesses.push_back(a);
        m_worstExcess.push_back(-1);
        return m_rep.accesses.back();
    }

    void record(AccessReport& a, const WarpRequest& r, int warp, double w) {
        WarpCost c = bankCost(r);
        if (!c.phases) return;
        a.executions += w;
        a.wavefronts += w * c.wavefronts;
        a.ideal += w * c.ideal;
        a.ways = std::max(a.ways, c.ways);
        a.sampled |= m_sampled > 0;
        size_t idx = size_t(&a - m_rep.accesses.data());
        if (c.wavefronts - c.ideal > m_worstExcess[idx]) {
            m_worstExcess[idx] = c.wavefronts - c.ideal;
            a.worst = r;
            std::ostringstream os;
            os << "warp " << warp;
            for (size_t i = 0; i < m_env.size(); ++i)
                if (m_env[i].first->tag == VarTag::Plain)
                    os << ", " << m_env[i].first->name << "=" << m_env[i].second;
            os << m_extraWhere;
            a.worstWhere = os.str();
        }
    }

    void setLane(int warp, int lane) {
        int64_t tid = int64_t(warp) * m_lanes + lane;
        for (size_t d = 0; d < m_threadSlots && d < 3; ++d) {
            m_env[d].second = tid % m_dims[d];
            tid /= m_dims[d];
        }
    }

    static bool any(const std::vector<uint64_t>& m) {
        for (auto v : m)
            if (v) return true;
        return false;
    }

    void note(const std::string& s) {
        for (auto& n : m_rep.notes)
            if (n == s) return;
        m_rep.notes.push_back(s);
    }

    uint64_t fullMask() const { return m_lanes == 64 ? ~uint64_t(0) : (uint64_t(1) << m_lanes) - 1; }

    const PrimFuncNode& m_f;
    const BankOptions& m_opts;
    KernelBankReport& m_rep;
    // The HIP lowering marks its functions warp_size = 64: AMD LDS rules on 64-lane waves.
    const int m_lanes = int(attrInt(m_f.attrs, "warp_size", kWarpSize));
    const BankRules m_rules = m_lanes == kWaveSize ? BankRules::AmdLds : BankRules::Nvidia;
    Env m_env;
    size_t m_threadSlots = 0;
    std::vector<int64_t> m_dims;
    int m_sampled = 0;
    std::string m_extraWhere;
    Span m_stmtSpan;
    std::map<std::pair<const void*, int>, size_t> m_sites;
    std::vector<int> m_worstExcess;
    int m_depth = 0;                  // loop nesting depth
    std::vector<MergeFrame> m_merge;  // enclosing short unrolled loops
};

}  // namespace

KernelBankReport analyzeBanks(const PrimFunc& f, const BankOptions& opts) {
    KernelBankReport rep;
    if (!f) return rep;
    rep.kernel = f->name;
    if (!attrBool(f->attrs, "flattened", false)) {
        rep.notes.push_back("the IR is not lowered to threads yet (run the full pipeline)");
        return rep;
    }
    Walker wk(*f, opts, rep);
    wk.run(f->body);
    bool hasBlockVars = false;
    if (auto* k = findKernel(f)) hasBlockVars = !k->blockVars.empty();
    if (hasBlockVars)
        rep.notes.push_back(
            "blockIdx taken as 0: per-kernel totals assume every block behaves like block 0");
    for (auto& a : rep.accesses) {
        if (a.kind == AccessKind::Load || a.kind == AccessKind::Ldmatrix)
            rep.loadWavefronts += a.wavefronts, rep.loadIdeal += a.ideal;
        else if (a.kind == AccessKind::Store)
            rep.storeWavefronts += a.wavefronts, rep.storeIdeal += a.ideal;
        else if (a.kind == AccessKind::CpAsync)
            rep.cpAsyncWavefronts += a.wavefronts, rep.cpAsyncIdeal += a.ideal;
    }
    return rep;
}

std::map<std::string, double> kernelCounters(const KernelBankReport& r) {
    const double b = double(r.blocks);
    double ldsm = 0, ldsmIdeal = 0, ldsmInst = 0, ldsInst = 0, stsInst = 0;
    for (const auto& a : r.accesses) {
        if (a.kind == AccessKind::Ldmatrix)
            ldsm += a.wavefronts, ldsmIdeal += a.ideal, ldsmInst += a.executions;
        if (a.kind == AccessKind::Load) ldsInst += a.executions;
        if (a.kind == AccessKind::Store) stsInst += a.executions;
    }
    return {{"ld_wavefronts", b * r.loadWavefronts},
            {"ld_ideal", b * r.loadIdeal},
            {"ld_conflicts", b * r.loadExcess()},
            {"st_wavefronts", b * r.storeWavefronts},
            {"st_ideal", b * r.storeIdeal},
            {"st_conflicts", b * r.storeExcess()},
            {"cp_async_wavefronts", b * r.cpAsyncWavefronts},
            {"cp_async_ideal", b * r.cpAsyncIdeal},
            {"ldsm_wavefronts", b * ldsm},
            {"ldsm_conflicts", b * (ldsm - ldsmIdeal)},
            {"lds_wavefronts", b * (r.loadWavefronts - ldsm)},
            {"lds_conflicts", b * (r.loadExcess() - (ldsm - ldsmIdeal))},
            {"lds_instructions", b * ldsInst},
            {"sts_instructions", b * stsInst},
            {"ldsm_instructions", b * ldsmInst}};
}

}  // namespace ts::analysis
