"""Planted bugs, round 292 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the synthesis sampler (lnrnn/sample.py), the window stack (lnrnn/model/window.py) and the heads
(lnrnn/model/heads.py): MDNHead.sample dropping the sampling bias (pi and sigma drawn at bias 0 whatever is
asked); a head's weights drawn from default_rng(seed), the stream the stack also starts from, instead of its
own [seed, 7]; the mixture head ignoring its seed; the window stack's y joined in reverse layer order; its
layers above the window reading the state entry of the layer below (start=0: layer 2 is handed the window
layer's four arrays and refuses them); the window layer's default
cell state ones instead of zeros; forget_bias and eps not passed on to the stack's layers; crossings counted
on the CPU (an inverted device check); an inference forward kept for a backward (keep=True, training=False)
keeping nothing; a text line that is not a str refused with its class's repr instead of its name; a stray
character's line quoted cut to 80 characters instead of 60.

12 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on
their own (checked with the old files taken off the lists): test_values292_window (the stack's forward over
given states of three layers against the window layer and the two layers above run by hand over
[x | h below | w], y = [h1 | h2 | h3]; no state against explicit zeros of h, c, kappa and w; forget_bias 0 and
2.5 in every layer's forget block b[H:2H] and eps 0.25 in every layer; no crossings on the CPU; dL/dx of a kept
inference forward against central finite differences), test_values292_heads (MDNHead.sample at bias 0 and
1.5 against the mixture drawn by hand with Graves's formulas, test_values52_sampler.draw; W against
default_rng([seed, 7]) uniform in +-1/sqrt(H) for seeds 0 and 3), test_values292_sample_text (text_inputs'
refusals word for word: bytes, int and tuple lines and a list prime_text by type name; a 74-character line
with stray characters quoted as repr's first 38 and last 19 around an ellipsis, a repr of exactly 60 quoted
whole). Left out as equivalent: WindowStack.step's phi[0] made phi[-1] and y[0] made y[-1] (a step's
forward has one time step); the sampler's phis buffer made np.ones (every kept step's row is written before
it is read, and rows are cut at their kept count); fetch's identity made k.to_host on the CPU (to_host is the
identity there). Left out as cuda-only: the device-buffer rows of t0 (bufs on the device views), untestable on
the CPU host at no cost. The sampler's stop rule, priming and seeds (past_the_end, the teacher-forced prime
loop, _start) are mutated by earlier rounds: every line of them is taken.

    python tests/mutants/run.py --only 'v292-*'
"""
SAMPLE = "lnrnn/sample.py"
WINDOW = "lnrnn/model/window.py"
HEADS = "lnrnn/model/heads.py"

T_WINDOW = "tests/model/test_values292_window.py::"
T_HEADS = "tests/model/test_values292_heads.py::"
T_TEXT = "tests/commands/test_values292_sample_text.py::"
OLD_WINDOW = ["tests/model/test_values256_window.py", "tests/model/test_values238_window_model.py"]
OLD_HEADS = ["tests/model/test_values256_heads.py", "tests/commands/test_values52_sampler.py"]
OLD_SAMPLE = ["tests/commands/test_values52_sampler.py", "tests/test_values238_sampler.py",
              "tests/model/test_values272_sampler_window.py"]

MUTANTS = [
    # ---- the heads: lnrnn/model/heads.py ----
    dict(name="v292-heads-sample-drops-bias", file=HEADS,
         old="        return mdn_sample(out, self.M, rng, bias)",
         new="        return mdn_sample(out, self.M, rng)",
         tests=[T_HEADS + "test_sample_is_the_mixture_drawn_by_hand_with_the_bias"] + OLD_HEADS,
         why="the sampling bias never reaches the mixture: pi and sigma are drawn as trained at any bias"),
    dict(name="v292-heads-weights-from-the-stacks-stream", file=HEADS,
         old="        rng = np.random.default_rng([seed, 7])  # a stream of its own, apart from the stack's",
         new="        rng = np.random.default_rng(seed)  # a stream of its own, apart from the stack's",
         tests=[T_HEADS + "test_a_heads_weights_come_from_a_stream_of_its_own"] + OLD_HEADS,
         why="a head's W is drawn from default_rng(seed), the stream the stack's layers start from"),
    dict(name="v292-heads-mdn-seed-dropped", file=HEADS,
         old="        super().__init__(hidden_size, K, True, dtype, seed)",
         new="        super().__init__(hidden_size, K, True, dtype)",
         tests=[T_HEADS + "test_a_heads_weights_come_from_a_stream_of_its_own"] + OLD_HEADS,
         why="the mixture head ignores its seed: every seed gives seed 0's weights"),
    # ---- the window stack: lnrnn/model/window.py ----
    dict(name="v292-window-y-layers-reversed", file=WINDOW,
         old="        y = k.join_columns(hs)    ",
         new="        y = k.join_columns(hs[::-1])    ",
         tests=[T_WINDOW + "test_forward_over_given_states_is_its_layers_composed_by_hand"] + OLD_WINDOW,
         why="y is [hL | ... | h1]: the head reads the top layer's output where the window layer's belongs"),
    dict(name="v292-window-layer-state-off-by-one", file=WINDOW,
         old="        for j, layer in enumerate(self.layers[1:], start=1):",
         new="        for j, layer in enumerate(self.layers[1:], start=0):",
         tests=[T_WINDOW + "test_forward_over_given_states_is_its_layers_composed_by_hand"] + OLD_WINDOW,
         why="each layer above the window is given the state entry of the layer below it"),
    dict(name="v292-window-default-cell-state-ones", file=WINDOW,
         old="            state = (np.zeros((B, H), dt), np.zeros((B, H), dt))",
         new="            state = (np.zeros((B, H), dt), np.ones((B, H), dt))",
         tests=[T_WINDOW + "test_no_state_is_the_zero_state_of_every_layer"] + OLD_WINDOW,
         why="the window layer's default state has its cell at ones, not the zero state"),
    dict(name="v292-window-forget-bias-not-passed", file=WINDOW,
         old="                         forget_bias=forget_bias, max_steps=max_steps, eps=eps, momentum=momentum, "
             "device=device,",
         new="                         max_steps=max_steps, eps=eps, momentum=momentum, device=device,",
         tests=[T_WINDOW + "test_forget_bias_and_eps_reach_every_layer"] + OLD_WINDOW,
         why="the synthesis network's forget_bias is dropped: every layer starts at the default 1.0"),
    dict(name="v292-window-eps-not-passed", file=WINDOW,
         old="                         forget_bias=forget_bias, max_steps=max_steps, eps=eps, momentum=momentum, "
             "device=device,",
         new="                         forget_bias=forget_bias, max_steps=max_steps, momentum=momentum, "
             "device=device,",
         tests=[T_WINDOW + "test_forget_bias_and_eps_reach_every_layer"] + OLD_WINDOW,
         why="the synthesis network's eps is dropped: its layers normalize with the default"),
    dict(name="v292-window-crossings-counted-on-cpu", file=WINDOW,
         old='        if self.device == "cuda":',
         new='        if self.device != "cuda":',
         tests=[T_WINDOW + "test_an_inference_forward_kept_backs_up_to_finite_differences_and_crosses_nothing_"
                           "on_the_cpu"] + OLD_WINDOW,
         why="crossings are counted on the CPU, where nothing crosses, and never on 'cuda'"),
    dict(name="v292-window-kept-only-when-training", file=WINDOW,
         old="        self._saved = (x, state, saved, text_d, p, lengths) if keep else None",
         new="        self._saved = (x, state, saved, text_d, p, lengths) if training else None",
         tests=[T_WINDOW + "test_an_inference_forward_kept_backs_up_to_finite_differences_and_crosses_nothing_"
                           "on_the_cpu"] + OLD_WINDOW,
         why="an inference forward with keep=True keeps nothing: its backward is refused"),
    # ---- what a synthesis sample is given: lnrnn/sample.py ----
    dict(name="v292-sample-type-refusal-class-repr", file=SAMPLE,
         old="must be a str, not {type(s).__name__}.",
         new="must be a str, not {type(s)}.",
         tests=[T_TEXT + "test_a_line_not_a_str_is_refused_by_its_types_name",
                T_TEXT + "test_a_prime_text_not_a_str_is_refused_by_its_types_name"] + OLD_SAMPLE,
         why="a line that is not a str is refused naming \"<class 'bytes'>\" instead of bytes"),
    dict(name="v292-sample-stray-line-quoted-to-80", file=SAMPLE,
         old="shortened(s, 60)",
         new="shortened(s, 80)",
         tests=[T_TEXT + "test_a_long_line_with_a_stray_character_is_quoted_cut_to_60"] + OLD_SAMPLE,
         why="a line with stray characters is quoted up to 80 characters, past the 60 the refusal keeps to"),
]
