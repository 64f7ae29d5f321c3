"""Planted bugs, round 479 (format: tests/mutants/mutants.py): the real survivors of a sixty-fifth random sample
(tests/mutants/random_sample.py --seed 65 --count 40 --all-named, on 4d2571d: 31 of 40 caught) and their neighbours,
seventy-fifth pass.

Seed 65's 9 missed: 1 equivalent (rnd65-15: the torch binding's parameter slice one entry longer, into y, which zip
against the parameter names drops), 2 CUDA-only and caught by the CUDA files that run the lines (rnd65-31: the
device loss's chunk lengths shifted, tests/training/test_device_batches.py; rnd65-39: a bidirectional stack's device
results handed back to the host when asked to stay, tests/model/test_values466_stack_residence_cuda.py), 6 real for
the named files: an empty StrokeSet holding (0, 4) points (rnd65-06); an LSTM's unmasked evaluation running the full
forward (rnd65-09; caught by tests/model/test_infer_path.py, not among functional's files); the attention image's
small labels from 30 characters (rnd65-27); the OSError behind a context-only chain not found (rnd65-28; caught by
tests/training/test_edges.py, not among files' files); a diagnostics step of one running value divided by two
(rnd65-33); the synthetic words one unit above the baseline (rnd65-34).

The planted bugs: the empty set's (0, 4) points (rnd65-06) or float64 ones; the words' height drawn around 1
(rnd65-34), with spread 1, or per point; keeps() running the full forward for an unmasked LSTM (rnd65-09) or every
masked cell; the small labels from 30 characters (rnd65-27) or from 61; the cause chain's context not followed
(rnd65-28), the cause alone, the context first; one running value divided by two (rnd65-33), the units not counted.
14 mutants. The old files named after each module (the loop-word file with the strokes module's) catch 2 (the
per-point height, by a strokes file; the units not counted, by a diagnostics file); the new files alone catch 14 of
14.

    python tests/mutants/run.py --only 'v479-*'
"""
from mutants_values442 import NEW_DIAGNOSTICS as NEW_442, OLD_DIAGNOSTICS as OLD_442  # the module's files to 442
from mutants_values462 import NEW_SAMPLE as NEW_462, OLD_SAMPLE as OLD_462  # the module's files to round 462
from mutants_values470 import OLD_FUNCTIONAL  # the module's files to round 470
from mutants_values478 import NEW_STROKES as NEW_478, OLD_STROKES as OLD_478  # the module's files to round 478

STROKES = "lnrnn/data/strokes.py"
FUNCTIONAL = "lnrnn/model/functional.py"
SAMPLE = "lnrnn/sample.py"
FILES = "lnrnn/files.py"
DIAGNOSTICS = "lnrnn/diagnostics.py"
NEW_STROKES = ["tests/data/test_values479_strokes.py"]
NEW_FUNCTIONAL = ["tests/model/test_values479_functional_keeps.py"]
NEW_SAMPLE = ["tests/test_values479_sampler_attention.py"]
NEW_FILES = ["tests/test_values479_files_cause_chain.py"]
NEW_DIAGNOSTICS = ["tests/test_values479_diagnostics_stats.py"]
OLD_STROKES = OLD_478 + NEW_478  # the files named after the module, and the loop-word file
OLD_SAMPLE = OLD_462 + NEW_462
OLD_DIAGNOSTICS = OLD_442 + NEW_442
OLD_FILES = ["tests/commands/test_files_unmade_names.py", "tests/commands/test_values229_files_predict_io_paths.py",
             "tests/commands/test_values305_files_predict_io_outputs.py",
             "tests/commands/test_values336_files_predict_io_outputs.py",
             "tests/commands/test_values9_output_files.py", "tests/data/test_values10_stroke_files.py",
             "tests/data/test_values116_stroke_files.py", "tests/data/test_values117_files.py",
             "tests/data/test_values126_stroke_files.py", "tests/data/test_values135_stroke_files.py",
             "tests/data/test_values170_stroke_files.py", "tests/data/test_values206_stroke_files.py",
             "tests/data/test_values21_stroke_files.py", "tests/data/test_values232_stroke_files.py",
             "tests/data/test_values244_stroke_files.py", "tests/data/test_values249_iamondb_files.py",
             "tests/data/test_values265_kanjivg_files.py", "tests/data/test_values275_stroke_files.py",
             "tests/data/test_values299_stroke_files.py", "tests/data/test_values324_stroke_files.py",
             "tests/data/test_values350_stroke_files.py", "tests/data/test_values361_arrays_files.py",
             "tests/data/test_values366_kanjivg_files.py", "tests/data/test_values402_stroke_files.py",
             "tests/data/test_values429_stroke_files.py", "tests/data/test_values53_stroke_files.py",
             "tests/data/test_values81_stroke_files.py", "tests/data/test_values_stroke_files.py",
             "tests/interop/test_values422_export_files.py", "tests/test_values116_files.py",
             "tests/test_values12_files.py", "tests/test_values131_files.py", "tests/test_values171_files.py",
             "tests/test_values214_gradcheck_files.py", "tests/test_values222_files.py",
             "tests/test_values23_files.py", "tests/test_values362_files.py", "tests/test_values386_files.py",
             "tests/test_values63_files.py", "tests/test_values91_files.py",
             "tests/training/test_values171_runfiles.py"]

EMPTY = "                       else np.zeros((0, 3), np.float32))                # (S, 3)"
HEIGHT = "    y = 0.5 * h * tall * (1 - np.cos(t)) + rng.normal(0, 2.0)        # (n,) above the baseline"
KEEPS = "    return keep or (lengths is not None and not spec.infer_seqs)"
LABELS = "fontsize=7 if U <= 30 else 5)"
CHAIN = "        e = e.__cause__ or e.__context__"
COUNT = "    n = np.maximum(w.sum(1) * a.shape[2], 1)                                  # (T,)"

MUTANTS = [
    dict(name="v479-empty-set-four-columns", file=STROKES, old=EMPTY, new=EMPTY.replace("(0, 3)", "(0, 4)"),
         tests=NEW_STROKES + OLD_STROKES, why="a split of no lines holds (0, 4) points, not the stroke-3 columns"),
    dict(name="v479-empty-set-float64", file=STROKES, old=EMPTY, new=EMPTY.replace(", np.float32))", "))"),
         tests=NEW_STROKES + OLD_STROKES, why="a split of no lines holds float64 points where every other is float32"),
    dict(name="v479-word-height-mean-one", file=STROKES, old=HEIGHT,
         new=HEIGHT.replace("normal(0, 2.0)", "normal(1, 2.0)"),
         tests=NEW_STROKES + OLD_STROKES, why="the synthetic words sit one unit above the baseline on average"),
    dict(name="v479-word-height-spread-one", file=STROKES, old=HEIGHT,
         new=HEIGHT.replace("normal(0, 2.0)", "normal(0, 1.0)"),
         tests=NEW_STROKES + OLD_STROKES, why="the words' heights spread half as far"),
    dict(name="v479-word-height-per-point", file=STROKES, old=HEIGHT,
         new=HEIGHT.replace("normal(0, 2.0)", "normal(0, 2.0, len(t))"),
         tests=NEW_STROKES + OLD_STROKES, why="a height drawn for every point, not one for the word"),
    dict(name="v479-keeps-unmasked-lstm", file=FUNCTIONAL, old=KEEPS, new=KEEPS.replace("and not", "or not"),
         tests=NEW_FUNCTIONAL + OLD_FUNCTIONAL, why="an LSTM's unmasked evaluation runs the full forward (rnd65-09)"),
    dict(name="v479-keeps-every-mask", file=FUNCTIONAL, old=KEEPS,
         new="    return keep or lengths is not None",
         tests=NEW_FUNCTIONAL + OLD_FUNCTIONAL, why="a masked RNN's evaluation runs the full forward"),
    dict(name="v479-labels-small-at-30", file=SAMPLE, old=LABELS, new=LABELS.replace("U <= 30", "U < 30"),
         tests=NEW_SAMPLE + OLD_SAMPLE, why="a line of 30 characters labelled at 5 points (rnd65-27)"),
    dict(name="v479-labels-large-to-60", file=SAMPLE, old=LABELS, new=LABELS.replace("U <= 30", "U <= 60"),
         tests=NEW_SAMPLE + OLD_SAMPLE, why="lines of 31-60 characters labelled at 7 points"),
    dict(name="v479-context-not-followed", file=FILES, old=CHAIN, new=CHAIN.replace(" or ", " and "),
         tests=NEW_FILES + OLD_FILES, why="a full disk behind a writer's context-only error ends in a traceback "
         "(rnd65-28)"),
    dict(name="v479-cause-only", file=FILES, old=CHAIN, new="        e = e.__cause__",
         tests=NEW_FILES + OLD_FILES, why="the chain followed by raise-from links alone"),
    dict(name="v479-context-before-cause", file=FILES, old=CHAIN, new="        e = e.__context__ or e.__cause__",
         tests=NEW_FILES + OLD_FILES, why="an error raised from one OSError while handling another names the other"),
    dict(name="v479-one-value-halved", file=DIAGNOSTICS, old=COUNT, new=COUNT.replace("], 1)", "], 2)"),
         tests=NEW_DIAGNOSTICS + OLD_DIAGNOSTICS, why="a step where one value runs divides by two (rnd65-33)"),
    dict(name="v479-units-not-counted", file=DIAGNOSTICS, old=COUNT, new=COUNT.replace(" * a.shape[2]", ""),
         tests=NEW_DIAGNOSTICS + OLD_DIAGNOSTICS, why="each step's figures divide by the rows, not rows x units"),
]
