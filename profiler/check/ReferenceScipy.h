// scipy in references (profiler/check/Reference.cpp registers it for every reference run):
// `scipy.linalg.hadamard(n, dtype=...)`, the Sylvester-construction Hadamard matrix that
// TileLang's hadamard_transform example multiplies by (`F.linear(x, torch.tensor(H))`). Other
// scipy names are errors naming them.
#pragma once

namespace ts::fe {
class Interp;
}

namespace ts::rt {

/// Makes `import scipy` / `scipy.linalg.hadamard` / `from scipy.linalg import hadamard` resolve
/// in `in`.
void registerScipy(fe::Interp& in);

}  // namespace ts::rt
