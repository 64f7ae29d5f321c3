"""Planted bugs, round 424 (format: tests/mutants/mutants.py): a run's checkpoint.json damaged outside the model's
sizes, and input files of the same kind: the handwriting heads' offset scale (lnrnn/model/heads.py: check_scale), a
writer's and a reader's alphabet (lnrnn/sample.py: text_inputs, lnrnn/api.py: require_reader), the sections every
command reads and the arrays listing (lnrnn/training/checkpoint.py: load_checkpoint), the task's name
(lnrnn/data/tasks.py: task_spec), the forget bias (lnrnn/model/layers.py), an IAM-OnDB line whose offsets overflow
(lnrnn/data/iamondb.py: read_line), a prime whose lengths do not fit its points (lnrnn/sample.py: read_stroke3) and
which of several predict inputs is refused (lnrnn/predict_io.py: read_inputs); a description's dtype against the
saved weights (lnrnn/training/evaluation.py: check_saved_sizes) and a head description that is not an object
(lnrnn/model/heads.py: make_head, lnrnn/training/finetune.py); a resume whose saved hyper-parameters lost the
learning rate (lnrnn/training/setup.py), twentieth pass.

Writing this round's plan found real bugs, by setting each field and section of a writer's, a reader's and a
classifier's checkpoint.json in turn to null, a text, 0, -1, infinity, NaN, a list, an object or nothing, and
sampling, reading, evaluating and exporting from it: an infinite, zero or NaN scale ended in tracebacks
(matplotlib's axis limits, the reader's NaN check) and a negative one drew and read silently at a wrong size; an
alphabet one character short or with a repeat wrote the wrong letters silently; a reader without its alphabet was
called "not a handwriting reader"; a task, train or text section that is not an object, and a task name that is a
list, were AttributeErrors and TypeErrors; a NaN forget bias was exported into a file lnrnn's loader refuses; a
dtype of null rebuilt a float32 run in float64; a head that is not an object was dict()'s error in export and an
AttributeError in --init-from; a resume without its saved learning rate a KeyError; on input files, a line 2e308
wide printed NumPy's warnings, a prime's lengths were half checked, and predict did not say which of its inputs held
NaN. The planted bugs: the mixture density and CTC heads' scale unchecked; a scale of zero, of infinity, of one
number or of true let through; a writer's alphabet unchecked for its length or its repeats, compared with the
window's K, or sized from an attribute the stack does not have; a reader's repeats unchecked, its missing alphabet
called 'not a reader', its text record read as an object; the task section unchecked, an absent section or a null
text refused, an arrays listing's shape unchecked or taken with 1.5 and true; a task name that is a list; a forget
bias checked for NaN only or not at all; an IAM-OnDB line's overflow unchecked or warned about; a prime's lengths
unchecked for their sum or for a negative entry; a predict input left unnamed, or a reader's refusal named twice;
the dtype checked by name only, or required where none is given; make_head taking any config; --init-from reading a
head that is not an object; only an empty hyper-parameter table refused. 32 mutants. The old targeted files alone
(per module: OLD_HEADS, OLD_TEXT, OLD_READER, OLD_CHECKPOINT, OLD_TASKS, OLD_LAYERS, OLD_IAM, OLD_PRIME,
OLD_PREDICT, OLD_EVAL, OLD_FINETUNE, OLD_RESUME) catch 8 of 32: the writer's size key and skipped check, an absent
section and a null text refused, a reader's refusal named twice, a dtype required where none is given, and two that
this change's own updates of old files pin (test_values62_read's corrupt reader, test_values219_predict_io's named
file). test_values424_damaged_meta alone catches 32 of 32 (the text record by its hand-built Run, the twice-named
refusal by its .npz case, a description without a dtype by its function-level case, each added after a first run
missed it), so NEW + OLD does too (not run separately).

    python tests/mutants/run.py --only 'v424-*'
"""
NEW = ["tests/commands/test_values424_damaged_meta.py"]
HEADS = "lnrnn/model/heads.py"
SAMPLE = "lnrnn/sample.py"
API = "lnrnn/api.py"
CHECKPOINT = "lnrnn/training/checkpoint.py"
OLD_HEADS = ["tests/model/test_values381_heads.py", "tests/model/test_values364_heads.py",
             "tests/model/test_values343_heads.py", "tests/test_values378_sampler.py"]
OLD_TEXT = ["tests/test_values378_sampler.py", "tests/test_values126_sampler.py",
            "tests/commands/test_values52_sampler.py", "tests/commands/test_values292_sample_text.py"]
OLD_READER = ["tests/test_values343_api.py", "tests/test_values50_api.py", "tests/test_values140_api.py",
              "tests/commands/test_values62_read.py"]
OLD_CHECKPOINT = ["tests/training/test_checkpoint.py", "tests/training/test_values418_damaged_description.py",
                  "tests/training/test_values14_checkpoint.py"]
OLD_TASKS = ["tests/data/test_data.py", "tests/data/test_values200_tasks.py", "tests/data/test_values44_tasks.py"]
OLD_IAM = ["tests/data/test_values265_iamondb_points.py", "tests/data/test_values280_iamondb_xml.py",
           "tests/data/test_values15_iamondb.py"]
OLD_PRIME = ["tests/test_values126_sampler.py", "tests/test_values198_sampler.py", "tests/test_values378_sampler.py"]
OLD_PREDICT = ["tests/test_values219_predict_io.py", "tests/test_values34_predict_io.py",
               "tests/commands/test_values183_predict_io.py"]
OLD_EVAL = ["tests/commands/test_values423_saved_sizes.py", "tests/training/test_values418_damaged_description.py",
            "tests/test_values46_api.py"]
OLD_FINETUNE = ["tests/training/test_finetune.py", "tests/training/test_values326_evaluation_finetune.py"]
OLD_RESUME = ["tests/training/test_values418_damaged_description.py", "tests/training/test_values236_train_resume.py",
              "tests/training/test_values134_recorder_resume.py"]
OLD_LAYERS = ["tests/model/test_layers.py", "tests/model/test_values242_models.py"]

MUTANTS = [
    dict(name="v424-mdn-scale-unchecked", file=HEADS,
         old="        self.scale = check_scale(scale)\n", new="        self.scale = [float(s) for s in scale]\n",
         tests=NEW + OLD_HEADS,
         why="a writer's damaged scale is drawn with: infinity is matplotlib's traceback, -1 a mirrored line"),
    dict(name="v424-ctc-scale-unchecked", file=HEADS,
         old="        self.scale = None if scale is None else check_scale(scale)\n",
         new="        self.scale = None if scale is None else [float(v) for v in scale]\n",
         tests=NEW + OLD_HEADS,
         why="a reader's damaged scale divides its lines: 0 is the NaN check's traceback, -1 reads silently"),
    dict(name="v424-scale-zero-allowed", file=HEADS,
         old="        and np.isfinite(v) and v > 0 for v in scale)",
         new="        and np.isfinite(v) and v >= 0 for v in scale)",
         tests=NEW + OLD_HEADS,
         why="a zero scale draws every line flat and reads every line as infinities"),
    dict(name="v424-scale-infinite-allowed", file=HEADS,
         old="        and np.isfinite(v) and v > 0 for v in scale)",
         new="        and not np.isnan(v) and v > 0 for v in scale)",
         tests=NEW + OLD_HEADS,
         why="an infinite scale passes: matplotlib's 'Axis limits cannot be NaN or Inf' traceback"),
    dict(name="v424-scale-length-unchecked", file=HEADS,
         old="    ok = isinstance(scale, (list, tuple, np.ndarray)) and len(scale) == 2 and all(",
         new="    ok = isinstance(scale, (list, tuple, np.ndarray)) and len(scale) >= 1 and all(",
         tests=NEW + OLD_HEADS,
         why="a scale of one number passes: the sampler's unpacking error"),
    dict(name="v424-scale-true-taken", file=HEADS,
         old="        isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))\n",
         new="        isinstance(v, (int, float, np.integer, np.floating))\n",
         tests=NEW + OLD_HEADS,
         why="a scale of true is taken as 1"),
    dict(name="v424-writer-alphabet-length-unchecked", file=SAMPLE,
         old="    if C is not None and (len(alphabet) != C or len(set(alphabet)) != len(alphabet)):",
         new="    if C is not None and len(set(alphabet)) != len(alphabet):",
         tests=NEW + OLD_TEXT,
         why="an alphabet one character short writes every later character as its neighbour"),
    dict(name="v424-writer-repeat-unchecked", file=SAMPLE,
         old="    if C is not None and (len(alphabet) != C or len(set(alphabet)) != len(alphabet)):",
         new="    if C is not None and len(alphabet) != C:",
         tests=NEW + OLD_TEXT,
         why="an alphabet with a character twice encodes it by its first place only"),
    dict(name="v424-writer-size-key", file=SAMPLE,
         old='    C = getattr(model, "config", {}).get("alphabet_size")',
         new='    C = getattr(model, "config", {}).get("window")',
         tests=NEW + OLD_TEXT,
         why="the alphabet is compared with the window's K: every real writer is refused as corrupt"),
    dict(name="v424-writer-check-skipped", file=SAMPLE,
         old='    C = getattr(model, "config", {}).get("alphabet_size")',
         new='    C = getattr(model.stack, "alphabet_size", None)',
         tests=NEW + OLD_TEXT,
         why="the size read from an attribute the window stack does not have (it holds C): nothing is checked"),
    dict(name="v424-reader-repeat-unchecked", file=API,
         old="    if not isinstance(alphabet, str) or not alphabet or len(set(alphabet)) != len(alphabet):",
         new="    if not isinstance(alphabet, str) or not alphabet:",
         tests=NEW + OLD_READER,
         why="a reader's alphabet with a character twice transcribes two classes as one character"),
    dict(name="v424-reader-missing-alphabet-not-a-reader", file=API,
         old='    if head.kind != "ctc" or getattr(head, "scale", None) is None:',
         new='    if head.kind != "ctc" or getattr(head, "scale", None) is None or not isinstance(alphabet, str):',
         tests=NEW + OLD_READER,
         why="a reader that lost its alphabet is told to train a reader instead of being called corrupt"),
    dict(name="v424-reader-record-not-object", file=API,
         old='    alphabet = record.get("alphabet") if isinstance(record, dict) else None\n    if head.kind',
         new='    alphabet = (record or {}).get("alphabet")\n    if head.kind',
         tests=NEW + OLD_READER,
         why="a text record that is a list is an AttributeError"),
    dict(name="v424-section-task-unchecked", file=CHECKPOINT,
         old='    sections = [(k, isinstance(meta.get(k, {}), dict)) for k in ("task", "train")] + \\',
         new='    sections = [(k, isinstance(meta.get(k, {}), dict)) for k in ("train",)] + \\',
         tests=NEW + OLD_CHECKPOINT,
         why="a task section that is a text is an AttributeError in sample, a TypeError in eval"),
    dict(name="v424-section-absent-refused", file=CHECKPOINT,
         old='    sections = [(k, isinstance(meta.get(k, {}), dict)) for k in ("task", "train")] + \\',
         new='    sections = [(k, isinstance(meta.get(k), dict)) for k in ("task", "train")] + \\',
         tests=NEW + OLD_CHECKPOINT,
         why="a description without a train section (older runs, hand-written ones) is refused as corrupt"),
    dict(name="v424-section-null-text-refused", file=CHECKPOINT,
         old='        [("text", meta.get("text") is None or isinstance(meta["text"], dict))]',
         new='        [("text", isinstance(meta.get("text"), dict))]',
         tests=NEW + OLD_CHECKPOINT,
         why="every run without a text (a classifier) is refused as corrupt"),
    dict(name="v424-listing-shape-unchecked", file=CHECKPOINT,
         old="        isinstance(v, list) and len(v) == 2 and isinstance(v[0], list) and isinstance(v[1], str)\n",
         new="        isinstance(v, list) and len(v) == 2\n",
         tests=NEW + OLD_CHECKPOINT,
         why="a listed shape of null is a TypeError in the message that compares it with the array"),
    dict(name="v424-listing-whole-unchecked", file=CHECKPOINT,
         old="        and all(whole_number(n) for n in v[0]) for v in listing.values())",
         new="        and all(isinstance(n, (int, float)) for n in v[0]) for v in listing.values())",
         tests=NEW + OLD_CHECKPOINT,
         why="a listed shape of 1.5 or true passes the form check"),
    dict(name="v424-task-name-type", file="lnrnn/data/tasks.py",
         old="    if not isinstance(task, str) or task not in TASKS:",
         new="    if task not in TASKS:",
         tests=NEW + OLD_TASKS,
         why="a task name that is a list is 'unhashable type' in eval"),
    dict(name="v424-forget-bias-nan-only", file="lnrnn/model/layers.py",
         old="        if not np.isfinite(self.forget_bias):",
         new="        if np.isnan(self.forget_bias):",
         tests=NEW + OLD_LAYERS,
         why="an infinite forget bias is built and exported into a file lnrnn's loader refuses"),
    dict(name="v424-forget-bias-unchecked", file="lnrnn/model/layers.py",
         old="        if not np.isfinite(self.forget_bias):",
         new="        if self.forget_bias is None:",
         tests=NEW + OLD_LAYERS,
         why="a NaN forget bias trains NaN and is exported into a file lnrnn's loader refuses"),
    dict(name="v424-iam-overflow-unchecked", file="lnrnn/data/iamondb.py",
         old="    if not np.isfinite(seq).all():", new="    if np.isnan(seq).any():",
         tests=NEW + OLD_IAM,
         why="a line whose offsets overflow to infinity is read on, into the stroke check's words without the file"),
    dict(name="v424-iam-overflow-warns", file="lnrnn/data/iamondb.py",
         old='    with np.errstate(over="ignore", invalid="ignore"):',
         new='    with np.errstate(invalid="ignore"):',
         tests=NEW + OLD_IAM,
         why="NumPy's overflow warning is printed above the one-line refusal"),
    dict(name="v424-prime-sum-unchecked", file=SAMPLE,
         old="                not 1 <= lengths[0] <= len(a) or (lengths < 0).any() or int(lengths.sum()) != len(a):",
         new="                not 1 <= lengths[0] <= len(a) or (lengths < 0).any():",
         tests=NEW + OLD_PRIME,
         why="a prime whose lengths add up to fewer rows than its points (another file's) primes silently"),
    dict(name="v424-prime-negative-unchecked", file=SAMPLE,
         old="                not 1 <= lengths[0] <= len(a) or (lengths < 0).any() or int(lengths.sum()) != len(a):",
         new="                not 1 <= lengths[0] <= len(a) or int(lengths.sum()) != len(a):",
         tests=NEW + OLD_PRIME,
         why="a negative length that the others make up for passes"),
    dict(name="v424-predict-input-unnamed", file="lnrnn/predict_io.py",
         old='                raise type(e)(f"{f}: {e}") from None', new="                raise",
         tests=NEW + OLD_PREDICT,
         why="of several --input files, the one with NaN (or of another width, or empty) is not named"),
    dict(name="v424-predict-read-errors-renamed", file="lnrnn/predict_io.py",
         old="            data = _read_one(f, task)\n            try:\n                x = check_inputs(data,",
         new="            try:\n                data = _read_one(f, task)\n                x = check_inputs(data,",
         tests=NEW + OLD_PREDICT,
         why="the reader's refusals, which name the file already, name it twice"),
    dict(name="v424-dtype-name-only", file="lnrnn/training/evaluation.py",
         old='    if Wh is not None and "dtype" in config and D != Wh.dtype.name:',
         new='    if Wh is not None and "dtype" in config and D not in ("float32", "float64"):',
         tests=NEW + OLD_EVAL,
         why="a float32 run described as float64 is rebuilt in float64, silently"),
    dict(name="v424-dtype-absent-refused", file="lnrnn/training/evaluation.py",
         old='    if Wh is not None and "dtype" in config and D != Wh.dtype.name:',
         new='    if Wh is not None and D != Wh.dtype.name:',
         tests=NEW + OLD_EVAL,
         why="a description without a dtype is refused by the size check instead of build_model's own words"),
    dict(name="v424-make-head-any-config", file=HEADS,
         old="    if not isinstance(config, dict):\n        raise ValueError(f\"a head's config is an object",
         new="    if not config:\n        raise ValueError(f\"a head's config is an object",
         tests=NEW + OLD_HEADS,
         why="a head described as 'x' is refused in dict()'s words: 'dictionary update sequence element #0'"),
    dict(name="v424-init-from-head-items", file="lnrnn/training/finetune.py",
         old="if k not in HEAD_METRIC_ONLY} if isinstance(head, dict) else head",
         new="if k not in HEAD_METRIC_ONLY} if head is not None else head",
         tests=NEW + OLD_FINETUNE,
         why="--init-from a run whose head description is a text is an AttributeError"),
    dict(name="v424-resume-lr-unchecked", file="lnrnn/training/setup.py",
         old='    if "lr" not in hyper:          # the rate a resume continues with',
         new='    if not hyper:          # the rate a resume continues with',
         tests=NEW + OLD_RESUME,
         why="only an empty table is refused: saved hyper-parameters without the rate are a KeyError: 'lr'"),
]
