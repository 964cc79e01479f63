# Float64 reference for `tilec run tests/e2e/programs/multi_kernel.py --chain affine_fwd,row_mean
# --bind row_mean.A=affine_fwd.B --ref tests/e2e/programs/multi_kernel_chain_ref.py::chain_ref`:
# row means of affine_fwd's output B = A * 2 + 1. The chain's one free input is affine_fwd's A.


def chain_ref(A):
    return (A * 2.0 + 1.0).sum(dim=1) / A.size(1)
