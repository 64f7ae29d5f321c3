"""Planted bugs, round 143 (format: tests/mutants/mutants.py): single-line slips in the commands, on lines no
earlier round mutates.

lnrnn sample counting the distinct --text lines as its rows, refusing --judge without --text only when
--judge-out is given too, telling an --npz of another suffix to take the picture's name, loading the --judge
reader from the writer's folder, leaving a single line's text out of the .npz, naming the picture twice in its
report and swapping writer and reader in --judge-out's JSON; lnrnn info swapping the threads in use and their
limit, naming a BLAS pool's folder instead of its library file, reporting numpy's LAPACK as its BLAS and showing
an unset thread variable as empty; --hidden defaulting to 64 and --allow-pickle on where TrainConfig leaves
them; lnrnn train turning every OSError, a missing file too, into a full-disk message.

14 mutants. Against the existing targeted tests alone 6 were caught and 8 missed: the count of distinct lines (no
old test repeats a line), the --npz suffix hint (the old tests check the refusal, not the name it suggests), a
single line's texts in the .npz, the report's second file, the judge record's writer and reader, the threads in use
and their limit (equal under NUMBA_NUM_THREADS=1), numpy's LAPACK for its BLAS (wheels of numpy name scipy-openblas
for both) and any OSError made a user error (no old test raises one that is not a refusal). The new value tests
catch all 14 on their own (checked with the old tests taken off the lists): test_values143_sample_cli (the rows,
lengths, points and texts of two equal lines against lnrnn.sample_run for the same seed; the report's two files;
refusals of --judge without --text, an --npz of another suffix, an --out or --npz ending in a separator, naming a
folder, under a file, or in a read-only folder, each one 'Error:' line, exit 2, nothing written and the run never
loaded; a missing folder created; --judge-out's writer, reader, step, bias, seed and each line's character error
rate against an edit distance computed here), test_values143_info (the reported threads against numba's two counts
made to differ, BLAS pools and numpy's build from fakes of threadpoolctl and numpy.show_config, thread variables
set, empty and unset), test_values143_train_cli (the config the trainer gets against TrainConfig's own defaults,
field by field, and the options counted as given; refused writes against errno's refusals, other OSErrors kept).
Dropped as equivalent or near it: `count > 1` for `count != 1` in the plural (count is at least 1 by then), `if not
out` for `out is None` in lnrnn read (an empty --out is refused before), and the probe of info's threading layer
run on 9 items (only the layer is reported). lnrnn eval and lnrnn read get no mutant: their few lines no round
mutates are the run's loading, the progress bar's close and the printing loop that the old tests already check.

    python tests/mutants/run.py --only 'v143-*'
"""
SAMPLE = "lnrnn/commands/sample.py"
INFO = "lnrnn/commands/info.py"
OPTIONS = "lnrnn/commands/options.py"
TRAIN = "lnrnn/commands/train.py"

# existing tests of these modules
SAMPLE_OLD = ["tests/commands/test_values99_sample_cli.py", "tests/commands/test_values126_sample_cli.py",
              "tests/commands/test_values52_sample_cli.py", "tests/commands/test_values69_sample_errors.py",
              "tests/commands/test_sample_text.py", "tests/commands/test_judge.py",
              "tests/commands/test_values37_judge.py", "tests/commands/test_values_output_checks.py"]
INFO_OLD = ["tests/commands/test_values_info.py", "tests/commands/test_values37_info.py",
            "tests/commands/test_values69_plot_info.py"]
OPTIONS_OLD = ["tests/commands/test_values_options.py", "tests/commands/test_values32_options_errors.py",
               "tests/commands/test_values69_train_options.py", "tests/commands/test_values125_train_options.py"]
TRAIN_OLD = ["tests/commands/test_values13_train_command.py", "tests/commands/test_values_train_command.py",
             "tests/commands/test_values69_train_options.py", "tests/commands/test_values125_train_options.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
SAMPLE_NEW = ["tests/commands/test_values143_sample_cli.py"]
INFO_NEW = ["tests/commands/test_values143_info.py"]
OPTIONS_NEW = ["tests/commands/test_values143_train_cli.py"]
TRAIN_NEW = ["tests/commands/test_values143_train_cli.py"]

MUTANTS = [
    # ---- lnrnn sample: the rows of --text, refusals before the run loads, the .npz, the judge's record ----
    dict(name="v143-sample-count-of-distinct-lines", file=SAMPLE,
         old="        count = len(texts)\n",
         new="        count = len(set(texts))\n",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="--text given twice with the same line counts one row: the report says 1 line for 2 written rows "
             "(and the progress bar's total is short)"),
    dict(name="v143-sample-judge-without-text-only-with-judge-out", file=SAMPLE,
         old="    elif judge_path is not None:\n",
         new="    elif judge_path is not None and judge_out is not None:\n",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="--judge without --text is refused only when --judge-out is given too: otherwise the run (and the "
             "reader) load and the refusal comes late, from elsewhere, or not at all"),
    dict(name="v143-sample-npz-suffix-hint-from-out", file=SAMPLE,
         old="name it {os.path.splitext(str(npz))[0]}.npz.",
         new="name it {os.path.splitext(str(out))[0]}.npz.",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="an --npz with another suffix is told to take the picture's name with .npz, not its own"),
    dict(name="v143-sample-reader-loaded-from-the-writer", file=SAMPLE,
         old="        reader = load_run(judge_path)\n",
         new="        reader = load_run(path)\n",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="--judge loads the writer's run as the reader: a good reader is refused as not reading"),
    dict(name="v143-sample-npz-texts-only-for-several-lines", file=SAMPLE,
         old='dtype=str)} if texts else {}',
         new='dtype=str)} if len(texts) > 1 else {}',
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="the .npz of a single --text line leaves out its text"),
    dict(name="v143-sample-report-names-the-picture-twice", file=SAMPLE,
         old='    also = f" and {npz}" if npz else ""\n',
         new='    also = f" and {out}" if npz else ""\n',
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="the report's second file is the picture again, not the --npz written"),
    dict(name="v143-sample-judge-record-writer-reader-swapped", file=SAMPLE,
         old="writer=str(path), reader=str(judge_path)",
         new="writer=str(judge_path), reader=str(path)",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="--judge-out's JSON names the reader as the writer and the writer as the reader"),
    # ---- lnrnn info: the thread counts, the BLAS pools, numpy's build, the thread variables ----
    dict(name="v143-info-threads-in-use-and-limit-swapped", file=INFO,
         old="    return layer, numba.get_num_threads(), numba.config.NUMBA_NUM_THREADS\n",
         new="    return layer, numba.config.NUMBA_NUM_THREADS, numba.get_num_threads()\n",
         tests=INFO_NEW + INFO_OLD,
         why="'threads: X in use of Y' gives the limit as in use and the threads in use as the limit"),
    dict(name="v143-info-blas-pool-folder-not-file", file=INFO,
         old="os.path.basename(pool.get('filepath', ''))",
         new="os.path.dirname(pool.get('filepath', ''))",
         tests=INFO_NEW + INFO_OLD,
         why="a BLAS pool's line names the folder of its library, not the library file"),
    dict(name="v143-info-built-against-lapack", file=INFO,
         old='get("blas", {})',
         new='get("lapack", {})',
         tests=INFO_NEW + INFO_OLD,
         why="'numpy built against' reports the LAPACK numpy was built with, not its BLAS"),
    dict(name="v143-info-unset-variable-shown-empty", file=INFO,
         old="os.environ.get(v, 'unset')",
         new="os.environ.get(v, '')",
         tests=INFO_NEW + INFO_OLD,
         why="a thread variable that is not set reads as set to the empty string"),
    # ---- the shared options and lnrnn train ----
    dict(name="v143-options-hidden-default-64", file=OPTIONS,
         old='"--hidden", type=int, default=D.hidden',
         new='"--hidden", type=int, default=64',
         tests=OPTIONS_NEW + OPTIONS_OLD,
         why="--hidden defaults to 64 on the command line where TrainConfig leaves it to the task (400 for "
             "the strokes tasks), and the run records it as given"),
    dict(name="v143-options-allow-pickle-on-by-default", file=OPTIONS,
         old='"--allow-pickle", is_flag=True, default=D.allow_pickle',
         new='"--allow-pickle", is_flag=True, default=True',
         tests=OPTIONS_NEW + OPTIONS_OLD,
         why="strokes-npz files may unpickle (and run code) without --allow-pickle"),
    dict(name="v143-train-any-oserror-a-user-error", file=TRAIN,
         old="        raise e\n",
         new="        pass\n",
         tests=TRAIN_NEW + TRAIN_OLD,
         why="an OSError that is no file system's refusal (a missing file: a bug) is reported as a full disk "
             "with a --resume hint instead of raised"),
]
