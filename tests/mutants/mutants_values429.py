"""Planted bugs, round 429 (format: tests/mutants/mutants.py): the survivors of a third random sample
(tests/mutants/random_sample.py --seed 3 --count 40, after rounds 426 to 428) and their neighbours: the strokes-npz
task's file kind and lengths (lnrnn/data/stroke_files.py: load, _packed) and lnrnn predict's class probabilities
(lnrnn/predict_io.py: softmax), twenty-fifth pass.

The planted bugs: lengths of floats or a 2-D array taken, lengths of booleans taken, the pickle rule inverted (a
text file handed to numpy.load); the softmax's row maxima not kept per row, the whole batch's maximum as every row's
shift, the sum taken over the batch. 6 mutants. The old files named after each module (OLD_STROKE_FILES,
OLD_PREDICT_IO) catch 0 of 6. The new files alone (test_values429_stroke_files, test_values429_predict_io) catch 6
of 6, so NEW + OLD does too (not run separately). How they were found: the third sample caught 31 of 39 judged; of
its 8 misses, 2 sit on lines only the CUDA twins run, 2 are equivalent (the threading probe's start value; the
simulator's availability flag, which the tests set themselves), 1 is in the CTC beam's pruning of equal scores
(left), and the other 3 are planted here with their neighbours (the booleans beside the floats).

    python tests/mutants/run.py --only 'v429-*'
"""
NEW_STROKE_FILES = ["tests/data/test_values429_stroke_files.py"]
NEW_PREDICT_IO = ["tests/test_values429_predict_io.py"]
STROKE_FILES = "lnrnn/data/stroke_files.py"
PREDICT_IO = "lnrnn/predict_io.py"
# the files named after each module, as a developer who changed it would run them
OLD_STROKE_FILES = ["tests/data/test_values10_stroke_files.py", "tests/data/test_values116_stroke_files.py",
                    "tests/data/test_values126_stroke_files.py", "tests/data/test_values135_stroke_files.py",
                    "tests/data/test_values170_stroke_files.py", "tests/data/test_values206_stroke_files.py",
                    "tests/data/test_values21_stroke_files.py", "tests/data/test_values232_stroke_files.py"]
OLD_PREDICT_IO = ["tests/commands/test_values240_predict_io.py", "tests/commands/test_values258_predict_io.py",
                  "tests/commands/test_values277_predict_io.py", "tests/commands/test_values319_predict_io.py",
                  "tests/test_values112_predict_io.py", "tests/test_values131_predict_io.py"]

MUTANTS = [
    dict(name="v429-lengths-of-floats-taken", file=STROKE_FILES,
         old='    if lengths.ndim != 1 or lengths.dtype.kind not in "iu":\n',
         new='    if lengths.ndim != 1 and lengths.dtype.kind not in "iu":\n',
         tests=NEW_STROKE_FILES + OLD_STROKE_FILES,
         why="lengths of floats, or a 2-D integer array, split the rows as if they were counts"),
    dict(name="v429-lengths-of-booleans-taken", file=STROKE_FILES,
         old='    if lengths.ndim != 1 or lengths.dtype.kind not in "iu":\n',
         new='    if lengths.ndim != 1 or lengths.dtype.kind not in "iub":\n',
         tests=NEW_STROKE_FILES + OLD_STROKE_FILES,
         why="a boolean array is taken as lengths of 1 and 0"),
    dict(name="v429-pickle-rule-inverted", file=STROKE_FILES,
         old='    if kind not in ("npy", "npz") and not allow_pickle:  # numpy.load would call it pickled data\n',
         new='    if kind not in ("npy", "npz") and allow_pickle:  # numpy.load would call it pickled data\n',
         tests=NEW_STROKE_FILES + OLD_STROKE_FILES,
         why="a text file is handed to numpy.load and refused as 'object arrays that need pickle'"),
    dict(name="v429-softmax-max-not-kept-per-row", file=PREDICT_IO,
         old="    e = np.exp(z - z.max(axis=-1, keepdims=True))\n",
         new="    e = np.exp(z - z.max(axis=-1, keepdims=False))\n",
         tests=NEW_PREDICT_IO + OLD_PREDICT_IO,
         why="each row is shifted by other rows' maxima: wrong probabilities (or a shape error) where N != C"),
    dict(name="v429-softmax-shift-by-the-whole-max", file=PREDICT_IO,
         old="    e = np.exp(z - z.max(axis=-1, keepdims=True))\n",
         new="    e = np.exp(z - z.max())\n",
         tests=NEW_PREDICT_IO + OLD_PREDICT_IO,
         why="rows far below the batch's largest logit underflow to 0/0"),
    dict(name="v429-softmax-sum-over-rows", file=PREDICT_IO,
         old="    return e / e.sum(axis=-1, keepdims=True)\n",
         new="    return e / e.sum(axis=0, keepdims=True)\n",
         tests=NEW_PREDICT_IO + OLD_PREDICT_IO,
         why="each class normalized over the batch instead of each row over its classes"),
]
