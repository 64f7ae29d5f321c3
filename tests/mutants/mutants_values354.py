"""Planted bugs, round 354 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates,
in the LSTM/LN-LSTM CUDA twin (lnrnn/kernels/lstm_cuda.py), eighteenth pass: the forward row's h-side gains read
from gx; the saved gates holding the preactivations; the saved c holding c_{t-1}; the saved tc holding c_t
instead of its tanh; the sequence kernel's y holding tanh of the cell (the next step's h still right); the
backward's LayerNorm sums reading gx for gh and hhat for xhat_x; the backward's c_{t-1} read from tc; the
backward's chat read from tc; the forget gate read from the input gate's column; the sequence backward's
dL/d(h_{t-1} Wh) carried on before its LayerNorm backward; the step backward's G taken from the batch axis; the
captured forward writing rstd_c into rstd_h's row and back; the captured backward with a dcT seed served by a
longer plan (exact not passed).

14 mutants. Against the old targeted files alone (each mutant's v354 files taken off its list): 13 of 14
caught; missed: the captured backward with a dcT seed served by a longer plan. The new value tests catch every mutant on
their own (checked with the old files taken off the lists): test_values354_lstm_cuda (the sequence kernels with
and without LayerNorm, training and lstm_infer, the per-step loop with LayerNorm over 1 and 3 steps, a fresh
captured plan with LayerNorm, all with a binding clip at 0.05, B 3, H 5 over blocks of 4, float64: y, hT, cT
against lnrnn/reference.py's spec, every saved array and all twelve gradients against the CPU twin to 1e-12;
the state carried over two chunks of 2 and 3 steps on captured plans, dh0 and dc0 of the later chunk passed on,
against the spec's and the CPU twin's single run over all 5 steps).
Left out as equivalent: the per-step and captured forward's y[k] = h made y[k] = tk (fwd_step passes y_t[bb] as
h_copy too, and h_copy[k] = h is written right after); `if k < H` made `k <= H` in the forward's first loop
(reads past the row's columns: an IndexError under the simulator, not a value, and out-of-bounds memory on a
GPU); lstm_backward's `elif not ln` xp placeholder made another empty shape (never read without LN);
lstm_forward's `seq = path == "seq"` made `path != "graph"` (the sequence kernels then serve the per-step
path's calls with equal values). Left out as flaky: the third LayerNorm loop's `tid + u * n < H` made `<= H`
(the extra slots of the thread's local arrays hold whatever the simulator's fresh arrays hold).

    python tests/mutants/run.py --only 'v354-*'
"""
LC = "lnrnn/kernels/lstm_cuda.py"

T_LC = "tests/kernels/test_values354_lstm_cuda.py::"
SEQ_LN = T_LC + "test_sequence_kernels_with_layernorm_training_and_evaluation"
SEQ_NONE = T_LC + "test_sequence_kernels_without_norm_training_and_evaluation"
STEP1 = T_LC + "test_per_step_loop_with_layernorm[1]"
STEP3 = T_LC + "test_per_step_loop_with_layernorm[3]"
GRAPH = T_LC + "test_fresh_graph_plan_with_layernorm"
CHUNKS = T_LC + "test_state_carried_over_two_chunks_on_captured_plans"
OLD = ["tests/kernels/test_values_lstm_cuda.py", "tests/kernels/test_values85_lstm_cuda.py",
       "tests/kernels/test_values174_lstm_cuda.py", "tests/kernels/test_values294_lstm_cuda.py",
       "tests/kernels/test_values306_lstm_cuda.py", "tests/kernels/test_values328_lstm_cuda.py"]

MUTANTS = [
    dict(name="v354-lstm-cuda-fwd-gh-read-from-gx", file=LC,
         old="                        g_h[4 * u + q] = gh[j]\n",
         new="                        g_h[4 * u + q] = gx[j]\n",
         tests=[SEQ_LN, STEP3, GRAPH, CHUNKS] + OLD,
         why="the LN-LSTM's normalized h_{t-1} Wh is scaled by the x-side gains"),
    dict(name="v354-lstm-cuda-fwd-saved-gates-are-preactivations", file=LC,
         old="                    gates[j] = g\n",
         new="                    gates[j] = a\n",
         tests=[SEQ_LN, SEQ_NONE, STEP3, GRAPH] + OLD,
         why="the saved gates hold the preactivations: the backward's gate derivatives go wrong"),
    dict(name="v354-lstm-cuda-fwd-saved-c-is-previous", file=LC,
         old="                c[k] = ck\n",
         new="                c[k] = cv[u]\n",
         tests=[SEQ_LN, SEQ_NONE, STEP3, GRAPH] + OLD,
         why="the saved cell (and the next step's c_{t-1}, and cT) is the previous step's"),
    dict(name="v354-lstm-cuda-fwd-saved-tc-untanhed", file=LC,
         old="                tc[k] = tk\n",
         new="                tc[k] = cv[u]\n",
         tests=[SEQ_LN, SEQ_NONE, STEP3, GRAPH] + OLD,
         why="the saved tanh of the cell output holds c_t itself: the output gate's gradient goes wrong"),
    dict(name="v354-lstm-cuda-seq-y-is-tanh-cell", file=LC,
         old="                y[k] = h\n",
         new="                y[k] = tk\n",
         tests=[SEQ_LN, SEQ_NONE] + OLD,
         why="the sequence kernel's outputs y are tanh of the cell, not o * tanh (the carried h stays right)"),
    dict(name="v354-lstm-cuda-bwd-gh-read-from-gx", file=LC,
         old="                        lnv[16 * u + q] = gh[j]\n",
         new="                        lnv[16 * u + q] = gx[j]\n",
         tests=[SEQ_LN, STEP3, GRAPH, CHUNKS] + OLD,
         why="the h-side LayerNorm backward uses the x-side gains"),
    dict(name="v354-lstm-cuda-bwd-xhat-read-from-hhat", file=LC,
         old="                        lnv[16 * u + 12 + q] = xp[j]\n",
         new="                        lnv[16 * u + 12 + q] = hhat[j]\n",
         tests=[SEQ_LN, STEP3, GRAPH, CHUNKS] + OLD,
         why="the x-side LayerNorm backward takes the normalized h_{t-1} Wh for xhat_x"),
    dict(name="v354-lstm-cuda-bwd-c-prev-from-tc", file=LC,
         old="                uv[5 * u + 3] = c_prev[k]\n",
         new="                uv[5 * u + 3] = tc[k]\n",
         tests=[SEQ_LN, SEQ_NONE, STEP3] + OLD,
         why="the forget gate's gradient takes tanh of the step's cell for c_{t-1}"),
    dict(name="v354-lstm-cuda-bwd-chat-from-tc", file=LC,
         old="                    ch = chat[k]\n",
         new="                    ch = tc[k]\n",
         tests=[SEQ_LN, STEP3, GRAPH] + OLD,
         why="the cell LayerNorm's backward takes tanh of the cell output for chat"),
    dict(name="v354-lstm-cuda-bwd-forget-from-input-gate", file=LC,
         old="                f = gv[4 * u + 1]\n",
         new="                f = gv[4 * u]\n",
         tests=[SEQ_LN, SEQ_NONE, STEP3] + OLD,
         why="the backward's forget gate is read from the input gate's column"),
    dict(name="v354-lstm-cuda-seq-bwd-dv-before-layernorm", file=LC,
         old="                        dv[j] = w\n",
         new="                        dv[j] = d\n",
         tests=[SEQ_LN] + OLD,
         why="the sequence backward carries dL/da, not dL/d(h_{t-1} Wh), into dh_{t-1}"),
    dict(name="v354-lstm-cuda-step-bwd-g-from-batch-axis", file=LC,
         old="        G = gates_t.shape[1]\n",
         new="        G = gates_t.shape[0]\n",
         tests=[STEP3, STEP1, GRAPH] + OLD,
         why="the step backward's H and 1/G come from the batch size: its LayerNorm means go wrong"),
    dict(name="v354-lstm-cuda-graph-fwd-rstd-rows-swapped", file=LC,
         old="self.rstd[1, t] if ln else d1, self.rstd[2, t] if ln else d1)",
         new="self.rstd[2, t] if ln else d1, self.rstd[1, t] if ln else d1)",
         tests=[GRAPH, CHUNKS] + OLD,
         why="the captured forward saves rstd of c_t as rstd of h Wh and back: the backward's norms go wrong"),
    dict(name="v354-lstm-cuda-graph-bwd-dct-not-exact", file=LC,
         old="lambda prov, S: _BackwardPlan(prov, S, B, H, I, dt, ln, clip), exact=dcT is not None)",
         new="lambda prov, S: _BackwardPlan(prov, S, B, H, I, dt, ln, clip))",
         tests=[CHUNKS] + OLD,
         why="a call seeded with dcT runs on a longer plan: its zero extra steps wipe the seed out"),
]
