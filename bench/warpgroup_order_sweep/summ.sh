#!/bin/bash
# condensed: status cfg | path | regs | layout
grep -E "^(ok|BAD)" $1 | sed -E 's/T.gemm uses wgmma on the fragment layouts[^|;]*/WGMMA-frag/g; s/T.gemm uses wgmma[^|;]*/WGMMA-tma/g; s/T.gemm stays on the sm_80 path \(mma.sync, cp.async\) on sm_90a: /MMA: /g; s/mma.sync m16n8k16 accumulator, //g; s/\(warpgroup order: wgmma.s D fragment\)/WGO/g; s/_kernel: / /; s/, 1 barrier//'
