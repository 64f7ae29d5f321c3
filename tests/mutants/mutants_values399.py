"""Planted bugs, round 399 (format: tests/mutants/mutants.py): single-line slips in the run set-up
(lnrnn/training/setup.py), twentieth pass, planted before any test was written for them.

The planted bugs: a checkpoint whose settings this lnrnn does not know refused as ones it does not accept;
--resume on a folder without a checkpoint advising to drop --out instead of --resume; a checkpoint lacking several
resume records refused naming only the first; a run moved since it was saved, resumed without --out given, keeping
the folder it was saved in; a new run into a folder holding one advising --resume to restart it; a batch the size
of the whole training split refused; the synthesis network's BatchNorm refusal taking --reproducible in one process;
a --best-metric the head does not report refused without naming none; an inherited --time-budget reading its used
seconds from a key the checkpoint does not write; a run started from --init-from not recording where it started;
the start line's '1 layers'; Graves's derivative clips shown in the start line when off. 12 mutants. Against the
old targeted files alone (the 13 set-up files listed in OLD): 7 of 12 caught; missed: the unknown-settings word,
the moved run keeping its saved folder, the existing run's --resume advice, the best-metric refusal without none,
the inherited budget's used seconds. test_values399_setup catches all 5: a checkpoint with a setting this lnrnn
does not know refused as not known, naming it; a new run into a folder holding one told word for word to pass
--resume to continue it, nothing written; --best-metric cer on the classifier task refused word for word, listing
loss, acc and none; a resume inheriting used_s 12.5 s of a 60 s budget (and 0 with the budget given again or no
budget record); a run moved to another folder and resumed without --out given writing where it now is. Alone it
catches 5 of 12 (not the no-checkpoint advice, the missing records' list, the batch bound, the BatchNorm synthesis
refusal, the --init-from record, the start line's plural and clips). Nothing left out as equivalent.

    python tests/mutants/run.py --only 'v399-*'
"""
SETUP = "lnrnn/training/setup.py"
NEW = ["tests/training/test_values399_setup.py"]
OLD = [
    "tests/training/test_values_setup.py",
    "tests/training/test_values9_setup.py",
    "tests/training/test_values63_setup.py",
    "tests/training/test_values114_setup.py",
    "tests/training/test_values142_setup.py",
    "tests/training/test_values180_setup_finetune.py",
    "tests/training/test_values210_setup_update.py",
    "tests/training/test_values260_setup.py",
    "tests/training/test_values279_plan_setup_evaluation.py",
    "tests/training/test_values321_setup.py",
    "tests/training/test_values348_setup.py",
    "tests/training/test_values371_runconfig_setup.py",
    "tests/training/test_finetune.py",
]

MUTANTS = [
    dict(name="v399-setup-unknown-settings-word", file=SETUP,
         old='f"know ({e}).")',
         new='f"accept ({e}).")',
         tests=NEW + OLD,
         why="a checkpoint from a newer lnrnn is refused as holding settings lnrnn does not accept, as if they "
             "were wrong, instead of settings it does not know"),
    dict(name="v399-setup-no-checkpoint-advice", file=SETUP,
         old='"drop --resume to start a new run there.")',
         new='"drop --out to start a new run there.")',
         tests=NEW + OLD,
         why="--resume on a folder without a checkpoint advises dropping --out instead of --resume"),
    dict(name="v399-setup-lacks-first-key-only", file=SETUP,
         old="lacks {', '.join(missing)}; it cannot be resumed.",
         new="lacks {missing[0]}; it cannot be resumed.",
         tests=NEW + OLD,
         why="a checkpoint lacking several resume records is refused naming only the first"),
    dict(name="v399-setup-moved-run-keeps-saved-out", file=SETUP,
         old="    resumed.out = out  # the run may have been moved since it was saved",
         new="    pass  # the run may have been moved since it was saved",
         tests=NEW + OLD,
         why="a run moved since it was saved and resumed without --out (the default run) writes to the folder "
             "it was saved in, not the one it is resumed from"),
    dict(name="v399-setup-existing-run-advice", file=SETUP,
         old="already holds a run; pass --resume to continue it,",
         new="already holds a run; pass --resume to restart it,",
         tests=NEW + OLD,
         why="a new run into a folder holding one advises --resume to restart it, as if the run were lost"),
    dict(name="v399-setup-batch-equal-to-data-refused", file=SETUP,
         old="    if cfg.batch_size > n:",
         new="    if cfg.batch_size >= n:",
         tests=NEW + OLD,
         why="a batch the size of the whole training split (one update per epoch) is refused"),
    dict(name="v399-setup-bn-synthesis-reproducible-allowed", file=SETUP,
         old="(group.size > 1 or cfg.reproducible)",
         new="(group.size > 1 and cfg.reproducible)",
         tests=NEW + OLD,
         why="the synthesis network with BatchNorm cells is taken with --reproducible (blocks of its own "
             "statistics) in one process, and with an MPI launcher without it"),
    dict(name="v399-setup-best-metric-refusal-drops-none", file=SETUP,
         old='f"reports {\', \'.join(model.metrics)}; choose one of them, or none.")',
         new='f"reports {\', \'.join(model.metrics)}; choose one of them.")',
         tests=NEW + OLD,
         why="a --best-metric the head does not report is refused without saying that none is a choice"),
    dict(name="v399-setup-budget-used-key", file=SETUP,
         old='.get("used_s", 0.0))',
         new='.get("used", 0.0))',
         tests=NEW + OLD,
         why="an inherited --time-budget reads the seconds used from a key the checkpoint does not write: "
             "every resume starts the budget afresh"),
    dict(name="v399-setup-init-from-record-lost", file=SETUP,
         old="init_record, used = (source.record if source is not None else None), 0.0",
         new="init_record, used = None, 0.0",
         tests=NEW + OLD,
         why="a new run started from --init-from does not record where it started (no init record, no "
             "'starting from' in its start line)"),
    dict(name="v399-setup-describe-one-layer-plural", file=SETUP,
         old="layer{'s' * (c.layers > 1)}",
         new="layer{'s' * (c.layers >= 1)}",
         tests=NEW + OLD,
         why="the start line says '1 layers'"),
    dict(name="v399-setup-describe-graves-clips-inverted", file=SETUP,
         old="                     if v)  # Graves's derivative clips, when on",
         new="                     if not v)  # Graves's derivative clips, when on",
         tests=NEW + OLD,
         why="the start line shows Graves's derivative clips when they are off (as 0) and hides them when on"),
]
