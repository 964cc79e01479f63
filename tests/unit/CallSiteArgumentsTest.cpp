// What the front end says about the arguments of a file's own kernel call that it could not take
// (helper-122 #7: a lambda or functools.partial for an op parameter was dropped without naming the
// argument), about an autotuned kernel's call values against its configs (helper-123 #2: the first
// config replaced the call's block_M silently; TileLang's AutoTuner compiles the call's values
// when the call passes a tunable parameter), and the hints of two argument errors (helper-124 #4).
// The programs are ours, in the shapes TileLang's tests use.
#include <gtest/gtest.h>

#include "tests/unit/ElaborateTestUtil.h"

using namespace ts;
using namespace elab_test;

namespace {

std::vector<const Diagnostic*> notesOf(const Elaborated& e) {
    std::vector<const Diagnostic*> n;
    for (const auto& d : e.diags.all())
        if (d.severity == Severity::Note && d.origin == "params") n.push_back(&d);
    return n;
}

const Diagnostic* noteContaining(const Elaborated& e, const std::string& part) {
    for (const Diagnostic* d : notesOf(e))
        if (d->message.find(part) != std::string::npos) return d;
    return nullptr;
}

// A reduce factory whose op parameter has a default (`reduce_fn=T.reduce_max`) or none; line 12
// (1-based) is the call, `CALL` is replaced by the test's argument text.
std::string reduceFactory(bool withDefault, const std::string& callArg) {
    return std::string("import functools\n"
                       "import tilelang.language as T\n"
                       "def make(") + (withDefault ? "reduce_fn=T.reduce_max" : "reduce_fn") + ", length=32):\n"
           "    @T.prim_func\n"
           "    def k(a: T.Tensor((length, 8), T.float32), out: T.Tensor((length,), T.float32)):\n"
           "        with T.Kernel(1, threads=32):\n"
           "            f = T.alloc_fragment((length, 8), T.float32)\n"
           "            o = T.alloc_fragment((length,), T.float32)\n"
           "            T.copy(a, f)\n"
           "            reduce_fn(f, o, dim=1)\n"
           "            T.copy(o, out)\n"
           "    return k\n"
           "def test_it():\n"
           "    make(" + callArg + ", 16)\n";
}

TEST(CallSiteArgumentsTest, AnUnreadableOpArgumentKeepsTheDefaultAndSaysWhichArgument) {
    auto e = elaborateText(reduceFactory(true, "functools.partial(T.reduce_min, clear=True)"));
    ASSERT_EQ(e->firstError(), nullptr) << e->firstError()->message;
    EXPECT_NE(e->ir.find("T.reduce_max(f, o, dim=1)"), std::string::npos) << e->ir;
    const Diagnostic* n = noteContaining(*e, "keeps its default reduce_fn");
    ASSERT_NE(n, nullptr);
    EXPECT_EQ(n->message, "'make' keeps its default reduce_fn=T.reduce_max: this argument is the result of a "
                          "call, which TileScope does not evaluate outside a kernel");
    EXPECT_EQ(n->span.line, 14);
    EXPECT_EQ(n->span.col, 10);  // at `functools.partial(...)`, not at the call
    EXPECT_EQ(n->hint, "pass --param reduce_fn=<value> to compile what this call compiles");
    // The readable argument of the same call is noted as before (length keeps its default).
    EXPECT_NE(e->ir.find("T.Tensor((32, 8), \"float32\")"), std::string::npos) << e->ir;
    ASSERT_NE(noteContaining(*e, "keeps its defaults length=32"), nullptr);
}

TEST(CallSiteArgumentsTest, AnUnreadableOpArgumentWithoutDefaultIsNamedAtTheError) {
    auto e = elaborateText(reduceFactory(false, "lambda x, y: T.reduce_min(x, y, dim=1)"));
    const Diagnostic* err = e->firstError();
    ASSERT_NE(err, nullptr);
    EXPECT_EQ(err->message, "parameter 'reduce_fn' of 'make' has no value");
    const Diagnostic* n = noteContaining(*e, "this argument for 'reduce_fn'");
    ASSERT_NE(n, nullptr);
    EXPECT_EQ(n->message, "this argument for 'reduce_fn' of 'make' is a lambda, which TileScope does not "
                          "evaluate outside a kernel");
    EXPECT_EQ(n->span.line, 14);
    EXPECT_EQ(n->span.col, 10);
    // What the note says to do works.
    auto fixed = elaborateText(reduceFactory(false, "lambda x, y: T.reduce_min(x, y, dim=1)"),
                               {{"reduce_fn", "T.reduce_min"}});
    ASSERT_EQ(fixed->firstError(), nullptr) << fixed->firstError()->message;
    EXPECT_NE(fixed->ir.find("T.reduce_min(f, o, dim=1)"), std::string::npos) << fixed->ir;
}

TEST(CallSiteArgumentsTest, AListOfOpsIsReadATupleOfOpsIsNamed) {
    // A module-level list of ops is read (`OPS[1]` is T.reduce_min); one a function returns is not.
    std::string listed = reduceFactory(false, "OPS[1]") + "OPS = [T.reduce_max, T.reduce_min]\n";
    auto read = elaborateText(listed);
    ASSERT_EQ(read->firstError(), nullptr) << read->firstError()->message;
    EXPECT_NE(read->ir.find("T.reduce_min(f, o, dim=1)"), std::string::npos) << read->ir;
    // A tuple of ops is no value a parameter takes: named as such.
    auto e = elaborateText(reduceFactory(false, "(T.reduce_max, T.reduce_min)"));
    ASSERT_NE(e->firstError(), nullptr);
    const Diagnostic* n = noteContaining(*e, "this argument for 'reduce_fn'");
    ASSERT_NE(n, nullptr);
    EXPECT_NE(n->message.find("is a tuple or list holding something other than numbers, strings or dtypes"),
              std::string::npos)
        << n->message;
}

// helper-124 #5: `pytest.raises(E, kernel, -1)` is the callable form of a call meant to fail: its
// values are not taken, and the hint says why (as for `with pytest.raises(E): kernel(-1)`).
TEST(CallSiteArgumentsTest, TheCallableFormOfPytestRaisesIsACallMeantToFail) {
    const std::string src = "import pytest\n"
                            "import tilelang.language as T\n"
                            "def mk(N):\n"
                            "    @T.prim_func\n"
                            "    def main(A: T.Tensor((N,), T.float32)):\n"
                            "        with T.Kernel(1, threads=32):\n"
                            "            A[0] = 1.0\n"
                            "    return main\n"
                            "def test_x():\n"
                            "    pytest.raises(ValueError, mk, -1)\n";
    auto e = elaborateText(src);
    const Diagnostic* d = e->firstError();
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->message, "parameter 'N' of 'mk' has no value");
    EXPECT_EQ(d->hint, "give it a default or pass --param N=<value>; the file calls 'mk' only inside "
                       "`pytest.raises(...)` (line 10): a kernel meant to fail, so its values are not taken");
    auto fixed = elaborateText(src, {{"N", "64"}});
    EXPECT_EQ(fixed->firstError(), nullptr);
}

// An autotuned factory whose tile size has no default, called with one: the call's values are the
// ones compiled and no config is used (as TileLang's AutoTuner does); called without, the first
// config's values are compiled, whatever the defaults.
const char* kAutotuned = R"(import tilelang
import tilelang.language as T


@tilelang.autotune(configs=[{"block_M": 32, "threads": 64}, {"block_M": 64, "threads": 128}])
@tilelang.jit(out_idx=[-1])
def double(M, block_M=None, threads=None):

    @T.prim_func
    def main(A: T.Tensor((M,), T.float32), B: T.Tensor((M,), T.float32)):
        with T.Kernel(T.ceildiv(M, block_M), threads=threads) as bx:
            for i in T.Parallel(block_M):
                B[bx * block_M + i] = A[bx * block_M + i] * 2

    return main


kernel = double(256, block_M=128)
)";

TEST(CallSiteArgumentsTest, AnAutotunedKernelCompilesTheCallsTunableValues) {
    auto e = elaborateText(kAutotuned);
    ASSERT_EQ(e->firstError(), nullptr) << e->firstError()->message;
    // As TileLang: the call passes a tunable, so no config is used; threads keeps its default
    // (None: T.Kernel's own 128), not the first config's 64 (helper-125 #5).
    EXPECT_NE(e->ir.find("with T.Kernel(2, threads=128)"), std::string::npos) << e->ir;  // 256 / 128 blocks
    const Diagnostic* call = noteContaining(*e, "from this call");
    ASSERT_NE(call, nullptr);
    EXPECT_EQ(call->message, "'double' takes M=256, block_M=128 from this call (module level)");
    const Diagnostic* cfg = noteContaining(*e, "@autotune configs");
    ASSERT_NE(cfg, nullptr);
    EXPECT_EQ(cfg->message, "'double': the file's call passes block_M, so (as TileLang's AutoTuner) none of its "
                            "@autotune configs is used; the other parameters keep their defaults");
    EXPECT_EQ(cfg->span.line, 5);
    // Without the call's block_M, both come from the first config and the note says so.
    std::string noBlock = kAutotuned;
    noBlock.replace(noBlock.find("double(256, block_M=128)"), 24, "double(256)");
    auto f = elaborateText(noBlock);
    ASSERT_EQ(f->firstError(), nullptr) << f->firstError()->message;
    EXPECT_NE(f->ir.find("with T.Kernel(8, threads=64)"), std::string::npos) << f->ir;
    ASSERT_NE(noteContaining(*f, "@autotune configs"), nullptr);
    EXPECT_EQ(noteContaining(*f, "@autotune configs")->message,
              "'double' takes block_M=32, threads=64 from the first of its 2 @autotune configs (TileScope does not tune)");
    // --param still wins over both.
    auto g = elaborateText(kAutotuned, {{"block_M", "64"}, {"threads", "256"}});
    ASSERT_EQ(g->firstError(), nullptr) << g->firstError()->message;
    EXPECT_NE(g->ir.find("with T.Kernel(4, threads=256)"), std::string::npos) << g->ir;
    auto h = elaborateText(noBlock, {{"block_M", "64"}, {"threads", "256"}});
    ASSERT_EQ(h->firstError(), nullptr) << h->firstError()->message;
    EXPECT_NE(h->ir.find("with T.Kernel(4, threads=256)"), std::string::npos) << h->ir;
    EXPECT_EQ(noteContaining(*h, "@autotune configs"), nullptr);
}

TEST(CallSiteArgumentsTest, ArgumentErrorsOfTOpsCarryAHint) {
    auto arity = elaborateText(kernel("        for i, j in T.Parallel(64, 64):\n"
                                      "            C[i, j] = T.if_then_else(T.isnan(C[i, j], 1), 0.0, C[i, j])\n"));
    ASSERT_NE(arity->firstError(), nullptr);
    EXPECT_EQ(arity->firstError()->message, "T.isnan() takes 1 argument but 2 were given");
    EXPECT_EQ(arity->firstError()->hint, "T.isnan(x)");
    auto extent = elaborateText(kernel("        for i, j in T.grid(64 / 2, 64):\n"
                                       "            C[i, j] = 0.0\n"));
    ASSERT_NE(extent->firstError(), nullptr);
    EXPECT_EQ(extent->firstError()->message, "T.grid() extent must be an integer, got float (32.0)");
    EXPECT_EQ(extent->firstError()->hint,
              "an extent counts elements or iterations: use // or T.ceildiv(a, b) instead of /, or int(...)");
}

}  // namespace

// A factory of a (length, rows) tensor: its parameters are what the call tests read back.
const char* const kMakeFactory = "import tilelang.language as T\n"
                                 "def make(length, rows=4):\n"
                                 "    @T.prim_func\n"
                                 "    def k(a: T.Tensor((length, rows), T.float32)):\n"
                                 "        with T.Kernel(1, threads=32):\n"
                                 "            a[0, 0] = 1.0\n"
                                 "    return k\n";

// `make(**config)` with a dict the search can read gives its entries as keywords (TileLang's
// tma_1d test: `config = {"block_M": 128, ...}; elementwise_add(M, N, **config, ...)`); calls
// Python rejects (helper-125 #6, #7) are errors at the argument and give no values, and
// `.compile(M=...)` naming a T.const size is no unknown keyword (TileLang's quickstart).
TEST(CallSiteArgumentsTest, DictSplatKeywordsAndRejectedCalls) {
    const std::string factory = std::string(kMakeFactory) + "def test_it():\n";
    auto splat = elaborateText(factory + "    config = {\"rows\": 8, \"length\": 16}\n    make(**config)\n");
    ASSERT_EQ(splat->firstError(), nullptr) << splat->firstError()->message;
    // length has no default: 16 from the dict; rows keeps its default, and the note names the
    // dict's value.
    EXPECT_NE(splat->ir.find("T.Tensor((16, 4), \"float32\")"), std::string::npos) << splat->ir;
    EXPECT_NE(noteContaining(*splat, "'make' takes length=16 from this call (test_it()); it keeps its defaults rows=4 "
                                     "(the call passes 8)"),
              nullptr);
    auto typo = elaborateText(factory + "    make(16, row=8)\n");
    ASSERT_NE(typo->firstError(), nullptr);
    EXPECT_EQ(typo->firstError()->message, "'make' has no parameter 'row' (test_it())");
    EXPECT_EQ(typo->firstError()->span.line, 9);
    EXPECT_EQ(typo->firstError()->span.col, 14);
    EXPECT_NE(typo->firstError()->hint.find("did you mean 'rows'?"), std::string::npos) << typo->firstError()->hint;
    // The same in a ** dict the search reads (helper-127 D4).
    auto dictTypo = elaborateText(factory + "    make(16, **{\"row\": 8})\n");
    ASSERT_NE(dictTypo->firstError(), nullptr);
    EXPECT_EQ(dictTypo->firstError()->message, "'make' has no parameter 'row' (a key of this ** dict) (test_it())");
    auto dictTwice = elaborateText(factory + "    make(16, **{\"length\": 8})\n");
    ASSERT_NE(dictTwice->firstError(), nullptr);
    EXPECT_EQ(dictTwice->firstError()->message,
              "this call gives 'make' two values for 'length' (an argument and a key of this ** dict) (test_it())");
    auto extra = elaborateText(factory + "    make(16, 8, 2)\n");
    ASSERT_NE(extra->firstError(), nullptr);
    EXPECT_EQ(extra->firstError()->message, "'make' takes 2 positional arguments but this call passes 3 (test_it())");
    EXPECT_EQ(extra->firstError()->span.col, 17);
    // **kwargs in the signature takes any keyword; a `.compile(N=...)` names a T.const size.
    auto kw = elaborateText("import tilelang\nimport tilelang.language as T\n"
                            "@tilelang.jit\n"
                            "def k(A, scale=1.0, **extra):\n"
                            "    N = T.const(\"N\")\n"
                            "    A: T.Tensor[[N], T.float32]\n"
                            "    with T.Kernel(1, threads=32):\n"
                            "        A[0] = scale\n"
                            "k.compile(N=64, scale=2.0, anything=3)\n");
    ASSERT_EQ(kw->firstError(), nullptr) << kw->firstError()->message;
    EXPECT_NE(kw->ir.find("T.Tensor((64,), \"float32\")"), std::string::npos) << kw->ir;
}

// helper-126: a reassigned tensor's old shape was kept (`X = X.t().contiguous()` compiled the
// 64x32 of the tensor before, `X = X.reshape(2048)` was a rank error); `torch.randint(0, 10,
// size=(4096,))` was read as shape (10,); an eager kernel's extra keyword is no error (TileLang's
// eager binder keeps it); a call inside try/except is expected to fail; `X: T.Tensor[(N,)]`
// (no dtype) gave no sizes.
TEST(CallSiteArgumentsTest, TensorShapesFollowAssignmentsAndSizeKeywords) {
    const std::string kernel = "import tilelang\nimport tilelang.language as T\nimport torch\n"
                               "@tilelang.jit\n"
                               "def double(X, Y):\n"
                               "    N = T.const(\"N\")\n"
                               "    X: T.Tensor[(N,)]\n"
                               "    Y: T.Tensor[[N], T.float32]\n"
                               "    with T.Kernel(T.ceildiv(N, 128), threads=128) as bx:\n"
                               "        for i in T.Parallel(128):\n"
                               "            if bx * 128 + i < N:\n"
                               "                Y[bx * 128 + i] = X[bx * 128 + i] * 2.0\n"
                               "def main():\n";
    auto reshaped = elaborateText(kernel + "    X = torch.randn(32, 64)\n    X = X.reshape(2048)\n"
                                           "    Y = torch.empty(2048)\n    double(X, Y)\nmain()\n");
    // X's shape after the reshape is not read (no rank error); N comes from Y.
    ASSERT_EQ(reshaped->firstError(), nullptr) << reshaped->firstError()->message;
    EXPECT_NE(noteContaining(*reshaped, "'double' takes N=2048 from this call"), nullptr);
    auto alias = elaborateText(kernel + "    X = torch.randn(512)\n    Y = torch.empty(128)\n    Y = X\n    double(X, Y)\nmain()\n");
    ASSERT_EQ(alias->firstError(), nullptr) << alias->firstError()->message;
    EXPECT_NE(noteContaining(*alias, "'double' takes N=512 from this call"), nullptr);
    auto randint = elaborateText(kernel + "    X = torch.randint(0, 10, size=(4096,)).float()\n"
                                          "    Y = torch.empty(4096)\n    double(X, Y, blk=4)\nmain()\n");
    ASSERT_EQ(randint->firstError(), nullptr) << randint->firstError()->message;
    EXPECT_NE(noteContaining(*randint, "'double' takes N=4096 from this call"), nullptr);
    auto tried = elaborateText(std::string(kMakeFactory) +
                               "def main():\n"
                               "    try:\n"
                               "        make(8, row=2)\n"
                               "    except TypeError:\n"
                               "        pass\n"
                               "    make(16)\n"
                               "main()\n");
    ASSERT_EQ(tried->firstError(), nullptr) << tried->firstError()->message;
    EXPECT_NE(tried->ir.find("T.Tensor((16, 4), \"float32\")"), std::string::npos) << tried->ir;
}

// helper-127 D1-D3: a helper called with `**dict` or `*args` compiled its parameter defaults and
// said they came from the call; a tensor rebound by a `for` loop or reshaped in place (`X.t_()`)
// kept the shape of the tensor before; a dict changed in place (`config["rows"] = 8`) was read with
// its first entries, and an unreadable `**` dict was dropped without a word.
TEST(CallSiteArgumentsTest, StarredCallsLoopTensorsAndMutatedDicts) {
    const std::string helper = std::string(kMakeFactory) + "def run(length=64, rows=2):\n    make(length, rows)\n";
    // length (no default in make) takes the call's 16; rows keeps make's default and the note
    // names the 8 the call passes -- not run's defaults 64 and 2.
    for (const char* call : {"run(**{\"length\": 16, \"rows\": 8})\n", "cfg = [16, 8]\nrun(*cfg)\n"}) {
        auto r = elaborateText(helper + call);
        ASSERT_EQ(r->firstError(), nullptr) << call << r->firstError()->message;
        EXPECT_NE(r->ir.find("T.Tensor((16, 4), \"float32\")"), std::string::npos) << call << r->ir;
        EXPECT_NE(noteContaining(*r, "'make' takes length=16 from this call (module level -> run()); it keeps its defaults "
                                     "rows=4 (the call passes 8)"),
                  nullptr)
            << call;
    }
    // An unreadable `**` dict: run's parameters have no value, so `length` (no default in make)
    // is missing -- an error that asks for --param, not the 64 of run's default.
    auto unknown = elaborateText(helper + "import random\nrun(**random.choice([{\"length\": 16}]))\n");
    ASSERT_NE(unknown->firstError(), nullptr) << unknown->ir;
    EXPECT_NE(unknown->firstError()->message.find("'length'"), std::string::npos) << unknown->firstError()->message;
    EXPECT_EQ(unknown->ir.find("T.Tensor((64, 2)"), std::string::npos) << unknown->ir;

    const std::string eager = "import tilelang\nimport tilelang.language as T\nimport torch\n"
                              "@tilelang.jit\n"
                              "def double(X, Y):\n"
                              "    N = T.const(\"N\")\n"
                              "    X: T.Tensor[[N], T.float32]\n"
                              "    Y: T.Tensor[[N], T.float32]\n"
                              "    with T.Kernel(1, threads=32):\n"
                              "        Y[0] = X[0]\n"
                              "def main():\n"
                              "    X = torch.randn(64)\n";
    // The loop's X has no known shape; N comes from Y, made from it with no shape either: no
    // value at all, rather than the 64 of the X before the loop.
    auto loop = elaborateText(eager + "    for X in [torch.randn(16)]:\n        Y = torch.empty_like(X)\n        double(X, Y)\nmain()\n");
    EXPECT_EQ(noteContaining(*loop, "takes N=64"), nullptr);
    // helper-128 #4: a chain of in-place methods, and one through another name of the tensor.
    for (const char* change : {"    X.unsqueeze_(0).squeeze_(0).resize_(32)\n", "    Z = X\n    Z.resize_(32)\n"}) {
        auto r = elaborateText(eager + change + "    Y = torch.empty(32)\n    double(X, Y)\nmain()\n");
        ASSERT_EQ(r->firstError(), nullptr) << change << r->firstError()->message;
        EXPECT_NE(noteContaining(*r, "'double' takes N=32 from this call"), nullptr) << change;
    }
    auto inplace = elaborateText(eager + "    X.resize_(32)\n    Y = torch.empty(32)\n    double(X, Y)\nmain()\n");
    ASSERT_EQ(inplace->firstError(), nullptr) << inplace->firstError()->message;  // no 64-vs-32 disagreement
    EXPECT_NE(noteContaining(*inplace, "'double' takes N=32 from this call"), nullptr);

    // At module level too: the loop's X is not the 64 of the X before it (was a false
    // disagreement error against Y's 16).
    std::string moduleLevel = eager.substr(0, eager.find("def main():\n")) +
                              "X = torch.randn(64)\nfor X in [torch.randn(16)]:\n    pass\nY = torch.empty(16)\ndouble(X, Y)\n";
    auto top = elaborateText(moduleLevel);
    ASSERT_EQ(top->firstError(), nullptr) << top->firstError()->message;
    EXPECT_NE(noteContaining(*top, "'double' takes N=16 from this call"), nullptr);

    const std::string factory = std::string(kMakeFactory) + "def test_it():\n";
    auto mutated = elaborateText(factory + "    config = {\"length\": 16}\n    config[\"rows\"] = 8\n    make(**config)\n");
    // The changed dict is not read with its first entries: length has no value (an error asking
    // for it) and the ** argument is named.
    ASSERT_NE(mutated->firstError(), nullptr) << mutated->ir;
    EXPECT_EQ(mutated->ir.find("T.Tensor((16, 4)"), std::string::npos) << mutated->ir;
    // helper-128 #3: the same dict changed through another name, or by a function it is passed to.
    for (const char* change : {"    alias = config\n    alias[\"length\"] = 8\n", "    tweak(config)\n"}) {
        auto r = elaborateText(std::string(kMakeFactory) + "def tweak(c):\n    c[\"length\"] = 8\n" +
                               "def test_it():\n    config = {\"length\": 16}\n" + change + "    make(**config)\n");
        EXPECT_EQ(r->ir.find("T.Tensor((16, 4)"), std::string::npos) << change << r->ir;
    }
    auto built = elaborateText("import json\n" + factory + "    make(16, **json.loads(\"{}\"))\n");
    ASSERT_EQ(built->firstError(), nullptr) << built->firstError()->message;
    EXPECT_NE(noteContaining(*built, "keeps its default rows=4: this argument is a ** argument whose dict the search cannot read"),
              nullptr);
}
