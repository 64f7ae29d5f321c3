"""Planted bugs, round 81 (format: tests/mutants/mutants.py): single-line slips in the npz task and the stroke
loaders, a second pass on lines no earlier round mutates. The npz task: an x of rank 1 let through its shape
check, complex targets let through the dtype check, T read from x's input axis (lengths and per-step labels
checked against I), y per sequence and y_val per step let through (y compared with itself), the out-of-range
message counting the distinct labels of y alone, the held-out sequences given the training rows' labels.
IAM-OnDB: read_limited refusing a file of exactly the limit, an empty stroke named by its 0-based index,
transcriptions decoded as UTF-8. KanjiVG: a relative moveto taken as absolute, a cubic sampled at 16 values of
t instead of 17, closepath drawing nothing, implicitly repeated arguments grouped column-major, stroke
numbers sorted as text (s10 before s2). Hershey: a character without a glyph silently dropped. Stroke files:
the pen column's check passing when any value is 0 or 1.

16 mutants. Against the existing targeted tests alone 11 were caught and 5 missed: an x of rank 1 (the old
wrong-shape case is of rank 4), complex targets (no old test hands one in), y and y_val
mixing per sequence and per step (no old test mixes them), the distinct labels of y alone (no old test puts
the out-of-range label in y_val or reads the count) and a missing Hershey glyph (no old test writes a character
the faces lack). The new value tests catch every mutant on their own (checked with the old tests taken off the
lists): test_values81_arrays (x of rank 1 and 4 and complex y or y_val refused naming the array; with T 5
and I 2, lengths up to 5 and (N, T) labels taken, 6 and (N, I) labels refused naming T; mixed per-sequence
and per-step y/y_val refused both ways; the distinct labels of both splits counted by hand in the message;
an object array refused as needing pickle; the held-out split at N = 10 and 23 giving each sequence, found
by a number written into its step 0, its own label), test_values81_iamondb (files in IAM-OnDB's XML written
here: a three-stroke line's stroke-3 by hand, point order, y up, a lift after each stroke's last point; an
empty second stroke named as stroke 2; a DOCTYPE with an entity refused with the parser replaced by one that
fails; a 10-byte file read at limit 10 and refused at 9; ISO-8859-1 transcriptions; every built line of two
forms carrying the CSR line of its own number and its point count), test_values81_kanjivg (path data point
by point by hand: absolute and relative moveto after a first subpath, H/V, Z and z back to each subpath's
start, implicit repeats after M, m, L, l, H and v; cubics, absolute and relative, against de Casteljau's
construction at t = k/16; eleven strokes written out of order read back in stroke order; a design's strokes
resampled and y up by hand), test_values81_hershey (a font of two glyphs written here in Hershey's data
format: a word's points and advance worked out by hand from the side bearings, the baseline and the letter
pairs; a missing character refused by name, also with the package's futural face), test_values81_stroke_files
(one pen value of 0.5, 2 or -1 among 0s and 1s refused through load, read_lines' .npz and a .npy line; the
same file with the value fixed read back whole). Dropped before the catalogue as equivalent: the object-array
test asking for "pickle" without lower-casing the message (numpy's names allow_pickle in lower case) and the
fractional-label check against np.floor instead of np.round (a fractional value differs from both). Also left
out: lengths handed on in their own dtype instead of int64 (nothing past the check reads the dtype) and the
slow path of a bad point reading y before x (it only changes which of two bad attributes is named).

    python tests/mutants/run.py --only 'v81-*'
"""
ARR = "lnrnn/data/arrays.py"
IAM = "lnrnn/data/iamondb.py"
KVG = "lnrnn/data/kanjivg.py"
HERSHEY = "lnrnn/data/hershey.py"
SF = "lnrnn/data/stroke_files.py"

# existing tests of these modules
ARR_OLD = ["tests/data/test_own_data.py", "tests/data/test_values10_arrays.py", "tests/data/test_values34_arrays.py",
           "tests/data/test_values44_arrays.py", "tests/data/test_values53_arrays.py",
           "tests/data/test_values_data_counts.py"]
IAM_OLD = ["tests/data/test_values_iamondb.py", "tests/data/test_values9_iamondb.py",
           "tests/data/test_values15_iamondb.py", "tests/data/test_values44_iamondb.py",
           "tests/data/test_values59_iamondb.py", "tests/data/test_values21_readers.py",
           "tests/data/test_values34_readers.py", "tests/data/test_strokes_data.py", "tests/data/test_text_strokes.py"]
KVG_OLD = ["tests/data/test_values_kanjivg.py", "tests/data/test_values12_kanjivg.py",
           "tests/data/test_values44_kanjivg.py", "tests/data/test_values59_kanjivg.py",
           "tests/data/test_values61_kanjivg_prefix.py", "tests/data/test_values21_readers.py",
           "tests/data/test_values34_readers.py", "tests/data/test_strokes_data.py"]
HERSHEY_OLD = ["tests/data/test_values_hershey.py", "tests/data/test_values15_hershey.py",
               "tests/data/test_values34_hershey.py", "tests/data/test_values44_hershey.py",
               "tests/data/test_values59_hershey.py", "tests/data/test_text_strokes.py"]
SF_OLD = ["tests/data/test_values_stroke_files.py", "tests/data/test_values10_stroke_files.py",
          "tests/data/test_values21_stroke_files.py", "tests/data/test_values53_stroke_files.py",
          "tests/data/test_strokes_data.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
ARR_NEW = ["tests/data/test_values81_arrays.py"]
IAM_NEW = ["tests/data/test_values81_iamondb.py"]
KVG_NEW = ["tests/data/test_values81_kanjivg.py"]
HERSHEY_NEW = ["tests/data/test_values81_hershey.py"]
SF_NEW = ["tests/data/test_values81_stroke_files.py"]

MUTANTS = [
    # ---- the npz task ----
    dict(name="v81-arrays-1d-x-let-through", file=ARR,
         old="    if x.ndim != 3:\n",
         new="    if x.ndim > 3:\n",
         tests=ARR_NEW + ARR_OLD,
         why="an x of shape (N,) passes the shape check and fails later with an IndexError, not one DataError"),
    dict(name="v81-arrays-complex-y-let-through", file=ARR,
         old='    if y.dtype.kind not in "biuf":',
         new='    if y.dtype.kind not in "biufc":',
         tests=ARR_NEW + ARR_OLD,
         why="complex targets pass the dtype check (their imaginary part silently dropped later)"),
    dict(name="v81-arrays-T-from-the-input-axis", file=ARR,
         old="        N, T = x.shape[0], x.shape[1]\n",
         new="        N, T = x.shape[0], x.shape[2]\n",
         tests=ARR_NEW + ARR_OLD,
         why="T is read from x's input axis: lengths and per-step y are checked against I, not the steps"),
    dict(name="v81-arrays-per-step-mismatch-against-itself", file=ARR,
         old="""        if (out["y"].ndim == 2) != (out["y_val"].ndim == 2):""",
         new="""        if (out["y"].ndim == 2) != (out["y"].ndim == 2):""",
         tests=ARR_NEW + ARR_OLD,
         why="y per sequence and y_val per step (or the reverse) are let through: y is compared with itself"),
    dict(name="v81-arrays-distinct-labels-of-y-only", file=ARR,
         old="            distinct = len(np.unique(np.concatenate([y.ravel() for y in ys])))",
         new="            distinct = len(np.unique(ys[0]))",
         tests=ARR_NEW + ARR_OLD,
         why="the out-of-range message counts the distinct labels of y alone, not of every split's labels"),
    dict(name="v81-arrays-held-out-labels-from-training-rows", file=ARR,
         old="        xt, yt, xv, yv = x[tr], y[tr], x[va], y[va]",
         new="        xt, yt, xv, yv = x[tr], y[tr], x[va], y[tr]",
         tests=ARR_NEW + ARR_OLD,
         why="the held-out sequences get the labels of the first training rows, not their own"),
    # ---- IAM-OnDB ----
    dict(name="v81-iam-read-limited-refuses-the-limit", file=IAM,
         old="        if size > limit:",
         new="        if size >= limit:",
         tests=IAM_NEW + IAM_OLD,
         why="a file of exactly the allowed size is refused"),
    dict(name="v81-iam-empty-stroke-numbered-from-0", file=IAM,
         old="    return [_stroke_points(e, k + 1, path) for k, e in enumerate(elems)]",
         new="    return [_stroke_points(e, k, path) for k, e in enumerate(elems)]",
         tests=IAM_NEW + IAM_OLD,
         why="an empty <Stroke> is named by its 0-based index: the message points at the stroke before it"),
    dict(name="v81-iam-transcription-decoded-as-utf8", file=IAM,
         old='    lines = raw.decode("latin-1").splitlines()',
         new='    lines = raw.decode("utf-8", "replace").splitlines()',
         tests=IAM_NEW + IAM_OLD,
         why="IAM-OnDB's ISO-8859-1 transcriptions read as UTF-8: an accented letter becomes U+FFFD"),
    # ---- KanjiVG ----
    dict(name="v81-kvg-relative-moveto-absolute", file=KVG,
         old="                cur = start = base + a\n",
         new="                cur = start = a\n",
         tests=KVG_NEW + KVG_OLD,
         why="a relative m after the first subpath starts at its numbers taken as absolute points"),
    dict(name="v81-kvg-cubic-one-point-short", file=KVG,
         old="    t = np.linspace(0.0, 1.0, CURVE_POINTS + 1)[:, None]",
         new="    t = np.linspace(0.0, 1.0, CURVE_POINTS)[:, None]",
         tests=KVG_NEW + KVG_OLD,
         why="a cubic is sampled at 16 points instead of 17: t = k/15, not k/16"),
    dict(name="v81-kvg-closepath-dropped", file=KVG,
         old="        return [np.zeros(0)]",
         new="        return []",
         tests=KVG_NEW + KVG_OLD,
         why="Z yields no segment: a closed path is never drawn back to its start"),
    dict(name="v81-kvg-implicit-repeats-column-major", file=KVG,
         old="    return list(np.array(nums).reshape(-1, k))",
         new="    return list(np.array(nums).reshape(k, -1).T)",
         tests=KVG_NEW + KVG_OLD,
         why="implicitly repeated arguments are grouped column-major: L 1 2 3 4 draws to (1, 3) and (2, 4)"),
    dict(name="v81-kvg-strokes-sorted-as-text", file=KVG,
         old='            found.append((int(m[1]), p.get("d")))',
         new='            found.append((m[1], p.get("d")))',
         tests=KVG_NEW + KVG_OLD,
         why="stroke numbers sorted as text: s10 comes before s2 in a design of ten or more strokes"),
    # ---- Hershey ----
    dict(name="v81-hershey-missing-glyph-let-through", file=HERSHEY,
         old="    if len(glyphs) != len(word):",
         new="    if len(glyphs) > len(word):",
         tests=HERSHEY_NEW + HERSHEY_OLD,
         why="a character the font has no glyph for is silently dropped from the word instead of refused"),
    # ---- stroke files ----
    dict(name="v81-stroke-files-pen-check-any", file=SF,
         old="    if not np.isin(a[:, 2], (0.0, 1.0)).all():",
         new="    if not np.isin(a[:, 2], (0.0, 1.0)).any():",
         tests=SF_NEW + SF_OLD,
         why="a pen column with one 0.5 among 0s and 1s is let through"),
]
