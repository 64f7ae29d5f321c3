"""Planted bugs, round 55 (format: tests/mutants/mutants.py): the LSTM backward's dWh blocks where their
product is the BLAS's GEMM: where the L2 rule makes them shorter than config.DWH_BLAS_MIN_ROWS rows, as many
as blocks of that many rows would be, the steps spread evenly over them (blas.dwh_blocks): the rule applied to
rgemm's transposed blocks too, the block count or the steps per block rounded down, the steps a block of the
minimum needs rounded down (fewer, shorter blocks), the rows compared with the minimum in steps.

5 mutants, each caught by tests/kernels/test_kernels.py::test_lstm_dwh_blocks_steps_and_product, which works
the blocks out by hand at S1, S2, short sequences, chunks of 37, 43, 255 and 256 rows and a tiny H whose
L2 blocks are larger than the minimum. (The gradients over blocks of any size are the reference's:
test_lstm_dwh_in_blocks_of_few_rows and its neighbours.)

    python tests/mutants/run.py --only 'v55-*'
"""
BLAS = "lnrnn/kernels/cpu/blas.py"
RULE = ["tests/kernels/test_kernels.py::test_lstm_dwh_blocks_steps_and_product"]

MUTANTS = [
    dict(name="v55-blas-min-rows-on-rgemm-too", file=BLAS,
         old="    if not tw and nb * m < DWH_BLAS_MIN_ROWS:\n",
         new="    if nb * m < DWH_BLAS_MIN_ROWS:\n",
         tests=RULE,
         why="rgemm's transposed blocks, sized to stay in L2, are made as large as the BLAS's (S2: 7 steps "
             "where 2 were measured faster on rgemm)"),
    dict(name="v55-blas-min-rows-block-count-floor", file=BLAS,
         old="        n = -(-T // steps)",
         new="        n = T // steps",
         tests=RULE,
         why="the number of blocks rounded down: S2 cut into 3 blocks of 10, 10 and 8 steps, not 4 of 7"),
    dict(name="v55-blas-min-rows-steps-floor", file=BLAS,
         old="        nb = -(-T // n)  ",
         new="        nb = T // n  ",
         tests=RULE,
         why="the steps per block rounded down: 28 steps in 5 blocks of 5 (and a sixth of 3) where 6 was meant"),
    dict(name="v55-blas-min-rows-too-few", file=BLAS,
         old="        steps = -(-DWH_BLAS_MIN_ROWS // m)",
         new="        steps = DWH_BLAS_MIN_ROWS // m",
         tests=RULE,
         why="the steps a block of the minimum needs rounded down: 37-row chunks get 5 blocks of 6 steps, not 4 of 7"),
    dict(name="v55-blas-min-rows-in-steps", file=BLAS,
         old="    if not tw and nb * m < DWH_BLAS_MIN_ROWS:\n",
         new="    if not tw and nb < DWH_BLAS_MIN_ROWS:\n",
         tests=RULE,
         why="the block's steps compared with the minimum rows: blocks the L2 rule made long (H 4: 128 steps of 32 rows) "
             "are cut to 8 steps"),
]
