"""Planted bugs, round 418 (format: tests/mutants/mutants.py): a damaged or hand-edited checkpoint.json refused
before a resume runs (lnrnn/training/runconfig.py's mistyped, setup.py's resume_problem, optim.py's hyper_problem,
checkpoint.py's forms of the description's own fields, evaluation.py's model rebuilt), twentieth pass.

Writing this round's plan found a real bug, by editing each field of a run's checkpoint.json in turn to a text, a
negative number, infinity, null, a list and 2**70 and resuming: about fifty places ended in a TypeError, ValueError,
OverflowError or ZeroDivisionError inside the run (an Adam beta1 of -1 divided by zero at the second update). The
planted bugs: an int refused where a float is declared; a bool taken for a number; None taken in a field that is not
Optional; a count of 0 refused; a time of 0 refused; a best value not set yet refused; an absent ranks record
refused; a decay factor of 1 taken; an eps of 0 taken; an out-of-range generator state escaping as OverflowError;
the check skipped (a damaged run resumed anyway); a model description of infinite or impossibly large sizes escaping
lnrnn eval as OverflowError or MemoryError (found by the same edits through lnrnn eval, export and predict). 13
mutants. The old targeted setup, run-file, checkpoint, optimizer-state and evaluation files alone (OLD) catch 3 of
13 (a count of 0, a time of 0 and an absent ranks record refused, through their whole stand-in runs); missed: the
three type rules, the best value not set, both hyper-parameter ranges, the generator's OverflowError, the check
skipped and both model-size escapes. test_values418_damaged_description trains a two-update run, edits one field at
a time, requires the exact sentence and the folder unchanged for 28 damaged values, takes 18 whole ones (records
absent, None where unset, zeros, lnrnn 0.1's list), resumes the run itself, and requires lnrnn eval's one sentence
for model sizes of infinity and 10**8. NEW + OLD catch 13 of 13; the new file alone catches 13 of 13 (its first
version missed a time of 0 refused; zeros were added to the whole values). Nothing left out as equivalent.

    python tests/mutants/run.py --only 'v418-*'
"""
# the checks of mistyped and hyper_problem alone moved to files named after their modules (round 427)
NEW = ["tests/training/test_values418_damaged_description.py", "tests/training/test_values427_runconfig.py",
       "tests/training/test_values427_optim.py"]
OLD = [
    "tests/training/test_values142_setup.py",
    "tests/training/test_values171_runfiles.py",
    "tests/training/test_values321_setup.py",
    "tests/training/test_values348_setup.py",
    "tests/training/test_values399_setup.py",
    "tests/training/test_values142_checkpoint.py",
    "tests/training/test_checkpoint.py",
    "tests/training/test_values370_optim_checkpoint.py",
    "tests/training/test_values185_evaluation.py",
    "tests/training/test_values130_evaluation.py",
]
SETUP, CONFIG, OPTIM = "lnrnn/training/setup.py", "lnrnn/training/runconfig.py", "lnrnn/training/optim.py"
EVAL = "lnrnn/training/evaluation.py"

MUTANTS = [
    dict(name="v418-an-int-is-no-float", file=CONFIG,
         old="        ok = isinstance(value, (int, float) if kind is float else kind)",
         new="        ok = isinstance(value, kind)",
         tests=NEW + OLD,
         why="a run whose lr (or clip, time budget) was saved as a whole number cannot be resumed"),
    dict(name="v418-a-bool-is-a-number", file=CONFIG,
         old="        if not ok or (kind is not bool and isinstance(value, bool)):",
         new="        if not ok:",
         tests=NEW + OLD,
         why="seed true or hidden true passes as the number 1"),
    dict(name="v418-none-anywhere", file=CONFIG,
         old="        if value is None and optional:", new="        if value is None:",
         tests=NEW + OLD,
         why="a null cell, batch size or lr passes the check and fails deep in the run"),
    dict(name="v418-a-count-of-zero-refused", file=SETUP,
         old="(isinstance(value, int) and value >= 0)", new="(isinstance(value, int) and value > 0)",
         tests=NEW + OLD,
         why="a run stopped in its first epoch (epoch 0) cannot be resumed"),
    dict(name="v418-a-time-of-zero-refused", file=SETUP,
         old="    if kind == SECONDS and value < 0:", new="    if kind == SECONDS and value <= 0:",
         tests=NEW + OLD,
         why="a run that spent no time compiling (compile_time_s 0) cannot be resumed"),
    dict(name="v418-best-value-not-set-refused", file=SETUP,
         old='"budget.time_budget", "best_state.value",', new='"budget.time_budget",',
         tests=NEW + OLD,
         why="a run with no best checkpoint yet (best value null) cannot be resumed"),
    dict(name="v418-ranks-required", file=SETUP,
         old='"best_state", "ranks", "lr_changes")', new='"best_state", "lr_changes")',
         tests=NEW + OLD,
         why="a description written before the ranks record (absent) cannot be resumed"),
    dict(name="v418-a-decay-of-one-taken", file=OPTIM,
         old="and not 0 <= v < 1:", new="and not 0 <= v <= 1:",
         tests=NEW + OLD,
         why="a beta2 of 1 passes: Adam's bias correction divides by zero"),
    dict(name="v418-an-eps-of-zero-taken", file=OPTIM,
         old='        if name in ("lr", "eps") and not v > 0:', new='        if name in ("lr",) and not v > 0:',
         tests=NEW + OLD,
         why="an eps of 0 passes: an untouched parameter's update divides by zero"),
    dict(name="v418-generator-overflow-escapes", file=SETUP,
         old="    except (TypeError, ValueError, OverflowError, KeyError) as e:",
         new="    except (TypeError, ValueError, KeyError) as e:",
         tests=NEW + OLD,
         why="a generator state out of uint64's range escapes as an OverflowError traceback"),
    dict(name="v418-check-skipped", file=SETUP,
         old="    wrong = resume_problem(meta)\n    if wrong:",
         new="    wrong = None\n    if wrong:",
         tests=NEW + OLD,
         why="a damaged description is resumed anyway and fails inside the run"),
    dict(name="v418-model-size-overflow-escapes", file=EVAL,
         old="    except (TypeError, ValueError, KeyError, OverflowError, MemoryError) as e:",
         new="    except (TypeError, ValueError, KeyError, MemoryError) as e:",
         tests=NEW + OLD,
         why="a model description of infinite layers ends lnrnn eval in an OverflowError traceback"),
    dict(name="v418-model-size-memory-escapes", file=EVAL,
         old="    except (TypeError, ValueError, KeyError, OverflowError, MemoryError) as e:",
         new="    except (TypeError, ValueError, KeyError, OverflowError) as e:",
         tests=NEW + OLD,
         why="a model description of a hidden size beyond any memory ends lnrnn eval in a MemoryError traceback"),
]
