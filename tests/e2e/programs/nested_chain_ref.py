# Float64 reference for the chain of nested_chain.py: B = 2 X + 1. Its one free input is
# test_affine.double's X.


def chain_ref(X):
    return X * 2.0 + 1.0
