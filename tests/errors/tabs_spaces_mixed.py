# Tabs and spaces mixed so that the meaning depends on the tab width: the `for` line, indented
# with one tab, is deeper than the `with` line's four spaces at tab width 8 but not at tab width
# 1. Python raises
# TabError ("inconsistent use of tabs and spaces in indentation"); so does TileScope.
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=64) as bx:
	for i in T.Parallel(64):  # expect-error(col 1): inconsistent use of tabs and spaces in indentation
# expect-hint: indent with spaces only, or with tabs only
            A[i] = 0.0
