// einops in references (profiler/check/Reference.cpp registers it for every reference run):
// `rearrange(x, "b (h g) d -> b g h d", g=2)` (split and merge of parenthesised axis groups,
// permutation; unit axes written 1; no ellipsis), `repeat(x, "b t h d -> b t (h g) d", g=G)`
// (the same with new axes of keyword-given sizes, broadcast) and `einsum(a, b, "b h d, b s d -> b h s")`
// (named axes, mapped onto torch.einsum). Other einops names are errors naming them.
#pragma once

namespace ts::fe {
class Interp;
}

namespace ts::rt {

/// Makes `import einops` / `from einops import rearrange, einsum` resolve to the above in `in`.
void registerEinops(fe::Interp& in);

}  // namespace ts::rt
