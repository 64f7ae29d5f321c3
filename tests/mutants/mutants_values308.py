"""Planted bugs, round 308 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the sampler (lnrnn/sample.py) and the synthesis window layer (lnrnn/model/window.py), seventeenth
pass: the progress bar not filled at the step the last row stops early; a Written's prime_chars defaulting to 1
(the first character greyed as the prime's though there is none); a prime's text no longer checked against
the alphabet; float codes cast to int64 instead of refused; the window layer's forward returning only (h, c),
so kappa and w start again from zero in the next chunk; the stack's layer-1 state cut to (h, c) likewise;
float text lengths cast instead of refused; a one-layer stack's zero dL/dw sized by K instead of C; dkappa0 and
dw0 swapped in the window layer's dstate0; the stack's clip_gates not passed on to its layers; the refusal of
a state of the wrong size counting the batch rows instead of the arrays; the window layer's dw checked against
(T,B,K) instead of (T,B,C).

12 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant
on their own (checked with the old files taken off the lists): test_values308_sampler (a synthesis network
whose window ignores h, Wp = 0, one component with kappa walking 0.4 a step: phi(t, u) = exp(-(0.4 (t+1) -
u)^2) written out in the test, rows of 1, 2 and 3 characters in one batch stopping after 4, 7 and 9 points,
a cap of 9 met exactly with no row capped and a cap of 8 capping the longest only, the progress bar's updates
3 a step then 3 x 12 at the stop, the points under bias 0.7 against test_values52's draws by hand from the
seeded generator, the pen by its Bernoulli probability; float codes and a prime's unknown character refused
word for word; a Written without a prime greys no attention label), test_values308_window (lnrnn/reference.py's
window_lstm_forward over 7 steps against the stack run whole and in chunks of 3 and 4 with its states
carried, text lengths 0, 1 and 4 in one batch; a one-layer stack's backward from a carried state (kappa0, w0
not zero) with the gate clip at 0.05 against window_lstm_backward with the same clip: dx, every gradient and
dstate0; a 3-array state and float lengths refused word for word).

Left out as equivalent: the sampler's out and phis arrays made np.empty or of the model's dtype (every kept
entry is written each step; phi comes from the kernel in the model's dtype already); _codes returning int32
(concatenated with the int64 prime codes, and the window casts to int64); check_text returning int32 lengths
(the kernels take them as they are); 'if prime_strokes is not None' made 'if prime_text is not None' in
text_inputs (check_prime_pair has refused half a pair before); 'if len(state) == 2' made '!= 4' (3 arrays are
refused before); the step's phi taken at phi[-1] instead of phi[0] (one step, T = 1); the forward's and the
backward's on_device tests inverted (to_host is the identity on the CPU); _norm_params's gc/bc defaults (the
cells without a c norm never read them). Left out as CUDA only: the device views' BatchNorm rows, the host
crossings count, the phi copy from the device.

    python tests/mutants/run.py --only 'v308-*'
"""
SAMPLE = "lnrnn/sample.py"
WINDOW = "lnrnn/model/window.py"

T_S = "tests/commands/test_values308_sampler.py::"
T_W = "tests/model/test_values308_window.py::"
OLD_S = ["tests/commands/test_values_sampler_rule.py", "tests/commands/test_values52_sampler.py",
         "tests/test_values238_sampler.py", "tests/model/test_values272_sampler_window.py"]
OLD_W = ["tests/model/test_synthesis.py", "tests/model/test_values226_window_model.py"]

S_STOP = T_S + "test_each_row_stops_at_the_first_step_past_its_last_character_and_the_bar_fills_then"
W_CHUNKS = T_W + "test_chunks_carry_kappa_and_w_and_equal_the_spec_over_lengths_0_1_and_U"
W_BACK = T_W + "test_one_layer_backward_from_a_carried_state_with_the_gate_clip_equals_the_spec"
W_REFUSE = T_W + "test_a_state_of_three_arrays_and_float_lengths_are_refused_word_for_word"

MUTANTS = [
    # ---- the sampler: lnrnn/sample.py ----
    dict(name="v308-sample-bar-not-filled-at-early-stop", file=SAMPLE,
         old="        if progress is not None:\n            progress.update(count if running.any()",
         new="        if progress is not None and running.any():\n            progress.update(count if running.any()",
         tests=[S_STOP] + OLD_S,
         why="the step at which the last row stops updates nothing: the bar ends short of steps * count"),
    dict(name="v308-sample-written-prime-chars-default-one", file=SAMPLE,
         old="    prime_chars: int = 0",
         new="    prime_chars: int = 1",
         tests=[T_S + "test_a_written_row_built_without_a_prime_greys_no_character"] + OLD_S,
         why="a Written built without a prime counts one prime character: its first attention label is greyed"),
    dict(name="v308-sample-prime-text-not-checked", file=SAMPLE,
         old="    for what, s in given:",
         new="    for what, s in given[:len(lines)]:",
         tests=[T_S + "test_a_prime_text_with_a_character_the_run_never_used_is_refused_by_name"] + OLD_S,
         why="a prime's text is never checked: a character the run never used is written as code 0, unrefused"),
    dict(name="v308-sample-float-codes-cast", file=SAMPLE,
         old="    c = np.asarray(c)\n",
         new="    c = np.asarray(c, np.int64)\n",
         tests=[T_S + "test_codes_that_are_floats_are_refused_word_for_word"] + OLD_S,
         why="float codes are truncated to integers instead of refused"),
    # ---- the window layer and stack: lnrnn/model/window.py ----
    dict(name="v308-window-forward-returns-h-c-only", file=WINDOW,
         old="        return fetch(y), fetch(w), tuple(fetch(s) for s in out)",
         new="        return fetch(y), fetch(w), tuple(fetch(s) for s in out[:2])",
         tests=[W_CHUNKS, S_STOP] + OLD_W,
         why="the window layer's final state drops kappa and w: the next chunk's window starts again at zero"),
    dict(name="v308-window-stack-state-cut-to-h-c", file=WINDOW,
         old="        hs, states = [h], [s1]",
         new="        hs, states = [h], [s1[:2]]",
         tests=[W_CHUNKS, S_STOP] + OLD_W,
         why="the stack's layer-1 state is (h, c) only: kappa is not carried across calls or chunks"),
    dict(name="v308-window-float-lengths-cast", file=WINDOW,
         old="    ulen = np.asarray(ulen)\n",
         new="    ulen = np.asarray(ulen, np.int64)\n",
         tests=[W_REFUSE] + OLD_W,
         why="float text lengths are truncated to integers instead of refused"),
    dict(name="v308-window-one-layer-dw-sized-by-k", file=WINDOW,
         old="            dw = k.zeros(dy.shape[:2] + (self.C,), dy.dtype)",
         new="            dw = k.zeros(dy.shape[:2] + (self.K,), dy.dtype)",
         tests=[W_BACK] + OLD_W,
         why="a one-layer synthesis stack's zero dL/dw has K columns, not C: its backward fails"),
    dict(name="v308-window-dkappa0-dw0-swapped", file=WINDOW,
         old="        dx, dh0, dc0, dk0, dw0, *dp = k.window_lstm_backward(",
         new="        dx, dh0, dc0, dw0, dk0, *dp = k.window_lstm_backward(",
         tests=[W_BACK] + OLD_W,
         why="dstate0 gives dL/dw0 as dL/dkappa0 and the reverse"),
    dict(name="v308-window-stack-clip-not-passed", file=WINDOW,
         old="skip=True, recurrent_init=recurrent_init, clip_gates=clip_gates, bidirectional=False)",
         new="skip=True, recurrent_init=recurrent_init, clip_gates=0.0, bidirectional=False)",
         tests=[W_BACK] + OLD_W,
         why="the synthesis stack's clip_gates is not passed on: its layers' gate derivatives go unclipped"),
    dict(name="v308-window-state-count-names-rows", file=WINDOW,
         old='raise ValueError(f"the window layer\'s state is (h, c) or (h, c, kappa, w), got {len(state)} "',
         new='raise ValueError(f"the window layer\'s state is (h, c) or (h, c, kappa, w), got {len(state[0])} "',
         tests=[W_REFUSE] + OLD_W,
         why="a state of the wrong size is refused counting the batch rows of h0 instead of the arrays"),
    dict(name="v308-window-dw-checked-against-k", file=WINDOW,
         old='dw = _check_array("dw", dw, 3, self.dtype, (T, B, self.C), device_ok=True)',
         new='dw = _check_array("dw", dw, 3, self.dtype, (T, B, self.K), device_ok=True)',
         tests=[W_BACK] + OLD_W,
         why="the window layer checks dL/dw against (T,B,K): every backward with K != C is refused"),
]
