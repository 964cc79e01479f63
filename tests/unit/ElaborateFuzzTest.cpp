// Robustness of the whole front end: mutated kernels (numbers, names, dtypes, deleted or
// duplicated lines) never crash; each either fails with at least one error diagnostic or
// produces IR that the verifier accepts. (Run under ASan/UBSan in the front-end scratch build.)
#include <cstring>
#include <random>

#include <gtest/gtest.h>

#include "compiler/ir/Verifier.h"
#include "tests/unit/ElaborateTestUtil.h"

using namespace ts;
using namespace elab_test;

namespace {

const char* kKernels[] = {
    R"(import tilelang
import tilelang.language as T

@tilelang.jit(out_idx=[-1])
def matmul(M=128, N=128, K=64, block_M=64, block_N=64, block_K=32, dtype="float16", accum_dtype="float"):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local, transpose_B=False)
            T.copy(C_local, C[by * block_M, bx * block_N])
    return main
)",
    R"(import tilelang
import tilelang.language as T

@T.macro
def rescale(x, m, n, f):
    for i, j in T.Parallel(m, n):
        x[i, j] = T.exp2(x[i, j] * f) if f > 0 else x[i, j]

@tilelang.jit(out_idx=[1])
def softmax(M=64, N=96, block_M=2, threads=128, dtype="float32"):
    scale = 1.44
    @T.prim_func
    def main(X: T.Tensor((M, N), dtype), Y: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=threads) as (bx,):
            x = T.alloc_fragment((block_M, N), dtype)
            mx = T.alloc_fragment((block_M,), dtype)
            acc = T.alloc_var("float32", 0)
            T.copy(X[bx * block_M, 0], x)
            T.reduce_max(x, mx, dim=1)
            rescale(x, block_M, N, scale)
            for i in range(block_M):
                if bx * block_M + i < M:
                    acc += mx[i]
            for i, j in T.Parallel(block_M, N):
                x[i, j] = T.if_then_else(j < N, x[i, j] - mx[i], -T.infinity(dtype))
            T.copy(x, Y[bx * block_M:(bx + 1) * block_M, :])
    return main
)",
};

const char* kNumbers[] = {"-1", "0", "1", "3", "7", "16", "1000", "2.5", "True", "None", "'x'"};
const char* kNames[] = {"bx", "by", "k",     "i",       "j",        "M",       "N", "A",
                        "x",  "T",  "dtype", "block_M", "A_shared", "C_local", "mx"};

std::string mutate(std::string s, std::mt19937& rng) {
    std::vector<std::string> lines;
    size_t p = 0;
    while (p <= s.size()) {
        size_t e = s.find('\n', p);
        if (e == std::string::npos) e = s.size();
        lines.push_back(s.substr(p, e - p));
        p = e + 1;
    }
    int edits = 1 + static_cast<int>(rng() % 3);
    for (int k = 0; k < edits; ++k) {
        size_t li = rng() % lines.size();
        std::string& l = lines[li];
        switch (rng() % 5) {
            case 0: {  // replace a number
                std::vector<size_t> at;
                for (size_t i = 0; i < l.size(); ++i)
                    if (std::isdigit(static_cast<unsigned char>(l[i])) &&
                        (i == 0 || !std::isalnum(static_cast<unsigned char>(l[i - 1]))))
                        at.push_back(i);
                if (at.empty()) break;
                size_t i = at[rng() % at.size()], j = i;
                while (j < l.size() && std::isdigit(static_cast<unsigned char>(l[j]))) ++j;
                l.replace(i, j - i, kNumbers[rng() % std::size(kNumbers)]);
                break;
            }
            case 1: {  // replace an identifier
                const char* from = kNames[rng() % std::size(kNames)];
                size_t i = l.find(from);
                if (i != std::string::npos)
                    l.replace(i, std::strlen(from), kNames[rng() % std::size(kNames)]);
                break;
            }
            case 2:
                lines.erase(lines.begin() + static_cast<long>(li));
                break;
            case 3:
                lines.insert(lines.begin() + static_cast<long>(li), l);
                break;
            case 4: {
                size_t i = l.find("float");
                if (i != std::string::npos) l.replace(i, 5, rng() % 2 ? "bfloat" : "int");
                break;
            }
        }
    }
    std::string out;
    for (auto& l : lines) out += l + "\n";
    return out;
}

}  // namespace

TEST(ElaborateFuzzTest, CleanKernelsElaborate) {
    for (const char* k : kKernels) {
        auto e = elaborateText(k);
        ASSERT_EQ(e->firstError(), nullptr) << e->firstError()->message;
        EXPECT_TRUE(ir::verify(e->result.func).empty());
    }
}

TEST(ElaborateFuzzTest, MutatedKernelsFailCleanlyOrVerify) {
    std::mt19937 rng(2024);
    int ok = 0, failed = 0;
    for (const char* k : kKernels) {
        for (int iter = 0; iter < 250; ++iter) {
            std::string src = mutate(k, rng);
            auto e = elaborateText(src);
            if (e->result.func) {
                ++ok;
                auto problems = ir::verify(e->result.func);
                EXPECT_TRUE(problems.empty()) << problems[0] << "\n" << src;
            } else {
                ++failed;
                const Diagnostic* d = e->firstError();
                ASSERT_NE(d, nullptr) << "no diagnostic for a failed elaboration:\n" << src;
                EXPECT_FALSE(d->message.empty());
                EXPECT_EQ(d->message.find("internal"), std::string::npos) << d->message << "\n"
                                                                          << src;
            }
        }
    }
    EXPECT_GT(ok, 0);
    EXPECT_GT(failed, 0);
}
