# Plain-Python helpers and constants shared by kernels next to this file (imported by
# sibling_import.py as `from sibling_lib import ...`, as TileLang's block_causal_attention
# examples share theirs).
import tilelang.language as T

SCALE = 0.5
_SUPPORTED_BLOCKS = (16, 32, 64)


def check_block(block):
    assert block in _SUPPORTED_BLOCKS, f"block must be one of {_SUPPORTED_BLOCKS}, got {block}"


def tiles(n, block):
    return (n + block - 1) // block


def lower_mask(i, j):
    """1 on and below the diagonal, else 0 (an element expression inside the kernel)."""
    return T.if_then_else(i >= j, 1.0, 0.0)
