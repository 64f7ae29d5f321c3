"""Planted bugs in the register-blocked recurrent GEMM (lnrnn/kernels/cpu/rgemm.py) and in its choice as the
kernels' per-step product (lnrnn/kernels/cpu/blas.py); format: tests/mutants/mutants.py.

    python tests/mutants/run.py --only 'rgemm-*'
"""

RG = "lnrnn/kernels/cpu/rgemm.py"
T = "tests/kernels/test_rgemm.py"
BL = "lnrnn/kernels/cpu/blas.py"
TC = "tests/kernels/test_cache_blas.py"

MUTANTS = [
    dict(name="rgemm-edge-tile-drops-last-column", file=RG,
         old="                f += 1\n            else:\n"
             "                _tile(A, i0, Wp, p, edge, 0, 0, st)\n                for i in range(mr):\n"
             "                    for j in range(nc):\n",
         new="                f += 1\n            else:\n"
             "                _tile(A, i0, Wp, p, edge, 0, 0, st)\n                for i in range(mr):\n"
             "                    for j in range(nc - 1):\n",
         tests=[f"{T}::test_rgemm_equals_the_product[13-33-70-float64]"],
         why="a tile that sticks out of C copies all but its last column: C keeps what was there"),
    dict(name="rgemm-k-loop-one-short", file=RG,
         old="        with cgutils.for_range(builder, H) as loop:\n",
         new="        with cgutils.for_range(builder, builder.sub(H, one)) as loop:\n",
         tests=[f"{T}::test_rgemm_equals_the_product[16-128-512-float32]"],
         why="the tile's k loop stops at H-1: the last row of Wh never reaches C"),
    dict(name="rec-rule-rgemm-beside-intel-mkl", file=BL,
         old='    if have_mkl and vendor in ("GenuineIntel", ""):\n',
         new='    if have_mkl and vendor in ("",):\n',
         tests=[f"{TC}::test_per_step_product_rule_follows_the_cpu"],
         why="rgemm chosen on an Intel CPU with MKL, where MKL's packed GEMM is the faster"),
    dict(name="rec-rgemm-pack-float32-width", file=BL,
         old="    return rg.packed(W, 2 * rg.VEC_BYTES // W.itemsize)\n",
         new="    return rg.packed(W, 2 * rg.VEC_BYTES // 4)\n",
         tests=[f"{TC}::test_each_per_step_product_keeps_its_own_kernels"],
         why="float64 weights packed in float32's panel width: rgemm refuses them (or would read half panels)"),
]

GM = "lnrnn/kernels/cpu/gemm.py"
LS = "lnrnn/kernels/lstm.py"
RN = "lnrnn/kernels/rnn.py"
TK = "tests/kernels/test_kernels.py"

MUTANTS += [
    dict(name="rows-transposed-tile-drops-a-row", file=GM,
         old="        k1 = min(K, k0 + 8)\n",
         new="        k1 = min(K, k0 + 7)\n",
         tests=[f"{T}::test_transposed_is_the_transpose[9-40-float64]"],
         why="the compiled transpose's tile of 8 rows copies 7: every eighth column of W^T keeps garbage"),
    dict(name="rows-gemm-add-overwrites", file=BL,
         old="                1.0 if add else 0.0, out.ctypes.data, N)\n",
         new="                0.0, out.ctypes.data, N)\n",
         tests=[f"{T}::test_gemm_add_adds_the_product[False-False-float64]"],
         why="dgemm's beta is 0 in gemm_add: a weight gradient keeps only its last block of rows"),
    dict(name="rows-lstm-dwh-block-short", file=LS,
         old="            gemm_add(Hb[:nk * Bc], dHb[:nk * Bc], pwh[:H], True)\n",
         new="            gemm_add(Hb[:(nk - 1) * Bc], dHb[:(nk - 1) * Bc], pwh[:H], True)\n",
         tests=[f"{TK}::test_lstm_dwh_in_blocks_of_few_rows"],
         why="each dWh block's product leaves out its last gathered step (the earliest in time)"),
    dict(name="rows-lstm-forward-x-of-first-chunk", file=LS,
         old="            rows_mul_fetch(x[t, lo:hi], Wc, PW, xw, plan[:0])\n",
         new="            rows_mul_fetch(x[t, :hi - lo], Wc, PW, xw, plan[:0])\n",
         tests=[f"{TK}::test_lstm_wide_input_gradients_in_blocks_of_few_rows"],
         why="every chunk's per-step x_t Wx is taken from the first chunk's rows of x"),
    dict(name="rows-rnn-forward-x-of-first-chunk", file=RN,
         old="            rows_mul(x[t, lo:hi], Wx, PW, xw)\n",
         new="            rows_mul(x[t, :hi - lo], Wx, PW, xw)\n",
         tests=[f"{TK}::test_rnn_kernel_matches_reference"],
         why="every chunk's per-step x_t Wx of the RNN is taken from the first chunk's rows of x"),
]

MUTANTS += [
    dict(name="rows-lstm-dwh-blocks-ignore-l2", file=LS,
         old="    if H * G * itemsize > DWH_L2_BYTES or I * G * itemsize > DWH_L2_BYTES // 4:\n",
         new="    if True:\n",
         tests=[f"{TK}::test_lstm_dwh_block_rows_follow_the_l2_rule"],
         why="dWh's blocks stay at 4096 rows where the partial fits L2: S1's gathered rows go out to memory"),
    dict(name="rows-lstm-dwh-blocks-forget-dwx", file=LS,
         old="    if H * G * itemsize > DWH_L2_BYTES or I * G * itemsize > DWH_L2_BYTES // 4:\n",
         new="    if H * G * itemsize > DWH_L2_BYTES:\n",
         tests=[f"{TK}::test_lstm_dwh_block_rows_follow_the_l2_rule"],
         why="a wide input's dWx partial left out of the rule: its x blocks shrink where its partial outgrows L2"),
    dict(name="rows-lstm-dwh-blocks-half-l2", file=LS,
         old="    if H * G * itemsize > DWH_L2_BYTES or I * G * itemsize > DWH_L2_BYTES // 4:\n",
         new="    if H * G * itemsize > DWH_L2_BYTES // 2 or I * G * itemsize > DWH_L2_BYTES // 4:\n",
         tests=[f"{TK}::test_lstm_dwh_block_rows_follow_the_l2_rule"],
         why="dWh's partial must fit half of L2: S2's 1 MB partial keeps 1792-row blocks on MKL"),
    dict(name="rows-lstm-dwh-l2-blocks-in-elements", file=LS,
         old="    return min(DWH_BLOCK_ROWS, max(1, DWH_L2_BYTES // 4 // (G * itemsize)))\n",
         new="    return min(DWH_BLOCK_ROWS, max(1, DWH_L2_BYTES // 4 // G))\n",
         tests=[f"{TK}::test_lstm_dwh_block_rows_follow_the_l2_rule"],
         why="the L2 rule counts elements, not bytes: blocks 4x (float32) or 8x (float64) too long for L2"),
]

MUTANTS += [
    dict(name="rgemm-strided-tile-ignores-k-stride", file=RG,
         old="            ka = builder.mul(k, sk) if strided else k\n",
         new="            ka = k\n",
         tests=[f"{T}::test_grad_t_add_adds_the_transposed_weight_gradient[17-19-103-float64]"],
         why="the strided tile walks A's k axis one element at a time: a transposed view reads the wrong values"),
    dict(name="rgemm-unit-tile-ignores-row", file=RG,
         old="            ak = builder.gep(a.data, [builder.add(ka, i0v)]) if unit else None\n",
         new="            ak = builder.gep(a.data, [ka]) if unit else None\n",
         tests=[f"{T}::test_grad_t_add_adds_the_transposed_weight_gradient[128-512-128-float64]"],
         why="the unit-stride tile reads every row tile's A from the first MR rows"),
    dict(name="rgemm-unit-tile-on-strided-rows", file=RG,
         old="            if mr == MR and nc == NR and A.strides[0] == A.itemsize:  # a transposed block (grad_t_add)\n",
         new="            if mr == MR and nc == NR:\n",
         tests=[f"{T}::test_rgemm_add_with_rows_of_any_stride"],
         why="rgemm_add takes A's rows one element apart whatever its strides"),
    dict(name="rgemm-add-tile-overwrites", file=RG,
         old="                if add:\n",
         new="                if False:\n",
         tests=[f"{T}::test_grad_t_add_adds_the_transposed_weight_gradient[128-512-128-float64]"],
         why="rgemm_add's full tiles store the product over C instead of adding it: a block keeps only its own share"),
    dict(name="rgemm-add-edge-overwrites", file=RG,
         old="                        C[i0 + i, j0 + j] += edge[i, j]\n",
         new="                        C[i0 + i, j0 + j] = edge[i, j]\n",
         tests=[f"{T}::test_grad_t_add_adds_the_transposed_weight_gradient[3-9-33-float64]"],
         why="rgemm_add's edge tiles (ragged rows or columns) overwrite C"),
    dict(name="rows-lstm-dwh-t-first-step-only", file=LS,
         old="                grad_t_add(Hb[:nk * Bc], dHb[:nk * Bc], pwhT)\n",
         new="                grad_t_add(Hb[:Bc], dHb[:Bc], pwhT)\n",
         tests=[f"{TK}::test_lstm_dwh_in_l2_blocks"],
         why="dWh^T on rgemm takes only the first gathered step of each block"),
]
