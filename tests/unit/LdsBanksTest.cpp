// The AMD LDS bank model (compiler/analysis/Banks.h, BankRules::AmdLds; 64-lane wavefronts, 32
// banks of 4 bytes) on hand-counted cases. Expected values are derived by hand from the rules in
// Banks.h (phases: half-waves for <= 4 bytes, quarter-waves for 8 bytes, 8 groups of 8 lanes for
// 16 bytes -- consecutive for ds_write_b128, CK's 0-3+20-23, ... for ds_read_b128), not by
// running the model. Not measured on hardware (no AMD GPU).
#include <gtest/gtest.h>

#include "compiler/analysis/Banks.h"
#include "compiler/analysis/LdsBanks.h"
#include "compiler/analysis/Swizzle.h"

using namespace ts::analysis;

namespace {
WarpRequest wave(int bytes, bool load) {
    WarpRequest r = WarpRequest::forRules(BankRules::AmdLds);
    r.bytes = bytes;
    r.load = load;
    return r;
}
}  // namespace

TEST(LdsBanks, LaneGroups) {
    EXPECT_EQ(wave(4, true).lanes, 64);
    EXPECT_EQ(phaseCount(wave(4, true)), 2);
    EXPECT_EQ(phaseCount(wave(2, false)), 2);
    EXPECT_EQ(phaseCount(wave(8, true)), 4);
    EXPECT_EQ(phaseCount(wave(16, true)), 8);
    EXPECT_EQ(phaseCount(wave(16, false)), 8);
    EXPECT_EQ(phaseLaneList(wave(4, true), 1).front(), 32);
    EXPECT_EQ(phaseLaneList(wave(4, true), 1).back(), 63);
    EXPECT_EQ(phaseLaneList(wave(8, false), 2), (std::vector<int>{32, 33, 34, 35, 36, 37, 38, 39, 40,
                                                                  41, 42, 43, 44, 45, 46, 47}));
    EXPECT_EQ(phaseLaneList(wave(16, false), 3), (std::vector<int>{24, 25, 26, 27, 28, 29, 30, 31}));
    EXPECT_EQ(phaseLaneList(wave(16, true), 0), (std::vector<int>{0, 1, 2, 3, 20, 21, 22, 23}));
    EXPECT_EQ(phaseLaneList(wave(16, true), 3), (std::vector<int>{12, 13, 14, 15, 24, 25, 26, 27}));
    EXPECT_EQ(phaseLaneList(wave(16, true), 5), (std::vector<int>{36, 37, 38, 39, 48, 49, 50, 51}));
    // Every lane in exactly one group, for every width.
    for (int bytes : {4, 8, 16})
        for (bool load : {false, true}) {
            std::vector<int> seen(64, 0);
            WarpRequest r = wave(bytes, load);
            for (int p = 0; p < phaseCount(r); ++p)
                for (int l : phaseLaneList(r, p)) ++seen[size_t(l)];
            for (int l = 0; l < 64; ++l) EXPECT_EQ(seen[size_t(l)], 1) << bytes << " B lane " << l;
        }
}

TEST(LdsBanks, B32HalfWaves) {
    // Consecutive words: each half-wave covers banks 0..31 once -> 2 cycles = ideal.
    WarpRequest r = wave(4, true);
    for (int l = 0; l < 64; ++l) r.addr[l] = 4 * l;
    WarpCost c = bankCost(r, true);
    EXPECT_EQ(c.phases, 2);
    EXPECT_EQ(c.wavefronts, 2);
    EXPECT_EQ(c.ideal, 2);
    EXPECT_EQ(c.ways, 1);
    EXPECT_EQ(c.bankSlots.size(), 64u);
    // Lanes l and l+32 in the same bank, different words: different half-waves, no conflict
    // (a 32-lane NVIDIA phase would not even see lane 32).
    for (int l = 0; l < 64; ++l) r.addr[l] = 4 * (l % 32) + 128 * (l / 32) * 7;
    EXPECT_EQ(bankCost(r).wavefronts, 2);
    // Stride 2 words: banks 0,2,..,30 twice per half-wave -> 2-way, 4 cycles.
    for (int l = 0; l < 64; ++l) r.addr[l] = 8 * l;
    c = bankCost(r);
    EXPECT_EQ(c.ways, 2);
    EXPECT_EQ(c.wavefronts, 4);
    // One word for every lane: broadcast, 1 cycle per half-wave.
    for (int l = 0; l < 64; ++l) r.addr[l] = 256;
    c = bankCost(r);
    EXPECT_EQ(c.wavefronts, 2);
    EXPECT_EQ(c.ways, 1);
    // A column of a 64x32 fp32 tile (stride 32 words): 32 lanes of a half in bank 0 -> 32-way.
    for (int l = 0; l < 64; ++l) r.addr[l] = 128 * l;
    c = bankCost(r);
    EXPECT_EQ(c.ways, 32);
    EXPECT_EQ(c.wavefronts, 64);
    // Padded by one word (stride 33): word 33*l is in bank (l % 32) -> conflict-free.
    for (int l = 0; l < 64; ++l) r.addr[l] = 4 * 33 * l;
    EXPECT_EQ(bankCost(r).wavefronts, 2);
    // Only the first half active: one phase.
    for (int l = 32; l < 64; ++l) r.addr[l] = -1;
    EXPECT_EQ(bankCost(r).phases, 1);
}

TEST(LdsBanks, B64QuarterWaves) {
    // float2 per lane, consecutive: 16 lanes x 2 words = banks 0..31 once per quarter -> 4 = ideal.
    WarpRequest r = wave(8, true);
    for (int l = 0; l < 64; ++l) r.addr[l] = 8 * l;
    WarpCost c = bankCost(r);
    EXPECT_EQ(c.phases, 4);
    EXPECT_EQ(c.wavefronts, 4);
    EXPECT_EQ(c.ways, 1);
    // 16-byte stride: lane l uses banks 4l%32, 4l%32+1; lanes l and l+8 collide -> 2-way.
    for (int l = 0; l < 64; ++l) r.addr[l] = 16 * l;
    c = bankCost(r);
    EXPECT_EQ(c.ways, 2);
    EXPECT_EQ(c.wavefronts, 8);
    EXPECT_EQ(c.ideal, 4);
    // No register packing on AMD: a wave-uniform b64 load still takes one cycle per quarter.
    for (int l = 0; l < 64; ++l) r.addr[l] = 64;
    EXPECT_FALSE(packedLoad(r));
    EXPECT_EQ(bankCost(r).wavefronts, 4);
}

TEST(LdsBanks, B128ReadAndWriteGroupsDiffer) {
    // Lane l touches the 16-byte chunk q(l) = l%4 + 4*((l%32)/16) of its own 128-byte line:
    // distinct words everywhere, so cycles only depend on repeated chunks inside a group.
    //  - ds_write_b128 groups (8 consecutive lanes): lanes 0-7 have q = 0,1,2,3,0,1,2,3 -> every
    //    used bank twice -> 2-way, 2 cycles per group, 16 in all (ideal 8).
    //  - ds_read_b128 groups (0-3+20-23, ...): q = 0..3 then 4..7 -> all 32 banks once -> 8.
    WarpRequest r = wave(16, false);
    for (int l = 0; l < 64; ++l) r.addr[l] = 128 * l + 16 * (l % 4 + 4 * ((l % 32) / 16));
    WarpCost w = bankCost(r);
    EXPECT_EQ(w.phases, 8);
    EXPECT_EQ(w.wavefronts, 16);
    EXPECT_EQ(w.ideal, 8);
    EXPECT_EQ(w.ways, 2);
    r.load = true;
    WarpCost rd = bankCost(r);
    EXPECT_EQ(rd.wavefronts, 8);
    EXPECT_EQ(rd.ways, 1);
    // Row-contiguous 16-byte vectors (addr 16 l): write groups cover 128 B each -> 8 = ideal;
    // read group 0 = chunks 0-3 and 20-23, i.e. banks 0-15 and (80..95)%32 = 16-31 -> also 8.
    for (int l = 0; l < 64; ++l) r.addr[l] = 16 * l;
    EXPECT_EQ(bankCost(r).wavefronts, 8);
    r.load = false;
    EXPECT_EQ(bankCost(r).wavefronts, 8);
}

TEST(LdsBanks, MfmaOperandReadOfUnswizzledTile) {
    // The HIP gemm reads A (16-bit, row-major 16 x 32 = 64-byte rows) in the MFMA A layout with
    // ds_read_u16: item i of lane l is A[l%16][4*(l/16) + i]. For item 0 the word of lane l is
    // (l%16)*16 + 2*(l/16), bank ((l%16)*16 + 2*(l/16)) % 32: rows r and r+2 share banks, so in
    // half-wave 0 (rows 0-15, k-groups 0 and 1) each used bank sees the 8 rows of one parity ->
    // 8 distinct words -> 8-way, 8 cycles per half, 16 in all.
    WarpRequest r = wave(2, true);
    for (int l = 0; l < 64; ++l) r.addr[l] = (l % 16) * 64 + (4 * (l / 16)) * 2;
    WarpCost c = bankCost(r);
    EXPECT_EQ(c.ways, 8);
    EXPECT_EQ(c.wavefronts, 16);
    EXPECT_EQ(c.ideal, 2);
    // The same tile with the 128-byte swizzle of Swizzle.h (64-byte rows: two rows per 128-byte
    // line, chunk ^= line % 8). Item 0 of half-wave 0 only uses word offsets 0 and 2 of a chunk
    // (bytes 0 and 8), i.e. the 16 banks = 0, 2 (mod 4): 32 distinct words need >= 2 cycles.
    // Swizzled chunk of row r: even rows -> r/2 (0..7), odd rows -> 4 ^ (r/2) (4..7, 0..3), so
    // every chunk holds one even and one odd row -> exactly 2 words per bank: 2-way, 4 cycles.
    for (int l = 0; l < 64; ++l)
        r.addr[l] = swizzleBytes((l % 16) * 64 + (4 * (l / 16)) * 2, 64, 128);
    c = bankCost(r);
    EXPECT_EQ(c.ways, 2);
    EXPECT_EQ(c.wavefronts, 4);
}

TEST(LdsBanks, MfmaGemmOperandReads) {
    // ts_hip.h GemmSS on a 16x16x32 fp16 tile, one wave, row-major unswizzled operands.
    GemmSSShape g;
    g.M = 16, g.N = 16, g.K = 32, g.wm = 1, g.wn = 1, g.eltBytes = 2;
    auto reads = mfmaOperandReads(g, 0);
    // Per k-step: A's four items of a lane are A[l%16][4(l/16) .. +3], 8 contiguous bytes at
    // 64*(l%16) + 8*(l/16) (8-aligned) -> one merged ds_read_b64; B's items are B[4(l/16)+i][l%16],
    // 32 bytes apart -> four ds_read_u16. Two k-steps: 2 x (1 + 4) reads.
    ASSERT_EQ(reads.size(), 10u);
    EXPECT_EQ(reads[0].operand, 'A');
    EXPECT_EQ(reads[0].bytes, 8);
    EXPECT_EQ(reads[0].laneOffset[0], 0);
    EXPECT_EQ(reads[0].laneOffset[17], 64 * 1 + 8 * 1);
    EXPECT_EQ(reads[0].laneOffset[63], 64 * 15 + 8 * 3);
    EXPECT_EQ(reads[1].operand, 'B');
    EXPECT_EQ(reads[1].bytes, 2);
    EXPECT_EQ(reads[2].item, 1);
    EXPECT_EQ(reads[2].laneOffset[21], ((4 * 1 + 1) * 16 + 5) * 2);  // k 5, n 5
    EXPECT_EQ(reads[5].kk, 1);
    EXPECT_EQ(reads[5].laneOffset[0], 16 * 2);  // A[0][16]
    // Cost of the merged A read: quarter-waves of 16 lanes (ds_read_b64); quarter 0 holds rows
    // 0-15 at k 0..3: words 16r, 16r+1 -> banks 0,1 (r even) or 16,17 (r odd) -> 8 words per
    // bank -> 8-way in each of the 4 quarters: 32 cycles for an ideal 4.
    WarpRequest r = wave(8, true);
    for (int l = 0; l < 64; ++l) r.addr[size_t(l)] = reads[0].laneOffset[size_t(l)];
    WarpCost c = bankCost(r);
    EXPECT_EQ(c.ways, 8);
    EXPECT_EQ(c.wavefronts, 32);
    EXPECT_EQ(c.ideal, 4);
    // Transposed A ([K][M], K-major rows of 32 bytes): items are 32 bytes apart -> 4 x u16.
    g.transA = true;
    reads = mfmaOperandReads(g, 0);
    EXPECT_EQ(reads[0].bytes, 2);
    EXPECT_EQ(reads[0].laneOffset[17], ((4 * 1 + 0) * 16 + 1) * 2);  // A(1, 4) stored [4][1]
}
