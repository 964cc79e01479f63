#include "app/cli/CommaLists.h"

#include <vector>

namespace ts::cli {

bool hasEmptyCommaItem(const std::string& v) {
    size_t start = 0;
    while (true) {
        const size_t comma = v.find(',', start);
        const std::string piece = v.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (piece.find_first_not_of(" \t") == std::string::npos) return true;
        if (comma == std::string::npos) return false;
        start = comma + 1;
    }
}

std::string emptyCommaListPiece(const CLI::App& app, int argc, const char* const* argv) {
    const CLI::App* sub = nullptr;
    int first = 1;
    for (; first < argc && !sub; ++first)
        for (const CLI::App* s : app.get_subcommands([](const CLI::App*) { return true; }))
            if (s->get_name() == argv[first]) sub = s;
    if (!sub) return {};
    const auto opts = sub->get_options([](const CLI::Option* o) { return o->get_delimiter() == ','; });
    for (int i = first; i < argc; ++i) {
        std::string word = argv[i], value;
        bool inlineValue = false;
        if (word == "--") break;
        if (const size_t eq = word.find('='); word.rfind("--", 0) == 0 && eq != std::string::npos) {
            value = word.substr(eq + 1);
            word = word.substr(0, eq);
            inlineValue = true;
        } else if (word.size() > 2 && word[0] == '-' && word[1] != '-') {  // -kVALUE: a short option with its value attached
            value = word.substr(2);
            word = word.substr(0, 2);
            inlineValue = true;
        }
        for (const CLI::Option* o : opts) {
            if (!o->check_name(word)) continue;
            if (!inlineValue) {
                if (i + 1 >= argc) return {};  // CLI11 reports the missing value
                value = argv[i + 1];
            }
            // A value that is an option ("--chain --ref x") is CLI11's to report.
            if (!inlineValue && !value.empty() && value[0] == '-' && value.find(',') == std::string::npos) break;
            if (value.find(',') != std::string::npos && hasEmptyCommaItem(value))
                return word + " " + value + ": an empty item in the comma-separated list (a stray comma?)";
            if (value.find_first_not_of(" \t") == std::string::npos)
                return word + ": an empty value";
            break;
        }
    }
    return {};
}

}  // namespace ts::cli
