"""Planted bugs, round 210 (format: tests/mutants/mutants.py): single-line slips on lines of the training
modules no earlier round mutates (an eighth pass over setup, optimizers, prewarm, fine-tuning, the update and
progress): a flat optimizer's state_dict() without a layout splitting its slot by None, and its saved
hyper-parameters without the learning rate; a progress bar taking any stream with an isatty method for a terminal,
a terminal note written without its carriage return, the bar's last line on a log ending with the erase code, the
compile note sent to stderr whatever stream it was given; --init-from's load_into naming this run's value as the
source's (theirs and ours swapped) and check_settings skipping --dtype, the last shape setting; a resume refusal
saying the run was trained with the value just given; the run's description naming --clip-output 0 (off) as on;
NaN in a batch blamed on the --out folder instead of the task; the first update's prewarm armed on every update but
the first; leaving an inner prewarm.armed() disarming an outer one; a function whose cache cannot be told counted
as not cached.

14 mutants. Against the existing targeted tests alone 12 were caught and 2 missed: the prewarm armed on every
update but the first (no old test records which updates arm it) and an inner armed() disarming the outer one (no
old test nests them). The old tests were measured on the 3-4 most direct files of each module. The new value tests
catch every mutant on their own (checked with the old files taken off the lists): test_values210_optim (Adam, SGD
with momentum and RMSProp on a flat array over six updates, each gradient clipped by clip_grad_norm, against
their update rules written in float64 NumPy from the definitions, with a gradient of norm exactly max_norm left
alone; the state saved after three updates without a layout holds the one flat slot the reference computes and the
learning rate, and a fresh optimizer of another rate loaded from a copy finishes the same run),
test_values210_progress (every line of a bar on a log and on a terminal word for word under a patched clock: the
fields, rate, ETA and elapsed time by hand; the compile note on its stream and nothing on stderr),
test_values210_setup_update (the resume refusal, the run's description, --init-from's dtype and hidden refusals
and the NaN-data error, each sentence written out; which updates arm the prewarm, through a recording armed();
nested armed() and _in_cache of a plain function and of an index file absent and present). Dropped before the
catalogue as equivalent or near it: Progress.line's filter of empty parts (no part is ever empty), the timer's
daemon flag (only a hanging process at exit would show it), "epochs != 1" as "epochs > 1" in the description (0
epochs is refused before), the base slots_kept as len(self.slots) (the same count).

    python tests/mutants/run.py --only 'v210-*'
"""
SETUP = "lnrnn/training/setup.py"
OPTIM = "lnrnn/training/optim.py"
PREWARM = "lnrnn/training/prewarm.py"
FINETUNE = "lnrnn/training/finetune.py"
UPDATE = "lnrnn/training/update.py"
PROGRESS = "lnrnn/training/progress.py"

# existing tests of these modules (the most direct files)
SETUP_OLD = ["tests/training/test_values_setup.py", "tests/training/test_values9_setup.py",
             "tests/training/test_values63_setup.py", "tests/training/test_values142_setup.py"]
OPTIM_OLD = ["tests/training/test_optim.py", "tests/training/test_values_optim.py",
             "tests/training/test_values157_optim.py", "tests/training/test_values180_optim.py"]
PREWARM_OLD = ["tests/training/test_prewarm.py", "tests/training/test_values32_prewarm.py",
               "tests/training/test_values70_prewarm.py"]
FINETUNE_OLD = ["tests/training/test_finetune.py", "tests/training/test_values_finetune.py",
                "tests/training/test_values63_finetune.py", "tests/training/test_values14_finetune.py"]
UPDATE_OLD = ["tests/training/test_values_update.py", "tests/training/test_values58_host_update.py",
              "tests/training/test_values114_update.py", "tests/training/test_values130_update.py"]
PROGRESS_OLD = ["tests/training/test_values_progress.py", "tests/training/test_values10_progress.py",
                "tests/training/test_values145_progress.py", "tests/training/test_values180_progress.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
OPTIM_NEW = ["tests/training/test_values210_optim.py"]
PROGRESS_NEW = ["tests/training/test_values210_progress.py"]
RUN_NEW = ["tests/training/test_values210_setup_update.py"]

MUTANTS = [
    # ---- optim: the state a checkpoint holds ----
    dict(name="v210-optim-state-split-without-a-layout", file=OPTIM,
         old="            if FLAT in d and layout is not None:",
         new="            if FLAT in d or layout is not None:",
         tests=OPTIM_NEW + OPTIM_OLD,
         why="state_dict() of a flat optimizer given no layout tries to split its slot by None (AttributeError) "
             "instead of keeping the one flat array"),
    dict(name="v210-optim-state-without-its-lr", file=OPTIM,
         old='"hyper": {"lr": self.lr, **self.hyper}',
         new='"hyper": dict(self.hyper)',
         tests=OPTIM_NEW + OPTIM_OLD,
         why="the saved hyper-parameters lose the learning rate: the state cannot be loaded back (KeyError 'lr')"),
    # ---- progress: the plain-line and terminal forms ----
    dict(name="v210-progress-any-stream-with-isatty-is-a-terminal", file=PROGRESS,
         old='self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()',
         new='self.tty = hasattr(self.stream, "isatty")',
         tests=PROGRESS_NEW + PROGRESS_OLD,
         why="a log file or StringIO (which have isatty, returning False) is drawn as a terminal: carriage "
             "returns and erase codes in the log"),
    dict(name="v210-progress-note-without-carriage-return", file=PROGRESS,
         old='self.stream.write(("\\r" + text + "\\033[K" if self.tty else text) + "\\n")',
         new='self.stream.write((text + "\\033[K" if self.tty else text) + "\\n")',
         tests=PROGRESS_NEW + PROGRESS_OLD,
         why="a note on a terminal is written after the bar drawn on its line instead of over it"),
    dict(name="v210-progress-close-erases-on-a-log", file=PROGRESS,
         old='+ extra + ("\\033[K" if self.tty else "") + "\\n")',
         new='+ extra + "\\033[K" + "\\n")',
         tests=PROGRESS_NEW + PROGRESS_OLD,
         why="the final line of a bar in a log file ends with a terminal's erase code"),
    dict(name="v210-progress-compile-note-to-stderr-whatever-the-stream", file=PROGRESS,
         old="            out = stream if stream is not None else sys.stderr",
         new="            out = sys.stderr",
         tests=PROGRESS_NEW + PROGRESS_OLD,
         why="the compile note ignores the stream it was given (the bar's) and goes to stderr"),
    # ---- finetune: refusals of another shape ----
    dict(name="v210-finetune-load-into-theirs-and-ours-swapped", file=FINETUNE,
         old='    theirs, ours = _shape_of(source.meta["model"]), _shape_of(model.config)',
         new='    theirs, ours = _shape_of(model.config), _shape_of(source.meta["model"])',
         tests=RUN_NEW + FINETUNE_OLD,
         why="a model setting that differs is refused naming this run's value as the source's and the other way "
             "round"),
    dict(name="v210-finetune-check-settings-skips-the-dtype", file=FINETUNE,
         old="    for name in SHAPE_SETTINGS:",
         new="    for name in SHAPE_SETTINGS[:-1]:",
         tests=RUN_NEW + FINETUNE_OLD,
         why="--dtype, the last shape setting, is not compared before the task is built: a float32 run from a "
             "float64 source gets past the early check"),
    # ---- setup: the resume refusal and the run's description ----
    dict(name="v210-setup-resume-refusal-old-and-new-swapped", file=SETUP,
         old='f"the run in {given.out} was trained with {flag} {old}, not {new}; "',
         new='f"the run in {given.out} was trained with {flag} {new}, not {old}; "',
         tests=RUN_NEW + SETUP_OLD,
         why="a resume given another shape setting says the run was trained with the value just given"),
    dict(name="v210-setup-describe-zero-clips-shown", file=SETUP,
         old="                     if v)  # Graves's derivative clips, when on",
         new="                     if v is not None)  # Graves's derivative clips, when on",
         tests=RUN_NEW + SETUP_OLD,
         why="the run's description names --clip-output 0 and --clip-gates 0 (off) as if they were on"),
    # ---- update: the data's fault, the first update's prewarm ----
    dict(name="v210-update-nan-data-names-the-out-folder", file=UPDATE,
         old='raise DataError(f"the training data of {trainer.cfg.task} hold NaN',
         new='raise DataError(f"the training data of {trainer.cfg.out} hold NaN',
         tests=RUN_NEW + UPDATE_OLD,
         why="NaN in a batch is blamed on the run's --out folder instead of the task's data"),
    dict(name="v210-update-prewarm-armed-after-the-first-update", file=UPDATE,
         old="        c, first = t.cfg, t.first_update_s is None",
         new="        c, first = t.cfg, t.first_update_s is not None",
         tests=RUN_NEW + UPDATE_OLD,
         why="the backward loops are prewarmed on every update but the first, the one that compiles them"),
    # ---- prewarm: nesting, unknown caches ----
    dict(name="v210-prewarm-nested-armed-disarms-the-outer", file=PREWARM,
         old='        _state["armed"] = old',
         new='        _state["armed"] = False',
         tests=RUN_NEW + PREWARM_OLD,
         why="leaving an inner armed() disarms an outer one still open: its later forwards start no child"),
    dict(name="v210-prewarm-unknown-cache-counts-as-cold", file=PREWARM,
         old="    except AttributeError:\n        return True",
         new="    except AttributeError:\n        return False",
         tests=RUN_NEW + PREWARM_OLD,
         why="a function whose cache cannot be told (not a cached dispatcher) counts as not cached: a child "
             "process is started for it on every cold first update"),
]
