"""Planted bugs in the register-blocked recurrent GEMM (lnrnn/kernels/rgemm.py) and in its choice as the
kernels' per-step product (lnrnn/kernels/blas.py); format: tests/mutants/mutants.py.

    python tests/mutants/run.py --only 'rgemm-*'
"""

RG = "lnrnn/kernels/rgemm.py"
T = "tests/test_rgemm.py"
BL = "lnrnn/kernels/blas.py"
TC = "tests/test_cache_blas.py"

MUTANTS = [
    dict(name="rgemm-edge-tile-drops-last-column", file=RG,
         old="                _tile(A, i0, Wp, p, edge, 0, 0, st)\n                for i in range(mr):\n"
             "                    for j in range(nc):\n",
         new="                _tile(A, i0, Wp, p, edge, 0, 0, st)\n                for i in range(mr):\n"
             "                    for j in range(nc - 1):\n",
         tests=[f"{T}::test_rgemm_equals_the_product[13-33-70-float64]"],
         why="a tile that sticks out of C copies all but its last column: C keeps what was there"),
    dict(name="rgemm-k-loop-one-short", file=RG,
         old="            with cgutils.for_range(builder, H) as loop:\n",
         new="            with cgutils.for_range(builder, builder.sub(H, one)) as loop:\n",
         tests=[f"{T}::test_rgemm_equals_the_product[16-128-512-float32]"],
         why="the tile's k loop stops at H-1: the last row of Wh never reaches C"),
    dict(name="rec-choice-rgemm-beside-intel-mkl", file=BL,
         old='    if have_mkl and vendor in ("GenuineIntel", ""):\n',
         new='    if have_mkl and vendor in ("",):\n',
         tests=[f"{TC}::test_per_step_product_follows_the_cpu"],
         why="rgemm chosen on an Intel CPU with MKL, where MKL's packed GEMM is the faster"),
    dict(name="rec-rgemm-pack-float32-width", file=BL,
         old="    return rg.packed(W, 2 * rg.VEC_BYTES // W.itemsize)\n",
         new="    return rg.packed(W, 2 * rg.VEC_BYTES // 4)\n",
         tests=[f"{TC}::test_each_per_step_product_keeps_its_own_kernels"],
         why="float64 weights packed in float32's panel width: rgemm refuses them (or would read half panels)"),
]
