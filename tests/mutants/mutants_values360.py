"""Planted bugs, round 360 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the sampler (lnrnn/sample.py), the synthesis window layer and stack (lnrnn/model/window.py) and the
judge (lnrnn/judge.py), nineteenth pass: the written rows' phi kept in float32; the last written row dropped;
a stroke-3 array read as float32; a .npy of pickled objects escaping as NumPy's ValueError; layer 1 given
I + K input columns in place of I + C; every layer above the first reporting layer 1's final state; the
window's dw from the layers above dropped in a stack of more than one layer; the layers' dstate0 out of
order in a stack of three; no parameter gradient added on the host; the judge's replay dividing x by the y
scale and y by the x scale; the replay one step short; the replay's text cut to the line's own length (the
prime's characters left out of the count); the replay's kappa_T weighted by beta in place of alpha; a writer
tested in the reader's place, so that every judge is refused as a writer.

14 mutants. Against the old targeted files alone (each mutant's v360 files taken off its list): 9 of 14
caught; missed: the dstate0 of layers 2 and 3 swapped, and all four replay slips of the judge (the scales
swapped, one step short, the text cut to the line, kappa_T weighted by beta): no old judge file calls
replay_kappa. The old targeted files are, for the sampler,
test_values133_sampler, test_values162_sampler, test_values213_sampler, test_values226_sampler and
model/test_values337_sampler; for the window, model/test_values_window, model/test_values308_window and
model/test_values333_window_model; for the judge, test_values281_judge, test_values267_judge,
test_values184_judge and test_values70_judge. The new value tests catch every mutant on their own (checked
with the old files taken off the lists): test_values360_sampler (three written lines come back as three rows,
each replayed through the reference's window with phi in float64 to 1e-9 and its stop or cap where the
reference puts it; check_stroke3 and a primed row keep float64 digits; a .npy of pickled objects refused word
for word; a .npz's first line read), model/test_values360_window (layer 1's Wx of I + C rows and one call
equal to reference.window_lstm_forward; each of three layers' final h its own columns of y at the last step;
a three-layer backward from a carried state against central differences: dx, each layer's dstate0 in order,
layer 1's Wp and bp and layer 2's Wx), test_values360_judge (replay_kappa of written rows made here, primed
and not, with x and y scales apart, against the reference's window over each row alone: kappa_T the
alpha-weighted mean of the running sums of exp(k_hat), and phi; check_judge's alphabet and its refusal of a
writer as judge word for word). Left out as equivalent: _codes returning int32 (concatenated with the prime's
int64 codes, or cast back by check_text, the kernels see the same codes); phi's host copy in WindowLayer.phi
(on the CPU phi is already a host array); step's phi[0] read as phi[-1] (a step is one step long); the
replay's ulen read from r.text on unprimed rows (as long as their codes when an alphabet is given, hence
the primed case in the test).

    python tests/mutants/run.py --only 'v360-*'
"""
SAMPLE = "lnrnn/sample.py"
WINDOW = "lnrnn/model/window.py"
JUDGE = "lnrnn/judge.py"

T_SAMPLE = "tests/test_values360_sampler.py::"
T_WINDOW = "tests/model/test_values360_window.py::"
T_JUDGE = "tests/test_values360_judge.py::"
OLD_SAMPLE = ["tests/test_values133_sampler.py", "tests/test_values162_sampler.py", "tests/test_values213_sampler.py",
              "tests/test_values226_sampler.py", "tests/model/test_values337_sampler.py"]
OLD_WINDOW = ["tests/model/test_values_window.py", "tests/model/test_values308_window.py",
              "tests/model/test_values333_window_model.py"]
OLD_JUDGE = ["tests/test_values281_judge.py", "tests/test_values267_judge.py", "tests/test_values184_judge.py",
             "tests/test_values70_judge.py"]

ROWS = T_SAMPLE + "test_three_lines_come_back_as_three_rows_each_the_references"
LAYER1 = T_WINDOW + "test_layer_one_reads_x_and_the_window_and_one_call_equals_the_spec"
FINAL = T_WINDOW + "test_each_layers_final_state_is_its_own_last_step"
BACKWARD = T_WINDOW + "test_three_layer_backward_from_a_carried_state_against_central_differences"
REPLAY = T_JUDGE + "test_replay_kappa_is_the_alpha_weighted_centre_of_each_rows_reference_window"

MUTANTS = [
    # ---- the sampler: lnrnn/sample.py ----
    dict(name="v360-sample-phi-kept-in-float32", file=SAMPLE,
         old="    phis = np.zeros((count, steps, U))  ",
         new="    phis = np.zeros((count, steps, U), np.float32)  ",
         tests=[ROWS] + OLD_SAMPLE,
         why="the written rows' phi is rounded to float32: the attention picture and the judge read other weights"),
    dict(name="v360-sample-last-row-dropped", file=SAMPLE,
         old="            for b in range(count)]",
         new="            for b in range(count - 1)]",
         tests=[ROWS] + OLD_SAMPLE,
         why="a batch of lines comes back one row short: the last line asked for is never returned"),
    dict(name="v360-sample-stroke3-read-as-float32", file=SAMPLE,
         old="    a = np.asarray(points)",
         new="    a = np.asarray(points, np.float32)",
         tests=[T_SAMPLE + "test_check_stroke3_keeps_float64_digits",
                T_SAMPLE + "test_a_primed_row_keeps_its_primes_points_to_the_last_digit"] + OLD_SAMPLE,
         why="a stroke-3 array (a prime's points) loses its float64 digits before the model reads it"),
    dict(name="v360-sample-pickled-npy-escapes", file=SAMPLE,
         old="    except (ValueError, *DAMAGED_NUMPY_FILE) as e:",
         new="    except DAMAGED_NUMPY_FILE as e:",
         tests=[T_SAMPLE + "test_a_npy_of_pickled_objects_is_refused_word_for_word"] + OLD_SAMPLE,
         why="a .npy of pickled objects given as a prime escapes as NumPy's ValueError with a traceback"),
    # ---- the window layer and stack: lnrnn/model/window.py ----
    dict(name="v360-window-layer-one-input-uses-k", file=WINDOW,
         old="int(input_size) + int(alphabet_size)",
         new="int(input_size) + int(window)",
         tests=[LAYER1] + OLD_WINDOW,
         why="layer 1 is built for [x | K columns] in place of [x | w] of C columns"),
    dict(name="v360-window-upper-states-are-layer-ones", file=WINDOW,
         old="            states.append(s)",
         new="            states.append(s1)",
         tests=[FINAL] + OLD_WINDOW,
         why="every layer above the first reports layer 1's final state: a carried state restarts them wrong"),
    dict(name="v360-window-dw-from-above-dropped", file=WINDOW,
         old="        if dw is None:",
         new="        if dw is not None:",
         tests=[BACKWARD] + OLD_WINDOW,
         why="in a stack of two or more layers the window's gradient from the layers above is replaced by zeros"),
    dict(name="v360-window-dstate0-out-of-order", file=WINDOW,
         old="            dstate.append(ds)",
         new="            dstate.insert(0, ds)",
         tests=[BACKWARD] + OLD_WINDOW,
         why="in a stack of three layers dstate0 lists layers 2 and 3 swapped"),
    dict(name="v360-window-no-host-gradients", file=WINDOW,
         old="        for n, d in zip(names, dp):\n            if n in self.grads:",
         new="        for n, d in zip(names, dp):\n            if n not in self.grads:",
         tests=[BACKWARD] + OLD_WINDOW,
         why="layer 1 and its window add no gradient on the CPU: the window never learns"),
    # ---- the judge: lnrnn/judge.py ----
    dict(name="v360-judge-replay-scales-swapped", file=JUDGE,
         old='    sx, sy = getattr(model.head, "scale", (1.0, 1.0))',
         new='    sy, sx = getattr(model.head, "scale", (1.0, 1.0))',
         tests=[REPLAY] + OLD_JUDGE,
         why="the replay divides x by the y scale and y by the x scale: another line is replayed"),
    dict(name="v360-judge-replay-one-step-short", file=JUDGE,
         old="    lengths = np.array([len(x) for x in xs], np.int64)",
         new="    lengths = np.array([len(x) - 1 for x in xs], np.int64)",
         tests=[REPLAY] + OLD_JUDGE,
         why="the replay stops a step before the line's last point: kappa_T is the one before it"),
    dict(name="v360-judge-replay-text-length-of-line", file=JUDGE,
         old="    ulen = np.array([len(r.codes) for r in rows], np.int64)",
         new="    ulen = np.array([len(r.text) for r in rows], np.int64)",
         tests=[REPLAY] + OLD_JUDGE,
         why="a primed line's replay reads its text cut short by the prime's characters"),
    dict(name="v360-judge-kappa-weighted-by-beta", file=JUDGE,
         old='L1.params["bp"])[:, :K]',
         new='L1.params["bp"])[:, K:2 * K]',
         tests=[REPLAY] + OLD_JUDGE,
         why="kappa_T weights the K centres by beta (their sharpness) in place of alpha: travel is another"),
    dict(name="v360-judge-writer-refused-as-writer", file=JUDGE,
         old='    if getattr(reader.model, "conditioned", False):',
         new='    if getattr(writer.model, "conditioned", False):',
         tests=[T_JUDGE + "test_check_judge_gives_the_readers_alphabet_and_refuses_a_writer_as_judge"] + OLD_JUDGE,
         why="the writer is tested for being a writer: every judge is refused as 'a writer'"),
]
