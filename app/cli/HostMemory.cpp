#include "app/cli/HostMemory.h"

#include <algorithm>
#include <cstdio>
#include <unistd.h>

namespace ts::cli {

int64_t physicalMemoryBytes() {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? int64_t(pages) * page : 0;
}

std::optional<std::string> hostMemoryProblem(const std::vector<rt::TensorParam>& sig, int64_t physicalBytes) {
    if (physicalBytes <= 0) return std::nullopt;
    struct Big { int64_t elements; const rt::TensorParam* p; };
    std::vector<Big> sizes;
    double total = 0;  // double: a typo'd extent can overflow int64 products
    for (const auto& p : sig) {
        double n = 1;
        for (int64_t e : p.shape) n *= double(std::max<int64_t>(e, 1));
        total += n;
        sizes.push_back({n > 9e18 ? INT64_MAX : int64_t(n), &p});
    }
    const double need = total * kHostBytesPerElement;
    if (need <= 0.8 * double(physicalBytes)) return std::nullopt;
    std::sort(sizes.begin(), sizes.end(), [](const Big& a, const Big& b) { return a.elements > b.elements; });
    auto gb = [](double b) { char s[32]; std::snprintf(s, sizeof s, "%.1f GB", b / 1e9); return std::string(s); };
    std::string msg = "the kernel's tensors need about " + gb(need) + " of host memory (" +
                      std::to_string(kHostBytesPerElement) + " bytes per element: inputs, outputs and the reference's "
                      "copy as doubles), more than 80% of this machine's " + gb(double(physicalBytes)) + "; largest:";
    for (size_t i = 0; i < sizes.size() && i < 3; ++i) {
        msg += std::string(i ? "," : "") + " " + sizes[i].p->name + " (";
        for (size_t d = 0; d < sizes[i].p->shape.size(); ++d)
            msg += (d ? ", " : "") + std::to_string(sizes[i].p->shape[d]);
        msg += ")";
    }
    msg += "\n  hint: pass smaller shape parameters (--param NAME=VALUE; `tilec kernels FILE` lists each kernel's parameters) -- the "
           "interpreter checks a kernel at small sizes as well as at large ones";
    return msg;
}

}  // namespace ts::cli
