#include "profiler/worker/Messages.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ts::rt::worker {
namespace {
using nlohmann::json;

/// Appends `bytes` to the blob; returns {offset, size}.
json putBytes(std::string& blob, const void* data, size_t n) {
    json j = {{"off", blob.size()}, {"len", n}};
    blob.append(static_cast<const char*>(data), n);
    return j;
}

/// The bytes {off, len} point to; throws std::out_of_range when outside the blob.
std::string_view getBytes(const std::string& blob, const json& j) {
    const size_t off = j.at("off").get<size_t>(), len = j.at("len").get<size_t>();
    if (off > blob.size() || len > blob.size() - off)
        throw std::out_of_range("tensor bytes " + std::to_string(off) + "+" + std::to_string(len) +
                                " outside the blob of " + std::to_string(blob.size()));
    return std::string_view(blob).substr(off, len);
}

ir::DType dtypeOf(const json& j) {
    const std::string n = j.get<std::string>();
    auto t = ir::parseDType(n);
    if (!t) throw std::invalid_argument("unknown dtype '" + n + "'");
    return *t;
}

json tensorJson(std::string& blob, const HostTensor& t) {
    json j = {{"dtype", std::string(ir::dtypeName(t.dtype))}, {"shape", t.shape}};
    if (t.hasData()) {
        const std::vector<uint8_t> bytes = encode(t);
        j["bytes"] = putBytes(blob, bytes.data(), bytes.size());
    }
    return j;
}

HostTensor tensorFrom(const std::string& blob, const json& j) {
    const ir::DType t = dtypeOf(j.at("dtype"));
    auto shape = j.at("shape").get<std::vector<int64_t>>();
    if (!j.contains("bytes")) {
        HostTensor h;
        h.dtype = t;
        h.shape = std::move(shape);
        return h;
    }
    const std::string_view raw = getBytes(blob, j.at("bytes"));
    if (raw.size() != encodedSize(t, numelOf(shape)))
        throw std::invalid_argument("tensor of shape " + formatShape(shape) + " carries " +
                                    std::to_string(raw.size()) + " bytes");
    return decode(t, std::move(shape),
                  std::span(reinterpret_cast<const uint8_t*>(raw.data()), raw.size()));
}

}  // namespace

std::optional<RunStage> parseStage(const std::string& name) {
    for (RunStage s : {RunStage::None, RunStage::Request, RunStage::Compile, RunStage::Load,
                       RunStage::Allocate, RunStage::Launch, RunStage::Download, RunStage::Timing})
        if (name == stageName(s)) return s;
    return std::nullopt;
}

Message encodeRunRequest(const RunRequest& req, const std::string& op) {
    Message m;
    json& h = m.header;
    h["op"] = op;
    h["kernel"] = req.kernel;
    h["arch"] = req.arch;
    if (!req.cubin.empty())
        h["cubin"] = putBytes(m.blob, req.cubin.data(), req.cubin.size());
    else
        h["source"] = req.source;
    json sig = json::array();
    for (const auto& p : req.signature)
        sig.push_back({{"name", p.name},
                       {"dtype", std::string(ir::dtypeName(p.dtype))},
                       {"shape", p.shape},
                       {"out", p.isOutput}});
    h["signature"] = sig;
    const auto& c = req.config;
    h["config"] = {{"grid", {c.grid[0], c.grid[1], c.grid[2]}},
                   {"block", {c.block[0], c.block[1], c.block[2]}},
                   {"smem", c.dynamicSmemBytes},
                   {"cooperative", c.cooperative}};
    json tensors = json::array();
    for (const auto& t : req.tensors) tensors.push_back(tensorJson(m.blob, t));
    h["tensors"] = tensors;
    json scalars = json::array();
    for (const auto& s : req.scalars)
        scalars.push_back({{"dtype", std::string(ir::dtypeName(s.dtype))}, {"value", s.value}});
    h["scalars"] = scalars;
    // TMA tensor maps (sm_90a): encoded by the worker over its own device buffers.
    json maps = json::array();
    for (const auto& t : req.tensorMaps)
        maps.push_back({{"tensor", t.tensor},
                        {"box_inner", t.boxInner},
                        {"box_outer", t.boxOuter},
                        {"swizzle", t.swizzleBytes},
                        {"row_dim", t.rowDim}});
    h["tensor_maps"] = maps;
    json fills = json::array();
    for (const auto& f : req.pointerFills) fills.push_back({{"table", f.table}, {"pointees", f.pointees}});
    h["pointer_fills"] = fills;
    h["kernel_tensors"] = req.kernelTensors;
    h["nvrtc_options"] = req.nvrtcOptions;
    h["use_cache"] = req.useCache;
    h["timing_reps"] = req.timingReps;
    h["timing_warmup"] = req.timingWarmup;
    h["rotate_sets"] = req.rotateSets;
    h["flush_l2"] = req.flushL2;
    return m;
}

std::optional<RunRequest> decodeRunRequest(const Message& m, std::string& why) {
    try {
        const json& h = m.header;
        RunRequest r;
        r.kernel = h.at("kernel").get<std::string>();
        r.arch = h.value("arch", "");
        if (h.contains("cubin")) {
            const std::string_view c = getBytes(m.blob, h.at("cubin"));
            r.cubin.assign(c.begin(), c.end());
        } else {
            r.source = h.at("source").get<std::string>();
        }
        for (const auto& p : h.at("signature"))
            r.signature.push_back({p.at("name").get<std::string>(), dtypeOf(p.at("dtype")),
                                   p.at("shape").get<std::vector<int64_t>>(),
                                   p.at("out").get<bool>()});
        const json& c = h.at("config");
        for (int i = 0; i < 3; ++i) {
            r.config.grid[i] = c.at("grid").at(i).get<unsigned>();
            r.config.block[i] = c.at("block").at(i).get<unsigned>();
        }
        r.config.dynamicSmemBytes = c.at("smem").get<size_t>();
        r.config.cooperative = c.value("cooperative", false);
        for (const auto& t : h.at("tensors")) r.tensors.push_back(tensorFrom(m.blob, t));
        for (const auto& s : h.at("scalars"))
            r.scalars.push_back({dtypeOf(s.at("dtype")), s.at("value").get<double>()});
        if (h.contains("tensor_maps"))
            for (const auto& t : h.at("tensor_maps"))
                r.tensorMaps.push_back({t.at("tensor").get<int>(), t.at("box_inner").get<int64_t>(),
                                        t.at("box_outer").get<int64_t>(), t.at("swizzle").get<int>(), t.value("row_dim", -1)});
        if (h.contains("pointer_fills"))
            for (const auto& f : h.at("pointer_fills"))
                r.pointerFills.push_back({f.at("table").get<int>(), f.at("pointees").get<std::vector<int>>()});
        r.kernelTensors = h.value("kernel_tensors", -1);
        r.nvrtcOptions = h.value("nvrtc_options", std::vector<std::string>{});
        r.useCache = h.value("use_cache", true);
        r.timingReps = h.value("timing_reps", 0);
        r.timingWarmup = h.value("timing_warmup", 3);
        r.rotateSets = h.value("rotate_sets", 1);
        r.flushL2 = h.value("flush_l2", false);
        return r;
    } catch (const std::exception& e) {
        why = std::string("malformed run request: ") + e.what();
        return std::nullopt;
    }
}

Message encodeRunResult(const RunResult& r, bool fatal) {
    Message m;
    json& h = m.header;
    h["ok"] = r.ok;
    h["stage"] = stageName(r.failedStage);
    h["error"] = r.error;
    h["fatal"] = fatal;
    h["compile"] = {{"ok", r.compile.ok},
                    {"log", r.compile.log},
                    {"ms", r.compile.compileMs},
                    {"cache_hit", r.compile.cacheHit},
                    {"arch", r.compile.arch}};
    h["attributes"] = {{"registers", r.attributes.numRegs},
                       {"static_smem", r.attributes.staticSmemBytes},
                       {"local_bytes", r.attributes.localBytes},
                       {"max_threads", r.attributes.maxThreadsPerBlock}};
    json outs = json::array();
    for (const auto& o : r.outputs) {
        json j = tensorJson(m.blob, o.tensor);
        j["name"] = o.name;
        j["index"] = o.paramIndex;
        outs.push_back(j);
    }
    h["outputs"] = outs;
    if (r.timing)
        h["timing"] = {{"median_ms", r.timing->medianMs},
                       {"min_ms", r.timing->minMs},
                       {"max_ms", r.timing->maxMs},
                       {"reps", r.timing->reps},
                       {"samples_ms", r.timing->samplesMs}};
    h["launch_ms"] = r.launchMs;
    return m;
}

std::optional<RunResult> decodeRunResult(const Message& m, std::string& why) {
    try {
        const json& h = m.header;
        RunResult r;
        r.ok = h.at("ok").get<bool>();
        auto stage = parseStage(h.at("stage").get<std::string>());
        if (!stage) throw std::invalid_argument("unknown stage");
        r.failedStage = *stage;
        r.error = h.at("error").get<std::string>();
        const json& c = h.at("compile");
        r.compile.ok = c.at("ok").get<bool>();
        r.compile.log = c.at("log").get<std::string>();
        r.compile.compileMs = c.at("ms").get<double>();
        r.compile.cacheHit = c.at("cache_hit").get<bool>();
        r.compile.arch = c.at("arch").get<std::string>();
        const json& a = h.at("attributes");
        r.attributes.numRegs = a.at("registers").get<int>();
        r.attributes.staticSmemBytes = a.at("static_smem").get<int>();
        r.attributes.localBytes = a.at("local_bytes").get<int>();
        r.attributes.maxThreadsPerBlock = a.at("max_threads").get<int>();
        for (const auto& o : h.at("outputs"))
            r.outputs.push_back({o.at("name").get<std::string>(), o.at("index").get<size_t>(),
                                 tensorFrom(m.blob, o)});
        if (h.contains("timing")) {
            const json& t = h.at("timing");
            TimingResult tr;
            tr.medianMs = t.at("median_ms").get<double>();
            tr.minMs = t.at("min_ms").get<double>();
            tr.maxMs = t.at("max_ms").get<double>();
            tr.reps = t.at("reps").get<int>();
            tr.samplesMs = t.at("samples_ms").get<std::vector<double>>();
            r.timing = tr;
        }
        r.launchMs = h.value("launch_ms", 0.0);
        return r;
    } catch (const std::exception& e) {
        why = std::string("malformed run result: ") + e.what();
        return std::nullopt;
    }
}

nlohmann::json deviceJson(const DeviceInfo& d) {
    return {{"ordinal", d.ordinal},
            {"name", d.name},
            {"cc", {d.ccMajor, d.ccMinor}},
            {"sms", d.smCount},
            {"global_mem", d.globalMemBytes},
            {"smem_block_optin", d.maxSmemPerBlockOptin},
            {"smem_sm", d.maxSmemPerSm},
            {"max_threads", d.maxThreadsPerBlock},
            {"l2", d.l2Bytes}};
}

DeviceInfo deviceFromJson(const nlohmann::json& j) {
    DeviceInfo d;
    d.ordinal = j.value("ordinal", 0);
    d.name = j.value("name", "");
    d.ccMajor = j.at("cc").at(0).get<int>();
    d.ccMinor = j.at("cc").at(1).get<int>();
    d.smCount = j.value("sms", 0);
    d.globalMemBytes = j.value("global_mem", size_t{0});
    d.maxSmemPerBlockOptin = j.value("smem_block_optin", 0);
    d.maxSmemPerSm = j.value("smem_sm", 0);
    d.maxThreadsPerBlock = j.value("max_threads", 0);
    d.l2Bytes = j.value("l2", 0);
    return d;
}

Message encodeBaselineRequest(const BaselineRequest& req) {
    Message m;
    const GemmShape& g = req.gemm;
    m.header = {{"op", "baseline"},
                {"library", "cublas"},
                {"gemm",
                 {{"m", g.m},
                  {"n", g.n},
                  {"k", g.k},
                  {"trans_a", g.transA},
                  {"trans_b", g.transB},
                  {"dtype", std::string(ir::dtypeName(g.inDtype))},
                  {"out_dtype", std::string(ir::dtypeName(g.outDtype))}}},
                {"reps", req.reps},
                {"warmup", req.warmup},
                {"rotate_sets", req.rotateSets}};
    return m;
}

std::optional<BaselineRequest> decodeBaselineRequest(const Message& m, std::string& why) {
    try {
        const auto& j = m.header.at("gemm");
        BaselineRequest r;
        r.gemm.m = j.at("m").get<int64_t>();
        r.gemm.n = j.at("n").get<int64_t>();
        r.gemm.k = j.at("k").get<int64_t>();
        r.gemm.transA = j.value("trans_a", false);
        r.gemm.transB = j.value("trans_b", false);
        auto in = ir::parseDType(j.at("dtype").get<std::string>());
        auto out = ir::parseDType(j.at("out_dtype").get<std::string>());
        if (!in || !out || r.gemm.m <= 0 || r.gemm.n <= 0 || r.gemm.k <= 0 ||
            std::max({r.gemm.m, r.gemm.n, r.gemm.k}) > (int64_t(1) << 31) - 1) {
            why = "baseline request: bad GEMM shape or dtype";
            return std::nullopt;
        }
        r.gemm.inDtype = *in, r.gemm.outDtype = *out;
        r.reps = m.header.value("reps", 20);
        r.warmup = m.header.value("warmup", 3);
        r.rotateSets = m.header.value("rotate_sets", 1);
        return r;
    } catch (const std::exception& e) {
        why = std::string("baseline request: ") + e.what();
        return std::nullopt;
    }
}

nlohmann::json baselineJson(const BaselineResult& r) {
    nlohmann::json j = {{"ok", r.ok},          {"library", r.library},   {"version", r.version},
                        {"api", r.api},        {"path", r.path},         {"median_ms", r.medianMs},
                        {"min_ms", r.minMs},   {"max_ms", r.maxMs},      {"reps", r.reps},
                        {"rotate_sets", r.rotateSets}, {"check", r.check},
                        {"max_error", std::isfinite(r.maxError) ? r.maxError : 1e308},     {"tolerance", r.tolerance}};
    if (!r.error.empty()) j["error"] = r.error;
    return j;
}

BaselineResult baselineFromJson(const nlohmann::json& j) {
    BaselineResult r;
    r.ok = j.value("ok", false);
    r.error = j.value("error", std::string());
    r.library = j.value("library", std::string("cuBLAS"));
    r.version = j.value("version", std::string());
    r.api = j.value("api", std::string("cublasGemmEx"));
    r.path = j.value("path", std::string());
    r.medianMs = j.value("median_ms", 0.0);
    r.minMs = j.value("min_ms", 0.0);
    r.maxMs = j.value("max_ms", 0.0);
    r.reps = j.value("reps", 0);
    r.rotateSets = j.value("rotate_sets", 1);
    r.check = j.value("check", std::string());
    r.maxError = j.value("max_error", 0.0);
    r.tolerance = j.value("tolerance", 0.0);
    return r;
}

}  // namespace ts::rt::worker
