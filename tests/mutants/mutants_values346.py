"""Planted bugs, round 346 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the synthesis window's CUDA twin (lnrnn/kernels/window_cuda.py), eighteenth pass: the window row's
outputs unpacked with phi and w swapped; the window row's thread index taken from the block (rows past the first
leave p_t entries unwritten); the window backward's saved (abk, kappa) unpacked the other way round; the fused
forward cell's H taken as G // 3 (LayerNorm's 1/H of c_t wrong); the LN statistics of h and c written without
LayerNorm (into the empty placeholders); the fused backward cell's H in the working dtype passed as G (LayerNorm's
backward of c_t wrong); the forward's U read from chars' row count (phi one column per batch row); the inference
path writing y_t into slot t % 2 (later steps of y never written, the next step reading them); the inference
slots chosen for keep=True and every step kept for keep=False; the backward's window reading kappa_{t-1} for
step t; dL/d(X_t Wx) and dL/d(h_{t-1} Wh) swapped in the products after the loop (the same array without a norm,
not with LayerNorm); LayerNorm's dgc summed as dbc (SUM for SUM_PROD); a layer without LayerNorm returning its
zero dgc with G entries instead of H; the saved hhat and chat swapped.

14 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on
their own (the old files taken off the lists: 14 of 14): test_values346_window_cuda (the CUDA twin under the
simulator against the CPU twin lnrnn/kernels/window.py in float64 to 1e-12 of its magnitude, shapes included, at
B 3, K 2, U 5, H 5, C 4, T 4 with texts of 5, 1 and 0 characters and rows of 4, 2 and 3 steps in one batch, row
kernels of 4 threads and tiles of 3, LayerNorm on and off: the forward outputs, the saved c and kappa of every step
and every gradient; phi past each text exactly 0, w of the empty text 0; the LSTM state, kappa and w carried from
a 1-step call with keep=True into a 3-step call with keep=False equal to the CPU twin's single 4-step call).

Left out as equivalent: the LN rstd_x written by thread 1 instead of 0 (every thread of the block holds the same
row statistics); the fused backward cell's dh_t and dh_next swapped in bwd_row's call (bwd_row only adds the two);
the backward's s1 and s2 started from s0 (zero all three, as round 318 notes); _prev_tn's N > B made N >= B (the
extra product at T = 1 adds an empty sum); the forward's U and the backward's K recomputed in window_lstm_forward
and window_lstm_backward (read only on the graph path, which the simulator never takes); the dbp column sum given
the H-column scratch (one part at T*B = 12 rows: no scratch is read). Left out as not deterministic: the backward's
zeroing of dkappa or dw_next dropped from fill_zeros (the unwritten carry holds leftover memory). Left out as out of
reach of the simulator: the graph path's plans (_ForwardPlan, _BackwardPlan and their loads), which need PyTorch's
cuBLAS and CUDA graphs. The NORM_BN step kernels are mutated by earlier rounds and are not this round's focus.

    python tests/mutants/run.py --only 'v346-*'
"""
WCU = "lnrnn/kernels/window_cuda.py"

T_NEW = "tests/kernels/test_values346_window_cuda.py::"
OLD = ["tests/kernels/test_window_cuda.py", "tests/kernels/test_values152_window_cuda.py",
       "tests/kernels/test_values318_window_cuda.py", "tests/kernels/test_values60_window_cuda.py"]

TWIN = [T_NEW + f"test_forward_and_every_gradient_equal_the_cpu_twin[{n}]" for n in ("none", "ln")]
CHUNKS = [T_NEW + f"test_state_carried_over_two_chunks_equals_one_call[{n}]" for n in ("none", "ln")]
LN = [TWIN[1], CHUNKS[1]]

MUTANTS = [
    dict(name="v346-wcu-row-outputs-phi-and-w-swapped", file=WCU,
         old="    abk, kappa, phi, w = out\n",
         new="    abk, kappa, w, phi = out\n",
         tests=TWIN + CHUNKS + OLD,
         why="window_row writes phi into w's row and gathers w into phi's: with U = 5 and C = 4 phi loses its last "
             "position and w gets a fifth class"),
    dict(name="v346-wcu-row-thread-index-from-block", file=WCU,
         old="    abk, kappa, phi, w = out\n    tid = cuda.threadIdx.x\n",
         new="    abk, kappa, phi, w = out\n    tid = cuda.blockIdx.x\n",
         tests=TWIN + CHUNKS + OLD,
         why="every thread of block bb starts at entry bb: rows past the first leave their first p_t entries, "
             "kappas, positions and classes unwritten"),
    dict(name="v346-wcu-bwd-saved-abk-kappa-swapped", file=WCU,
         old="    abk, kappa = sv\n",
         new="    kappa, abk = sv\n",
         tests=TWIN + OLD,
         why="the window backward reads exp(p_t) as kappa and kappa as exp(p_t): K becomes 3K and the sums run "
             "over the wrong numbers"),
    dict(name="v346-wcu-fwd-cell-h-is-g-over-3", file=WCU,
         old="        G = hw.shape[1]\n        H = G // 4\n",
         new="        G = hw.shape[1]\n        H = G // 3\n",
         tests=LN + OLD,
         why="the fused forward's 1/H of LayerNorm over c_t is 1/6 at H = 5: the cell's mean and variance wrong"),
    dict(name="v346-wcu-fwd-rstd-written-without-ln", file=WCU,
         old="        if ln and tid == 0:\n            rstd_h_t[bb] = r_h",
         new="        if tid == 0:\n            rstd_h_t[bb] = r_h",
         tests=[TWIN[0], CHUNKS[0]] + OLD,
         why="without LayerNorm the h and c statistics are written into the empty placeholders (out of bounds)"),
    dict(name="v346-wcu-bwd-cell-h-passed-as-g", file=WCU,
         old="                dt(G // 4), one / dt(G),",
         new="                dt(G), one / dt(G),",
         tests=[TWIN[1]] + OLD,
         why="bwd_row's H in the working dtype is G: LayerNorm's backward over c_t averages over 4H entries"),
    dict(name="v346-wcu-fwd-arrays-u-from-rows", file=WCU,
         old="a.w0.shape[1], a.chars.shape[1]\n    G = 4 * H\n    dt = a.x.dtype\n",
         new="a.w0.shape[1], a.chars.shape[0]\n    G = 4 * H\n    dt = a.x.dtype\n",
         tests=TWIN + CHUNKS + OLD,
         why="phi gets B = 3 columns for U = 5 positions: the text's last positions have no phi to gather"),
    dict(name="v346-wcu-fwd-y-into-slot", file=WCU,
         old="out = (a.gates[k], a.c[k], a.tc[k], a.y[t], a.hhat[k], a.chat[k])",
         new="out = (a.gates[k], a.c[k], a.tc[k], a.y[k], a.hhat[k], a.chat[k])",
         tests=CHUNKS + OLD,
         why="inference (2 slots): h_t lands in y[t % 2], so y of steps 2.. is never written and step 3 reads an "
             "unwritten y_2 as h_{t-1}"),
    dict(name="v346-wcu-keep-slots-inverted", file=WCU,
         old="    S = T if keep else min(T, 2)",
         new="    S = T if not keep else min(T, 2)",
         tests=TWIN + OLD,
         why="keep=True saves only two slots of gates, c, kappa: the backward of 4 steps reads slots it lacks"),
    dict(name="v346-wcu-bwd-window-kappa-of-step-before", file=WCU,
         old="(a.dkappa, a.abk[t], a.kappa[t], a.chars, a.ulen, a.WpT), a.dh_t, a.DP[t],",
         new="(a.dkappa, a.abk[t], a.kappa[t - 1], a.chars, a.ulen, a.WpT), a.dh_t, a.DP[t],",
         tests=TWIN + OLD,
         why="the window's backward at step t measures distances from kappa_{t-1} (step 0 from the last step's)"),
    dict(name="v346-wcu-bwd-products-dxw-dhw-swapped", file=WCU,
         old="projection_into(gemm, v.x2, v.dXW2, v.dHW2, v.h0,",
         new="projection_into(gemm, v.x2, v.dHW2, v.dXW2, v.h0,",
         tests=[TWIN[1]] + OLD,
         why="dx, dWx and dWh take dL/d(h_{t-1} Wh) for dL/d(X_t Wx) and back: one array without a norm, two "
             "different ones through LayerNorm"),
    dict(name="v346-wcu-bwd-dgc-summed-like-dbc", file=WCU,
         old="colsum_launch(a.DCN2, rows2d(a.chat), d1, d1, SUM_PROD, a.dgc, ph, stream)",
         new="colsum_launch(a.DCN2, rows2d(a.chat), d1, d1, SUM, a.dgc, ph, stream)",
         tests=[TWIN[1]] + OLD,
         why="LayerNorm's dgc is the column sum of dL/d(gc chat + bc) without the chat factor: dgc equals dbc"),
    dict(name="v346-wcu-zero-dgc-of-g-entries", file=WCU,
         old="zeros(G, dt), zeros(G, dt), zeros(H, dt), zeros(H, dt))",
         new="zeros(G, dt), zeros(G, dt), zeros(G, dt), zeros(H, dt))",
         tests=[TWIN[0]] + OLD,
         why="without LayerNorm the returned zero dgc has G entries, not gc's H"),
    dict(name="v346-wcu-saved-hhat-chat-swapped", file=WCU,
         old="+ ((take(a.hhat), take(a.chat)) if ln else (none3, none3))",
         new="+ ((take(a.chat), take(a.hhat)) if ln else (none3, none3))",
         tests=[TWIN[1]] + OLD,
         why="saved slots 12 and 13 swapped: the LayerNorm backward reads chat as hhat and hhat as chat"),
]
