"""Planted bugs, round 186 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates in
the data readers, the backend choice and config: --split's refusal quoting the list of its pieces instead of
what was typed; TaskData's defaults (objective 'mse', scale 1/255); the MNIST magics swapped, a wrong magic
reported as read little-endian, a truncated file's sentence counting the bytes after the header only,
write_idx's compress=False overridden by a .gz name, a missing file reported as unreadable, a folder lacking
both files naming the images file only, a file given as --data-dir passing the folder check, the count
mismatch naming the images file twice; cuda_usable testing cuda.is_available instead of calling it and
writing the compute capability minor.major; config's cache off when LNRNN_NO_CACHE is unset.

14 mutants. Against the existing targeted tests alone 2 were caught and 12 missed: only the swapped magics and
the little-endian magic in the refusal were seen (by test_values_idx and test_values69_idx); no old test
quoted a refusal's counts or file names whole, built a TaskData without its scale, wrote with compress=False,
faked a CUDA device, or read config in a fresh interpreter. The new value tests catch every mutant on their own
(checked with the old tests taken off the lists): test_values186_data (--split at 1/1, 2/1, 3/7, 11/101 is the
integers typed, a malformed one ends in the text typed, repr'd; a TaskData given only what it must have is a
classification task batched as stored; batches of 3 over a seeded permutation of 7, drawn again, have 3, 3 and
1 rows and together are the whole set, time-major), test_values186_idx (files packed here byte by byte: the
magics as type * 256 + dimensions, each refusal's one sentence with its counts and file names taken here,
compress=False on a .gz name writing the packed bytes), test_values186_backend (numba.cuda's is_available
and get_current_device replaced, the simulator turned off: no GPU gives the one reason, a device its name,
bytes decoded, and capability major.minor; an unknown device refused by name), test_values186_config (each
LNRNN_NO_CACHE setting in a fresh interpreter: unset and empty keep the cache on, "1" turns it off, in CACHE
and every flag set). Dropped as equivalent: load_mnist_split's uint8 check of the images (and of the labels)
left out: the magic read before it (2051 = 0x0803, 2049 = 0x0801) already holds the item type and the number
of dimensions, so an int16 file is refused by its magic and the check never fires; ``data_dir is None`` as
``not data_dir`` (an empty name is refused as a missing folder either way); kernels' ``== "cuda"`` as
``!= "cpu"`` (check_device lets only the two through); parse_split splitting once (a third piece still fails
int()). lnrnn/data/words.py is the word list alone, with no refusals: a misspelt, capitalized or repeated word
is caught by the old tests of its letters and order, so no mutant was planted there.

    python tests/mutants/run.py --only 'v186-*'
"""
SPLITS = "lnrnn/data/splits.py"
TASKDATA = "lnrnn/data/taskdata.py"
IDX = "lnrnn/data/idx.py"
BACKEND = "lnrnn/backend.py"
CONFIG = "lnrnn/config.py"

# existing tests of these modules
SPLITS_OLD = ["tests/data/test_values_splits.py"]
TASKDATA_OLD = ["tests/data/test_values_taskdata.py"]
IDX_OLD = ["tests/data/test_values_idx.py", "tests/data/test_values10_idx.py", "tests/data/test_values19_idx.py",
           "tests/data/test_values69_idx.py", "tests/data/test_values144_idx.py"]
BACKEND_OLD = ["tests/kernels/test_values_backend.py", "tests/kernels/test_values17_backend.py",
               "tests/kernels/test_values22_backend.py"]
CONFIG_OLD = ["tests/test_values_config.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
DATA_NEW = ["tests/data/test_values186_data.py"]
IDX_NEW = ["tests/data/test_values186_idx.py"]
BACKEND_NEW = ["tests/kernels/test_values186_backend.py"]
CONFIG_NEW = ["tests/test_values186_config.py"]

MUTANTS = [
    # ---- --split and a task's arrays ----
    dict(name="v186-split-refusal-shows-the-pieces", file=SPLITS,
         old="counts such as 8000/2000, not {text!r}.",
         new="counts such as 8000/2000, not {parts!r}.",
         tests=DATA_NEW + SPLITS_OLD,
         why="the refusal of a malformed --split quotes the list of its pieces (['10', '5', '1']) instead of "
             "what the user typed"),
    dict(name="v186-taskdata-default-objective-mse", file=TASKDATA,
         old='    objective: str = "ce" ',
         new='    objective: str = "mse"',
         tests=DATA_NEW + TASKDATA_OLD,
         why="a TaskData built without an objective is a regression task: a classification task that leaves "
             "the default would be trained on squared error"),
    dict(name="v186-taskdata-default-scale-pixels", file=TASKDATA,
         old="    scale: float = 1.0 ",
         new="    scale: float = 1 / 255",
         tests=DATA_NEW + TASKDATA_OLD,
         why="a TaskData built without a scale divides its batches by 255, as if every task held uint8 pixels"),
    # ---- IDX files ----
    dict(name="v186-idx-magics-swapped", file=IDX,
         old="IMAGES_MAGIC, LABELS_MAGIC = 2051, 2049",
         new="IMAGES_MAGIC, LABELS_MAGIC = 2049, 2051",
         tests=IDX_NEW + IDX_OLD,
         why="the images file is expected to carry the labels' magic (one dimension) and the other way round: "
             "every real MNIST folder is refused"),
    dict(name="v186-idx-bad-magic-read-little-endian", file=IDX,
         old="bad magic number ({int.from_bytes(raw[:4], 'big')}",
         new="bad magic number ({int.from_bytes(raw[:4], 'little')}",
         tests=IDX_NEW + IDX_OLD,
         why="the refusal of a wrong magic number reports the four bytes read little-endian (2049 shows as "
             "17303552)"),
    dict(name="v186-idx-truncated-counts-the-data-only", file=IDX,
         old="f\"but it holds {len(raw)} bytes",
         new="f\"but it holds {len(raw) - header} bytes",
         tests=IDX_NEW + IDX_OLD,
         why="a truncated file's sentence compares the whole size the header promises with the bytes after the "
             "header: the two counts are not of the same thing"),
    dict(name="v186-idx-compress-false-still-by-name", file=IDX,
         old="    if compress is None:\n",
         new="    if not compress:\n",
         tests=IDX_NEW + IDX_OLD,
         why="write_idx(..., compress=False) to a name ending in .gz gzips anyway: an explicit False is taken "
             "for 'decide by the name'"),
    dict(name="v186-idx-missing-file-as-unreadable", file=IDX,
         old="    except FileNotFoundError:\n",
         new="    except IsADirectoryError:\n",
         tests=IDX_NEW + IDX_OLD,
         why="a missing IDX file is reported as an unreadable one ('cannot read IDX file ...: No such file or "
             "directory.') instead of 'IDX file ... does not exist.'"),
    dict(name="v186-idx-missing-names-only-the-first", file=IDX,
         old="{' and '.join(missing)}",
         new="{missing[0]}",
         tests=IDX_NEW + IDX_OLD,
         why="a folder lacking both files of a split names only the images file: the user fetches it and is "
             "refused again for the labels"),
    dict(name="v186-idx-data-dir-a-file-passes", file=IDX,
         old="    if not os.path.isdir(data_dir):",
         new="    if not os.path.exists(data_dir):",
         tests=IDX_NEW + IDX_OLD,
         why="a --data-dir that names a file, not a folder, passes the folder check and is refused later as "
             "a folder that lacks the MNIST files"),
    dict(name="v186-idx-count-mismatch-names-images-twice", file=IDX,
         old="image{'s' * (len(images) != 1)} but {paths[1]} holds",
         new="image{'s' * (len(images) != 1)} but {paths[0]} holds",
         tests=IDX_NEW + IDX_OLD,
         why="the refusal of images and labels of different counts names the images file twice, never the "
             "labels file"),
    # ---- the backend choice ----
    dict(name="v186-backend-is-available-not-called", file=BACKEND,
         old="        if not cuda.is_available():",
         new="        if not cuda.is_available:",
         tests=BACKEND_NEW + BACKEND_OLD,
         why="the function is tested instead of its answer (always true): a machine without a GPU goes on to "
             "get_current_device and is reported as a driver that failed to initialize"),
    dict(name="v186-backend-capability-minor-major", file=BACKEND,
         old="{dev.compute_capability[0]}.{dev.compute_capability[1]})",
         new="{dev.compute_capability[1]}.{dev.compute_capability[0]})",
         tests=BACKEND_NEW + BACKEND_OLD,
         why="cuda_usable's reason gives the compute capability minor.major: an H200 (9, 0) reads 0.9"),
    # ---- config ----
    dict(name="v186-config-cache-off-without-the-variable", file=CONFIG,
         old='CACHE = os.environ.get("LNRNN_NO_CACHE", "") == ""',
         new='CACHE = os.environ.get("LNRNN_NO_CACHE") == ""',
         tests=CONFIG_NEW + CONFIG_OLD,
         why="the default of the environment lookup is dropped: with LNRNN_NO_CACHE unset Numba's cache is "
             "off, so every process compiles every kernel again"),
]
