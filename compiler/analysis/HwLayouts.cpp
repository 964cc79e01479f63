// Hardware register layouts (HwLayouts.h): mma.sync A/B operands, wgmma D, MFMA 16x16 A/B/C,
// built as expression layouts from the PTX ISA / AMD figures cited in the header.
#include "compiler/analysis/HwLayouts.h"

#include <cstdlib>
#include <cstring>
#include <sstream>

#include "compiler/analysis/LayoutBuild.h"
#include "compiler/analysis/Ldmatrix.h"
#include "compiler/ir/Builder.h"

namespace ts::analysis {
using namespace ts::ir;

namespace {
using namespace lb;
Expr add3(Expr a, Expr b, Expr d) { return add(add(std::move(a), std::move(b)), std::move(d)); }

std::shared_ptr<LayoutNode> newFragment(std::vector<int64_t> shape, const char* rowName,
                                        const char* colName) {
    return lb::newFragment(std::move(shape), {rowName, colName});
}
}  // namespace

// Every m16n8kX atom of a 16-, 8- or 32-bit operand has the same layout in 32-bit words
// (PTX ISA §9.7.14.5.7 m16n8k8 .tf32, §9.7.14.5.8 m16n8k16 .f16/.bf16, §9.7.14.5.10 m16n8k32
// .s8/.u8/.e4m3/.e5m2): a row holds 32 bytes of K = 8 words; lane 4g + t holds word t of the
// low half (bytes 0..15) and word t of the high half (bytes 16..31). With epw = 4 / elemBytes
// elements per word, atom K = 8*epw and half = 4*epw:
//   A (16 x atomK) register j = (row/8)%2 + 2*((k%atomK)/half), item k%epw;
//   B (atomK x 8)  register j = (k%atomK)/half,                  item k%epw.
// For fp16 (epw 2) this is a_i: row = g + 8*((i/2)%2), col = 2t + i%2 + 8*(i/4) of §9.7.14.5.8;
// for 8-bit (epw 4) a_i: row g + 8*((i/4)%2), col 4t + i%4 + 16*(i/8) of §9.7.14.5.10; for tf32
// (epw 1) a_i: row g + 8*(i%2), col t + 4*(i/2) of §9.7.14.5.7.
namespace {
int wordElems(int elemBytes) { return elemBytes == 1 ? 4 : elemBytes == 4 ? 1 : 2; }
const char* atomName(int elemBytes) {
    return elemBytes == 1   ? "m16n8k32 8-bit (PTX ISA 9.7.14.5.10)"
           : elemBytes == 4 ? "m16n8k8 tf32 (PTX ISA 9.7.14.5.7)"
                            : "m16n8k16 (PTX ISA 9.7.14.5.8)";
}
}  // namespace

Layout makeMmaOperandA(int64_t M, int64_t K, WarpPartition wp, int elemBytes) {
    auto l = newFragment({M, K}, "i", "k");
    const int64_t epw = wordElems(elemBytes), AK = 8 * epw, half = 4 * epw, per = 4 * epw;
    const int64_t mw = M / wp.wm, MI = mw / 16;
    Expr i = l->inputs[0], k = l->inputs[1];
    Expr lane = add(mulc(mod(i, 8), 4), div(mod(k, half), epw));
    Expr reg = add(div(mod(i, 16), 8), mulc(div(mod(k, AK), half), 2));
    Expr e = add(mod(k, epw), mulc(reg, epw));
    l->thread = add(mulc(div(i, mw), 32LL * wp.wn), lane);
    l->local = add(mulc(add(mulc(div(k, AK), MI), div(mod(i, mw), 16)), per), e);
    l->threads = 32LL * wp.wm * wp.wn;
    l->localSize = MI * (K / AK) * per;
    l->replicate = wp.wn;
    Expr t = l->invThread, r = l->invLocal;
    Expr w = div(t, 32), ln = mod(t, 32), a = div(r, per), ei = mod(r, per), rj = div(ei, epw);
    l->inverse = {
        add(add3(mulc(div(w, wp.wn), mw), mulc(mod(a, MI), 16), div(ln, 4)), mulc(mod(rj, 2), 8)),
        add(add3(mulc(div(a, MI), AK), mulc(mod(ln, 4), epw), mod(ei, epw)), mulc(div(rj, 2), half)),
    };
    std::ostringstream os;
    os << "mma.sync " << atomName(elemBytes) << " operand A, warps " << wp.wm << "x" << wp.wn
       << ", " << l->localSize << " elements/thread, shared by the " << wp.wn
       << " warp(s) of a warp row";
    l->description = os.str();
    l->family = "mma_a";
    l->familyParams = {M, K, wp.wm, wp.wn};
    if (elemBytes != 2) l->familyParams.push_back(elemBytes);
    return l;
}

Layout makeMmaOperandB(int64_t K, int64_t N, WarpPartition wp, int elemBytes) {
    auto l = newFragment({K, N}, "k", "j");
    const int64_t epw = wordElems(elemBytes), AK = 8 * epw, half = 4 * epw, per = 2 * epw;
    const int64_t nw = N / wp.wn, NI = nw / 8;
    Expr k = l->inputs[0], j = l->inputs[1];
    Expr lane = add(mulc(mod(j, 8), 4), div(mod(k, half), epw));
    Expr e = add(mod(k, epw), mulc(div(mod(k, AK), half), epw));
    l->thread = add(mulc(div(j, nw), 32), lane);
    l->local = add(mulc(add(mulc(div(k, AK), NI), div(mod(j, nw), 8)), per), e);
    l->threads = 32LL * wp.wm * wp.wn;
    l->localSize = NI * (K / AK) * per;
    l->replicate = wp.wm;
    Expr t = l->invThread, r = l->invLocal;
    Expr w = div(t, 32), ln = mod(t, 32), a = div(r, per), ei = mod(r, per);
    l->inverse = {
        add(add3(mulc(div(a, NI), AK), mulc(mod(ln, 4), epw), mod(ei, epw)),
            mulc(div(ei, epw), half)),
        add3(mulc(mod(w, wp.wn), nw), mulc(mod(a, NI), 8), div(ln, 4)),
    };
    std::ostringstream os;
    os << "mma.sync " << atomName(elemBytes) << " operand B, warps " << wp.wm << "x" << wp.wn
       << ", " << l->localSize << " elements/thread, shared by the " << wp.wm
       << " warp(s) of a warp column";
    l->description = os.str();
    l->family = "mma_b";
    l->familyParams = {K, N, wp.wm, wp.wn};
    if (elemBytes != 2) l->familyParams.push_back(elemBytes);
    return l;
}

std::optional<MmaAtom> selectMmaAtom(DType ab, DType c, std::string* why) {
    auto atom = [](int k, int e, std::string ptx, std::string conv = {}) {
        return std::optional<MmaAtom>(MmaAtom{k, e, std::move(ptx), std::move(conv)});
    };
    const std::string abName(dtypeName(ab)), cName(dtypeName(c));
    switch (ab) {
        case DType::Float16:
            if (c == DType::Float32) return atom(16, 2, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
            if (c == DType::Float16) return atom(16, 2, "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16");
            break;
        case DType::BFloat16:
            // bf16 exists only with an f32 accumulator (§9.7.14.5 .atype/.dtype table).
            if (c == DType::Float32) return atom(16, 2, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32");
            break;
        case DType::Int8:
            if (c == DType::Int32) return atom(32, 1, "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32");
            break;
        case DType::UInt8:
            if (c == DType::Int32) return atom(32, 1, "mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32");
            break;
        case DType::Float8E4M3:
        case DType::Float8E5M2:
            // The fp8 mma.sync (m16n8k32 .f32.e4m3/.e5m2) needs sm_89. Below it every fp8 value
            // is exactly an f16 (e5m2 is f16's top byte; e4m3's 4-bit exponent and 3-bit
            // mantissa fit f16's 5 and 10 bits, subnormals included), and an f16 x f16 product
            // is exact in f32, so widening in registers computes the same products as the fp8
            // instruction: a conversion, not an approximation, hence no diagnostic.
            if (c == DType::Float32)
                return atom(32, 1,
                            std::string("mma.sync.aligned.m16n8k32.row.col.f32.") +
                                (ab == DType::Float8E4M3 ? "e4m3.e4m3" : "e5m2.e5m2") + ".f32",
                            "fp8->f16 below sm_89");
            break;
        case DType::Float32:
            if (c == DType::Float32) return atom(8, 4, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", "tf32");
            break;
        default: break;
    }
    if (why)
        *why = "no mma.sync for " + abName + " operands with a " + cName +
               " accumulator; supported: float16 or bfloat16 -> float32, float16 -> float16, "
               "int8 or uint8 -> int32, float8_e4m3 or float8_e5m2 -> float32, float32 (tf32) -> "
               "float32";
    return std::nullopt;
}

std::optional<MmaAtom> selectMfmaAtom(DType ab, DType c, std::string* why) {
    // The two 16x16x16 MFMA instructions of resources/ts_hip.h (mfma_16x16x16_f32): operands are
    // exact in the f32 accumulator, so no operand conversion ("AMD Instinct MI200" ISA Reference
    // Guide §7.1, MFMA opcodes; bf16_1k is the gfx90a bf16 form with 4 operand elements per lane).
    if (c == DType::Float32 && ab == DType::Float16) return MmaAtom{16, 2, "v_mfma_f32_16x16x16f16", {}};
    if (c == DType::Float32 && ab == DType::BFloat16) return MmaAtom{16, 2, "v_mfma_f32_16x16x16bf16_1k", {}};
    if (why)
        *why = "no MFMA atom on the HIP path for " + std::string(dtypeName(ab)) + " operands with a " +
               std::string(dtypeName(c)) + " accumulator; supported: float16 or bfloat16 -> float32";
    return std::nullopt;
}

double mmaOperandValue(DType ab, double x) {
    if (ab != DType::Float32) return x;
    float f = static_cast<float>(x);
    uint32_t u;
    std::memcpy(&u, &f, 4);
    if ((u & 0x7f800000u) != 0x7f800000u) u = (u + 0x1000u) & ~0x1fffu;  // rna to 10 bits
    std::memcpy(&f, &u, 4);
    return f;
}

std::string wgmmaLayoutError(int64_t M, int64_t N, WarpgroupPartition wg) {
    std::ostringstream os;
    if (wg.wgm < 1 || wg.wgn < 1) return "the warpgroup grid must be at least 1x1";
    if (M % wg.wgm || N % wg.wgn) {
        os << "tile " << M << "x" << N << " does not divide over " << wg.wgm << "x" << wg.wgn
           << " warpgroups";
        return os.str();
    }
    const int64_t mw = M / wg.wgm, nw = N / wg.wgn, n = wg.instN ? wg.instN : nw;
    if (mw % 64 != 0)
        os << "warpgroup tile rows " << mw << " are not a multiple of 64 (wgmma m64)";
    else if (n < 8 || n > 256 || n % 8 != 0)
        os << "wgmma n = " << n << " is not one of 8, 16, ..., 256";
    else if (nw % n != 0)
        os << "warpgroup tile cols " << nw << " are not a multiple of n = " << n;
    return os.str();
}

// Atom (64 x n): thread = 32*(i/16) + 4*(i%8) + (j%8)/2, d-index = j%2 + 2*((i%16)/8) + 4*(j/8).
Layout makeWgmmaAccumulator(int64_t M, int64_t N, WarpgroupPartition wg) {
    auto l = newFragment({M, N}, "i", "j");
    const int64_t mw = M / wg.wgm, nw = N / wg.wgn, n = wg.instN ? wg.instN : nw;
    const int64_t NI = nw / n, R = n / 2;
    Expr i = l->inputs[0], j = l->inputs[1];
    Expr group = add(mulc(div(i, mw), wg.wgn), div(j, nw));
    Expr inGroup = add3(mulc(div(mod(i, 64), 16), 32), mulc(mod(i, 8), 4), div(mod(j, 8), 2));
    Expr d = add3(mod(j, 2), mulc(div(mod(i, 16), 8), 2), mulc(div(mod(j, n), 8), 4));
    l->thread = add(mulc(group, 128), inGroup);
    l->local = add(mulc(add(mulc(div(mod(i, mw), 64), NI), div(mod(j, nw), n)), R), d);
    l->threads = 128LL * wg.wgm * wg.wgn;
    l->localSize = (mw / 64) * NI * R;
    Expr t = l->invThread, r = l->invLocal;
    Expr g = div(t, 128), w = div(mod(t, 128), 32), ln = mod(t, 32), a = div(r, R), q = mod(r, R);
    l->inverse = {
        add(add3(mulc(div(g, wg.wgn), mw), mulc(div(a, NI), 64), mulc(w, 16)),
            add(div(ln, 4), mulc(mod(div(q, 2), 2), 8))),
        add(add3(mulc(mod(g, wg.wgn), nw), mulc(mod(a, NI), n), mulc(div(q, 4), 8)),
            add(mulc(mod(ln, 4), 2), mod(q, 2))),
    };
    std::ostringstream os;
    os << "wgmma.mma_async m64n" << n
       << "k16 f32 accumulator D (PTX ISA 9.7.15.5.1.1.1), warpgroups " << wg.wgm << "x" << wg.wgn
       << ", " << l->localSize << " regs/thread";
    l->description = os.str();
    l->family = "wgmma_c";
    l->familyParams = {M, N, wg.wgm, wg.wgn, n};
    return l;
}

// Every 16x16 MFMA operand is "lane = x%16 + 16*((y%16)/4), item = y%4" for (x, y) = (i, k)
// for A, (j, k) for B and (j, i) for C; they differ only in which axis is tiled over which
// wave-grid dimension and which operand is replicated.
Layout makeMfma16Layout(char operand, int64_t rows, int64_t cols, WarpPartition wp) {
    auto l = newFragment({rows, cols}, operand == 'B' ? "k" : "i", operand == 'A' ? "k" : "j");
    Expr r0 = l->inputs[0], c0 = l->inputs[1];
    const bool isA = operand == 'A', isB = operand == 'B';
    // Tiled extents per wave: A tiles rows over wm; B tiles cols over wn; C both.
    const int64_t rw = isB ? rows : rows / wp.wm, cw = isA ? cols : cols / wp.wn;
    const int64_t RI = rw / 16, CI = cw / 16;
    Expr x = isA ? r0 : c0, y = isA ? c0 : r0;  // lane index dim, item dim
    Expr lane = add(mod(x, 16), mulc(div(mod(y, 16), 4), 16));
    Expr item = mod(y, 4);
    Expr waveRow = isB ? c(0) : div(r0, rw), waveCol = isA ? c(0) : div(c0, cw);
    l->thread = add(mulc(add(mulc(waveRow, wp.wn), waveCol), 64), lane);
    // Atom order: A (kk, mi), B (kk, ni), C (mi, ni); atom index = major*minorCount + minor.
    Expr atom = isA   ? add(mulc(div(c0, 16), RI), div(mod(r0, rw), 16))
                : isB ? add(mulc(div(r0, 16), CI), div(mod(c0, cw), 16))
                      : add(mulc(div(mod(r0, rw), 16), CI), div(mod(c0, cw), 16));
    l->local = add(mulc(atom, 4), item);
    l->threads = 64LL * wp.wm * wp.wn;
    l->localSize = RI * CI * 4;
    l->replicate = isA ? wp.wn : isB ? wp.wm : 1;
    Expr t = l->invThread, r = l->invLocal;
    Expr w = div(t, 64), ln = mod(t, 64), a = div(r, 4), it = mod(r, 4);
    Expr lx = mod(ln, 16), ly = add(mulc(div(ln, 16), 4), it);  // in-atom (x, y)
    if (isA) {
        l->inverse = {add3(mulc(div(w, wp.wn), rw), mulc(mod(a, RI), 16), lx),
                      add(mulc(div(a, RI), 16), ly)};
    } else if (isB) {
        l->inverse = {add(mulc(div(a, CI), 16), ly),
                      add3(mulc(mod(w, wp.wn), cw), mulc(mod(a, CI), 16), lx)};
    } else {
        l->inverse = {add3(mulc(div(w, wp.wn), rw), mulc(div(a, CI), 16), ly),
                      add3(mulc(mod(w, wp.wn), cw), mulc(mod(a, CI), 16), lx)};
    }
    std::ostringstream os;
    os << "v_mfma_f32_16x16x16f16 "
       << (isA   ? "operand A"
           : isB ? "operand B"
                 : "accumulator C/D (f32)")
       << " (CDNA2, 64-lane waves), waves " << wp.wm << "x" << wp.wn << ", " << l->localSize
       << " elements/lane";
    l->description = os.str();
    l->family = isA ? "mfma_a" : isB ? "mfma_b" : "mfma_c";
    l->familyParams = {rows, cols, wp.wm, wp.wn};
    return l;
}

Layout makeMfma16AccumulatorRows(int64_t M, WarpPartition wp) {
    auto l = newFragment({M});
    const int64_t rw = M / wp.wm;
    Expr i = l->inputs[0];
    // The first holder: wave column 0, lane 0 of the row's 16-lane group.
    l->thread = add(mulc(mulc(div(i, rw), wp.wn), 64), mulc(div(mod(i, 16), 4), 16));
    l->local = add(mulc(div(mod(i, rw), 16), 4), mod(i, 4));
    l->threads = 64LL * wp.wm * wp.wn;
    l->localSize = (rw / 16) * 4;
    l->replicate = 16LL * wp.wn;
    Expr t = l->invThread, r = l->invLocal;
    Expr w = div(t, 64), ln = mod(t, 64);
    l->inverse = {add(add(add(mulc(div(w, wp.wn), rw), mulc(div(r, 4), 16)), mulc(div(ln, 16), 4)), mod(r, 4))};
    std::ostringstream os;
    os << "row values of a v_mfma_f32_16x16x16f16 accumulator (64-lane waves), waves " << wp.wm << "x" << wp.wn
       << ", replicated over " << l->replicate << " threads (16 lanes per wave column)";
    l->description = os.str();
    l->family = "mfma_c_rows";
    l->familyParams = {M, wp.wm, wp.wn};
    return l;
}

const std::vector<BuiltinLayoutInfo>& builtinLayouts() {
    static const std::vector<BuiltinLayoutInfo> k = {
        {"mma_a", "mma_a[:B]",
         "mma.sync operand A per warp: B = 2 (default) m16n8k16 16x16 fp16/bf16, 1 m16n8k32 16x32 "
         "int8/fp8, 4 m16n8k8 16x8 tf32"},
        {"mma_b", "mma_b[:B]",
         "mma.sync operand B (k x n) per warp: B = 2 (default) 16x8 fp16/bf16, 1 32x8 int8/fp8, "
         "4 8x8 tf32"},
        {"mma_c", "mma_c", "mma.sync m16n8k16 accumulator C/D, 16x8 f32 per warp (c0..c3)"},
        {"wgmma_c", "wgmma_c:N",
         "wgmma m64nNk16 accumulator D, 64xN f32 per warpgroup (N = 8..256 step 8)"},
        {"mfma_a", "mfma_a", "v_mfma_f32_16x16x16f16 operand A, 16x16 fp16 per 64-lane wave"},
        {"mfma_b", "mfma_b",
         "v_mfma_f32_16x16x16f16 operand B, 16x16 (k x n) fp16 per 64-lane wave"},
        {"mfma_c", "mfma_c", "v_mfma_f32_16x16x16f16 accumulator C/D, 16x16 f32 per 64-lane wave"},
        {"ldmatrix", "ldmatrix:N", "ldmatrix.m8n8.xN destination, (8N)x8 b16 (N = 1, 2, 4)"},
        {"ldmatrix_t", "ldmatrix_t:N",
         "ldmatrix.m8n8.xN.trans destination, (8N)x8 b16 (N = 1, 2, 4)"},
    };
    return k;
}

namespace {
Layout fail(std::string* why, const std::string& s) {
    if (why) *why = s;
    return nullptr;
}
std::string shapeError(const char* what, int64_t extent, int64_t grid, int64_t unit) {
    if (grid < 1 || extent <= 0 || extent % grid != 0 || (extent / grid) % unit != 0) {
        std::ostringstream os;
        os << what << " " << extent << " must divide into " << grid << " part(s) of a multiple of "
           << unit;
        return os.str();
    }
    return {};
}
}  // namespace

Layout makeBuiltinLayout(const std::string& spec, const std::vector<int64_t>& shape,
                         const std::vector<int>& grid, std::string* why) {
    std::string name = spec;
    int64_t param = -1;
    if (auto colon = spec.find(':'); colon != std::string::npos) {
        name = spec.substr(0, colon);
        const std::string num = spec.substr(colon + 1);
        char* end = nullptr;
        param = num.empty() ? -1 : std::strtoll(num.c_str(), &end, 10);
        if (num.empty() || *end != 0 || param < 0)
            return fail(why, "bad parameter in '" + spec + "' (expected NAME:N, N >= 0)");
    }
    bool known = false;
    for (auto& b : builtinLayouts()) known |= b.name == name;
    if (!known) {
        std::string list;
        for (auto& b : builtinLayouts()) list += (list.empty() ? "" : ", ") + b.usage;
        return fail(why, "unknown builtin layout '" + name + "' (known: " + list + ")");
    }
    if (!shape.empty() && shape.size() != 2)
        return fail(why, "a builtin layout's shape has two extents (ROWSxCOLS)");
    if (!grid.empty() && grid.size() != 2) return fail(why, "the warp grid has two extents (AxB)");
    const int gm = grid.empty() ? 1 : grid[0], gn = grid.empty() ? 1 : grid[1];
    if (gm < 1 || gn < 1) return fail(why, "the warp grid must be at least 1x1");
    if (param >= 0 && name != "wgmma_c" && name != "ldmatrix" && name != "ldmatrix_t" &&
        name != "mma_a" && name != "mma_b")
        return fail(why, "'" + name + "' takes no :N parameter");
    const int opBytes = param < 0 ? 2 : int(param);  // mma_a / mma_b: operand element bytes
    if ((name == "mma_a" || name == "mma_b") && opBytes != 1 && opBytes != 2 && opBytes != 4)
        return fail(why, name + " takes :1 (8-bit, m16n8k32), :2 (16-bit, m16n8k16) or :4 (tf32, "
                          "m16n8k8) operand bytes");

    if (name == "ldmatrix" || name == "ldmatrix_t") {
        int x = param < 0 ? 4 : int(param);
        if (x != 1 && x != 2 && x != 4) return fail(why, "ldmatrix takes :1, :2 or :4 matrices");
        if (!shape.empty() || !grid.empty())
            return fail(why, "ldmatrix is a single-warp layout (no --shape/--warps)");
        return makeLdmatrixFragment(x, name == "ldmatrix_t");
    }
    if (name == "wgmma_c") {
        WarpgroupPartition wg{gm, gn, param < 0 ? 64 : param};
        int64_t M = shape.empty() ? 64LL * gm : shape[0];
        int64_t N = shape.empty() ? wg.instN * gn : shape[1];
        if (auto e = wgmmaLayoutError(M, N, wg); !e.empty()) return fail(why, e);
        return makeWgmmaAccumulator(M, N, wg);
    }
    WarpPartition wp{gm, gn};
    const bool mfma = name.rfind("mfma", 0) == 0;
    const char op = name.back() == 'a' ? 'A' : name.back() == 'b' ? 'B' : 'C';
    // Atom extents (rows x cols) of one warp / wave, and which dims the grid tiles.
    const int64_t atomK = 32 / opBytes;
    int64_t ar = mfma || op != 'B' ? 16 : atomK, ac = mfma ? 16 : (op == 'A' ? atomK : 8);
    const bool tileRows = op != 'B', tileCols = op != 'A';
    int64_t rows = shape.empty() ? ar * (tileRows ? gm : 1) : shape[0];
    int64_t cols = shape.empty() ? ac * (tileCols ? gn : 1) : shape[1];
    std::string e = shapeError("rows", rows, tileRows ? gm : 1, ar);
    if (e.empty()) e = shapeError("cols", cols, tileCols ? gn : 1, ac);
    if (!e.empty()) return fail(why, name + ": " + e);
    if (mfma) return makeMfma16Layout(op, rows, cols, wp);
    if (op == 'A') return makeMmaOperandA(rows, cols, wp, opBytes);
    if (op == 'B') return makeMmaOperandB(rows, cols, wp, opBytes);
    return makeMmaAccumulator(rows, cols, wp);
}

}  // namespace ts::analysis
