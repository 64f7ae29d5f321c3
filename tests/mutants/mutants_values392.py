"""Planted bugs, round 392 (format: tests/mutants/mutants.py): single-line slips in the Python API (lnrnn/api.py),
twentieth pass, planted before any test was written for them: read() dropping the last line of every batch; read()
sizing a batch by its shortest line; read() giving every batch the first batch's initial-state draw; read()'s beam
search decoding the padded steps of shorter lines; a bad line in a list named by its 0-based index; one (N,3) line
taken as a list of lines; sample_run() with several text lines and count 1 drawing one sample; priming strokes given
as a pathlib.Path taken as an array; fit() without out writing into a folder called None; predict() running the model
in training mode; predict()'s CTC reading decoding the padded steps. 11 mutants. Against the old targeted files alone
(the 22 api files listed in OLD): 5 of 11 caught; missed: read()'s beam without lengths, sample_run()'s count from
the text, a Path prime, fit() without out, predict() in training mode, predict()'s CTC reading without lengths.
test_values392_api and test_values392_api_read catch all 6 (and 9 of 11 alone, measured with every list cut to them):
a beam reading against each line's own beam search over its own steps (and the padded steps shown to read otherwise);
sample_run's hand-offs recorded (the count, the refusal word for word, the prime read from a str or a Path); fit()
training in the first free default folder with its data file there; predict() of a BN run against inference forwards
with population statistics far from any batch's; predict() of a CTC run over ragged lengths against the best path of
each row's own steps.

    python tests/mutants/run.py --only 'v392-*'
"""
API = "lnrnn/api.py"
NEW = ["tests/test_values392_api.py", "tests/test_values392_api_read.py"]
OLD = [
    "tests/commands/test_values277_api.py",
    "tests/commands/test_values305_api.py",
    "tests/test_values101_api.py",
    "tests/test_values10_api.py",
    "tests/test_values117_api.py",
    "tests/test_values140_api.py",
    "tests/test_values15_api.py",
    "tests/test_values161_api.py",
    "tests/test_values196_api.py",
    "tests/test_values214_api.py",
    "tests/test_values234_api.py",
    "tests/test_values252_api.py",
    "tests/test_values27_api.py",
    "tests/test_values315_api.py",
    "tests/test_values343_api.py",
    "tests/test_values364_api.py",
    "tests/test_values46_api.py",
    "tests/test_values50_api.py",
    "tests/test_values77_api.py",
    "tests/test_values83_api.py",
    "tests/test_values_api.py",
    "tests/test_values_api_read.py",
]

MUTANTS = [
    dict(name="v392-api-read-batch-one-short", file=API,
         old='            part = lines[s:s + batch_size]',
         new='            part = lines[s:s + batch_size - 1]',
         tests=NEW + OLD,
         why='read() drops the last line of every batch'),
    dict(name="v392-api-read-steps-of-the-shortest", file=API,
         old='            x = np.zeros((int(lengths.max()), len(part), 3), model.dtype)',
         new='            x = np.zeros((int(lengths.min()), len(part), 3), model.dtype)',
         tests=NEW + OLD,
         why='read() sizes a batch by its shortest line'),
    dict(name="v392-api-read-first-batch-noise", file=API,
         old='            state = model.noise_state(len(part), (2, i))',
         new='            state = model.noise_state(len(part), (2, 0))',
         tests=NEW + OLD,
         why="read() gives every batch the first batch's initial-state draw"),
    dict(name="v392-api-read-beam-without-lengths", file=API,
         old='beam_search(logp, int(beam), lengths)',
         new='beam_search(logp, int(beam), None)',
         tests=NEW + OLD,
         why="read()'s beam search decodes the padded steps of shorter lines"),
    dict(name="v392-api-read-line-number-from-zero", file=API,
         old='f"line {i + 1} of strokes"',
         new='f"line {i} of strokes"',
         tests=NEW + OLD,
         why='a bad line in a list named by its 0-based index'),
    dict(name="v392-api-read-one-array-as-3d", file=API,
         old='    elif isinstance(strokes, np.ndarray) and strokes.ndim == 2:',
         new='    elif isinstance(strokes, np.ndarray) and strokes.ndim == 3:',
         tests=NEW + OLD,
         why='one (N,3) line taken as a list of lines'),
    dict(name="v392-api-sample-count-not-from-text", file=API,
         old='        count = len(codes)\n    with block_rows',
         new='        count = int(count)\n    with block_rows',
         tests=NEW + OLD,
         why='sample() with several text lines and count 1 draws one sample'),
    dict(name="v392-api-sample-prime-path-str-only", file=API,
         old='    if isinstance(prime_strokes, (str, os.PathLike)):',
         new='    if isinstance(prime_strokes, str):',
         tests=NEW + OLD,
         why='a pathlib.Path of priming strokes taken as an array'),
    dict(name="v392-api-fit-out-none-as-text", file=API,
         old='    out = str(out) if out is not None else fresh_default()',
         new='    out = str(out)',
         tests=NEW + OLD,
         why='fit() without out writes into a folder called None'),
    dict(name="v392-api-predict-in-training-mode", file=API,
         old='            y, _, _ = model._run(xb, state, False, lb, 0)',
         new='            y, _, _ = model._run(xb, state, True, lb, 0)',
         tests=NEW + OLD,
         why="predict() runs the model in training mode (BN's batch statistics)"),
    dict(name="v392-api-predict-ctc-without-lengths", file=API,
         old='        return Labels(best_path(np.swapaxes(out, 0, 1), L))',
         new='        return Labels(best_path(np.swapaxes(out, 0, 1), None))',
         tests=NEW + OLD,
         why="predict()'s reader decodes the padded steps"),
]
