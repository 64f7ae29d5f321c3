"""Planted bugs, round 34 (format: tests/mutants/mutants.py): single-line slips in the data readers and the
output files. The npz task's checks of its arrays (x finite and not empty on any axis, y (N,) or exactly (N, T),
the validation set given whole, y_val's labels held to y's rule); KanjiVG (variant files skipped by their whole
name, a file that is not 8-bit text refused before parsing, the pairs after a moveto drawn as lines, a drawing
command without numbers refused); IAM-OnDB (a point of infinite coordinates, a UTF-16 line file); predict's
inputs (infinite values, no steps) and its CSV's last line end; lnrnn.files (the umask read from /proc in octal,
an OSError found in a writer's error's context); the safetensors header (metadata as strings, offsets in
bytes); the learning-curve pictures (a metric named with an underscore, an SVG without its date); Hershey's
font turned y up and its numbers 0..2026.

22 mutants. Against the existing targeted tests alone (each run before the new tests were listed) 8 were caught
(kanjivg variant files and moveto pairs, the UTF-16 IAM-OnDB file, the umask, the error's context, both
safetensors mutants, Hershey's y) and 14 missed: the five npz-array checks (inf in x, per-step y of another
width, x of 0 steps, y_val without x_val, y_val's labels unchecked), the UTF-16 KanjiVG file, a KanjiVG command
without numbers, an IAM-OnDB point of inf, predict's inf inputs and 0 steps, the CSV's last newline, a metric
whose name holds an underscore, the SVG's date, and Hershey's numbers stopping at 2025. The new value tests
catch every mutant: tests/data/test_values34_arrays.py (each refusal by check_arrays, for x and x_val, every
empty axis, widths T - 1, T + 1 and 1, the validation arrays one at a time, fractional and negative y_val per
sequence and per step, and the train command's one line with nothing written),
tests/data/test_values34_readers.py (a KanjiVG file in UTF-16 and UTF-16LE, with and without an entity, refused
by stroke_paths and read_design; eight path data with a command short of its arity; an IAM-OnDB line file in its
true format with inf, -inf, Infinity, nan and 1e999 in x or y, refused naming point and stroke, and large finite
points read as they are), tests/test_values34_predict_io.py (inf, -inf and NaN in float32 and float64, shapes with
no steps or no sequences, by check_inputs and from a .npy; every head's CSV and the .npy byte for byte against
the tables written out by hand), tests/training/test_values34_plot.py (nats_seq's panel, label and points;
SVG and PNG the same bytes under two SOURCE_DATE_EPOCH values), tests/data/test_values34_hershey.py (60,000
words that are all numbers: every value 0..2026 turns up, none beyond).

A PDF kept its date: matplotlib's PDF writer takes the creation date under the key CreationDate, and the
{"Date": None} that ``_metadata`` gave it changed nothing, so a PDF of the same curves carried the time it was
written (a bug this round found; fixed, with the PDF added to the plot test). The round's mutant of that line
then took the SVG's date; the PDF's got its own afterwards. The safetensors reader let a dtype it does not
read (BF16) and headers that are not objects out as KeyError and TypeError (another bug this round found;
fixed: one ValueError naming the entry, tests/interop/test_values10_export.py), with two mutants of its checks
(25 mutants in all).

    python tests/mutants/run.py --only 'v34-*'
"""
ARRAYS = "lnrnn/data/arrays.py"
KVG = "lnrnn/data/kanjivg.py"
IAM = "lnrnn/data/iamondb.py"
PIO = "lnrnn/predict_io.py"
FILES = "lnrnn/files.py"
EXPORT = "lnrnn/interop/export.py"
PLOT = "lnrnn/training/plot.py"
HERSHEY = "lnrnn/data/hershey.py"

# existing tests of these modules
ARRAYS_OLD = ["tests/data/test_values10_arrays.py", "tests/data/test_values_data_counts.py",
              "tests/data/test_own_data.py::test_malformed_files_are_one_line_and_nothing_is_written",
              "tests/data/test_own_data.py::test_files_that_are_not_npz"]
KVG_OLD = ["tests/data/test_values_kanjivg.py", "tests/data/test_values12_kanjivg.py",
           "tests/data/test_values21_readers.py", "tests/data/test_strokes_data.py"]
IAM_OLD = ["tests/data/test_values_iamondb.py", "tests/data/test_values9_iamondb.py",
           "tests/data/test_values15_iamondb.py", "tests/data/test_values21_readers.py",
           "tests/data/test_strokes_data.py"]
PIO_OLD = ["tests/test_values_predict_io.py", "tests/test_values9_predict_io.py", "tests/test_values14_predict_io.py",
           "tests/test_values21_predict_io.py",
           "tests/training/test_edges.py::test_predict_names_what_an_input_is",
           "tests/training/test_edges.py::test_predict_writes_every_heads_table"]
FILES_OLD = ["tests/test_values12_files.py", "tests/test_values23_files.py",
             "tests/commands/test_values9_output_files.py", "tests/commands/test_values_output_checks.py",
             "tests/training/test_edges.py::test_a_writer_that_hides_the_disk_error_still_reports_it"]
EXPORT_OLD = ["tests/interop/test_values_export.py", "tests/interop/test_values10_export.py",
              "tests/interop/test_values13_export.py", "tests/interop/test_values23_export.py"]
PLOT_OLD = ["tests/training/test_values_plot.py", "tests/training/test_values9_plot.py",
            "tests/training/test_values20_plot.py", "tests/commands/test_plot.py"]
HERSHEY_OLD = ["tests/data/test_values_hershey.py", "tests/data/test_values15_hershey.py",
               "tests/data/test_text_strokes.py::test_hershey_slant_and_baseline",
               "tests/training/test_edges.py::test_the_hershey_training_texts_hold_every_letter_digit_and_mark"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
ARRAYS_NEW = ["tests/data/test_values34_arrays.py"]
KVG_NEW = ["tests/data/test_values34_readers.py"]
IAM_NEW = ["tests/data/test_values34_readers.py"]
PIO_NEW = ["tests/test_values34_predict_io.py"]
PLOT_NEW = ["tests/training/test_values34_plot.py"]
HERSHEY_NEW = ["tests/data/test_values34_hershey.py"]

MUTANTS = [
    # ---- the npz task: shapes, values and the validation arrays ----
    dict(name="v34-arrays-infinite-x-taken", file=ARRAYS,
         old='    if x.dtype.kind == "f" and not np.isfinite(x).all():',
         new='    if x.dtype.kind == "f" and np.isnan(x).any():',
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="x holding +-inf (and no NaN) passes the check: training on it gives NaN losses"),
    dict(name="v34-arrays-per-step-y-width-unchecked", file=ARRAYS,
         old="    if y.shape not in ((N,), (N, T)):",
         new="    if y.shape[:1] != (N,) or y.ndim > 2:",
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="per-step targets of another width than T (N, T + 1) or (N, T - 1) pass the check"),
    dict(name="v34-arrays-zero-steps-taken", file=ARRAYS,
         old="    if 0 in x.shape:",
         new="    if x.shape[0] == 0:",
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="x of 0 steps (or 0 inputs) per sequence passes as data, failing later without a clean line"),
    dict(name="v34-arrays-y-val-alone-ignored", file=ARRAYS,
         old='    if has_val["x_val"] != has_val["y_val"]:',
         new='    if has_val["x_val"] and not has_val["y_val"]:',
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="a file with y_val but no x_val is taken: y_val is silently dropped and a split held out instead"),
    dict(name="v34-arrays-y-val-labels-unchecked", file=ARRAYS,
         old='        for y, name in zip(ys, ("y", "y_val")):',
         new='        for y, name in zip(ys[:1], ("y", "y_val")):',
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="y_val's classes are not checked: fractional or negative validation labels are truncated or kept"),
    # ---- KanjiVG: the files found, the bytes refused, the path data ----
    dict(name="v34-kanjivg-variant-files-read", file=KVG,
         old='    if re.fullmatch(r"[0-9a-fA-F]{4,6}", stem):',
         new='    if re.match(r"[0-9a-fA-F]{4,6}", stem):',
         tests=KVG_NEW + KVG_OLD,
         why="a variant file (04e14-Kaisho.svg) matches by its prefix: it is not skipped (its name is no code point)"),
    dict(name="v34-kanjivg-wide-encoding-parsed", file=KVG,
         old='    if b"<!ENTITY" in raw or b"\\x00" in raw:',
         new='    if b"<!ENTITY" in raw:',
         tests=KVG_NEW + KVG_OLD,
         why="a UTF-16 SVG hides <!ENTITY from the byte check (NUL between the letters) and reaches the parser"),
    dict(name="v34-kanjivg-moveto-pairs-not-lines", file=KVG,
         old='                up = "L"                      # further pairs after M are lines\n',
         new="",
         tests=KVG_NEW + KVG_OLD,
         why="the pairs after a moveto are taken for further movetos, not linetos: M 0 0 10 0 draws nothing"),
    dict(name="v34-kanjivg-command-without-numbers-taken", file=KVG,
         old="    if not nums or len(nums) % k:",
         new="    if len(nums) % k:",
         tests=KVG_NEW + KVG_OLD,
         why="a drawing command with no numbers (a truncated 'M 1 2 L') is dropped silently instead of refused"),
    # ---- IAM-OnDB: points and bytes ----
    dict(name="v34-iam-infinite-point-taken", file=IAM,
         old="        ok = bool(np.isfinite(xy).all())",
         new="        ok = not bool(np.isnan(xy).any())",
         tests=IAM_NEW + IAM_OLD,
         why='a point x="inf" passes as a coordinate: the line\'s offsets are infinite'),
    dict(name="v34-iam-utf16-xml-parsed", file=IAM,
         old='    if b"\\x00" in raw:',
         new='    if b"\\x00\\x00" in raw:',
         tests=IAM_NEW + IAM_OLD,
         why="only UTF-32 is taken for a wide encoding: a UTF-16 line file hides <!ENTITY from the byte check"),
    # ---- predict: inputs and the CSV ----
    dict(name="v34-pio-infinite-inputs-taken", file=PIO,
         old="    if np.issubdtype(x.dtype, np.floating) and not np.all(np.isfinite(x)):",
         new="    if np.issubdtype(x.dtype, np.floating) and np.isnan(x).any():",
         tests=PIO_NEW + PIO_OLD,
         why="sequences holding +-inf are predicted on (NaN outputs) instead of refused"),
    dict(name="v34-pio-zero-steps-taken", file=PIO,
         old="    if N == 0 or T == 0:",
         new="    if N == 0:",
         tests=PIO_NEW + PIO_OLD,
         why="sequences of 0 steps pass the check: the model runs on nothing"),
    dict(name="v34-pio-csv-without-final-newline", file=PIO,
         old='        text = ("\\n".join(lines) + "\\n").encode("utf-8")',
         new='        text = "\\n".join(lines).encode("utf-8")',
         tests=PIO_NEW + PIO_OLD,
         why="the CSV's last row has no line end (cat and wc -l, and appending files, go wrong)"),
    # ---- files: the umask and the error within a writer's error ----
    dict(name="v34-files-umask-read-as-decimal", file=FILES,
         old="                    return int(line.split()[1], 8)",
         new="                    return int(line.split()[1])",
         tests=FILES_OLD,
         why="/proc's Umask 0022 is read as 22 decimal (0o26): new files get mode 0640, not 0644"),
    dict(name="v34-files-context-not-followed", file=FILES,
         old="        e = e.__cause__ or e.__context__",
         new="        e = e.__cause__",
         tests=FILES_OLD,
         why="an OSError that a writer's own error arose while handling (its context, not its cause) is not "
             "found: the user hears the writer's AttributeError, not the full disk"),
    # ---- export: the safetensors bytes ----
    dict(name="v34-export-metadata-not-strings", file=EXPORT,
         old='        header["__metadata__"] = {str(k): str(v) for k, v in metadata.items()}',
         new='        header["__metadata__"] = {str(k): v for k, v in metadata.items()}',
         tests=EXPORT_OLD,
         why="metadata values are written as they are (the step an integer): the format allows strings only and "
             "safetensors' reader refuses the file"),
    dict(name="v34-export-offsets-in-elements", file=EXPORT,
         old='"data_offsets": [offset, offset + len(data)]}',
         new='"data_offsets": [offset, offset + a.size]}',
         tests=EXPORT_OLD,
         why="a tensor's end offset counts elements, not bytes"),
    # ---- plot: metric names, reproducible files ----
    dict(name="v34-export-foreign-dtype-a-key-error", file=EXPORT,
         old='    if info.get("dtype") not in NUMPY_DTYPES:',
         new='    if info.get("dtype") is None:',
         tests=["tests/interop/test_values10_export.py"],
         why="a file of BF16 weights fails with KeyError: 'BF16' inside the reader instead of a ValueError naming it"),
    dict(name="v34-export-offsets-out-of-order", file=EXPORT,
         old='            and offsets[0] <= offsets[1]):',
         new='            ):',
         tests=["tests/interop/test_values10_export.py"],
         why="data_offsets [4, 0] pass the entry's check: the refusal names a size mismatch, not the offsets"),
    dict(name="v34-plot-metric-name-split-at-the-last-underscore", file=PLOT,
         old='                split, _, m = k.partition("_")',
         new='                split, _, m = k.rpartition("_")',
         tests=PLOT_NEW + PLOT_OLD,
         why="train_nats_seq splits into train_nats and seq: a metric with an underscore gets no panel"),
    dict(name="v34-plot-svg-dated", file=PLOT,
         old='    return {"svg": {"Date": None}, "pdf": {"CreationDate": None}}.get(fmt)',
         new='    return {"pdf": {"CreationDate": None}}.get(fmt)',
         tests=PLOT_NEW + PLOT_OLD,
         why="an SVG carries its creation date (<dc:date>): the same curves give another file each second"),
    dict(name="v34-plot-pdf-dated", file=PLOT,
         old='    return {"svg": {"Date": None}, "pdf": {"CreationDate": None}}.get(fmt)',
         new='    return {"svg": {"Date": None}, "pdf": {"Date": None}}.get(fmt)',
         tests=PLOT_NEW + PLOT_OLD,
         why="the PDF's date under SVG's key: matplotlib's PDF writer still writes /CreationDate"),
    # ---- Hershey: the font's y and the numbers ----
    dict(name="v34-hershey-y-down", file=HERSHEY,
         old="    out = [np.array([[x, base - y] for x, y in st], np.float64) for st in font.strokes_for_text(word)]",
         new="    out = [np.array([[x, y - base] for x, y in st], np.float64) for st in font.strokes_for_text(word)]",
         tests=HERSHEY_NEW + HERSHEY_OLD,
         why="the font's y (down from the top) is not turned up: the words are written upside down"),
    dict(name="v34-hershey-numbers-stop-at-2025", file=HERSHEY,
         old="str(int(rng.integers(0, 2027)))",
         new="str(int(rng.integers(0, 2026)))",
         tests=HERSHEY_NEW + HERSHEY_OLD,
         why="the numbers a line may hold are 0..2025, not 0..2026 (integers' upper bound is exclusive)"),
]
