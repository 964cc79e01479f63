// Robustness of the lexer and parser on garbage: every prefix of realistic kernels and many
// random mutations must parse without crashing, with diagnostics whose spans lie in the file.
// (Run under ASan/UBSan in the front-end scratch build.)
#include <random>

#include <gtest/gtest.h>

#include "compiler/frontend/Parser.h"

using namespace ts;
using namespace ts::fe;

namespace {

const char* kGemm = R"(import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def matmul(M, N, K, block_M=128, block_N=128, block_K=32, dtype="float16", accum_dtype="float"):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=3):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main


def ref_program(A, B):
    return A @ B


flops = 2 * M * N * K
)";

const char* kAttention = R"(@T.macro
def softmax(acc_s, scores_max, scores_sum, logsum, scale=1.44269504):
    T.copy(scores_max, scores_max_prev)
    T.fill(scores_max, -T.infinity(accum_dtype))
    T.reduce_max(acc_s, scores_max, dim=1, clear=False)
    for i, j in T.Parallel(block_M, block_N):
        acc_s[i, j] = T.exp2(acc_s[i, j] * scale - scores_max[i] * scale)
    T.reduce_sum(acc_s, scores_sum, dim=1)
    configs = [{"a": a, "b": b} for a in [64, 128] for b in (1, 2) if a > b]
    x = lambda i, j: (i // 8, j % 4) if is_causal else [i, j]
    s = 'str\'ing' + "other" + """tri
ple""" + r'\d' + f"{x}"
    y = a if not (b and c or d) else e[1:2, ::3, ...]
    while x < 10 and y is not None:
        x += 1; y //= 2
    try:
        pass
    except Exception as e:
        raise ValueError("bad") from e
    class C(B, metaclass=M):
        def f(self, *a, k=1, **kw) -> int: return {**kw, 'k': k}
)";

void checkSpans(const DiagnosticEngine& d, const SourceFile& src) {
    for (const auto& diag : d.all()) {
        if (!diag.span.valid()) continue;
        EXPECT_LE(diag.span.line, src.lineCount() + 1) << diag.message;
        EXPECT_GE(diag.span.col, 1u) << diag.message;
        EXPECT_FALSE(diag.message.empty());
        (void)formatDiagnostic(diag, &src);  // must not crash either
    }
}

void parseOne(const std::string& text) {
    auto src = std::make_shared<SourceFile>("fuzz.py", text);
    DiagnosticEngine d;
    auto mod = parseModule(src, d);
    ASSERT_NE(mod, nullptr);
    checkSpans(d, *src);
    (void)ast::dump(mod->body);
}

}  // namespace

TEST(ParserFuzzTest, CleanSamplesParse) {
    for (const char* text : {kGemm, kAttention}) {
        DiagnosticEngine d;
        auto mod = parseModule(std::make_shared<SourceFile>("s.py", text), d);
        EXPECT_FALSE(d.hasErrors()) << (d.all().empty() ? "" : d.all()[0].message);
        EXPECT_GT(mod->body.size(), 0u);
    }
}

TEST(ParserFuzzTest, EveryPrefix) {
    for (const char* text : {kGemm, kAttention}) {
        std::string s(text);
        for (size_t n = 0; n <= s.size(); n += 3) parseOne(s.substr(0, n));
    }
}

TEST(ParserFuzzTest, RandomMutations) {
    std::mt19937 rng(12345);
    const std::string alphabet = "()[]{}:,.;=+-*/%@<>!~^&|'\"\\#\n\t 0123456789abcdefTx_jeE";
    for (const char* text : {kGemm, kAttention}) {
        std::string base(text);
        for (int iter = 0; iter < 800; ++iter) {
            std::string s = base;
            int edits = 1 + static_cast<int>(rng() % 6);
            for (int e = 0; e < edits && !s.empty(); ++e) {
                size_t pos = rng() % s.size();
                switch (rng() % 4) {
                    case 0:
                        s.erase(pos, 1 + rng() % 4);
                        break;
                    case 1:
                        s.insert(pos, 1, alphabet[rng() % alphabet.size()]);
                        break;
                    case 2:
                        s[pos] = alphabet[rng() % alphabet.size()];
                        break;
                    case 3: {  // duplicate a chunk (creates odd nesting and indentation)
                        size_t len = std::min<size_t>(1 + rng() % 40, s.size() - pos);
                        s.insert(rng() % s.size(), s.substr(pos, len));
                        break;
                    }
                }
            }
            parseOne(s);
        }
    }
}

TEST(ParserFuzzTest, BinaryGarbage) {
    std::mt19937 rng(7);
    for (int iter = 0; iter < 300; ++iter) {
        std::string s;
        size_t n = rng() % 300;
        for (size_t i = 0; i < n; ++i) s += static_cast<char>(rng() % 256);
        parseOne(s);
    }
}
