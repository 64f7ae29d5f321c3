"""Planted bugs, round 347 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the cell registry's adapters and lookup (lnrnn/model/cells.py) and the thread helpers
(lnrnn/kernels/cpu/threads.py), eighteenth pass: the plain/LN LSTM forward reading the state as (c0, h0); the LN
flag of the LSTM forward set by norm 'bn' (the LN-LSTM runs unnormalized); the plain/LN LSTM backward handing
back (dc0, dh0); the LN flag of the RNN forward set by norm 'bn'; the RNN forward returning h0 as its final
state; the BN-LSTM forward reading (c0, h0); the BN-LSTM backward handing back (dc0, dh0); the RNN running its
infer kernel when a backward follows; lookup checking the norm against the cell kinds; the default recurrent
initialization the identity (and 'identity' the orthogonal draw); the default block rows halved; run_synced
running two parts as one; run_synced returning before its last part has finished; readonly handing back the
writable array itself.

14 mutants. Against the old targeted files alone (each mutant's v347 files taken off its list): 12 of 14 caught;
missed: the RNN forward handing back h0 as its final state (with a backward to follow), the default block rows
halved. The new value tests catch every mutant on their own (checked with the old files taken off the lists):
test_values347_cells (plain and LN cells stepped one time step per call, with and without a backward to follow,
against lnrnn/reference.py's whole-sequence run in float64, step by step and in the final state; every gradient of a
one- and two-step call, dh0 and dc0 with unlike seeds dL/dh_n and dL/dc_n, against central differences; the
BN-LSTM's outputs and dh0, dc0 against the spec with c0 far from h0; lookup of all six pairs (its refusals:
test_values169_cells); each recurrent block Q^T Q = I and not the identity by default, the identity when asked),
test_values347_threads (batch_blocks at B 1..1000 against the definition enumerated over powers of two at
config.BLOCK_ROWS; chunk_bounds against floor(k n / c) at n 1, 2, 3, 7, 33, 129; run_synced with 1, 2, 3 parts of a
column-centring over a threading.Barrier stand-in, equal to NumPy's and to one part, each part called once with (q,
n), the last part writing 0.3 s late; readonly's views read-only, sharing memory, the caller's array left writable,
an already read-only array passed through). Left out as equivalent: run_synced's n == 1 call part(0, 1, ...) made
part(0, n, ...) (n is 1 there); the thread pool's size test (_pool["size"] < nthr - 1 made <=, or a pool of nthr
workers: chunks queue on fewer threads and results are per chunk, not per thread); the RNN adapter's ln flag made
f.norm != "none" (only the plain and LN rows use that adapter); Cell.kernels' device == "cuda" made device != "cpu"
(the layers pass 'cpu' or 'cuda' only). Left out as hangs rather than values: the barrier's spin condition (< made
<=, its own flag stored as generation - 1, the abort test inverted) and run_synced's hand-out loop from part 2
(every part then waits forever: barrier is compiled without nogil, so no cheap test can time it out in-process).
Left out as already caught crashes with nothing to compare: the LSTM forward's infer and forward calls swapped
(unpacking fails at once).

    python tests/mutants/run.py --only 'v347-*'
"""
CELLS = "lnrnn/model/cells.py"
THREADS = "lnrnn/kernels/cpu/threads.py"

T_CELLS = "tests/model/test_values347_cells.py::"
T_THREADS = "tests/kernels/test_values347_threads.py::"
OLD_CELLS = ["tests/model/test_values282_cells.py", "tests/model/test_values313_cells.py",
             "tests/model/test_values204_cells.py"]
OLD_THREADS = ["tests/kernels/test_values178_threads.py", "tests/kernels/test_values205_threads.py"]

CHAIN = T_CELLS + "test_steps_one_at_a_time_chain_to_the_spec_run"
GRADS = T_CELLS + "test_every_gradient_of_a_short_call_against_central_differences"
BN_LSTM = T_CELLS + "test_bn_lstm_h0_and_c0_and_their_gradients_against_the_spec"
SYNCED = T_THREADS + "test_run_synced_parts_at_a_stand_in_barrier_equal_one_part"

MUTANTS = [
    # ---- the cell registry: lnrnn/model/cells.py ----
    dict(name="v347-cells-lstm-forward-state-swapped", file=CELLS,
         old="def _lstm_forward(kern, f, x, state, p, bufs, training, nch, lengths, keep):\n    h0, c0 = state\n",
         new="def _lstm_forward(kern, f, x, state, p, bufs, training, nch, lengths, keep):\n    c0, h0 = state\n",
         tests=[CHAIN + "[lstm-True]", CHAIN + "[ln-lstm-False]"] + OLD_CELLS,
         why="the plain and LN LSTM read their state as (c0, h0): every step starts from the wrong h and c"),
    dict(name="v347-cells-lstm-ln-flag-from-bn", file=CELLS,
         old='    ln = f.norm == "ln"\n    gx, bx, gh, bh =',
         new='    ln = f.norm == "bn"\n    gx, bx, gh, bh =',
         tests=[CHAIN + "[ln-lstm-True]", CHAIN + "[ln-lstm-False]"] + OLD_CELLS,
         why="the LN-LSTM forward runs with unit gains, zero biases and no normalization"),
    dict(name="v347-cells-lstm-backward-dstate-swapped", file=CELLS,
         old="dcT=dc_n)\n    return dx, (dh0, dc0), dp",
         new="dcT=dc_n)\n    return dx, (dc0, dh0), dp",
         tests=[GRADS + "[lstm-1]", GRADS + "[ln-lstm-2]"] + OLD_CELLS,
         why="the plain and LN LSTM backward hand dL/dc0 back as dL/dh0 and the other way round"),
    dict(name="v347-cells-rnn-ln-flag-from-bn", file=CELLS,
         old='    ln = f.norm == "ln"\n    args = (x, h0, p["Wx"]',
         new='    ln = f.norm == "bn"\n    args = (x, h0, p["Wx"]',
         tests=[CHAIN + "[ln-rnn-True]", CHAIN + "[ln-rnn-False]"] + OLD_CELLS,
         why="the LN-RNN forward runs with a unit gain and no normalization"),
    dict(name="v347-cells-rnn-final-state-is-h0", file=CELLS,
         old="    y, hT, saved = kern.forward(*args)\n    return y, (hT,), saved, (y,)",
         new="    y, hT, saved = kern.forward(*args)\n    return y, (h0,), saved, (y,)",
         tests=[CHAIN + "[rnn-True]", CHAIN + "[ln-rnn-True]"] + OLD_CELLS,
         why="the RNN forward (a backward to follow) hands back h0 as its final state: chained calls restart"),
    dict(name="v347-cells-bn-lstm-forward-state-swapped", file=CELLS,
         old="    h0, c0 = state\n    b = bufs\n    y, hT, cT, saved",
         new="    c0, h0 = state\n    b = bufs\n    y, hT, cT, saved",
         tests=[BN_LSTM] + OLD_CELLS,
         why="the BN-LSTM reads its state as (c0, h0)"),
    dict(name="v347-cells-bn-lstm-backward-dstate-swapped", file=CELLS,
         old="clip=f.clip_gates)\n    return dx, (dh0, dc0), dp",
         new="clip=f.clip_gates)\n    return dx, (dc0, dh0), dp",
         tests=[BN_LSTM] + OLD_CELLS,
         why="the BN-LSTM backward hands dL/dc0 back as dL/dh0 and the other way round"),
    dict(name="v347-cells-rnn-infer-when-kept", file=CELLS,
         old="    if not keep:\n        y, hT = kern.infer(*args)",
         new="    if keep:\n        y, hT = kern.infer(*args)",
         tests=[GRADS + "[rnn-1]", GRADS + "[ln-rnn-2]"] + OLD_CELLS,
         why="the RNN runs its infer kernel (no saved arrays) exactly when a backward follows"),
    dict(name="v347-cells-lookup-norm-against-kinds", file=CELLS,
         old="    if norm not in NORMS:",
         new="    if norm not in KINDS:",
         tests=[T_CELLS + "test_lookup_of_every_pair"] + OLD_CELLS,
         why="lookup checks the norm against the cell kinds: every real norm is refused"),
    dict(name="v347-cells-identity-init-inverted", file=CELLS,
         old='        if recurrent_init == "identity":',
         new='        if recurrent_init != "identity":',
         tests=[T_CELLS + "test_default_recurrent_blocks_are_orthogonal_and_identity_only_when_asked"] + OLD_CELLS,
         why="the default recurrent blocks are identities, and recurrent_init='identity' gives the orthogonal draw"),
    # ---- the thread helpers: lnrnn/kernels/cpu/threads.py ----
    dict(name="v347-threads-default-block-rows-halved", file=THREADS,
         old='_BLOCKS = {"rows": BLOCK_ROWS}',
         new='_BLOCKS = {"rows": BLOCK_ROWS // 2}',
         tests=[T_THREADS + "test_batch_blocks_at_the_configured_rows_by_enumeration"] + OLD_THREADS,
         why="batches split into blocks of at least half config.BLOCK_ROWS rows: B = 129 into 8 blocks, not 4"),
    dict(name="v347-threads-run-synced-two-parts-as-one", file=THREADS,
         old="    if n == 1:\n        part(0, 1, flags, *args)",
         new="    if n <= 2:\n        part(0, 1, flags, *args)",
         tests=[SYNCED + "[2-3]", SYNCED + "[2-7]"] + OLD_THREADS,
         why="run_synced asked for two parts runs one on the calling thread: the split is never made"),
    dict(name="v347-threads-run-synced-waits-one-part-less", file=THREADS,
         old="        for _ in range(1, n):\n            done.get()",
         new="        for _ in range(2, n):\n            done.get()",
         tests=[SYNCED + "[2-7]", SYNCED + "[3-7]"] + OLD_THREADS,
         why="run_synced returns once all but one part have finished: the slowest part's rows are still unwritten"),
    dict(name="v347-threads-readonly-returns-the-array", file=THREADS,
         old="            v.flags.writeable = False\n            return v",
         new="            v.flags.writeable = False\n            return a",
         tests=[T_THREADS + "test_readonly_views_share_memory_and_leave_the_caller_writable"] + OLD_THREADS,
         why="readonly hands back the caller's writable array: compiled loops meet writable and read-only types"),
]
