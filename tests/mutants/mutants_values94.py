"""Planted bugs, round 94 (format: tests/mutants/mutants.py): single-line slips in the products, the row kernels,
the mixture density kernel and LayerNorm, on lines no earlier round mutates: rgemm's tile storing its rows D's row
count apart, its strided tile reading A's two strides swapped, rgemm_rowstats adding onto what s2 held and
rgemm_add's last panel a column short; MKL's GEMM told the inner size of a stored-transposed A from the wrong axis
and given a W that is a strided view, float64 blas_mul adding into out (beta 1), dwh_budget forgetting the input's
dWx and rec_pack_once packing for the wrong product; rows_transposed reading from row 0 whatever j0, the float32
sigmoid's Taylor coefficients one factorial early, the row LayerNorm's variance over F - 1; the mixture density
kernel's rho without its bound RHO, log sigma1's gradient let through below the floor -SMAX and each component's
log density without -log sigma2; layernorm_backward returning dgain and dbias swapped.

16 mutants. Against the existing targeted tests alone 11 were caught and 5 missed, measured on the most
direct old files only (test_rgemm; test_values71_gemm and test_values_blas; test_values45_rows; test_values67_mdn
and test_mdn; test_values67_layernorm: the full lists' cold compiles ran too long to measure): a strided W sent to
MKL (the old strided operands are A's), dwh_budget without the input (test_gemm, not measured, compares it with
grad_budget), rec_pack_once inverted (no old test called it), rows_transposed from row 0 (not called directly in
the measured files) and log sigma1's gradient let through below the floor (no measured test puts sigma1 below
it).
The new value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values94_gemm (rgemm and rgemm_fetch, with a plan and without, on C of unequal sides; rgemm_add of a
transposed A and of every other row and column of a buffer into a C that holds values, one panel and a column and
two panels and a few columns wide; grad_t_add; rgemm_rowstats into s1 and s2 that hold values; gemm and gemm_add of
a stored-transposed A of unequal sides and of a W that is every other column of a buffer; blas_mul and rgemm_mul
into an out of 9s, all against np.dot of float64 copies at 1, 5, 17, 33, 65; rec_pack_once against pack or an
empty buffer by blas.REC, and dwh_budget against its rule written out), test_values94_rows (rows_transposed
against W[j0:j1].T, the float32 sigmoid against the float64 one over -30..30, a row's statistics against the mean
and the biased variance), test_values94_mdn (loss against Graves 2013 eqs. 18-26 in log space in NumPy, gradient
against its central differences, with rho near and at its bound, log sigmas below the floor and above the
ceiling, a masked step and the pen bit both ways), test_values94_layernorm (forward against the definition with
gains and biases far from 1 and 0, dgain and dbias against their sums, dx against central differences).
Dropped before the catalogue as equivalent or near it: the tile's row clamp as <= (the row it reads past b is
never stored); pmax starting from e_hat's column (it cancels in the log-sum-exp); rows_mul on blas_mul with an
empty P and rec_mul_fetch on gemm_mul_fetch where the BLAS runs the per-step products (np.dot or sgemm: the same
values). Left out as unsafe rather than wrong in value: the packed buffer allocated without its alignment slack
and the pack's size asked with N and K swapped (writes past a buffer), the last panel's padding zeroed one column
late (uninitialised memory that may happen to be zero). Also left out: the sum-of-squares epilogue squaring
v0 * v1 (kept to 16).

    python tests/mutants/run.py --only 'v94-*'
"""
RGEMM = "lnrnn/kernels/cpu/rgemm.py"
BLAS = "lnrnn/kernels/cpu/blas.py"
ROWS = "lnrnn/kernels/cpu/rows.py"
MDN = "lnrnn/kernels/mdn.py"
LN = "lnrnn/kernels/layernorm.py"

# existing tests of these modules
RGEMM_OLD = ["tests/kernels/test_rgemm.py", "tests/kernels/test_values45_rgemm.py", "tests/kernels/test_values71_gemm.py"]
BLAS_OLD = ["tests/kernels/test_values71_gemm.py", "tests/kernels/test_values_blas.py", "tests/kernels/test_gemm.py",
            "tests/kernels/test_rgemm.py", "tests/kernels/test_values45_rgemm.py"]
ROWS_OLD = ["tests/kernels/test_values45_rows.py", "tests/kernels/test_kernels.py"]
MDN_OLD = ["tests/kernels/test_mdn.py", "tests/kernels/test_values35_mdn.py", "tests/kernels/test_values67_mdn.py"]
LN_OLD = ["tests/kernels/test_values_layernorm.py", "tests/kernels/test_values67_layernorm.py",
          "tests/kernels/test_values45_rows.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
GEMM_NEW = ["tests/kernels/test_values94_gemm.py"]
ROWS_NEW = ["tests/kernels/test_values94_rows.py"]
MDN_NEW = ["tests/kernels/test_values94_mdn.py"]
LN_NEW = ["tests/kernels/test_values94_layernorm.py"]

MUTANTS = [
    # ---- rgemm: the tile's store stride, strided A, the row statistics, rgemm_add's last panel ----
    dict(name="v94-rgemm-tile-store-stride-from-rows", file=RGEMM,
         old="        ldd = cgutils.unpack_tuple(builder, d.shape, 2)[1]\n",
         new="        ldd = cgutils.unpack_tuple(builder, d.shape, 2)[0]\n",
         tests=GEMM_NEW + RGEMM_OLD,
         why="the tile stores its rows D's row count apart, not D's row length: every product whose C is not "
             "square lands its rows in the wrong places"),
    dict(name="v94-rgemm-strided-a-strides-swapped", file=RGEMM,
         old="            si, sk = [builder.sdiv(v, isz) for v in cgutils.unpack_tuple(builder, a.strides, 2)]",
         new="            sk, si = [builder.sdiv(v, isz) for v in cgutils.unpack_tuple(builder, a.strides, 2)]",
         tests=GEMM_NEW + RGEMM_OLD,
         why="the strided tile (rgemm_add, grad_t_add) reads A[i, k] at k*si + i*sk: A transposed"),
    dict(name="v94-rgemm-rowstats-s2-not-zeroed", file=RGEMM,
         old="    s1[:] = 0\n    s2[:] = 0\n",
         new="    s1[:] = 0\n",
         tests=GEMM_NEW + RGEMM_OLD,
         why="rgemm_rowstats adds the sums of squares onto whatever s2 held"),
    dict(name="v94-rgemm-add-panel-one-column-short", file=RGEMM,
         old="        nc = min(NR, G - j0)\n        for i0 in range(0, b, MR):\n            mr = min(MR, b - i0)\n"
             "            if mr == MR and nc == NR and A.strides",
         new="        nc = min(NR, G - j0 - 1)\n        for i0 in range(0, b, MR):\n            mr = min(MR, b - i0)\n"
             "            if mr == MR and nc == NR and A.strides",
         tests=GEMM_NEW + RGEMM_OLD,
         why="rgemm_add's last panel is taken one column narrower: C's last column gets nothing added"),
    # ---- blas: MKL's GEMM (inner size of a transposed A, a strided W), the packed product, the rules ----
    dict(name="v94-gemm-mkl-inner-size-of-transposed-a", file=BLAS,
         old="    K = A.shape[0] if trans_a else A.shape[1]\n",
         new="    K = A.shape[1] if trans_a else A.shape[0]\n",
         tests=GEMM_NEW + BLAS_OLD,
         why="MKL's sgemm/dgemm is told the inner size from the wrong axis of A"),
    dict(name="v94-gemm-strided-w-sent-to-mkl", file=BLAS,
         old="    if HAVE_MKL and _c_layout(A, W, out):",
         new="    if HAVE_MKL and _c_layout(A, out):",
         tests=GEMM_NEW + BLAS_OLD,
         why="a W that is a strided view (typed 'A') goes to MKL with N for its leading dimension"),
    dict(name="v94-blas-mul-float64-beta-one", file=BLAS,
         old="_aligned(P), N, 0.0, out.ctypes.data, N)",
         new="_aligned(P), N, 1.0, out.ctypes.data, N)",
         tests=GEMM_NEW + BLAS_OLD,
         why="float64 blas_mul adds the product to what out held (MKL's beta 1)"),
    dict(name="v94-dwh-budget-without-the-input", file=BLAS,
         old="    return grad_budget(H, 4 * H, I, itemsize, big)",
         new="    return grad_budget(H, 4 * H, 0, itemsize, big)",
         tests=GEMM_NEW + BLAS_OLD,
         why="dwh_budget forgets the wide input's dWx partial that shares L2 with dWh's"),
    dict(name="v94-rec-pack-once-inverted", file=BLAS,
         old='    if REC == "rgemm":\n        return rgemm_pack(W, m)',
         new='    if REC == "blas":\n        return rgemm_pack(W, m)',
         tests=GEMM_NEW + BLAS_OLD,
         why="rec_pack_once hands rgemm's panels to the BLAS's product and an empty buffer to rgemm's"),
    # ---- rows ----
    dict(name="v94-rows-transposed-from-row-0", file=ROWS,
         old="        Wi = W[j0 + i]\n",
         new="        Wi = W[i]\n",
         tests=ROWS_NEW + ROWS_OLD,
         why="rows_transposed reads W's first rows whatever j0"),
    dict(name="v94-sigmoid-float32-factorials-one-early", file=ROWS,
         old="for f in (2, 6, 24, 120, 720, 5040)]",
         new="for f in (1, 2, 6, 24, 120, 720)]",
         tests=ROWS_NEW + ROWS_OLD,
         why="the float32 exp's Taylor coefficients are 1/(n-1)! for r^n: exp(r) is off by far more than rounding"),
    dict(name="v94-ln-row-variance-unbiased", file=ROWS,
         old="    v *= inv\n",
         new="    v *= x.dtype.type(1.0) / x.dtype.type(F - 1)\n",
         tests=ROWS_NEW + LN_NEW + ROWS_OLD + LN_OLD,
         why="the row LayerNorm divides the squared deviations by F - 1 (the unbiased variance)"),
    # ---- the mixture density kernel ----
    dict(name="v94-mdn-rho-without-its-bound", file=MDN,
         old="        rho = rmax * np.tanh(yh[1 + 5 * M + k])\n        a = ",
         new="        rho = np.tanh(yh[1 + 5 * M + k])\n        a = ",
         tests=MDN_NEW + MDN_OLD,
         why="the forward's rho is tanh(rho_hat), not RHO tanh: near |rho| = 1 the log-likelihood differs and "
             "exactly at saturation 1 - rho^2 is 0"),
    dict(name="v94-mdn-s1-gradient-floor-let-through", file=MDN,
         old="if -smax < sh1 < smax else zero",
         new="if sh1 < smax else zero",
         tests=MDN_NEW + MDN_OLD,
         why="log sigma1 below -SMAX (the sigma floor) still gets a gradient, though the clip's derivative is 0"),
    dict(name="v94-mdn-log-density-without-log-sigma2", file=MDN,
         old="- log2pi - ls1 - ls2 - half",
         new="- log2pi - ls1 - half",
         tests=MDN_NEW + MDN_OLD,
         why="each component's log density drops -log sigma2: the loss and the responsibilities are wrong"),
    # ---- LayerNorm ----
    dict(name="v94-layernorm-backward-dgain-dbias-swapped", file=LN,
         old="    return dx, pg.sum(axis=0), pb.sum(axis=0)",
         new="    return dx, pb.sum(axis=0), pg.sum(axis=0)",
         tests=LN_NEW + LN_OLD,
         why="layernorm_backward returns dbias where dgain goes and dgain where dbias goes"),
]
