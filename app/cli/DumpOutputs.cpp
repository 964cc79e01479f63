// Output dumps for differential testing (DumpOutputs.h).
#include "app/cli/DumpOutputs.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "profiler/check/Compare.h"

namespace ts::cli {

bool dumpOutputs(const std::string& dir, const CompileResult& r,
                 const std::vector<HostTensor>& outs, const std::string& engine, uint64_t seed) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) {
        std::cerr << "tilec: error: --dump-outputs " << dir << ": " << ec.message() << "\n";
        return false;
    }
    std::vector<ir::DType> argTypes;
    for (const TensorArg& a : r.kernel.args) argTypes.push_back(a.dtype);
    nlohmann::json manifest;
    manifest["engine"] = engine;
    manifest["seed"] = seed;
    manifest["kernel"] = r.kernel.name;
    if (const ProgramKernel* k = r.selected()) manifest["program_kernel"] = k->name;
    nlohmann::json list = nlohmann::json::array();
    size_t k = 0;
    for (const TensorArg& a : r.kernel.args) {
        if (!a.isOutput) continue;
        if (k >= outs.size()) break;
        const HostTensor& t = outs[k++];
        // float32 when every value survives the round trip (all 8/16/32-bit float outputs, most
        // integer ones): half the bytes, which matters for a device payload.
        bool narrow = true;
        for (double v : t.data)
            if (!std::isnan(v) && static_cast<double>(static_cast<float>(v)) != v) {
                narrow = false;
                break;
            }
        const std::string file = a.name + (narrow ? ".f32" : ".f64");
        std::ofstream f(std::filesystem::path(dir) / file, std::ios::binary);
        if (narrow) {
            std::vector<float> v(t.data.begin(), t.data.end());
            f.write(reinterpret_cast<const char*>(v.data()),
                    static_cast<std::streamsize>(v.size() * sizeof(float)));
        } else {
            f.write(reinterpret_cast<const char*>(t.data.data()),
                    static_cast<std::streamsize>(t.data.size() * sizeof(double)));
        }
        if (!f) {
            std::cerr << "tilec: error: --dump-outputs: cannot write " << dir << "/" << file << "\n";
            return false;
        }
        list.push_back({{"name", a.name},
                        {"dtype", std::string(ir::dtypeName(t.dtype))},
                        {"shape", t.shape},
                        {"file", file},
                        {"values", t.data.size()},
                        {"float", ir::isFloat(t.dtype)},
                        {"rel_l2_tolerance", rt::referenceTolerance(t.dtype, argTypes)}});
    }
    manifest["outputs"] = list;
    std::ofstream m(std::filesystem::path(dir) / "outputs.json");
    m << manifest.dump(1) << "\n";
    if (!m) {
        std::cerr << "tilec: error: --dump-outputs: cannot write " << dir << "/outputs.json\n";
        return false;
    }
    return true;
}

}  // namespace ts::cli
