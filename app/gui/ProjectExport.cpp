// Standalone nvcc project export (ProjectExport.h).
#include "app/gui/ProjectExport.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "compiler/ir/DType.h"
#include "compiler/support/Resources.h"

namespace ts::gui {
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

std::string launcherSource(const CompileResult& r, const std::string& kernelFile) {
    const KernelInfo& k = r.kernel;
    std::ostringstream o;
    o << "// Host launcher for `" << k.name << "`, exported by TileScope. Random inputs (fixed\n"
      << "// seed), outputs poisoned with 0xFF bytes (NaN for floats) before the checked launch,\n"
      << "// then timed launches with CUDA events. Usage: ./" << k.name << " [timed_reps]\n"
      << "#include <cuda_runtime.h>\n\n#include <cstdio>\n#include <cstdlib>\n#include <vector>\n\n"
      << "#include \"" << kernelFile << "\"\n\n"
      << "#define CHECK(x)                                                              \\\n"
      << "    do {                                                                      \\\n"
      << "        cudaError_t e_ = (x);                                                 \\\n"
      << "        if (e_ != cudaSuccess) {                                              \\\n"
      << "            std::fprintf(stderr, \"%s:%d: %s: %s\\n\", __FILE__, __LINE__, #x,  \\\n"
      << "                         cudaGetErrorString(e_));                             \\\n"
      << "            std::exit(1);                                                     \\\n"
      << "        }                                                                     \\\n"
      << "    } while (0)\n\n"
      << "// Uniform values in [-1, 1) (small integers for integer types), as TileScope's checks "
         "use.\n"
      << "template <class T>\nvoid fillRandom(std::vector<T>& v, unsigned long long seed, bool "
         "integer) {\n"
      << "    for (auto& x : v) {\n"
      << "        seed = seed * 6364136223846793005ull + 1442695040888963407ull;\n"
      << "        double u = double(seed >> 11) * (1.0 / 9007199254740992.0);\n"
      << "        x = integer ? static_cast<T>(int(u * 17) - 8) : static_cast<T>(float(2 * u - "
         "1));\n"
      << "    }\n}\n\n"
      << "template <class T>\ndouble checksum(const std::vector<T>& v) {\n"
      << "    double s = 0;\n    for (const auto& x : v) s += double(float(x));\n    return "
         "s;\n}\n\n"
      << "int main(int argc, char** argv) {\n"
      << "    int reps = argc > 1 ? std::atoi(argv[1]) : 20;\n";
    for (size_t i = 0; i < k.args.size(); ++i) {
        const TensorArg& a = k.args[i];
        std::string type(ir::cudaTypeName(a.dtype));
        bool packed = ir::dtypeBits(a.dtype) < 8;
        if (packed) type = "unsigned char";
        int64_t n = packed ? (numel(a.shape) * ir::dtypeBits(a.dtype) + 7) / 8 : numel(a.shape);
        std::string v = a.name;
        o << "    // " << a.name << ": " << ir::dtypeName(a.dtype) << " " << shapeText(a.shape)
          << (a.isOutput ? " (output)" : " (input)") << "\n"
          << "    std::vector<" << type << "> h_" << v << "(" << n << ");\n";
        if (!a.isOutput)
            o << "    fillRandom(h_" << v << ", " << (i + 1) << "ull, "
              << (ir::isFloat(a.dtype) ? "false" : "true") << ");\n";
        o << "    " << type << "* d_" << v << " = nullptr;\n"
          << "    CHECK(cudaMalloc(&d_" << v << ", h_" << v << ".size() * sizeof(" << type
          << ")));\n";
        if (a.isOutput)
            o << "    CHECK(cudaMemset(d_" << v << ", 0xFF, h_" << v << ".size() * sizeof(" << type
              << ")));\n";
        else
            o << "    CHECK(cudaMemcpy(d_" << v << ", h_" << v << ".data(), h_" << v
              << ".size() * sizeof(" << type << "), cudaMemcpyHostToDevice));\n";
    }
    o << "\n    void* args[] = {";
    for (size_t i = 0; i < k.args.size(); ++i) o << (i ? ", " : "") << "&d_" << k.args[i].name;
    if (k.args.empty()) o << "nullptr";
    o << "};\n"
      << "    dim3 grid(" << k.grid[0] << ", " << k.grid[1] << ", " << k.grid[2] << ");\n"
      << "    dim3 block(" << k.block[0] << ", " << k.block[1] << ", " << k.block[2] << ");\n"
      << "    size_t smem = " << k.dynamicSmemBytes << ";\n"
      << "    const void* fn = reinterpret_cast<const void*>(&" << k.name << ");\n"
      << "    if (smem > 48 * 1024)\n"
      << "        CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, "
         "int(smem)));\n"
      << "    CHECK(cudaLaunchKernel(fn, grid, block, args, smem, 0));\n"
      << "    CHECK(cudaDeviceSynchronize());\n";
    for (const TensorArg& a : k.args) {
        if (!a.isOutput) continue;
        std::string v = a.name;
        o << "    CHECK(cudaMemcpy(h_" << v << ".data(), d_" << v << ", h_" << v
          << ".size() * sizeof(h_" << v << "[0]), cudaMemcpyDeviceToHost));\n"
          << "    std::printf(\"" << v << " checksum: %.6g\\n\", checksum(h_" << v << "));\n";
    }
    o << "\n    cudaEvent_t start, stop;\n"
      << "    CHECK(cudaEventCreate(&start));\n    CHECK(cudaEventCreate(&stop));\n"
      << "    for (int i = 0; i < 3; ++i) CHECK(cudaLaunchKernel(fn, grid, block, args, smem, "
         "0));\n"
      << "    CHECK(cudaEventRecord(start));\n"
      << "    for (int i = 0; i < reps; ++i) CHECK(cudaLaunchKernel(fn, grid, block, args, smem, "
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
    fs::path dir(opt.dir);
    std::string params;
    for (const FactoryParam& p : r.params) params += "- `" + p.name + "` = `" + p.value + "`\n";

    std::string cmake =
        "# Builds the kernel exported by TileScope with nvcc (CMake >= 3.18, CUDA toolkit).\n"
        "cmake_minimum_required(VERSION 3.18)\n"
        "project(" +
        name +
        " LANGUAGES CXX CUDA)\n"
        "set(CMAKE_CUDA_STANDARD 17)\n"
        "set(CMAKE_CUDA_STANDARD_REQUIRED ON)\n"
        "if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)\n"
        "  set(CMAKE_CUDA_ARCHITECTURES " +
        archNumber +
        ")\n"
        "endif()\n"
        "add_executable(" +
        name +
        " main.cu)\n"
        "target_compile_options(" +
        name + " PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-O3 -lineinfo>)\n";
    std::string make = "# Plain nvcc build of the kernel exported by TileScope: `make`, then ./" +
                       name +
                       "\n"
                       "NVCC ?= nvcc\n"
                       "ARCH ?= " +
                       arch + "\n" + name +
                       ": main.cu kernel.cu ts_device.cuh\n"
                       "\t$(NVCC) -O3 -std=c++17 -lineinfo -arch=$(ARCH) -o $@ main.cu\n\n"
                       "clean:\n\trm -f " +
                       name + "\n\n.PHONY: clean\n";
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
        "| `main.cu` | host launcher: random inputs, one checked launch, timing |\n"
        "| `CMakeLists.txt`, `Makefile` | builds with nvcc |\n\n"
        "```\nmake            # or: cmake -B build && cmake --build build\n./" +
        name +
        " 100   # 100 timed launches\n```\n\n"
        "Parameters:\n\n" +
        (params.empty() ? std::string("(none)\n") : params);

    std::string_view header = resources::find("ts_device.cuh");
    if (header.empty()) {
        if (error) *error = "the device header ts_device.cuh is not embedded in this build";
        return {};
    }
    std::vector<std::pair<std::string, std::string>> files = {
        {"kernel.cu", r.cuda},
        {"ts_device.cuh", std::string(header)},
        {"main.cu", launcherSource(r, "kernel.cu")},
        {"CMakeLists.txt", cmake},
        {"Makefile", make},
        {"README.md", readme},
    };
    std::vector<std::string> written;
    for (const auto& [file, text] : files) {
        if (!writeFile(dir / file, text, error)) return {};
        written.push_back(file);
    }
    return written;
}

}  // namespace ts::gui
