"""Planted bugs, round 378 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the sampler (lnrnn/sample.py) and the synthesis window layer and stack (lnrnn/model/window.py),
twentieth pass: bad points in a stroke-3 file named by the option alone (not "the points of <option> <file>");
an .npz without a 'points' array escaping as a KeyError; text_inputs' test for a model without a window
inverted (a writer refused its lines, a free model asked for them); a single unknown character let through
(written as code 0); every pen path drawn with x and y swapped; y_down inverted (every picture upside down by
default); a written line drawn from the origin over its prime instead of from where the prime ends; layer 1's
dstate0 listed after layer 2's; y's columns ordered top layer first; step_phi read along the wrong axis (every
row given row 0's window); the window layer at LN whatever the stack's norm; window_norm checked against the
norm codes (ints) so that no name is accepted; the stack's forward defaulting to inference (a BatchNorm stack
at its running statistics); the window layer's gradients built from the LSTM's (no Wp or bp gradient: the window
never learns).

14 mutants. Against the old targeted files alone (each mutant's v378 files taken off its list): 9 of 14 caught;
missed: an .npz without 'points' escaping as a KeyError, step_phi along the wrong axis (no old window file reads
a step's phi), the window layer at LN by default, window_norm checked against the codes, and the stack's forward
defaulting to inference. The old targeted files are, for the sampler, test_values133_sampler,
test_values162_sampler, test_values198_sampler, test_values213_sampler, test_values226_sampler,
test_values238_sampler, test_values360_sampler and model/test_values337_sampler; for the window,
model/test_values_window, model/test_values308_window, model/test_values333_window_model and
model/test_values360_window. The new value tests catch every mutant on their own (checked with the old files
taken off the lists): test_values378_sampler (read_stroke3's reads and every refusal word for word, bad points
named as the points of the option and the file; text_inputs with stand-in models: nothing taken by a free model
and lines or a prime refused naming what to leave out, a writer's lines and prime encoded by hand, one and two
unknown characters, empty and non-str lines word for word; strokes_figure's and written_figure's pen paths by
hand, the grey prime and the ink from where it ends, titles, size, the y direction, the attention image and its
grey prime labels; three primed rows without an alphabet replayed through the reference's window) and
model/test_values378_window (a two-layer stack's y layer by layer against reference.window_lstm_forward and
lstm_forward, with window_norm None and 'none'; a BatchNorm stack's default forward against the references at
the batch's statistics, its running statistics moved as theirs and backward possible; two steps' step_phi and
step_end against the reference's phi and Graves's end weight row by row; a fresh two-layer backward against
central differences: dx, dstate0 in layer order, layer 1's Wp, bp, b and gc; the constructor's defaults; the
window layer's norm for every stack norm and window_norm; refusals word for word). Left out as equivalent:
_norm_params' defaults for gc and bc swapped (the plain LSTM's kernel never reads them and the LN and BN layers
have their own); WindowStack's is_device tests, forward_text's fetch and the uploads (identities on the CPU);
text_inputs testing prime_text in place of prime_strokes (check_prime_pair has already made them come
together); _codes' int64 (see round 360). Left out as crashes rather than values: the sizes unpacked in
another order (H, K, C), the saved text unpacked as (ulen, codes), layer 1 read as layers[-1].

    python tests/mutants/run.py --only 'v378-*'
"""
SAMPLE = "lnrnn/sample.py"
WINDOW = "lnrnn/model/window.py"

T_SAMPLE = "tests/test_values378_sampler.py::"
T_WINDOW = "tests/model/test_values378_window.py::"
OLD_SAMPLE = ["tests/test_values133_sampler.py", "tests/test_values162_sampler.py", "tests/test_values198_sampler.py",
              "tests/test_values213_sampler.py", "tests/test_values226_sampler.py", "tests/test_values238_sampler.py",
              "tests/test_values360_sampler.py", "tests/model/test_values337_sampler.py"]
OLD_WINDOW = ["tests/model/test_values_window.py", "tests/model/test_values308_window.py",
              "tests/model/test_values333_window_model.py", "tests/model/test_values360_window.py"]

STROKES = T_SAMPLE + "test_strokes_figure_draws_each_stroke_where_the_pen_went"
WRITTEN = T_SAMPLE + "test_written_figure_inks_the_line_from_where_the_grey_prime_ends"
LAYERS = T_WINDOW + "test_two_layer_forward_is_the_reference_layer_by_layer"
BACKWARD = T_WINDOW + "test_a_fresh_two_layer_backward_against_central_differences"
NORMS = T_WINDOW + "test_the_window_layer_takes_the_stacks_norm_unless_told"

MUTANTS = [
    # ---- what a text-writing sample is given: lnrnn/sample.py ----
    dict(name="v378-sample-bad-points-named-by-option", file=SAMPLE,
         old="    return check_stroke3(a, what)",
         new="    return check_stroke3(a, option)",
         tests=[T_SAMPLE + "test_bad_points_in_a_file_are_named_as_the_points_of_the_option_and_the_file"]
         + OLD_SAMPLE,
         why="bad points in a prime's file are refused as '--prime-strokes have pen values ...', the file unnamed"),
    dict(name="v378-sample-npz-without-points-escapes", file=SAMPLE,
         old="    except KeyError:",
         new="    except IndexError:",
         tests=[T_SAMPLE + "test_each_refusal_of_a_file_word_for_word"] + OLD_SAMPLE,
         why="an .npz without a 'points' array escapes as NumPy's KeyError with a traceback"),
    dict(name="v378-sample-free-model-test-inverted", file=SAMPLE,
         old="    if not model.conditioned:\n        if lines or prime_strokes",
         new="    if model.conditioned:\n        if lines or prime_strokes",
         tests=[T_SAMPLE + "test_a_model_without_a_window_takes_nothing_and_names_what_to_leave_out",
                T_SAMPLE + "test_a_writers_lines_and_prime_encoded_by_hand"] + OLD_SAMPLE,
         why="a writer is refused its lines as a model without a window, and a free model is asked for lines"),
    dict(name="v378-sample-one-unknown-character-passes", file=SAMPLE,
         old="        if unknown:",
         new="        if len(unknown) > 1:",
         tests=[T_SAMPLE + "test_unknown_characters_empty_and_non_str_lines_refused_word_for_word"] + OLD_SAMPLE,
         why="a line with one character outside the alphabet is written with code 0 in its place"),
    dict(name="v378-sample-ink-x-and-y-swapped", file=SAMPLE,
         old='ax.plot(p[:, 0], p[:, 1], "-"',
         new='ax.plot(p[:, 1], p[:, 0], "-"',
         tests=[STROKES, WRITTEN] + OLD_SAMPLE,
         why="every pen path is drawn mirrored about the diagonal (x plotted as y)"),
    dict(name="v378-sample-y-down-inverted", file=SAMPLE,
         old="    if y_down:",
         new="    if not y_down:",
         tests=[STROKES, WRITTEN] + OLD_SAMPLE,
         why="pictures are upside down by default, and right way up only with y_down"),
    dict(name="v378-sample-line-drawn-from-origin", file=SAMPLE,
         old="        _ink(ax, r.points, origin=origin)",
         new="        _ink(ax, r.points)",
         tests=[WRITTEN] + OLD_SAMPLE,
         why="a primed line is drawn from the origin over its prime instead of from where the prime ends"),
    # ---- the window layer and stack: lnrnn/model/window.py ----
    dict(name="v378-window-dstate0-layer-one-last", file=WINDOW,
         old="        dstate.append(ds)\n        dx = d1",
         new="        dstate.insert(0, ds)\n        dx = d1",
         tests=[BACKWARD] + OLD_WINDOW,
         why="dstate0 lists layer 1's (h, c, kappa, w) gradients after the layers above"),
    dict(name="v378-window-y-columns-top-first", file=WINDOW,
         old="            hs.append(h)",
         new="            hs.insert(0, h)",
         tests=[LAYERS] + OLD_WINDOW,
         why="y = [hL | ... | h1]: the head reads the layers' outputs in reverse order"),
    dict(name="v378-window-step-phi-wrong-axis", file=WINDOW,
         old="        self.step_phi = self.phi[0]",
         new="        self.step_phi = self.phi[:, 0]",
         tests=[T_WINDOW + "test_a_step_and_the_next_leave_each_rows_phi_and_end_weight"] + OLD_WINDOW,
         why="a step's phi is row 0's window (1,U), which the sampler spreads over every row"),
    dict(name="v378-window-norm-default-ln", file=WINDOW,
         old="clip_gates=0.0, window_norm=None):",
         new='clip_gates=0.0, window_norm="ln"):',
         tests=[NORMS] + OLD_WINDOW,
         why="the window layer is an LN layer under a plain or BatchNorm stack unless told otherwise"),
    dict(name="v378-window-norm-checked-against-codes", file=WINDOW,
         old="if window_norm not in (None,) + tuple(NORM_CODES):",
         new="if window_norm not in (None,) + tuple(NORM_CODES.values()):",
         tests=[NORMS, LAYERS] + OLD_WINDOW,
         why="window_norm is checked against the kernels' integer codes: 'none', 'ln' and 'bn' are all refused"),
    dict(name="v378-window-forward-defaults-to-inference", file=WINDOW,
         old="def forward(self, x, state=None, training=True, on_device=False",
         new="def forward(self, x, state=None, training=False, on_device=False",
         tests=[T_WINDOW + "test_a_batchnorm_stacks_default_forward_trains_on_the_batch_and_keeps_for_backward"]
         + OLD_WINDOW,
         why="a BatchNorm stack's forward without training= runs at its running statistics and never moves them"),
    dict(name="v378-window-grads-built-from-lstm-grads", file=WINDOW,
         old="        self.grads = {k: np.zeros_like(v) for k, v in self.params.items()}",
         new="        self.grads = {k: np.zeros_like(v) for k, v in self.grads.items()}",
         tests=[BACKWARD] + OLD_WINDOW,
         why="the window layer's gradients are the LSTM's alone: Wp and bp get none and the window never learns"),
]
