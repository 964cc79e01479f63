#include "compiler/Target.h"

namespace ts {

std::optional<Target> parseTarget(const std::string& s) {
    std::string t = s;
    if (t.rfind("cuda:", 0) == 0) t = t.substr(5);
    if (t.rfind("sm_", 0) != 0) return std::nullopt;
    std::string v = t.substr(3);
    Target out;
    out.name = "cuda:" + t;
    if (!v.empty() && v.back() == 'a') out.archSpecific = true, v.pop_back();
    if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    out.smVersion = std::stoi(v);
    if (out.smVersion < 80) return std::nullopt;
    return out;
}

}  // namespace ts
