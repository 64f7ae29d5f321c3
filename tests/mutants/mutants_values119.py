"""Planted bugs, round 119 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in decoding, the flat parameter buffer, the error rates and the eval, predict, plot, info and gradcheck
commands: best_path_array reading logp (T,B,C) batch-first; the prefix beam search dropping a prefix reached
through one of blank or label only, merging a new prefix with log 1 instead of log 0, and never extending by the
last class; FlatArrays' views copied, join dropping the dtype asked for; the rates testing the hypothesis for
emptiness, edit_distance returning the loop's row (unbound for an empty reference); lnrnn eval's sentence naming
--split instead of the set, predict --force's warning on stdout, plot's title skipping a run without config.json
and its separate-panels note for losses of one kind, info's CUDA paths line when CUDA is not usable, gradcheck's
summary giving the last error instead of the largest.

14 mutants. Against the existing targeted tests alone 11 were caught and 3 missed: plot's title with a run
lacking config.json (the old title tests give every run one), plot's note for losses of one kind (no old test
reads the summary line of runs of one kind) and info's CUDA paths line (no old test sets whether CUDA is
usable). The new value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values119_decode (prefix_beam_search as wide as the labellings against the sum over all C^T paths,
collapsed here, on uniform, random and last-class-heavy steps; best_path of a (T,B,C) batch with B != T and rows
of their own lengths against each step's argmax collapsed here), test_values119_flat (repack's layout, offsets,
views, zeroing and dtype against the definition; split's views of its argument, join's dtype and values),
test_values119_textmetrics (edit_distance, cer, wer and error_rates against the full Levenshtein table written
here; empty reference, empty hypothesis, words split on runs of spaces and tabs), test_values119_commands (eval's
sentence against evaluate_run's task and count; predict --force's one warning on stderr and its classes against
lnrnn.api.predict; plot's title and note with write_learning_curves recorded, the title rebuilt from
config.json; info_lines with cuda_usable set both ways; gradcheck's summary against the printed errors, the
checks faked). Dropped before the catalogue as equivalent: the empty prefix starting as label-ending
(beams = {(): (ninf, 0.0)}; its last label is never a class, so pb and pnb are never told apart); the two
threads figures of info swapped (equal under one thread, the only count the tests may use); edit_distance(h, r)
in error_rates (the distance is symmetric).

    python tests/mutants/run.py --only 'v119-*'
"""
DECODE = "lnrnn/model/decode.py"
FLAT = "lnrnn/model/flat.py"
TEXT = "lnrnn/textmetrics.py"
EVAL = "lnrnn/commands/eval.py"
PREDICT = "lnrnn/commands/predict.py"
PLOT = "lnrnn/commands/plot.py"
INFO = "lnrnn/commands/info.py"
GRADCHECK = "lnrnn/commands/gradcheck.py"

# existing tests of these modules
DECODE_OLD = ["tests/model/test_values_decode.py", "tests/model/test_values48_decode.py",
              "tests/model/test_values9_beam.py", "tests/model/test_beam.py"]
FLAT_OLD = ["tests/model/test_values_flat.py", "tests/model/test_values64_flat.py",
            "tests/model/test_values24_layers.py"]
TEXT_OLD = ["tests/test_values_textmetrics.py", "tests/test_values10_textmetrics.py",
            "tests/test_values37_textmetrics.py", "tests/test_values48_textmetrics.py",
            "tests/test_values62_textmetrics.py", "tests/test_values87_textmetrics.py"]
EVAL_OLD = ["tests/commands/test_values_eval_predict.py"]
PREDICT_OLD = ["tests/commands/test_values_eval_predict.py", "tests/commands/test_commands_careful.py"]
PLOT_OLD = ["tests/commands/test_values69_plot_info.py", "tests/commands/test_values46_plot_runs.py",
            "tests/commands/test_plot.py"]
INFO_OLD = ["tests/commands/test_values_info.py", "tests/commands/test_values37_info.py",
            "tests/commands/test_values69_plot_info.py"]
GRADCHECK_OLD = ["tests/commands/test_values96_gradcheck_plan.py", "tests/commands/test_values10_gradcheck.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
DECODE_NEW = ["tests/model/test_values119_decode.py"]
FLAT_NEW = ["tests/model/test_values119_flat.py"]
TEXT_NEW = ["tests/test_values119_textmetrics.py"]
COMMANDS_NEW = ["tests/commands/test_values119_commands.py"]

MUTANTS = [
    # ---- decoding: best path's sizes, the prefix beam search's merge and extensions ----
    dict(name="v119-best-path-time-and-batch-swapped", file=DECODE,
         old="    T, B, _ = logp.shape\n",
         new="    B, T, _ = logp.shape\n",
         tests=DECODE_NEW + DECODE_OLD,
         why="best_path_array reads logp (T,B,C) as batch-first: a batch of another size than its steps fails or "
             "masks the wrong steps"),
    dict(name="v119-beam-no-path-when-either-is-empty", file=DECODE,
         old="            if b == ninf and nb == ninf:",
         new="            if b == ninf or nb == ninf:",
         tests=DECODE_NEW + DECODE_OLD,
         why="a prefix reached only through a blank (or only through a label) at this step is dropped: every "
             "extension adds one of the two only, so the beam empties"),
    dict(name="v119-beam-merge-starts-from-log-1", file=DECODE,
         old="            ob, onb = new.get(prefix, (ninf, ninf))",
         new="            ob, onb = new.get(prefix, (0.0, 0.0))",
         tests=DECODE_NEW + DECODE_OLD,
         why="a prefix met for the first time at a step is merged with probability 1 (log 0.0) instead of 0: "
             "every score is off and the ranking follows it"),
    dict(name="v119-beam-last-class-never-extended", file=DECODE,
         old="            for c in range(C):\n",
         new="            for c in range(C - 1):\n",
         tests=DECODE_NEW + DECODE_OLD,
         why="the search never extends a prefix by the last class (off by one on the class range): labellings "
             "holding it are never found"),
    # ---- the flat buffer: views, join's dtype ----
    dict(name="v119-flat-views-are-copies", file=FLAT,
         old="        self.views = {name: data[off:off + int(np.prod(shape, dtype=np.int64))]"
             ".reshape(shape)\n",
         new="        self.views = {name: data[off:off + int(np.prod(shape, dtype=np.int64))]"
             ".reshape(shape).copy()\n",
         tests=FLAT_NEW + FLAT_OLD,
         why="each named array is a copy of its slice, not a view: an update of the buffer (optimizer step, "
             "zeroing) no longer reaches the dicts, nor a write to a dict the buffer"),
    dict(name="v119-flat-join-ignores-its-dtype", file=FLAT,
         old="        out = np.empty(self.data.size, dtype or self.data.dtype)",
         new="        out = np.empty(self.data.size, self.data.dtype)",
         tests=FLAT_NEW + FLAT_OLD,
         why="join(named, dtype=float64) on a float32 layout returns float32: the asked dtype is dropped"),
    # ---- error rates: the empty reference and the empty hypothesis ----
    dict(name="v119-rate-refuses-an-empty-hypothesis", file=TEXT,
         old="    if len(ref) == 0:\n",
         new="    if len(hyp) == 0:\n",
         tests=TEXT_NEW + TEXT_OLD,
         why="cer/wer test the wrong side for emptiness: an empty hypothesis (rate 1) is refused and an empty "
             "reference divides by zero"),
    dict(name="v119-edit-distance-returns-the-current-row", file=TEXT,
         old="    return prev[-1]\n\n\ndef _rate",
         new="    return cur[-1]\n\n\ndef _rate",
         tests=TEXT_NEW + TEXT_OLD,
         why="edit_distance returns the loop's row: the same list after the swap, but unbound for an empty "
             "reference (the distance is the hypothesis' length), so error_rates over a blank line fails"),
    # ---- commands: eval's sentence, predict's warning, plot's title and note, info's CUDA line, gradcheck ----
    dict(name="v119-eval-sentence-names-the-split", file=EVAL,
         old="on {which} of {task.description}",
         new="on {split} of {task.description}",
         tests=COMMANDS_NEW + EVAL_OLD,
         why="lnrnn eval's sentence names --split (None unless given) instead of the set it evaluated"),
    dict(name="v119-predict-force-warning-on-stdout", file=PREDICT,
         old="""        click.echo(f"Warning: {what}; predicting anyway (--force).", err=True)""",
         new="""        click.echo(f"Warning: {what}; predicting anyway (--force).")""",
         tests=COMMANDS_NEW + PREDICT_OLD,
         why="predict --force's warning goes to stdout, mixed with the result line a script reads"),
    dict(name="v119-plot-title-skips-a-run-without-config", file=PLOT,
         old="        except (OSError, ValueError, KeyError, TypeError):\n            return None",
         new="        except (OSError, ValueError, KeyError, TypeError):\n            continue",
         tests=COMMANDS_NEW + PLOT_OLD,
         why="a run without a readable config.json is skipped when titling: the others' settings title a picture "
             "that also holds a run nobody knows the settings of"),
    dict(name="v119-plot-note-for-one-kind-of-loss", file=PLOT,
         old="    if len(losses) > 1:\n",
         new="    if len(losses) >= 1:\n",
         tests=COMMANDS_NEW + PLOT_OLD,
         why="the 'their losses measure different things' note is printed for runs whose losses are one kind"),
    dict(name="v119-info-cuda-paths-when-not-usable", file=INFO,
         old="""        *([f"CUDA products and LSTM time loops: {_cuda_paths()}"] if usable else []),""",
         new="""        *([f"CUDA products and LSTM time loops: {_cuda_paths()}"] if not usable else []),""",
         tests=COMMANDS_NEW + INFO_OLD,
         why="lnrnn info describes the CUDA paths exactly when CUDA cannot be used, and not when it can"),
    dict(name="v119-gradcheck-summary-reports-the-last-error", file=GRADCHECK,
         old='click.echo(f"max relative error {worst:.2e}',
         new='click.echo(f"max relative error {err:.2e}',
         tests=COMMANDS_NEW + GRADCHECK_OLD,
         why="gradcheck's summary gives the last array's error as the largest"),
]
