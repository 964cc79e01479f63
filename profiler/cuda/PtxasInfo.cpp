#include "profiler/cuda/PtxasInfo.h"

#include <regex>
#include <sstream>

namespace ts::rt {

const PtxasKernelInfo* PtxasInfo::find(const std::string& name) const {
    for (auto& k : kernels)
        if (k.name == name) return &k;
    return nullptr;
}

namespace {

bool isPtxasLine(const std::string& line) { return line.rfind("ptxas", 0) == 0; }

/// A line that --ptxas-options=-v added: "ptxas info    : ..." or the properties' continuation
/// "ptxas         .     0 bytes stack frame, ...". Not "ptxas error", "ptxas fatal", "ptxas
/// warning" nor "ptxas application ptx input, line 23; error   : ...": those are ptxas's own
/// messages, which a failed compile's log must keep (they are often all it says).
bool isVerboseLine(const std::string& line) {
    if (!isPtxasLine(line)) return false;
    const size_t at = line.find_first_not_of(' ', 5);
    if (at == 5 || at == std::string::npos) return false;
    return line.compare(at, 4, "info") == 0 || line[at] == '.';
}

PtxasKernelInfo& kernelNamed(PtxasInfo& info, const std::string& name) {
    for (auto& k : info.kernels)
        if (k.name == name) return k;
    info.kernels.push_back({});
    info.kernels.back().name = name;
    return info.kernels.back();
}

}  // namespace

PtxasInfo parsePtxasInfo(const std::string& log) {
    static const std::regex entry(R"(Compiling entry function '([^']+)')");
    static const std::regex props(R"(Function properties for (\S+))");
    static const std::regex frame(R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
    static const std::regex used(R"(Used (\d+) registers)");
    static const std::regex bars(R"(used (\d+) barriers)");
    static const std::regex smem(R"((\d+) bytes smem)");
    static const std::regex remark(R"(:\s*(\(C\d+\).*?)\s*in the function '([^']+)')");
    // A remark that names no function ("(C7507) Potential Performance Loss: 'setmaxnreg' ignored
    // to maintain minimum register requirements.") comes before the entry it is about: it goes
    // to the next entry compiled (TileScope compiles one kernel per translation unit), or the
    // last one when none follows.
    static const std::regex bare(R"(:\s*(\(C\d+\).*\S)\s*$)");
    std::vector<std::string> pending;
    auto addRemark = [](PtxasKernelInfo& k, const std::string& text) {
        k.remarks.push_back(text);
        if (text.find("wgmma") != std::string::npos && text.find("serialized") != std::string::npos) k.wgmmaSerialized = true;
        if (text.find("setmaxnreg") != std::string::npos && text.find("ignored") != std::string::npos) k.setmaxnregIgnored = true;
    };
    PtxasInfo info;
    std::string current;   // the entry function whose "Used" line comes next
    std::string propsFor;  // the function the next "stack frame" line belongs to
    std::istringstream in(log);
    std::smatch m;
    for (std::string line; std::getline(in, line);) {
        if (!isPtxasLine(line)) continue;
        if (std::regex_search(line, m, entry)) {
            current = m[1];
            PtxasKernelInfo& k = kernelNamed(info, current);
            for (auto& r : pending) addRemark(k, r);
            pending.clear();
        } else if (std::regex_search(line, m, props)) {
            propsFor = m[1];
        } else if (std::regex_search(line, m, frame)) {
            // Device functions that were not inlined have properties too; keep entries only.
            for (auto& k : info.kernels)
                if (k.name == propsFor) {
                    k.stackBytes = std::stoll(m[1]);
                    k.spillStoreBytes = std::stoll(m[2]);
                    k.spillLoadBytes = std::stoll(m[3]);
                }
        } else if (std::regex_search(line, m, used) && !current.empty()) {
            PtxasKernelInfo& k = kernelNamed(info, current);
            k.registers = std::stoi(m[1]);
            if (std::regex_search(line, m, bars)) k.barriers = std::stoi(m[1]);
            if (std::regex_search(line, m, smem)) k.staticSmemBytes = std::stoll(m[1]);
        } else if (std::regex_search(line, m, remark)) {
            addRemark(kernelNamed(info, m[2]), m[1]);
        } else if (std::regex_search(line, m, bare)) {
            pending.push_back(m[1]);
        }
    }
    if (!pending.empty() && !info.kernels.empty())
        for (auto& r : pending) addRemark(info.kernels.back(), r);
    return info;
}

std::string withoutPtxasInfo(const std::string& log, std::string* ptxasLines) {
    std::string kept, ptxas;
    for (size_t pos = 0; pos < log.size();) {
        const size_t end = log.find('\n', pos);
        const size_t next = end == std::string::npos ? log.size() : end + 1;
        const std::string piece = log.substr(pos, next - pos);
        (isVerboseLine(piece) ? ptxas : kept) += piece;
        pos = next;
    }
    if (ptxasLines) *ptxasLines = ptxas;
    return kept;
}

std::string ptxasSummary(const PtxasKernelInfo& k) {
    std::string s = k.name + ": " + (k.registers >= 0 ? std::to_string(k.registers) + " registers" : std::string("registers unknown"));
    if (k.spillStoreBytes || k.spillLoadBytes)
        s += ", " + std::to_string(k.spillStoreBytes) + " B spill stores + " + std::to_string(k.spillLoadBytes) + " B spill loads per thread";
    else
        s += ", no spills";
    if (k.stackBytes && !(k.spillStoreBytes || k.spillLoadBytes)) s += ", " + std::to_string(k.stackBytes) + " B stack";
    s += ", " + std::to_string(k.barriers) + (k.barriers == 1 ? " barrier" : " barriers");
    if (k.staticSmemBytes) s += ", " + std::to_string(k.staticSmemBytes) + " B static shared";
    if (k.wgmmaSerialized) s += ", wgmma serialized";
    return s;
}

}  // namespace ts::rt
