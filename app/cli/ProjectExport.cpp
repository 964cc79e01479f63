// Standalone nvcc project export (ProjectExport.h).
#include "app/cli/ProjectExport.h"

#include "compiler/support/CodegenSwitches.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/cli/HipExport.h"
#include "compiler/ir/DType.h"
#include "compiler/support/Resources.h"

namespace ts::cli {
namespace {

namespace fs = std::filesystem;

bool writeFile(const fs::path& p, const std::string& text, std::string* error) {
    std::ofstream f(p, std::ios::binary);
    f << text;
    f.close();
    if (!f) {
        if (error) *error = "cannot write " + p.string();
        return false;
    }
    return true;
}

std::string shapeText(const std::vector<int64_t>& shape) {
    std::string s = "[";
    for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}

int64_t numel(const std::vector<int64_t>& shape) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
}

}  // namespace

std::string launcherSource(const CompileResult& r, const std::string& kernelFile,
                           const ExportData& data, const std::string& binary) {
    const KernelInfo& k = r.kernel;
    std::ostringstream o;
    o << "// Host launcher for `" << k.name
      << "`, exported by TileScope. It uploads the inputs of\n"
      << "// data/ (seed " << data.seed << "), poisons the outputs (0xFF bytes: NaN for floats),\n"
      << "// launches once and compares every output with the expected values TileScope computed\n"
      << "// on the CPU (" << data.referenceLabel << "); on a mismatch it exits with status 1.\n"
      << "// Then it times launches with CUDA events.\n"
      << "// Usage: ./" << binary << " [timed_reps=20] [data_dir]\n"
      << "#include <cuda_runtime.h>\n" << (k.tensorMaps.empty() ? "" : "#include <cuda.h>  // CUtensorMap (TMA)\n")
      << "\n#include <cmath>\n#include <cstdio>\n#include <cstdlib>\n"
      << "#include <string>\n#include <vector>\n\n"
      << "#include \"" << kernelFile << "\"\n\n"
      << "#ifndef TS_DATA_DIR\n#define TS_DATA_DIR \"data\"  // CMakeLists.txt / Makefile set the "
         "absolute path\n#endif\n\n"
      << "#define CHECK(x)                                                              \\\n"
      << "    do {                                                                      \\\n"
      << "        cudaError_t e_ = (x);                                                 \\\n"
      << "        if (e_ != cudaSuccess) {                                              \\\n"
      << "            std::fprintf(stderr, \"%s:%d: %s: %s\\n\", __FILE__, __LINE__, #x,  \\\n"
      << "                         cudaGetErrorString(e_));                             \\\n"
      << "            std::exit(1);                                                     \\\n"
      << "        }                                                                     \\\n"
      << "    } while (0)\n\n"
      << "static std::string g_dataDir = TS_DATA_DIR;\n\n"
      << "// Reads exactly v.size() elements of `file` (relative to the data folder).\n"
      << "template <class T>\nvoid load(std::vector<T>& v, const char* file) {\n"
      << "    std::string path = g_dataDir + \"/\" + file;\n"
      << "    std::FILE* f = std::fopen(path.c_str(), \"rb\");\n"
      << "    if (!f) {\n"
      << "        std::fprintf(stderr, \"cannot open %s (pass the export's data folder as the "
         "second "
         "argument)\\n\", path.c_str());\n"
      << "        std::exit(2);\n    }\n"
      << "    size_t n = std::fread(v.data(), sizeof(T), v.size(), f);\n    std::fclose(f);\n"
      << "    if (n != v.size()) {\n"
      << "        std::fprintf(stderr, \"%s: expected %zu elements, read %zu\\n\", path.c_str(), "
         "v.size(), n);\n"
      << "        std::exit(2);\n    }\n}\n\n"
      << "// rel-L2 = ||out - ref|| / ||ref|| over elements where both are finite, as tilec run\n"
      << "// computes it; a non-finite value where the reference has a finite one (or the "
         "reverse)\n"
      << "// fails by itself. tolerance 0 = exact (integer outputs).\n"
      << "template <class T>\n"
      << "bool checkOutput(const char* name, const std::vector<T>& out, const char* refFile, "
         "double "
         "tolerance) {\n"
      << "    std::vector<float> ref(out.size());\n    load(ref, refFile);\n"
      << "    double num = 0, den = 0, maxAbs = 0;\n    long long nonFinite = 0;\n"
      << "    for (size_t i = 0; i < out.size(); ++i) {\n"
      << "        double a = double(float(out[i])), e = double(ref[i]);\n"
      << "        if (std::isnan(e)) continue;\n"
      << "        if (!std::isfinite(a) || !std::isfinite(e)) {\n"
      << "            nonFinite += !(a == e);\n            continue;\n        }\n"
      << "        double d = a - e;\n        num += d * d;\n        den += e * e;\n"
      << "        maxAbs = std::fmax(maxAbs, std::fabs(d));\n    }\n"
      << "    double rel = den > 0 ? std::sqrt(num / den) : (num > 0 ? INFINITY : 0.0);\n"
      << "    bool pass = nonFinite == 0 && rel <= tolerance;\n"
      << "    std::printf(\"%s: rel-L2 %.3g (tolerance %.3g), max-abs %.3g, non-finite mismatches "
         "%lld: %s\\n\",\n"
      << "                name, rel, tolerance, maxAbs, nonFinite, pass ? \"PASS\" : \"FAIL\");\n"
      << "    return pass;\n}\n\n"
      << "int main(int argc, char** argv) {\n"
      << "    int reps = argc > 1 ? std::atoi(argv[1]) : 20;\n"
      << "    if (argc > 2) g_dataDir = argv[2];\n";
    for (size_t i = 0; i < k.args.size(); ++i) {
        const TensorArg& a = k.args[i];
        const ExportArgData& d = data.args[i];
        std::string type(ir::cudaTypeName(a.dtype));
        bool packed = ir::dtypeBits(a.dtype) < 8;
        if (packed) type = "unsigned char";
        int64_t n = packed ? (numel(a.shape) * ir::dtypeBits(a.dtype) + 7) / 8 : numel(a.shape);
        std::string v = a.name;
        o << "    // " << a.name << ": " << ir::dtypeName(a.dtype) << " " << shapeText(a.shape)
          << (a.isOutput
                  ? (d.zeroStart ? " (output, starts at zero: only atomics write it)" : " (output)")
                  : " (input)")
          << "\n"
          << "    std::vector<" << type << "> h_" << v << "(" << n << ");\n"
          << "    " << type << "* d_" << v << " = nullptr;\n"
          << "    CHECK(cudaMalloc(&d_" << v << ", h_" << v << ".size() * sizeof(" << type
          << ")));\n";
        if (a.isOutput && !d.zeroStart)
            o << "    CHECK(cudaMemset(d_" << v << ", 0xFF, h_" << v << ".size() * sizeof(" << type
              << ")));\n";
        else
            o << "    load(h_" << v << ", \"" << d.file.substr(5) << "\");\n"
              << "    CHECK(cudaMemcpy(d_" << v << ", h_" << v << ".data(), h_" << v
              << ".size() * sizeof(" << type << "), cudaMemcpyHostToDevice));\n";
    }
    // sm_90a kernels take TMA tensor maps after the tensors (compiler/Compile.h TensorMapArg),
    // encoded here as tilec encodes them (profiler/cuda/TensorMap.cpp), through the runtime's
    // driver entry point so the launcher needs no -lcuda.
    if (!k.tensorMaps.empty()) {
        o << "\n    using EncodeTiled = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,\n"
          << "        const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle,\n"
          << "        CUtensorMapL2promotion, CUtensorMapFloatOOBfill);\n"
          << "    void* encodeFn = nullptr;\n"
          << "    CHECK(cudaGetDriverEntryPointByVersion(\"cuTensorMapEncodeTiled\", &encodeFn, 12000, cudaEnableDefault, nullptr));\n"
          << "    auto encode = reinterpret_cast<EncodeTiled>(encodeFn);\n";
    }
    for (size_t i = 0; i < k.tensorMaps.size(); ++i) {
        const TensorMapArg& m = k.tensorMaps[i];
        const TensorArg& a = k.args.at(static_cast<size_t>(m.tensor));
        const int e = ir::dtypeBytes(a.dtype);
        // CUtensorMapDataType as profiler/cuda/TensorMap.cpp picks it (fp8/int8: UINT8).
        int dt = 0;
        switch (a.dtype) {
            case ir::DType::UInt16: case ir::DType::Int16: dt = 1; break;
            case ir::DType::UInt32: dt = 2; break;
            case ir::DType::Int32: dt = 3; break;
            case ir::DType::UInt64: dt = 4; break;
            case ir::DType::Int64: dt = 5; break;
            case ir::DType::Float16: dt = 6; break;
            case ir::DType::Float32: dt = 7; break;
            case ir::DType::Float64: dt = 8; break;
            case ir::DType::BFloat16: dt = 9; break;
            default: dt = 0; break;
        }
        const int sw = m.swizzleBytes == 128 ? 3 : m.swizzleBytes == 64 ? 2 : m.swizzleBytes == 32 ? 1 : 0;
        // TMA numbers dimensions innermost first; the box is boxInner x boxOuter (at rowDim) x 1...
        const int rank = static_cast<int>(a.shape.size());
        const int rowDim = m.rowDim < 0 ? rank - 2 : m.rowDim;
        std::string dims, strides, box, steps;
        int64_t stride = e;
        for (int t = 0; t < rank; ++t) {
            const int d = rank - 1 - t;
            const std::string sep = t ? ", " : "";
            dims += sep + std::to_string(a.shape.at(size_t(d)));
            box += sep + std::to_string(t == 0 ? m.boxInner : d == rowDim ? m.boxOuter : 1);
            steps += sep + "1";
            if (t) strides += (t > 1 ? ", " : "") + std::to_string(stride);
            stride *= a.shape.at(size_t(d));
        }
        o << "    CUtensorMap tma_map_" << i << ";  // " << a.name << ": box " << m.boxOuter << " rows x " << m.boxInner << " columns (box[] lists the\n"
          << "    // innermost dimension first), " << m.swizzleBytes << "-byte swizzle\n    {\n"
          << "        const cuuint64_t dims[" << rank << "] = {" << dims << "}, strides[" << rank - 1 << "] = {" << strides << "};\n"
          << "        const cuuint32_t box[" << rank << "] = {" << box << "}, steps[" << rank << "] = {" << steps << "};\n"
          << "        if (encode(&tma_map_" << i << ", CUtensorMapDataType(" << dt << "), " << rank << ", d_" << a.name
          << ", dims, strides, box, steps, CU_TENSOR_MAP_INTERLEAVE_NONE,\n"
          << "                   CUtensorMapSwizzle(" << sw << "), CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS) {\n"
          << "            std::fprintf(stderr, \"cuTensorMapEncodeTiled failed for " << a.name << "\\n\");\n"
          << "            return 1;\n        }\n    }\n";
    }
    // T.sync_grid: every block resident at once (cudaLaunchCooperativeKernel, same arguments).
    const char* launchFn = k.cooperative ? "cudaLaunchCooperativeKernel" : "cudaLaunchKernel";
    o << "\n    void* args[] = {";
    for (size_t i = 0; i < k.args.size(); ++i) o << (i ? ", " : "") << "&d_" << k.args[i].name;
    for (size_t i = 0; i < k.tensorMaps.size(); ++i) o << ", &tma_map_" << i;
    if (k.args.empty()) o << "nullptr";
    o << "};\n"
      << "    dim3 grid(" << k.grid[0] << ", " << k.grid[1] << ", " << k.grid[2] << ");\n"
      << "    dim3 block(" << k.block[0] << ", " << k.block[1] << ", " << k.block[2] << ");\n"
      << "    size_t smem = " << k.dynamicSmemBytes << ";\n"
      << "    const void* fn = reinterpret_cast<const void*>(&" << k.name << ");\n"
      << "    if (smem > 48 * 1024)\n"
      << "        CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, "
         "int(smem)));\n"
      << "    CHECK(" << launchFn << "(fn, grid, block, args, smem, 0));\n"
      << "    CHECK(cudaDeviceSynchronize());\n"
      << "    bool ok = true;\n";
    for (size_t i = 0; i < k.args.size(); ++i) {
        const TensorArg& a = k.args[i];
        if (!a.isOutput) continue;
        std::string v = a.name;
        o << "    CHECK(cudaMemcpy(h_" << v << ".data(), d_" << v << ", h_" << v
          << ".size() * sizeof(h_" << v << "[0]), cudaMemcpyDeviceToHost));\n"
          << "    ok &= checkOutput(\"" << v << "\", h_" << v << ", \""
          << data.args[i].refFile.substr(5) << "\", " << data.args[i].tolerance << ");\n";
    }
    o << "    if (!ok) {\n"
      << "        std::printf(\"" << binary << ": FAIL (expected values: " << data.referenceLabel
      << ")\\n\");\n        return 1;\n    }\n"
      << "    std::printf(\"" << binary << ": PASS (expected values: " << data.referenceLabel
      << ")\\n\");\n"
      << "\n    cudaEvent_t start, stop;\n"
      << "    CHECK(cudaEventCreate(&start));\n    CHECK(cudaEventCreate(&stop));\n"
      << "    for (int i = 0; i < 3; ++i) CHECK(" << launchFn << "(fn, grid, block, args, smem, "
         "0));\n"
      << "    CHECK(cudaEventRecord(start));\n"
      << "    for (int i = 0; i < reps; ++i) CHECK(" << launchFn << "(fn, grid, block, args, smem, "
         "0));\n"
      << "    CHECK(cudaEventRecord(stop));\n    CHECK(cudaEventSynchronize(stop));\n"
      << "    float ms = 0;\n    CHECK(cudaEventElapsedTime(&ms, start, stop));\n"
      << "    double avg = reps > 0 ? ms / reps : 0;\n"
      << "    std::printf(\"" << k.name << ": %.4f ms per launch (%d launches)";
    if (r.flops && *r.flops > 0) o << ", %.2f TFLOP/s";
    o << "\\n\", avg, reps";
    if (r.flops && *r.flops > 0) o << ", avg > 0 ? " << *r.flops << " / (avg * 1e9) : 0.0";
    o << ");\n";
    for (const TensorArg& a : k.args) o << "    CHECK(cudaFree(d_" << a.name << "));\n";
    o << "    return 0;\n}\n";
    return o.str();
}

std::vector<std::string> exportProject(const CompileResult& r, const ExportOptions& opt,
                                       std::string* error) {
    // The name becomes a file name, a make target and a CMake target: one word, no path.
    if (!opt.name.empty() && (opt.name.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") !=
                                  std::string::npos ||
                              opt.name[0] == '-')) {
        if (error)
            *error = "export name '" + opt.name + "' is not one word of letters, digits, '_' and '-' (it names the executable, " +
                     "the make target and the CMake target)";
        return {};
    }
    if (r.language == "hip") return exportHipProject(r, opt, error);  // the hipcc folder (HipExport.h)
    if (r.cuda.empty() || r.kernel.name.empty()) {
        if (error)
            *error = "nothing to export: the program has no generated code (fix its errors first)";
        return {};
    }
    std::string name = opt.name.empty() ? r.kernel.name : opt.name;
    std::string arch = opt.arch.empty() ? std::string("sm_80") : opt.arch;
    std::string archNumber = arch.substr(3);  // "80", "90a"
    std::error_code ec;
    fs::create_directories(opt.dir, ec);
    if (ec) {
        if (error) *error = "cannot create " + opt.dir + ": " + ec.message();
        return {};
    }
    std::string params;
    for (const FactoryParam& p : r.params) params += "- `" + p.name + "` = `" + p.value + "`\n";

    ExportData data;
    if (!writeExportData(r, opt.dir, data, error)) return {};

    // CMAKE_CUDA_ARCHITECTURES must be set before project(): enabling CUDA there fixes the
    // architectures (nvcc's default, sm_52/sm_75) when none is set, and the kernel's own target
    // (wgmma needs sm_90a, ldmatrix/cp.async sm_80) would then fail in ptxas or silently build
    // for another GPU. `-DCMAKE_CUDA_ARCHITECTURES=...` on the command line still wins.
    std::string cmake =
        "# Builds the kernel exported by TileScope with nvcc (CMake >= 3.18, CUDA toolkit), for "
        "the\n# architecture it was generated for (" +
        arch +
        ").\n"
        "cmake_minimum_required(VERSION 3.18)\n"
        "if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)\n"
        "  set(CMAKE_CUDA_ARCHITECTURES " +
        archNumber +
        ")  # before project(): it fixes the architectures\n"
        "endif()\n"
        "project(" +
        name +
        " LANGUAGES CXX CUDA)\n"
        "set(CMAKE_CUDA_STANDARD 17)\n"
        "set(CMAKE_CUDA_STANDARD_REQUIRED ON)\n"
        "add_executable(" +
        name +
        " main.cu)\n"
        "target_compile_definitions(" +
        name +
        " PRIVATE TS_DATA_DIR=\"${CMAKE_CURRENT_SOURCE_DIR}/data\")\n"
        "target_compile_options(" +
        name + " PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-O3 -lineinfo>)\n";
    std::string make = "# Plain nvcc build of the kernel exported by TileScope: `make`, then ./" +
                       name +
                       "\n"
                       "NVCC ?= nvcc\n"
                       "ARCH ?= " +
                       arch + "\n"
                       "# extra nvcc flags, e.g. make NVCCFLAGS='-Xptxas -v' for ptxas's registers and spills\n"
                       "NVCCFLAGS ?=\n" + name +
                       ": main.cu kernel.cu ts_device.cuh\n"
                       "\t$(NVCC) -O3 -std=c++17 -lineinfo -arch=$(ARCH) $(NVCCFLAGS) "
                       "'-DTS_DATA_DIR=\"$(CURDIR)/data\"' -o $@ main.cu\n\n"
                       "check: " +
                       name + "\n\t./" + name +
                       " 20\n\n"
                       "clean:\n\trm -f " +
                       name + "\n\n.PHONY: check clean\n";
    std::string readme =
        "# " + name +
        "\n\n"
        "Generated by TileScope from `" +
        (opt.sourcePath.empty() ? std::string("(untitled)") : opt.sourcePath) + "` for `" + arch +
        "`.\n\n"
        "| file | what |\n|---|---|\n"
        "| `kernel.cu` | the generated kernel `" +
        r.kernel.name +
        "` |\n"
        "| `ts_device.cuh` | TileScope's device header (PTX wrappers the kernel uses) |\n"
        "| `main.cu` | host launcher: uploads `data/`, one checked launch, timing |\n"
        "| `data/` | inputs (seed " +
        std::to_string(data.seed) + ") and expected outputs from " + data.referenceLabel +
        " |\n"
        "| `CMakeLists.txt`, `Makefile` | builds with nvcc for " +
        arch +
        " |\n\n"
        "```\nmake            # or: cmake -B build && cmake --build build (binary: build/" +
        name + ")\n./" + name +
        " 100   # checks the outputs (exit status 1 on a mismatch), then 100 timed "
        "launches\n```\n\n"
        "Parameters:\n\n" +
        (params.empty() ? std::string("(none)\n") : params);
    // A project exported under a measurement switch is not TileScope's default code: say which.
    if (std::string sw = describeCodegenSwitches(); !sw.empty())
        readme += "\nGenerated with codegen switches from the environment: `" + sw +
                  "` (measurement switches; the default code differs).\n";

    std::string_view header = resources::find("ts_device.cuh");
    if (header.empty()) {
        if (error) *error = "the device header ts_device.cuh is not embedded in this build";
        return {};
    }
    std::vector<std::pair<std::string, std::string>> files = {
        {"kernel.cu", r.cuda},
        {"ts_device.cuh", std::string(header)},
        {"main.cu", launcherSource(r, "kernel.cu", data, name)},
        {"CMakeLists.txt", cmake},
        {"Makefile", make},
        {"README.md", readme},
    };
    return writeProjectFiles(opt.dir, files, data, error);
}

std::vector<std::string> writeProjectFiles(const std::string& dir,
                                           const std::vector<std::pair<std::string, std::string>>& files,
                                           const ExportData& data, std::string* error) {
    std::vector<std::string> written;
    for (const auto& [file, text] : files) {
        if (!writeFile(fs::path(dir) / file, text, error)) return {};
        written.push_back(file);
    }
    for (const ExportArgData& d : data.args)
        for (const std::string& f : {d.file, d.refFile})
            if (!f.empty()) written.push_back(f);
    return written;
}

}  // namespace ts::cli
