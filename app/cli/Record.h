// What tilec writes to the results store (profiler/store/ResultsStore.h) for a GPU run, bench,
// profile or tune variant: the program (path, source hash, the text kept once), kernel,
// every parameter's value, target, compiler version, device and driver, date.
#pragma once
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "app/cli/CliCommon.h"
#include "profiler/cuda/Devices.h"

namespace ts::cli {

/// The common fields of a record of `kind` for the compiled `r` of `flags.file` run on `device`
/// (nullopt: "cpu-interpreter") for `arch`, with the sample's `flops` and `bytes` (FLOP and bytes
/// of ideal DRAM traffic for these parameters) where it defines them. Keeps the program text in
/// the store.
nlohmann::json baseRecord(const std::string& kind, const CompileResult& r,
                          const CompileFlags& flags, const std::optional<rt::DeviceInfo>& device,
                          const std::string& arch);

/// Compile-time facts of `r` recorded with every variant: smem_bytes (dynamic shared memory),
/// threads, blocks, and the bank analysis' predicted whole-grid shared ld/st conflicts
/// (compiler/analysis/Banks.h; the counters CUPTI measures as bank_conflicts_ld/st).
nlohmann::json staticMetrics(const CompileResult& r);

/// Appends `record` to the default store; a failure is a warning on stderr, never an error of
/// the command. $TILESCOPE_RESULTS=off disables the store.
void storeRecord(const nlohmann::json& record);

/// `tilec results [--json|--csv] [--kind K] [--last N]`: the stored records, newest last.
struct ResultsCommand {
    std::string format = "table";  ///< "table" | "json" | "csv"
    std::string kind;              ///< only records of this kind
    std::string file;              ///< a store file other than the default
    int last = 0;                  ///< only the last N (0 = all)
};
int runResults(const ResultsCommand& c);

}  // namespace ts::cli
