"""Planted bugs, round 238 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates, in
the sampler (lnrnn/sample.py) outside its step loop and the window model's refusals (lnrnn/model/window.py). The
stop rule, the step cap, the bias and the priming lines are all taken by earlier rounds; what is left of the round's focus
here is what a sample is given and how it is shown: the head check asking for a forward (every head has one: a
classifier run is not refused, it fails at its first draw); a prime file's magic read as 4 bytes (a .npy prime
refused as not a NumPy file); bad points in a prime file refused without the option's name; the lengths check
inverted (a .npy refused for its lengths, an --npz file's lines never cut); a run without a text record giving an
AttributeError instead of the corrupt-checkpoint refusal; strokes_of dropping a stroke of one point (a dot between
two pen lifts); a long caption counting its characters without thousands separators, and cut to leave room for the
prime's words only (running past 100 characters); the attention image's label step rounded up (every second
character labelled from 61 characters on instead of 120). The window model: a step given a (1,B,I) sequence not
refused as a step's input, its refusal of a list naming the class, a bad window_norm's refusal listing the norms
unsorted, a code past the alphabet refused with a range one code short, non-integer lengths refused quoting the
codes' dtype.

14 mutants. Against the existing targeted tests alone (test_values133/213/221/226_sampler; test_synthesis,
test_values204/221/226_window_model) 5 caught (the head check, the .npy magic, strokes_of's dot, the caption cut
short for the prime only: test_values213's long caption, and the window's code range one short) and 9 missed (no old
file reads a file refusal's option name, an --npz of two lines or a .npy with the lengths check, a missing text
record, a count past 999 in a caption, an attention image past 60 characters, a step given a sequence, or the
window's refusals of a step's type, a bad norm and non-integer lengths word for word). The new value tests catch all
14 on their own (checked with the old files taken off the lists): test_values238_sampler (a classifier's and a
regression's refusal word for word; .npy primes of float32, float64 and int64 read back as the float64 points
written out; an --npz of two lines by lengths [2, 3] giving its first 2 points, and all 5 without lengths; a pen of
2 in a file refused naming --prime-strokes and the file; a None and an empty text record refused as a corrupt
checkpoint word for word; strokes_of's paths from the origin (1, 1) summed by hand, a dot between two lifts and a
lifted first and last point; captions of 1,234 characters with and without the prime and the cap against
test_values213_sampler's cut, 98 characters; the attention image's ticks at 61, 119, 120 and 121 characters),
test_values238_window_model (refusals word for word: a step given (1,2,3), (3,) and a list; window_norm 'gn' with
['bn', 'ln', 'none']; a code 5 of an alphabet of 5 with [0, 5) and 0..5; float64 and 2-D int32 lengths with their
own dtype and shape). Dropped as equivalent: `if start is not None` read as truthiness (a start is a tuple or an
array of 3, and an array's truth is an error only for the mutant, not a different sample: left out as a crash, not a
slip); the window layer's `if len(state) == 2` as `!= 4` (the line before refuses every other count); a prime test
in text_inputs reading prime_text instead of prime_strokes (check_prime_pair makes them come together); the progress
guards `if progress is not None` inverted (every caller without a progress bar crashes: caught by anything). Left
out as not reachable on the CPU: the window layer's device statistics (t0 slices of device_views).

    python tests/mutants/run.py --only 'v238-*'
"""
SAMPLE = "lnrnn/sample.py"
WINDOW = "lnrnn/model/window.py"

# existing tests of these modules (the most direct files of each)
SAMPLE_OLD = ["tests/test_values133_sampler.py", "tests/test_values213_sampler.py", "tests/test_values221_sampler.py",
              "tests/test_values226_sampler.py"]
WINDOW_OLD = ["tests/model/test_synthesis.py", "tests/model/test_values204_window_model.py",
              "tests/model/test_values221_window_model.py", "tests/model/test_values226_window_model.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
TS = "tests/test_values238_sampler.py::"
TW = "tests/model/test_values238_window_model.py::"

MUTANTS = [
    # ---- the sampler ----
    dict(name="v238-sample-any-head-with-a-forward-samples", file=SAMPLE,
         old='    if not hasattr(head, "sample"):',
         new='    if not hasattr(head, "forward"):',
         tests=[TS + 'test_a_head_that_draws_nothing_is_refused_before_any_step'] + SAMPLE_OLD,
         why="the head check asks for a forward, which every head has: a classifier run is not refused, it fails later"),
    dict(name="v238-read-magic-four-bytes", file=SAMPLE,
         old="        magic = f.read(6)",
         new="        magic = f.read(4)",
         tests=[TS + 'test_a_npy_prime_gives_its_points_as_float64'] + SAMPLE_OLD,
         why="four bytes are read for the magic: a .npy prime (6-byte magic) is refused as not a NumPy file"),
    dict(name="v238-read-refusal-drops-the-option", file=SAMPLE,
         old='    what = f"the points of {option} {text}"',
         new='    what = f"the points of {text}"',
         tests=[TS + 'test_bad_points_in_a_file_are_refused_naming_the_option_and_the_file'] + SAMPLE_OLD,
         why="a prime file's bad points are refused without the option's name"),
    dict(name="v238-read-lengths-check-inverted", file=SAMPLE,
         old="    if lengths is not None:\n        lengths = np.asarray(lengths)",
         new="    if lengths is None:\n        lengths = np.asarray(lengths)",
         tests=[TS + 'test_an_npz_of_two_lines_gives_its_first_line',
                TS + 'test_a_npy_prime_gives_its_points_as_float64'] + SAMPLE_OLD,
         why="a .npy prime (no lengths) is refused for its lengths, and an --npz file's lines are never cut"),
    dict(name="v238-inputs-record-none-not-a-dict", file=SAMPLE,
         old='    alphabet = record.get("alphabet") if isinstance(record, dict) else None',
         new='    alphabet = record.get("alphabet")',
         tests=[TS + 'test_a_run_without_a_text_record_is_a_corrupt_checkpoint'] + SAMPLE_OLD,
         why="a checkpoint without a text record gives an AttributeError instead of the corrupt-checkpoint refusal"),
    dict(name="v238-strokes-of-drops-single-point-strokes", file=SAMPLE,
         old="    return [p for p in paths if len(p)]",
         new="    return [p for p in paths if len(p) > 1]",
         tests=[TS + 'test_a_dot_between_two_pen_lifts_is_a_stroke_of_its_own'] + SAMPLE_OLD,
         why="a stroke of one point (a dot between two pen lifts) is dropped from the drawing"),
    dict(name="v238-label-count-without-separators", file=SAMPLE,
         old='f"{len(row.text):,} characters"',
         new='f"{len(row.text)} characters"',
         tests=[TS + 'test_a_caption_of_1234_characters_counts_them_and_leaves_room_for_its_notes'] + SAMPLE_OLD,
         why="a long caption counts its characters without thousands separators (1234 for 1,234)"),
    dict(name="v238-label-shortened-by-the-prime-only", file=SAMPLE,
         old="shortened(row.text, CAPTION_CHARS - len(tail))",
         new="shortened(row.text, CAPTION_CHARS - len(primed))",
         tests=[TS + 'test_a_caption_of_1234_characters_counts_them_and_leaves_room_for_its_notes'] + SAMPLE_OLD,
         why="a long caption's text is cut to leave room for the prime's words only, not the notes: it runs past 100"),
    dict(name="v238-attention-label-step-rounded-up", file=SAMPLE,
         old="    every = max(1, U // 60)",
         new="    every = max(1, -(-U // 60))",
         tests=[TS + 'test_the_attention_image_labels_every_character_up_to_119'] + SAMPLE_OLD,
         why="the attention image labels every 2nd character from 61 characters on, not from 120"),
    # ---- the window model ----
    dict(name="v238-window-step-takes-a-3d-input", file=WINDOW,
         old="x_t.ndim != 2",
         new="x_t.ndim < 2",
         tests=[TW + 'test_a_step_refuses_what_is_not_one_step'] + WINDOW_OLD,
         why="a step given a (1,B,I) sequence is not refused as a step's input; the forward's 4-D refusal speaks of x"),
    dict(name="v238-window-step-refusal-names-the-class", file=WINDOW,
         old="type(x_t).__name__",
         new="type(x_t)",
         tests=[TW + 'test_a_step_refuses_what_is_not_one_step'] + WINDOW_OLD,
         why="a step given a list says <class 'list'> instead of list"),
    dict(name="v238-window-norm-refusal-unsorted", file=WINDOW,
         old="sorted(NORM_CODES)",
         new="list(NORM_CODES)",
         tests=[TW + 'test_a_window_norm_outside_the_three_is_refused_with_them_sorted'] + WINDOW_OLD,
         why="a bad window_norm's refusal lists the norms unsorted (none, ln, bn)"),
    dict(name="v238-window-codes-refusal-one-short", file=WINDOW,
         old="text codes must lie in [0, {C}) (the model's alphabet)",
         new="text codes must lie in [0, {C - 1}) (the model's alphabet)",
         tests=[TW + 'test_a_code_past_the_alphabet_names_the_range'] + WINDOW_OLD,
         why="the refusal of a code past the alphabet gives a range one code short"),
    dict(name="v238-window-lengths-refusal-codes-dtype", file=WINDOW,
         old="got {ulen.dtype} {ulen.shape}",
         new="got {codes.dtype} {ulen.shape}",
         tests=[TW + 'test_lengths_that_are_not_integers_name_their_own_dtype'] + WINDOW_OLD,
         why="the refusal of non-integer lengths quotes the codes' dtype (int64) instead of the lengths'"),
]
