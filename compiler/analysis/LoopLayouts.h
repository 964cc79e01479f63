// The layouts infer-layouts gives T.Parallel nests (how the nest's iterations map to threads, the
// "Fragment" of a parallel loop in TileLang's layout plots) live in PrimFuncNode::layouts beside
// the buffers' under a key of their own, "T.Parallel@LINE" (LINE the nest's source line; "#2",
// "#3" for more nests on one line), which the nest's layout_key attr names. Listings (tilec
// layout, the IDE's Layout panel) show the buffers first.
#pragma once
#include <string>
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

namespace ts::analysis {

inline constexpr std::string_view kLoopLayoutPrefix = "T.Parallel@";

/// The layouts key of the nest at source line `line` that is the `nth` (1-based) on that line.
inline std::string loopLayoutKey(uint32_t line, int nth) {
    return std::string(kLoopLayoutPrefix) + std::to_string(line) + (nth > 1 ? "#" + std::to_string(nth) : "");
}

/// Whether a layouts key names a T.Parallel nest rather than a buffer.
inline bool isLoopLayoutKey(std::string_view key) { return key.substr(0, kLoopLayoutPrefix.size()) == kLoopLayoutPrefix; }

/// The keys of a layouts map in the order listings show them: the buffers (map order), then the
/// nests by source line ("T.Parallel@105" after "T.Parallel@17", which sort before it as text).
template <class LayoutMap>
std::vector<std::string> layoutKeysInListOrder(const LayoutMap& layouts) {
    std::vector<std::string> buffers, loops;
    for (auto& [key, layout] : layouts) (isLoopLayoutKey(key) ? loops : buffers).push_back(key);
    auto lineOf = [](const std::string& k) { return std::atol(k.c_str() + kLoopLayoutPrefix.size()); };
    std::stable_sort(loops.begin(), loops.end(), [&](const std::string& a, const std::string& b) {
        return lineOf(a) != lineOf(b) ? lineOf(a) < lineOf(b) : a.size() != b.size() ? a.size() < b.size() : a < b;
    });
    buffers.insert(buffers.end(), loops.begin(), loops.end());
    return buffers;
}

}  // namespace ts::analysis
