"""Planted bugs, round 197 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates
in the register-tiled per-step product and the BLAS glue. rgemm.py: pack letting a 2-D integer Wh through, the
last panel's first column past G left unzeroed, the tile's sum of squares taking v0 * v1 for v0^2 and its
horizontal sums leaving out a lane, rgemm_rowstats adding the row sums to s2, fetch_schedule's spacing never
starting at one line every 4 steps, its share rounded down and its exact fit refused; blas.py: cpuinfo comparing
the key with its tab padding, _rule's MKL branch inverted, gemm handing strided views to MKL, blas_mul taking N
from W's rows, rgemm_mul sending strided rows to rgemm, grad_block_rows sizing blocks for the big budget by
default.

14 mutants. Against the existing targeted tests alone 8 were caught and 6 missed: pack's integer Wh (no old test
packs a non-float matrix), fetch_schedule's share rounded down (no old schedule has a K and a plan where the
rounding changes the walk), _rule's inverted MKL branch (the old test checks the choice and the no-AVX-512
sentence only, and both the MKL-less and the AMD case choose rgemm), blas_mul's N and rgemm_mul's strided rows
(these old files do not call blas_mul or rgemm_mul) and grad_block_rows' default (the old test passes big). That measurement
ran on the most direct old files (test_rgemm, test_values45_rgemm, test_values106_rgemm; test_values_blas,
test_gemm, test_values178_gemm, test_values141_blas_choice: the lists here). The new value tests catch every
mutant on their own (checked with the old tests taken off the lists): test_values197_rgemm (pack's refusal word
for word; the panels element by element against Wp[p, k, jj] = Wh[k, p*NR + jj], zero past G, on memory that
held NaN the call before; rgemm_rowstats' C, s1 and s2 against float64 np.dot and its row sums on ragged b, K,
G; fetch_schedule against its docstring's walk written out here over a grid of plans, tile counts and K of 1,
4, 7, 8, 9, 33; rgemm_fetch with a plan of real addresses equal to np.dot), test_values197_blas (gemm and
gemm_add on column-strided and row-strided transposed views, beta 0 over old values and beta 1, float64 and
float32, M, N, K of 1, 7, 33, 65; blas_pack/blas_mul and rgemm_pack/rgemm_mul with K < N, rgemm_mul on strided
rows; grad_block_rows at and one row past the L2 and big budgets against config's rule, with and without big;
cpuinfo on a tab-padded fake /proc/cpuinfo; _rule's sentence for each CPU kind word for word).

Dropped as equivalent or not observable from a test: the edge tile's scratch zeroed over mr rows or nc columns
only (the rows and columns past them are never copied out); the prefetch line's address stepped by 32 bytes
(a prefetch is a hint: no result depends on it); _c_layout comparing with "A" (C-contiguous arrays then take the
any-layout body, which makes the same choice at run time); _contiguous without out (np.dot refuses a
non-contiguous out at compile time, so no caller can pass one). Left out for writing out of bounds rather than
failing: the row clamp as <= (reads the row past b), blas_pack's size query with K and N swapped, _aligned
rounding down.

    python tests/mutants/run.py --only 'v197-*'
"""
RGEMM = "lnrnn/kernels/cpu/rgemm.py"
BLAS = "lnrnn/kernels/cpu/blas.py"

# existing tests of these modules (the most direct ones)
RGEMM_OLD = ["tests/kernels/test_rgemm.py", "tests/kernels/test_values45_rgemm.py",
             "tests/kernels/test_values106_rgemm.py"]
BLAS_OLD = ["tests/kernels/test_values_blas.py", "tests/kernels/test_gemm.py", "tests/kernels/test_values178_gemm.py",
            "tests/kernels/test_values141_blas_choice.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
RGEMM_NEW = ["tests/kernels/test_values197_rgemm.py"]
BLAS_NEW = ["tests/kernels/test_values197_blas.py"]

MUTANTS = [
    # ---- rgemm.py: pack's check, the zero columns past G, the row statistics, the fetch schedule ----
    dict(name="v197-pack-lets-integers-through", file=RGEMM,
         old="    if Wh.ndim != 2 or Wh.dtype not in (np.float32, np.float64):\n",
         new="    if Wh.ndim != 2 and Wh.dtype not in (np.float32, np.float64):\n",
         tests=RGEMM_NEW + RGEMM_OLD,
         why="pack refuses only what is both not 2-D and not float: a 2-D integer Wh is packed as integers"),
    dict(name="v197-packed-padding-one-column-short", file=RGEMM,
         old="            for jj in range(nc, nr):  # the columns past G: zero\n",
         new="            for jj in range(nc + 1, nr):  # the columns past G: zero\n",
         tests=RGEMM_NEW + RGEMM_OLD,
         why="the first column past G in the last panel keeps np.empty's leftovers instead of zero"),
    dict(name="v197-stats-squares-cross-term", file=RGEMM,
         old="qv = builder.call(fma, [v0, v0, builder.fmul(v1, v1)])",
         new="qv = builder.call(fma, [v0, v1, builder.fmul(v1, v1)])",
         tests=RGEMM_NEW + RGEMM_OLD,
         why="the tile's sum of squares takes v0 * v1 for v0^2: rgemm_rowstats' s2 is wrong"),
    dict(name="v197-stats-lanes-one-short", file=RGEMM,
         old="                for j in range(L):\n",
         new="                for j in range(L - 1):\n",
         tests=RGEMM_NEW + RGEMM_OLD,
         why="the horizontal sum of the tile's statistics leaves out the last lane of each vector"),
    dict(name="v197-rowstats-s2-from-sums", file=RGEMM,
         old="                s2[i0 + i] += st[1, i]\n",
         new="                s2[i0 + i] += st[0, i]\n",
         tests=RGEMM_NEW + RGEMM_OLD,
         why="rgemm_rowstats adds each tile's row sums to s2 in place of its sums of squares"),
    dict(name="v197-schedule-spacing-starts-at-2-steps", file=RGEMM,
         old="    sh = 2\n    per = 1\n",
         new="    sh = 1\n    per = 1\n",
         tests=RGEMM_NEW + RGEMM_OLD,
         why="fetch_schedule never tries one line every 4 steps of k: sh is at most 1"),
    dict(name="v197-schedule-per-rounds-down", file=RGEMM,
         old="per = max(1, (K + (1 << sh) - 1) >> sh)",
         new="per = max(1, K >> sh)",
         tests=RGEMM_NEW + RGEMM_OLD,
         why="a tile's share of lines is K / 2**sh rounded down: a K not a multiple of 2**sh gets one line too few"),
    dict(name="v197-schedule-exact-fit-refused", file=RGEMM,
         old="if _tiles_for(plan, per) <= ntiles or sh == 0:",
         new="if _tiles_for(plan, per) < ntiles or sh == 0:",
         tests=RGEMM_NEW + RGEMM_OLD,
         why="a spacing whose walk needs exactly the tiles there are is refused: sh drops one too far"),
    # ---- blas.py: /proc/cpuinfo, the CPU-kind rule, the operands' layouts, the packed product, block rows ----
    dict(name="v197-cpuinfo-key-not-stripped", file=BLAS,
         old='if line.split(":", 1)[0].strip() == field:',
         new='if line.split(":", 1)[0] == field:',
         tests=BLAS_NEW + BLAS_OLD,
         why="cpuinfo compares the key with its tab padding: no field is ever found, the vendor reads as ''"),
    dict(name="v197-rule-mkl-branch-inverted", file=BLAS,
         old="    if have_mkl:\n        return \"rgemm\", f\"AVX-512 on a CPU of vendor",
         new="    if not have_mkl:\n        return \"rgemm\", f\"AVX-512 on a CPU of vendor",
         tests=BLAS_NEW + BLAS_OLD,
         why="_rule gives AVX-512 without MKL the sentence about outrunning MKL, and MKL on AMD the one without it"),
    dict(name="v197-gemm-strided-operand-to-mkl", file=BLAS,
         old="        if not HAVE_MKL or not _contiguous(A, W, out):\n",
         new="        if not HAVE_MKL and not _contiguous(A, W, out):\n",
         tests=BLAS_NEW + BLAS_OLD,
         why="with MKL loaded, gemm hands a strided or transposed view to sgemm/dgemm as if it were C-contiguous"),
    dict(name="v197-blas-mul-n-from-rows", file=BLAS,
         old="    N = W.shape[1]\n    if not HAVE_MKL:\n        np.dot(A, W, out)\n",
         new="    N = W.shape[0]\n    if not HAVE_MKL:\n        np.dot(A, W, out)\n",
         tests=BLAS_NEW + BLAS_OLD,
         why="blas_mul's packed product takes N from W's rows: for K != N the product's width and ldc are wrong"),
    dict(name="v197-rgemm-mul-strided-rows-to-rgemm", file=BLAS,
         old="        if A.flags.c_contiguous and out.flags.c_contiguous:\n",
         new="        if A.flags.c_contiguous or out.flags.c_contiguous:\n",
         tests=BLAS_NEW + BLAS_OLD,
         why="rgemm_mul sends strided rows of A to rgemm (which refuses them) instead of np.dot"),
    dict(name="v197-grad-block-rows-big-by-default", file=BLAS,
         old="def grad_block_rows(K, N, I, itemsize, big=False):",
         new="def grad_block_rows(K, N, I, itemsize, big=True):",
         tests=BLAS_NEW + BLAS_OLD,
         why="grad_block_rows called without big sizes blocks for DWH_BIG_BYTES, as if this host had chosen rgemm's "
             "large blocks"),
]
