#include "compiler/frontend/MetaDevice.h"

#include "compiler/target/ChipFacts.h"

namespace ts::fe {

namespace {

constexpr const char* kArch = "tilelang.carver.arch";
constexpr const char* kSmCount = "__tilescope_sm_count__";  // where the answer is kept

std::shared_ptr<NamespaceObj> opaqueModule(Interp& in, const std::string& path) {
    auto m = in.registerModule(path);
    m->opaque = true;
    m->opaqueReason = "module '" + path + "' is not available at compile time";
    return m;
}

// 2:4 structured sparsity (PTX ISA §9.7.14.6, mma.sp): per dtype, (nonzeros, group) kept of
// each group of consecutive elements: 1:2 for 32-bit (tf32) operands, 2:4 for 16- and 8-bit.
std::optional<std::pair<int, int>> sparseGroup(ir::DType t) {
    switch (t) {
        case ir::DType::Float32:
            return std::pair{1, 2};
        case ir::DType::Float16:
        case ir::DType::BFloat16:
        case ir::DType::Int8:
        case ir::DType::UInt8:
        case ir::DType::Float8E4M3:
        case ir::DType::Float8E5M2:
            return std::pair{2, 4};
        default:
            return std::nullopt;
    }
}

ir::DType dtypeArg(const CallArgs& a, size_t i, const std::string& fn) {
    auto t = asDType(a.pos[i]);
    if (!t) throw CompileError(a.argSpan(i), fn + "(): expected a dtype, got " + typeName(a.pos[i]));
    return *t;
}

int groupOf(const CallArgs& a, size_t i, const std::string& fn) {
    ir::DType t = dtypeArg(a, i, fn);
    auto g = sparseGroup(t);
    if (!g)
        throw CompileError(a.argSpan(i),
                           fn + "(): 2:4 sparsity has no layout for " + std::string(ir::dtypeName(t)),
                           "supported: float32, float16, bfloat16, int8, uint8, float8_e4m3, "
                           "float8_e5m2");
    return g->second;
}

void registerSparseLayout(Interp& in, const std::string& path) {
    auto m = opaqueModule(in, path);
    std::vector<std::pair<Value, Value>> config;
    for (ir::DType t : {ir::DType::Float32, ir::DType::Float16, ir::DType::BFloat16,
                        ir::DType::Int8, ir::DType::UInt8, ir::DType::Float8E4M3,
                        ir::DType::Float8E5M2}) {
        auto g = *sparseGroup(t);
        config.emplace_back(Value::dtype(t),
                            Value::tuple({Value::integer(g.first), Value::integer(g.second)}));
    }
    m->set("GROUP_CONFIG", Value::dict(std::move(config)));
    // Elements of the operand one metadata element indexes: 4 metadata bits per group.
    m->set("get_e_factor", Value::builtin("get_e_factor", [](Interp&, CallArgs& a) {
               a.expectPositional(2, 2);
               int group = groupOf(a, 0, "get_e_factor");
               int metaBits = ir::dtypeBits(dtypeArg(a, 1, "get_e_factor"));
               return Value::integer(int64_t(metaBits / 4) * group);
           }));
    // Consecutive threads that share one metadata value: 1 for 8-bit operands, else 2.
    m->set("get_e_replicate_factor",
           Value::builtin("get_e_replicate_factor", [](Interp&, CallArgs& a) {
               a.expectPositional(1, 1);
               return Value::integer(
                   ir::dtypeBits(dtypeArg(a, 0, "get_e_replicate_factor")) <= 8 ? 1 : 2);
           }));
}

}  // namespace

void registerDeviceModules(Interp& in) {
    opaqueModule(in, "tilelang.carver");
    auto arch = opaqueModule(in, kArch);
    arch->set(kSmCount, Value::integer(smCount(*parseTarget("cuda:sm_90a"))));
    auto driver = std::make_shared<NamespaceObj>();
    driver->name = std::string(kArch) + ".driver";
    driver->opaque = true;
    driver->opaqueReason = "of the CUDA driver queries only get_num_sms() is known at compile time";
    driver->set("get_num_sms", Value::builtin("driver.get_num_sms", [](Interp& in, CallArgs& a) {
                    a.expectPositional(0, 1);  // an optional device index: every one is the chip
                    return Value::integer(deviceSmCount(in));
                }));
    arch->set("driver", Value::ns(driver));

    opaqueModule(in, "tilelang.cuda");
    opaqueModule(in, "tilelang.cuda.intrinsics");
    registerSparseLayout(in, "tilelang.cuda.intrinsics.sparse_layout");
}

void setDeviceTarget(Interp& in, const Target& t) {
    in.registerModule(kArch)->set(kSmCount, Value::integer(smCount(t)));
}

void copyDeviceTarget(Interp& from, Interp& to) {
    to.registerModule(kArch)->set(kSmCount, Value::integer(deviceSmCount(from)));
}

int deviceSmCount(Interp& in) {
    auto arch = in.module(kArch);
    Value* v = arch ? arch->find(kSmCount) : nullptr;
    return v && v->isIntLike() ? int(v->asInt()) : smCount(*parseTarget("cuda:sm_90a"));
}

}  // namespace ts::fe
