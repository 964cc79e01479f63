// visualizer/core/BankCompare.h: the source hash (FNV-1a 64 test vectors, the parameter pragma
// left out), reading measured counters (new and old tilec banks JSON, dropped metrics), the
// agreement rule and the match check. Values are hand-written, not produced by the code.
#include <gtest/gtest.h>

#include "visualizer/core/BankCompare.h"

using namespace ts::viz;

TEST(BankCompare, SourceHashIsFnv1a64WithoutThePragma) {
    // FNV-1a 64-bit reference vectors (Fowler/Noll/Vo test suite): "" and "a".
    EXPECT_EQ(sourceHash(""), "cbf29ce484222325");
    EXPECT_EQ(sourceHash("a"), "af63dc4c8601ec8c");
    EXPECT_EQ(sourceHash("x = 1\n# tilescope: pad=1\ny = 2\n"), sourceHash("x = 1\ny = 2\n"));
    EXPECT_EQ(sourceHash("  # tilescope: M=64\n"), sourceHash(""));
    EXPECT_NE(sourceHash("x = 1\n# a comment\n"), sourceHash("x = 1\n"));
}

TEST(BankCompare, ParsesCountersNullsAndOldFiles) {
    const char* now = R"({"kernel": "k", "blocks": 4, "target": "cuda:sm_90a",
        "params": {"pad": "0", "dtype": "'float32'"}, "source_hash": "00000000000000ff",
        "predicted": {"ld_conflicts": 8},
        "measured": {"device": "NVIDIA H200", "chip": "GH100",
                     "counters": {"ld_conflicts": 8, "st_conflicts": 0, "ld_wavefronts": 40,
                                  "st_wavefronts": 16, "ldsm_wavefronts": null}}})";
    std::string why;
    auto m = parseMeasuredBanks(now, &why);
    ASSERT_TRUE(m) << why;
    EXPECT_EQ(m->chip, "GH100");
    EXPECT_EQ(m->params.at("dtype"), "'float32'");
    EXPECT_EQ(m->measured.at("ld_wavefronts"), 40);
    EXPECT_FALSE(m->measured.count("ldsm_wavefronts"));  // null: the chip lacks the metric
    // Before "counters" existed: the raw CUPTI metrics.
    const char* old = R"({"kernel": "k", "blocks": 4, "predicted": {},
        "measured": {"metrics": {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum": 96}}})";
    auto o = parseMeasuredBanks(old, &why);
    ASSERT_TRUE(o) << why;
    EXPECT_FALSE(o->hasParams);
    EXPECT_EQ(o->measured.at("st_conflicts"), 96);
    EXPECT_FALSE(parseMeasuredBanks(R"({"kernel": "k", "predicted": {}})", &why));
    EXPECT_NE(why.find("without --measure"), std::string::npos);
    EXPECT_FALSE(parseMeasuredBanks("not json", &why));
}

TEST(BankCompare, AgreementRule) {
    EXPECT_TRUE(countersAgree(0, 0, 0));           // equal
    EXPECT_FALSE(countersAgree(0, 1, 0));          // no traffic to compare against: exact
    EXPECT_TRUE(countersAgree(0, 141, 131213));    // row-sum residue: 141 <= 656 (0.5%)
    EXPECT_FALSE(countersAgree(0, 2202, 133274));  // 4096 one-row blocks: 2202 > 666
    EXPECT_FALSE(countersAgree(98304, 0, 32768));  // the unmerged-store prediction of old
    EXPECT_FALSE(countersAgree(5, -1, 1000));      // -1: not measured
}

TEST(BankCompare, MatchNamesEachDifference) {
    MeasuredBanks m;
    m.kernel = "k", m.blocks = 4, m.target = "cuda:sm_90a", m.hasParams = true;
    m.params = {{"pad", "1"}, {"block", "32"}};
    m.sourceHash = sourceHash("src\n");
    auto ok = matchMeasured(m, "k", 4, {{"pad", "1"}, {"block", "32"}}, "cuda:sm_90a",
                            "src\n# tilescope: pad=1\n");
    EXPECT_EQ(ok.status, MeasuredMatch::Matches);
    EXPECT_TRUE(ok.reasons.empty());
    auto bad = matchMeasured(m, "k", 8, {{"pad", "0"}, {"block", "32"}}, "cuda:sm_80", "src2\n");
    EXPECT_EQ(bad.status, MeasuredMatch::Mismatch);
    std::vector<std::string> want = {
        "grid blocks = 4 when measured, 8 now", "pad = 1 when measured, 0 now",
        "target = cuda:sm_90a when measured, cuda:sm_80 now",
        "the source text differs from the measured one (edited since?)"};
    EXPECT_EQ(bad.reasons, want);
    MeasuredBanks old;  // nothing recorded but kernel and grid
    old.kernel = "k", old.blocks = 4;
    EXPECT_EQ(matchMeasured(old, "k", 4, {}, "cuda:sm_80", "").status, MeasuredMatch::Unknown);
}
