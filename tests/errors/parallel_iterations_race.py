import tilelang
import tilelang.language as T


# Stores that every iteration of a T.Parallel variable makes to one element: the iterations run on
# different threads, so an accumulation keeps one thread's partial sum and a plain write keeps an
# undefined iteration's value -- while the tile interpreter, running the iterations in order,
# passed them (helper-130 #1). Under an `if` (which may pick one iteration), or over a loop of one
# iteration, they stay legal.
@tilelang.jit
def k(M=16, N=64):
    @T.prim_func
    def main(X: T.Tensor((M, N), "float32"), Y: T.Tensor((M,), "float32"), Z: T.Tensor((M,), "float32")):
        with T.Kernel(1, threads=128) as _:
            x = T.alloc_fragment((M, N), "float32")
            s = T.alloc_fragment((M,), "float32")
            last = T.alloc_shared((M,), "float32")
            acc = T.alloc_var("float32")
            T.copy(X, x)
            T.clear(s)
            for i, j in T.Parallel(M, N):
                s[i] += x[i, j]  # expect-error(col 17): updating s[i] from its own value in every iteration of 'j'
                # expect-hint: reduce with T.reduce_sum / T.reduce_max (..., dim=...) into 's'
            for i, j in T.Parallel(M, N):
                last[i] = x[i, j]  # expect-error(col 17): writing last[i] in every iteration of 'j'
                # expect-hint: index 'last' by 'j' too, or write it under an if that picks one iteration
            for i in T.Parallel(M):
                acc += x[i, 0]  # expect-error(col 17): updating acc from its own value in every iteration of 'i'
            for i, j in T.Parallel(M, N):
                if j == N - 1:
                    last[i] = x[i, j]
            for i, j in T.Parallel(M, 1):  # one iteration of j: no other writer
                last[i] = x[i, j]
            t = T.alloc_local((1,), "float32")
            for i in T.Parallel(M):  # t reset by T.clear in each iteration: a per-iteration temporary
                T.clear(t)
                for k in T.serial(N):
                    t[0] += x[i, k]
                last[i] = t[0]
            for i in T.Parallel(M):  # t reset in both arms of an if: whichever runs resets it (helper-131)
                if i % 2 == 0:
                    t[0] = 0.0
                else:
                    t[0] = x[i, 0]
                for k in T.serial(N):
                    t[0] += x[i, k]
                last[i] = t[0]
            for i in T.Parallel(M):
                if i % 2 == 0:  # reset in one arm only: the other iterations add to what another left
                    t[0] = 0.0
                for k in T.serial(N):
                    t[0] += x[i, k]  # expect-error(col 21): updating t from its own value in every iteration of 'i'
            T.copy(s, Y)
            T.copy(last, Z)

    return main
