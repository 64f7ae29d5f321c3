"""Planted bugs in the register-blocked recurrent GEMM (lnrnn/kernels/rgemm.py; format: tests/mutants/mutants.py).

    python tests/mutants/run.py --only 'rgemm-*'
"""

RG = "lnrnn/kernels/rgemm.py"
T = "tests/test_rgemm.py"

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
]
