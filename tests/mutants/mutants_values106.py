"""Planted bugs, round 106 (format: tests/mutants/mutants.py): the CPU LSTM kernels, the per-step product and the
BLAS wrappers, a fourth pass, on lines no earlier round mutates: fetch_table's step and row strides swapped and
plan_steps' region length left unrounded after its start moved down to a line; the cell's LayerNorm without
its mean; a wide input's x block gathering x_{t-1}; a narrow input's LN backward of the h side without its
mean term; rgemm's fetch schedule counting a region's tiles rounded down, its shape check letting a Wp packed
from a taller W through, its row sums keeping only the last panel and pack dropping the last column;
grad_t_add's width taken from A's rows, grad_blocks' large budget on either rgemm, LNRNN_DWH_GEMM named but
ignored and the note on an unknown LNRNN_REC_GEMM on the wrong condition.

13 mutants. Against the existing targeted tests alone 9 were caught and 4 missed: rgemm's check letting a
taller pack through (the old refusals are of a wrong panel width and a wider C only), the note on an unknown
LNRNN_REC_GEMM (no test read _choose_rec's reason with LNRNN_BLAS=numpy), grad_blocks' large budget on either
rgemm and LNRNN_DWH_GEMM ignored (the old tests of the choice call dwh_blocks and decide_dwh, not
grad_blocks or _asked_dwh).

The new value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values106_lstm (fetch_table's rows and plan_steps' regions against the arrays' addresses worked out
there; the LN-LSTM with a cell mean near 1 against lnrnn/reference.py; all twelve gradients, narrow and wide
inputs, dWh blocks of 2 steps over T = 5 on the BLAS and on grad_t_add, x blocks of one step, against the
reference's backward and central differences of the reference's forward; 1, 2 and 3 chunks agreeing) and
test_values106_rgemm (rgemm on ragged shapes into an out holding values against np.dot, pack's panels by
index, a taller pack refused, row statistics over three panels, a fetch schedule whose only fitting spacing
is one tile a region, grad_t_add with K != N, grad_blocks over the four REC x DWH choices by the config's
rule, _asked_dwh and _choose_rec's reasons against the strings the environment asks for).

Dropped as equivalent: lstm_infer's c with one row instead of two (c_{t-1} is read element by element before
c_t overwrites it, so one row serves both); fetch_table filling rows for empty arrays (their step count 0
makes plan_steps skip them); Mc and Wc formed for a wide LN input too (only a narrow input reads them);
the zeroing of pWh's spare last row skipped (never read); rgemm_fetch's schedule counting edge tiles
(prefetch hints only, values unchanged); rgemm_add returning early only for b == 0 (K == 0 adds zeros);
blas_mul checking W for out's layout: np.dot into a non-C out does not compile in Numba (dot_3_mm asserts
the out type), so blas_mul can never be called with a strided out and the check of out cannot be seen.

    python tests/mutants/run.py --only 'v106-*'
"""
LSTM = "lnrnn/kernels/lstm.py"
RGEMM = "lnrnn/kernels/cpu/rgemm.py"
BLAS = "lnrnn/kernels/cpu/blas.py"

# existing tests of these modules
LSTM_OLD = ["tests/kernels/test_values45_lstm.py", "tests/kernels/test_values72_lstm.py",
            "tests/kernels/test_values92_lstm.py", "tests/kernels/test_values11_lstm.py"]
RGEMM_OLD = ["tests/kernels/test_rgemm.py", "tests/kernels/test_values45_rgemm.py"]
BLAS_OLD = ["tests/kernels/test_values_blas.py", "tests/kernels/test_rgemm.py",
            "tests/kernels/test_values71_rec_choice.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
LSTM_NEW = ["tests/kernels/test_values106_lstm.py"]
RGEMM_NEW = ["tests/kernels/test_values106_rgemm.py"]
BLAS_NEW = ["tests/kernels/test_values106_rgemm.py"]

MUTANTS = [
    # ---- the LSTM: fetch tables and step plans, the cell's LayerNorm, a wide input's x block, dL/d(h Wh) ----
    dict(name="v106-lstm-fetch-table-strides-swapped", file=LSTM,
         old="            tab[i] = a.ctypes.data, a.shape[0], a.strides[0], a.strides[1], off",
         new="            tab[i] = a.ctypes.data, a.shape[0], a.strides[1], a.strides[0], off",
         tests=LSTM_NEW + LSTM_OLD,
         why="fetch_table stores a row's stride as the step's and the step's as the row's: every step plan points "
             "at the wrong rows (the prefetches ask for lines the step never reads)"),
    dict(name="v106-lstm-plan-length-without-the-rounding", file=LSTM,
         old="            plan[n, 1] = end - start",
         new="            plan[n, 1] = (hi - lo) * tab[i, 3]",
         tests=LSTM_NEW + LSTM_OLD,
         why="plan_steps gives the region's unrounded length after moving its start down to 64 bytes: the region "
             "stops short of the end of row hi - 1"),
    dict(name="v106-lstm-cell-ln-mean-dropped", file=LSTM,
         old="                    u = (ct[k] - mc) * sc",
         new="                    u = ct[k] * sc",
         tests=LSTM_NEW + LSTM_OLD,
         why="the cell's LayerNorm scales c_t by its rstd without taking off its mean: chat, tanh and h are wrong "
             "whenever the cell's row mean is not 0"),
    dict(name="v106-lstm-wide-x-block-reads-the-step-before", file=LSTM,
         old="            copy_rows(Xb[nkx * Bc:(nkx + 1) * Bc], x[t, lo:hi])",
         new="            copy_rows(Xb[nkx * Bc:(nkx + 1) * Bc], x[t - 1, lo:hi])",
         tests=LSTM_NEW + LSTM_OLD,
         why="a wide input's x block gathers x_{t-1} (x_{T-1} at t = 0) beside step t's dL/d(x_t Wx): dWx is wrong"),
    dict(name="v106-lstm-narrow-ln-dhw-mean-dropped", file=LSTM,
         old="                rh = rstd[1, t, bb]\n                for j in range(G):\n"
             "                    dhw[j] = rh * (da[j] * gh[j] - s1h - hh[j] * s2h)\n            elif ln:",
         new="                rh = rstd[1, t, bb]\n                for j in range(G):\n"
             "                    dhw[j] = rh * (da[j] * gh[j] - hh[j] * s2h)\n            elif ln:",
         tests=LSTM_NEW + LSTM_OLD,
         why="a narrow input's LN-LSTM drops the mean term of the h side's LayerNorm backward: dL/d(h Wh) loses "
             "its zero row mean, so dh_{t-1}, dh0 and dWh are wrong"),
    # ---- rgemm: the fetch schedule's tile count, the shape check, the row statistics, pack ----
    dict(name="v106-rgemm-tiles-for-rounds-down", file=RGEMM,
         old="        n += -(-((plan[r, 1] + 63) // 64) // per)",
         new="        n += ((plan[r, 1] + 63) // 64) // per",
         tests=RGEMM_NEW + RGEMM_OLD,
         why="_tiles_for rounds a region's tiles down: fetch_schedule thinks a spacing has room when it has not "
             "and the tail of the plan's lines is never asked for"),
    dict(name="v106-rgemm-check-lets-a-taller-pack-through", file=RGEMM,
         old="    if Wp.shape[1] != H or Wp.shape[2] != 2 * VEC_BYTES",
         new="    if Wp.shape[1] < H or Wp.shape[2] != 2 * VEC_BYTES",
         tests=RGEMM_NEW + RGEMM_OLD,
         why="rgemm accepts a Wp packed from a Wh of more rows than A has columns: the panels are read at A's "
             "stride, so every panel after the first is read from the wrong place"),
    dict(name="v106-rgemm-rowstats-keep-the-last-panel", file=RGEMM,
         old="                s1[i0 + i] += st[0, i]",
         new="                s1[i0 + i] = st[0, i]",
         tests=RGEMM_NEW + RGEMM_OLD,
         why="rgemm_rowstats' row sums keep only the last panel's share: wrong for G wider than one panel"),
    dict(name="v106-rgemm-pack-last-column-dropped", file=RGEMM,
         old="        nc = min(nr, G - j0)",
         new="        nc = min(nr, G - j0 - 1)",
         tests=RGEMM_NEW + RGEMM_OLD,
         why="packed copies one column less of the last panel (zero in its place): column G - 1 of every product "
             "is 0"),
    # ---- blas: the note on an unknown LNRNN_REC_GEMM, grad_t_add's width, grad_blocks, LNRNN_DWH_GEMM ----
    dict(name="v106-blas-rec-note-on-the-wrong-condition", file=BLAS,
         old='is neither rgemm nor blas: ignored)" if asked else ""',
         new='is neither rgemm nor blas: ignored)" if not asked else ""',
         tests=BLAS_NEW + BLAS_OLD,
         why="the note about an LNRNN_REC_GEMM that is neither rgemm nor blas is added when the variable is unset "
             "(naming an empty value) and left out when it holds something unknown"),
    dict(name="v106-blas-grad-t-add-width-from-rows", file=BLAS,
         old="CT, A.shape[1])",
         new="CT, A.shape[0])",
         tests=BLAS_NEW + BLAS_OLD,
         why="grad_t_add passes A's row count as the width of CT: refused unless K == N, wrong there"),
    dict(name="v106-blas-grad-blocks-big-on-either", file=BLAS,
         old='    return rec, rec == "rgemm" and dwh == "rgemm"',
         new='    return rec, rec == "rgemm" or dwh == "rgemm"',
         tests=BLAS_NEW + BLAS_OLD,
         why="grad_blocks takes the large budget when only one of the per-step product and the dWh product is "
             "rgemm: weight gradients in small blocks on rgemm where the measurement chose the BLAS"),
    dict(name="v106-blas-dwh-asked-ignored", file=BLAS,
         old='        return rec, why, asked, f"LNRNN_DWH_GEMM={asked} asks for it"',
         new='        return rec, why, dwh, f"LNRNN_DWH_GEMM={asked} asks for it"',
         tests=BLAS_NEW + BLAS_OLD,
         why="LNRNN_DWH_GEMM is named in the reason but the measured choice kept: the variable does nothing"),
]
