// printf calls in the generated CUDA/HIP for T.print and T.device_assert: the user's message is
// text inside a C string literal and a printf format, so quotes, backslashes and '%' are escaped
// (T.print(x, msg="100%") was a broken format).
#pragma once
#include <string>
#include <vector>

namespace ts::codegen {

/// `text` spelled inside a printf format string literal.
std::string printfEscaped(const std::string& text);

/// T.print: `printf("MSG[i, j] VALUE\n", ...)`; `value` is printed with `valueFormat` ("%f" for a
/// double expression, "%lld" for long long, "%llu" for unsigned long long); `indices` (long long expressions) are the element's index when T.print
/// was given a whole buffer (one call per element), else empty.
std::string devicePrintf(const std::string& msg, const std::string& valueFormat, const std::string& value,
                         const std::vector<std::string>& indices);

}  // namespace ts::codegen
