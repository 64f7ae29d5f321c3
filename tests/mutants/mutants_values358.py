"""Planted bugs, round 358 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the data preparation's --split parser (lnrnn/data/splits.py), the built task (lnrnn/data/taskdata.py),
the Hershey word list (lnrnn/data/words.py) and the IDX files (lnrnn/data/idx.py), eighteenth pass: --split
'1/2/3' taken as 1/2; a word in --split escaping as a bare ValueError; a task built without per_step scored on
every step; 'quite' typed 'quit' in the word list; uint8 arrays refused by write_idx (the '|' of their dtype kept
in the lookup key); gzip files read with zlib and refused as damaged; a leading dim of 1 squeezed out of the
written header (one image written as 2 dims); a dtype IDX has no code for escaping as a KeyError; no file ever
gzipped; a rewrite appended to the old file; only the plain standard name looked for in the data directory; a
directory with neither file reported present; one missing MNIST file not refused (a TypeError instead); the t10k
labels looked for under an idx3 name.

14 mutants. Against the old targeted files alone (each mutant's v358 files taken off its list): 3 of 14 caught;
missed: TaskData's per_step default, 'quite' typed 'quit', the dtype key keeping numpy's '|', a leading dimension of
1 squeezed, the float16 check dropped, nothing gzipped, a rewrite appending, the data folder searched under the
plain name only, a missing file found at its last candidate, one missing MNIST file not refused, the t10k labels
looked for under an idx3 name. The old targeted files are test_values_splits and test_values_words (the parser and
the list by definition), test_values249_idx_taskdata, test_values10_idx, test_values233_idx_gzip and
test_values280_idx_headers (IDX bytes and refusals). The new value tests catch every mutant on their own (checked
with the old files taken off the lists): test_values358_splits_words (--split at 1, 2, 7, 10, 11 and 101 taken as
written, three parts or a word refused word for word as a UserError; TaskData's documented defaults and its steps,
inputs and sizes against its arrays' shapes; the words holding j, q and z listed by hand from the list's text),
test_values358_idx (write_idx's bytes against headers packed by hand with struct: one uint8 2 x 3 image with N = 1,
int16 values past one byte and negative, gzip for a .gz name or compress=True and plain for compress=False; a
rewrite holding only the second array; float16 refused word for word with nothing written; a gzip file made with the
gzip module read back; the train and t10k files under the standard MNIST names, .gz and plain; one file missing
refused word for word; mnist_files_present False on an empty directory and with one file of two). Left out as
equivalent: the uint8 / ndim checks of load_mnist_split's images and labels (lines 124 and 126: the magic numbers
2051 = 0x00000803 and 2049 = 0x00000801 read before them already fix uint8 with 3 and 1 dims, so no file reaches
them with another dtype or ndim); write_idx's key taken without newbyteorder('=') (a big-endian dtype's str only
differs in the '>' that lstrip removes); write_idx's code looked up with .get (the check before it already refused
every missing key). Left out as a crash of the whole import rather than a value: TaskData's head default made a dict
(a dataclass refuses a mutable default when the class is defined).

    python tests/mutants/run.py --only 'v358-*'
"""
SPLITS = "lnrnn/data/splits.py"
TASKDATA = "lnrnn/data/taskdata.py"
WORDS = "lnrnn/data/words.py"
IDX = "lnrnn/data/idx.py"

T_SW = "tests/data/test_values358_splits_words.py::"
T_IDX = "tests/data/test_values358_idx.py::"
OLD_SW = ["tests/data/test_values_splits.py", "tests/data/test_values_words.py"]
OLD_IDX = ["tests/data/test_values249_idx_taskdata.py", "tests/data/test_values10_idx.py",
           "tests/data/test_values233_idx_gzip.py", "tests/data/test_values280_idx_headers.py"]

MUTANTS = [
    # ---- --split: lnrnn/data/splits.py ----
    dict(name="v358-splits-extra-parts-dropped", file=SPLITS,
         old='    parts = str(text).split("/")',
         new='    parts = str(text).split("/")[:2]',
         tests=[T_SW + "test_anything_but_two_counts_refused_word_for_word"] + OLD_SW,
         why="--split 1/2/3 is taken as 1/2 instead of refused"),
    dict(name="v358-splits-wrong-exception-caught", file=SPLITS,
         old="    except ValueError:",
         new="    except TypeError:",
         tests=[T_SW + "test_anything_but_two_counts_refused_word_for_word"] + OLD_SW,
         why="a word or a third part in --split escapes as a bare ValueError with a traceback, not a UserError"),
    # ---- the built task: lnrnn/data/taskdata.py ----
    dict(name="v358-taskdata-per-step-default-true", file=TASKDATA,
         old="    per_step: bool = False",
         new="    per_step: bool = True",
         tests=[T_SW + "test_a_task_built_with_its_required_fields_keeps_the_documented_defaults"] + OLD_SW + OLD_IDX[:1],
         why="a task built without per_step puts its head on every step instead of the last one"),
    # ---- the word list: lnrnn/data/words.py ----
    dict(name="v358-words-quite-typed-quit", file=WORDS,
         old="pretty prize pull push put queen question quick quiet quite race",
         new="pretty prize pull push put queen question quick quiet quit race",
         tests=[T_SW + "test_the_words_with_the_rare_letters_by_hand"] + OLD_SW,
         why="'quite' is typed 'quit': still sorted, lower case and unique, but another word is drawn"),
    # ---- IDX files: lnrnn/data/idx.py ----
    dict(name="v358-idx-dtype-key-keeps-bar", file=IDX,
         old='_DTYPE_CODES = {np.dtype(v).newbyteorder("=").str.lstrip("<>|="): k',
         new='_DTYPE_CODES = {np.dtype(v).newbyteorder("=").str.lstrip("<>="): k',
         tests=[T_IDX + "test_one_uint8_image_written_byte_for_byte"] + OLD_IDX,
         why="the uint8 and int8 keys keep numpy's '|': write_idx refuses uint8 images and labels"),
    dict(name="v358-idx-gzip-read-with-zlib", file=IDX,
         old="            raw = gzip.decompress(raw)",
         new="            raw = zlib.decompress(raw)",
         tests=[T_IDX + "test_a_gzip_file_made_here_reads_back"] + OLD_IDX,
         why="zlib does not take a gzip header: every .gz IDX file is refused as damaged"),
    dict(name="v358-idx-write-squeezes-dims", file=IDX,
         old="    arr = np.asarray(arr)\n    key =",
         new="    arr = np.asarray(arr).squeeze()\n    key =",
         tests=[T_IDX + "test_one_uint8_image_written_byte_for_byte"] + OLD_IDX,
         why="a dim of 1 is dropped from the written header: one image (1, 2, 3) is written as a 2-dim file"),
    dict(name="v358-idx-unknown-dtype-check-dropped", file=IDX,
         old="    if key not in _DTYPE_CODES:",
         new="    if key is None:",
         tests=[T_IDX + "test_float16_refused_word_for_word_with_nothing_written"] + OLD_IDX,
         why="a dtype IDX has no code for escapes as a KeyError instead of its ValueError sentence"),
    dict(name="v358-idx-never-compressed", file=IDX,
         old="    if compress:\n",
         new="    if compress is None:\n",
         tests=[T_IDX + "test_int16_past_one_byte_gzip_by_name_and_by_flag"] + OLD_IDX,
         why="no file is ever gzipped, neither for a .gz name nor for compress=True"),
    dict(name="v358-idx-rewrite-appends", file=IDX,
         old='    with open(path, "wb") as f:',
         new='    with open(path, "ab") as f:',
         tests=[T_IDX + "test_a_rewrite_replaces_the_file"] + OLD_IDX,
         why="writing over an existing file appends to it, leaving the old array in front"),
    dict(name="v358-idx-find-joins-stem", file=IDX,
         old="        p = os.path.join(data_dir, name)",
         new="        p = os.path.join(data_dir, stem)",
         tests=[T_IDX + "test_mnist_split_under_the_standard_names"] + OLD_IDX,
         why="only the plain standard name is looked for: .gz files and the .idx spelling are not found"),
    dict(name="v358-idx-find-returns-last-candidate", file=IDX,
         old="            return p\n    return None",
         new="            return p\n    return p",
         tests=[T_IDX + "test_files_present_only_when_both_are"] + OLD_IDX,
         why="a file that is not there is 'found' at its last candidate path: an empty directory is reported "
             "present"),
    dict(name="v358-idx-one-missing-not-refused", file=IDX,
         old="    if missing:",
         new="    if len(missing) > 1:",
         tests=[T_IDX + "test_one_file_missing_refused_word_for_word"] + OLD_IDX,
         why="the refusal fires only when both files are missing: one missing file ends in a TypeError"),
    dict(name="v358-idx-t10k-labels-name", file=IDX,
         old='    "t10k": ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"),',
         new='    "t10k": ("t10k-images-idx3-ubyte", "t10k-labels-idx3-ubyte"),',
         tests=[T_IDX + "test_mnist_split_under_the_standard_names"] + OLD_IDX,
         why="the t10k labels are looked for under an idx3 name that MNIST does not use"),
]
