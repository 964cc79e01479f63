#include "profiler/cuda/Launch.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "compiler/support/HostTensor.h"

namespace ts::rt {
namespace {

/// Like formatShape, but a negative (dynamic) extent prints as "?".
std::string shapeText(const std::vector<int64_t>& shape) {
    std::string s = "(";
    for (size_t i = 0; i < shape.size(); ++i) {
        if (i) s += ", ";
        s += shape[i] < 0 ? "?" : std::to_string(shape[i]);
    }
    return s + ")";
}

bool extentsMatch(const std::vector<int64_t>& expected, const std::vector<int64_t>& got) {
    for (size_t i = 0; i < expected.size(); ++i)
        if (expected[i] >= 0 && expected[i] != got[i]) return false;
    return true;
}

std::string argPrefix(const TensorParam& p, size_t i) {
    return "argument '" + p.name + "' (#" + std::to_string(i) + "): ";
}

void appendLine(std::string& out, const std::string& line) {
    if (!out.empty()) out += '\n';
    out += line;
}

const Driver& drv() { return Driver::require(); }

}  // namespace

std::optional<std::string> checkArguments(const std::vector<TensorParam>& signature,
                                          const std::vector<ArgSpec>& actual) {
    std::string errors;
    if (signature.size() != actual.size()) {
        std::string names;
        for (const auto& p : signature) names += (names.empty() ? "" : ", ") + p.name;
        appendLine(errors, "expected " + std::to_string(signature.size()) + " argument" +
                               (signature.size() == 1 ? "" : "s") + " (" + names + "), got " +
                               std::to_string(actual.size()));
    }
    const size_t n = std::min(signature.size(), actual.size());
    for (size_t i = 0; i < n; ++i) {
        const TensorParam& p = signature[i];
        const ArgSpec& a = actual[i];
        if (p.dtype != a.dtype)
            appendLine(errors, argPrefix(p, i) + "expected dtype " +
                                   std::string(ir::dtypeName(p.dtype)) + ", got " +
                                   std::string(ir::dtypeName(a.dtype)));
        if (p.shape.size() != a.shape.size()) {
            appendLine(errors, argPrefix(p, i) + "expected rank " + std::to_string(p.shape.size()) +
                                   " with shape " + shapeText(p.shape) + ", got rank " +
                                   std::to_string(a.shape.size()) + " " + shapeText(a.shape));
        } else if (!extentsMatch(p.shape, a.shape)) {
            appendLine(errors, argPrefix(p, i) + "expected shape " + shapeText(p.shape) + ", got " +
                                   shapeText(a.shape));
        }
    }
    if (errors.empty()) return std::nullopt;
    return errors;
}

std::optional<std::string> checkLaunchConfig(const LaunchConfig& c, int maxThreadsPerBlock,
                                             size_t maxDynamicSmemBytes) {
    static const char* kAxis[3] = {"x", "y", "z"};
    const unsigned long long gridMax[3] = {(1ull << 31) - 1, 65535, 65535};
    const unsigned blockMax[3] = {1024, 1024, 64};
    for (int i = 0; i < 3; ++i) {
        if (c.grid[i] == 0 || c.block[i] == 0)
            return "launch " + describe(c) + ": grid and block extents must be at least 1";
        if (c.grid[i] > gridMax[i])
            return "launch " + describe(c) + ": grid." + kAxis[i] + " exceeds " +
                   std::to_string(gridMax[i]);
        if (c.block[i] > blockMax[i])
            return "launch " + describe(c) + ": block." + kAxis[i] + " exceeds " +
                   std::to_string(blockMax[i]);
    }
    const unsigned long long threads =
        static_cast<unsigned long long>(c.block[0]) * c.block[1] * c.block[2];
    if (threads > static_cast<unsigned long long>(maxThreadsPerBlock))
        return "launch " + describe(c) + ": " + std::to_string(threads) +
               " threads per block exceed the limit of " + std::to_string(maxThreadsPerBlock);
    if (c.dynamicSmemBytes > std::min<size_t>(maxDynamicSmemBytes, INT32_MAX))
        return "launch " + describe(c) + ": " + std::to_string(c.dynamicSmemBytes) +
               " bytes of dynamic shared memory exceed the limit of " +
               std::to_string(std::min<size_t>(maxDynamicSmemBytes, INT32_MAX));
    return std::nullopt;
}

std::string describe(const LaunchConfig& c) {
    auto dim3 = [](const unsigned* d) {
        return "(" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " +
               std::to_string(d[2]) + ")";
    };
    return "grid " + dim3(c.grid) + " block " + dim3(c.block) + " smem " +
           std::to_string(c.dynamicSmemBytes) + " B";
}

// --- DeviceBuffer
// ---------------------------------------------------------------------------------

DeviceBuffer::DeviceBuffer(size_t bytes) {
    if (bytes == 0) return;
    TS_CU(drv(), memAlloc, &m_ptr, bytes);
    m_bytes = bytes;
}

DeviceBuffer::~DeviceBuffer() { release(); }

DeviceBuffer::DeviceBuffer(DeviceBuffer&& o) noexcept : m_ptr(o.m_ptr), m_bytes(o.m_bytes) {
    o.m_ptr = 0;
    o.m_bytes = 0;
}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
        release();
        m_ptr = o.m_ptr;
        m_bytes = o.m_bytes;
        o.m_ptr = 0;
        o.m_bytes = 0;
    }
    return *this;
}

void DeviceBuffer::release() noexcept {
    // A failure here (e.g. after a kernel fault poisoned the context) cannot be acted on.
    if (m_ptr)
        if (const Driver* d = Driver::get()) d->memFree(m_ptr);
    m_ptr = 0;
    m_bytes = 0;
}

void DeviceBuffer::upload(std::span<const uint8_t> src) {
    if (src.size() > m_bytes)
        throw std::invalid_argument("DeviceBuffer::upload: " + std::to_string(src.size()) +
                                    " bytes into a buffer of " + std::to_string(m_bytes));
    if (!src.empty()) TS_CU(drv(), memcpyHtoD, m_ptr, src.data(), src.size());
}

std::vector<uint8_t> DeviceBuffer::download() const {
    std::vector<uint8_t> out(m_bytes);
    if (m_bytes) TS_CU(drv(), memcpyDtoH, out.data(), m_ptr, m_bytes);
    return out;
}

void DeviceBuffer::fill(uint8_t value) {
    if (m_bytes) TS_CU(drv(), memsetD8, m_ptr, value, m_bytes);
}

// --- Module
// ---------------------------------------------------------------------------------------

Module::Module(std::span<const char> cubin) {
    if (cubin.empty()) throw std::invalid_argument("Module: empty cubin");
    TS_CU(drv(), moduleLoadData, &m_module, cubin.data());
}

Module::~Module() {
    if (m_module)
        if (const Driver* d = Driver::get()) d->moduleUnload(m_module);
}

Module::Module(Module&& o) noexcept {
    std::lock_guard lock(o.m_mutex);
    m_module = o.m_module;
    m_functions = std::move(o.m_functions);
    o.m_module = nullptr;
}

Module::Entry& Module::entry(const std::string& name) const {
    auto it = m_functions.find(name);
    if (it != m_functions.end()) return it->second;
    Entry e;
    const Driver& d = drv();
    const cu::Result r = d.moduleGetFunction(&e.fn, m_module, name.c_str());
    if (r != 0)
        throw CudaError(detail::symbolOf("moduleGetFunction"), r,
                        d.describe(r) + " looking up kernel '" + name +
                            "' (is it declared extern \"C\" __global__?)");
    return m_functions.emplace(name, e).first->second;
}

cu::Function Module::function(const std::string& name) const {
    std::lock_guard lock(m_mutex);
    return entry(name).fn;
}

cu::Function Module::prepare(const std::string& name, size_t dynamicSmemBytes) const {
    std::lock_guard lock(m_mutex);
    Entry& e = entry(name);
    if (dynamicSmemBytes > e.smemOptIn) {
        TS_CU(drv(), funcSetAttribute, e.fn, cu::kFuncAttrMaxDynamicSharedSizeBytes,
              static_cast<int>(dynamicSmemBytes));
        e.smemOptIn = dynamicSmemBytes;
    }
    return e.fn;
}

FunctionAttributes Module::attributes(const std::string& name) const {
    const cu::Function fn = function(name);
    const Driver& d = drv();
    auto get = [&](int attr) {
        int v = 0;
        TS_CU(d, funcGetAttribute, &v, attr, fn);
        return v;
    };
    FunctionAttributes a;
    a.numRegs = get(cu::kFuncAttrNumRegs);
    a.staticSmemBytes = get(cu::kFuncAttrSharedSizeBytes);
    a.localBytes = get(cu::kFuncAttrLocalSizeBytes);
    a.maxThreadsPerBlock = get(cu::kFuncAttrMaxThreadsPerBlock);
    return a;
}

// --- launch
// ---------------------------------------------------------------------------------------

void launch(const Module& module, const std::string& kernel, const LaunchConfig& config,
            const std::vector<TensorParam>& signature, const std::vector<KernelArg>& args,
            cu::Stream stream) {
    std::vector<ArgSpec> specs;
    specs.reserve(args.size());
    for (const auto& a : args) specs.push_back({a.dtype, a.shape});
    std::string errors = checkArguments(signature, specs).value_or("");
    for (size_t i = 0; i < std::min(args.size(), signature.size()); ++i) {
        const size_t need = encodedSize(args[i].dtype, numelOf(args[i].shape));
        if (args[i].bytes < need || (need > 0 && args[i].ptr == 0))
            appendLine(errors, argPrefix(signature[i], i) + "device buffer of " +
                                   std::to_string(args[i].bytes) + " bytes is too small for " +
                                   std::to_string(need) + " bytes");
    }
    if (auto bad = checkLaunchConfig(config)) appendLine(errors, *bad);
    if (!errors.empty()) throw std::invalid_argument("kernel '" + kernel + "': " + errors);

    std::vector<cu::DevicePtr> ptrs;
    ptrs.reserve(args.size());
    for (const auto& a : args) ptrs.push_back(a.ptr);
    launchRaw(module.prepare(kernel, config.dynamicSmemBytes), config, ptrs, stream);
}

void launchRaw(cu::Function fn, const LaunchConfig& config, std::span<const cu::DevicePtr> ptrs,
               cu::Stream stream, std::span<const ScalarValue> scalars,
               std::span<const TensorMapBits> maps) {
    // cuLaunchKernel reads each parameter through a pointer to it, copying them at launch time
    // (sizeof the kernel's parameter type: each scalar's storage starts with its C encoding).
    std::vector<cu::DevicePtr> values(ptrs.begin(), ptrs.end());
    std::vector<uint64_t> scalarBits(scalars.size(), 0);
    for (size_t i = 0; i < scalars.size(); ++i) {
        const double x = scalars[i].value;
        auto put = [&](auto v) { std::memcpy(&scalarBits[i], &v, sizeof v); };
        switch (scalars[i].dtype) {
            case ir::DType::Float32: put(static_cast<float>(x)); break;
            case ir::DType::Float64: put(x); break;
            case ir::DType::Bool: put(static_cast<bool>(x != 0)); break;
            case ir::DType::Int64: put(static_cast<long long>(x)); break;
            case ir::DType::UInt32: put(static_cast<unsigned>(x)); break;
            case ir::DType::UInt64: put(static_cast<unsigned long long>(x)); break;
            default: put(static_cast<int>(x)); break;
        }
    }
    std::vector<void*> params;
    params.reserve(values.size() + scalarBits.size());
    for (auto& v : values) params.push_back(&v);
    for (auto& v : scalarBits) params.push_back(&v);
    for (auto& m : maps) params.push_back(const_cast<TensorMapBits*>(&m));  // read only by the driver
    if (config.cooperative) {
        checkCoResident(fn, config);
        TS_CU(drv(), launchCooperativeKernel, fn, config.grid[0], config.grid[1], config.grid[2],
              config.block[0], config.block[1], config.block[2],
              static_cast<unsigned>(config.dynamicSmemBytes), stream,
              params.empty() ? nullptr : params.data());
        return;
    }
    TS_CU(drv(), launchKernel, fn, config.grid[0], config.grid[1], config.grid[2], config.block[0],
          config.block[1], config.block[2], static_cast<unsigned>(config.dynamicSmemBytes), stream,
          params.empty() ? nullptr : params.data(), nullptr);
}

std::string coResidencyError(uint64_t gridBlocks, int blocksPerSm, int smCount, const LaunchConfig& config) {
    const uint64_t most = uint64_t(std::max(blocksPerSm, 0)) * uint64_t(std::max(smCount, 0));
    if (gridBlocks <= most) return {};
    return "cooperative launch (T.sync_grid): the grid has " + std::to_string(gridBlocks) +
           " blocks but at most " + std::to_string(most) + " can be resident at once on this device (" +
           std::to_string(blocksPerSm) + " blocks of " +
           std::to_string(uint64_t(config.block[0]) * config.block[1] * config.block[2]) + " threads and " +
           std::to_string(config.dynamicSmemBytes) + " B dynamic shared memory per SM x " +
           std::to_string(smCount) + " SMs); a grid barrier needs every block resident: use a grid of at most " +
           std::to_string(most) + " blocks (e.g. the SM count, as persistent kernels do)";
}

void checkCoResident(cu::Function fn, const LaunchConfig& config) {
    const Driver& d = drv();
    int perSm = 0;
    const int threads = static_cast<int>(config.block[0] * config.block[1] * config.block[2]);
    TS_CU(d, occupancyMaxActiveBlocksPerMultiprocessor, &perSm, fn, threads, config.dynamicSmemBytes);
    int sms = 0;
    cu::Device device{};
    TS_CU(d, ctxGetDevice, &device);  // the current context's device: the one that launches
    TS_CU(d, deviceGetAttribute, &sms, cu::kAttrMultiprocessorCount, device);
    const uint64_t blocks = uint64_t(config.grid[0]) * config.grid[1] * config.grid[2];
    if (std::string e = coResidencyError(blocks, perSm, sms, config); !e.empty()) throw std::invalid_argument(e);
}

}  // namespace ts::rt
