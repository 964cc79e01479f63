#include "compiler/codegen/DevicePrint.h"

namespace ts::codegen {

std::string printfEscaped(const std::string& text) {
    std::string out;
    for (char ch : text) {
        if (ch == '"' || ch == '\\') out += '\\';
        if (ch == '%') out += '%';
        if (ch == '\n') {
            out += "\\n";
            continue;
        }
        out += ch;
    }
    return out;
}

std::string devicePrintf(const std::string& msg, const std::string& valueFormat, const std::string& value,
                         const std::vector<std::string>& indices) {
    std::string fmt = printfEscaped(msg), args;
    if (!indices.empty()) {
        fmt += "[";
        for (size_t k = 0; k < indices.size(); ++k) {
            fmt += k ? ", %lld" : "%lld";
            args += ", " + indices[k];
        }
        fmt += "]";
    }
    if (!fmt.empty()) fmt += " ";
    fmt += valueFormat;
    return "printf(\"" + fmt + "\\n\"" + args + ", " + value + ")";
}

}  // namespace ts::codegen
