"""Planted bugs, round 117 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, a fourth pass over the Python API, the per-step product's choice, thread blocks, BatchNorm and its parts,
Hershey strokes and IDX files: predict letting a row length of T+1 through; rec_choice deciding the per-step
product by dWh's ratio, falling to the BLAS when no record can be made whatever the rule by CPU kind, taking a
child's half record, in_turns keeping the clock's reading instead of a run's duration, LNRNN_REC_RECORD_DIR read
under another name and the record file named by the BLAS instead of the host key; block_rows not giving its rows
back; BatchNorm's inference mean read from the running variance; sum_parts starting from part 0's first columns
and part_rows ending where its last block starts; Hershey words laid out without the font's space; write_idx
writing the dimensions last first and parse_idx letting a file one item short through to NumPy.

14 mutants. Against the existing targeted tests alone 11 were caught and 3 missed (measured on the first two old
files of each list, the most direct ones, to keep the baseline short): predict's T+1 lengths (no old test passes
a length past T), in_turns' clock readings (no old test times in_turns: the choice tests give the ratios) and the
words without spaces (the Hershey files measured check line texts and word_strokes, not layout's offsets). The new value tests catch every mutant on their own (checked with the old files taken off the lists):
test_values117_api (predict's probabilities at every valid step against a plain LSTM and the head's softmax in
NumPy from the run's parameters, classes their argmax and -1 past each row's end, for batch sizes 1, 3 and N;
lengths outside 1..T refused in one line naming lengths), test_values117_rec_choice (in_turns on a faked clock
each run moves by a known amount; run_child on a faked subprocess whose last line lacks a ratio; the record
folder from the environment; a record written here under the host key read back with no measuring, each product
decided by its own ratio; a corrupt record measured again; no record possible keeping the rule, the reason
string in full), test_values117_bn_blocks (BatchNorm over the running rows of each step, its running rows and
inference against the definition in NumPy; part_rows against its blocks' rows for B not a multiple of the
blocks; sum_parts against NumPy's sum; batch_blocks under and after block_rows against the largest power of two
its docstring describes), test_values117_files (write_idx's bytes against the format laid out with
int.to_bytes; files with a wrong magic, short by items, or with more or fewer dimensions than their data
refused in one line naming the file; layout's points against the font's own polylines, each word shifted by the
glyphs' advance widths and the font's space).

Dropped before the catalogue: active_run treating a row that ends at step t as running (an empty run returned
at the same row: the loops over runs never end; a hang, not a realistic catch); the n_parts and run_chunks
thread-count lines (with one Numba thread, as the checks run, every thread count is 1: equivalent there); the
MNIST loader's ndim and dtype checks (the magic numbers 2051 and 2049 already fix uint8 and 3 or 1 dimensions:
equivalent); dx's zeroing of padded rows started one row late (np.empty_like's leftover bytes are often zeros:
a catch by chance). LNRNN_REC_GEMM's override lives in blas._choose_rec, not here, and is left to its own tests.

    python tests/mutants/run.py --only 'v117-*'
"""
API = "lnrnn/api.py"
REC = "lnrnn/kernels/cpu/rec_choice.py"
THREADS = "lnrnn/kernels/cpu/threads.py"
BN = "lnrnn/kernels/batchnorm.py"
PARTS = "lnrnn/kernels/bn_parts.py"
HERSHEY = "lnrnn/data/hershey.py"
IDX = "lnrnn/data/idx.py"

# existing tests of these modules
API_OLD = ["tests/test_values101_api.py", "tests/test_values46_api.py", "tests/test_values15_api.py"]
REC_OLD = ["tests/kernels/test_values71_rec_choice.py", "tests/kernels/test_rec_choice.py",
           "tests/kernels/test_values27_rec_choice.py"]
THREADS_OLD = ["tests/kernels/test_values71_threads.py", "tests/kernels/test_values27_threads.py",
               "tests/kernels/test_values9_threads.py", "tests/kernels/test_threads.py"]
BN_OLD = ["tests/kernels/test_values93_batchnorm.py", "tests/kernels/test_values65_batchnorm.py",
          "tests/kernels/test_values45_batchnorm.py", "tests/kernels/test_values31_batchnorm.py",
          "tests/kernels/test_batchnorm.py"]
PARTS_OLD = ["tests/kernels/test_values93_bn_parts.py", "tests/kernels/test_blocks.py"]
HERSHEY_OLD = ["tests/data/test_values89_hershey.py", "tests/data/test_values81_hershey.py",
               "tests/data/test_values59_hershey.py", "tests/data/test_values44_hershey.py",
               "tests/data/test_values_hershey.py"]
IDX_OLD = ["tests/data/test_values69_idx.py", "tests/data/test_values19_idx.py", "tests/data/test_values10_idx.py",
           "tests/data/test_values_idx.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
API_NEW = ["tests/test_values117_api.py"]
REC_NEW = ["tests/kernels/test_values117_rec_choice.py"]
KERNELS_NEW = ["tests/kernels/test_values117_bn_blocks.py"]
DATA_NEW = ["tests/data/test_values117_files.py"]

MUTANTS = [
    # ---- the Python API ----
    dict(name="v117-api-predict-lengths-past-T-let-through", file=API,
         old="np.any(lengths > T)",
         new="np.any(lengths > T + 1)",
         tests=API_NEW + API_OLD,
         why="predict accepts a row length of T+1, one step more than x holds"),
    # ---- the per-step product's choice ----
    dict(name="v117-rec-choice-dwh-ratio-decides-the-product", file=REC,
         old='choice = decide(rec["ratio"], rule)',
         new='choice = decide(rec["dwh_ratio"], rule)',
         tests=REC_NEW + REC_OLD,
         why="the per-step product is chosen by dWh's blocks' measured ratio, not the per-step shapes'"),
    dict(name="v117-rec-choice-unmeasured-falls-to-blas", file=REC,
         old='choice = rule[0], f"{rule[1]} (not measured',
         new='choice = "blas", f"{rule[1]} (not measured',
         tests=REC_NEW + REC_OLD,
         why="with no record, the BLAS is chosen whatever the rule by CPU kind says (the reason still names the rule)"),
    dict(name="v117-rec-choice-child-half-record-kept", file=REC,
         old="return out if whole(out) else None",
         new="return out",
         tests=REC_NEW + REC_OLD,
         why="a measuring child's output without both ratios is taken as a record"),
    dict(name="v117-rec-choice-in-turns-clock-not-subtracted", file=REC,
         old="times[r, i] = time.perf_counter() - t0",
         new="times[r, i] = time.perf_counter()",
         tests=REC_NEW + REC_OLD,
         why="in_turns records the clock's reading after a run, not the run's duration"),
    dict(name="v117-rec-choice-record-dir-env-misspelled", file=REC,
         old='if os.environ.get("LNRNN_REC_RECORD_DIR"):',
         new='if os.environ.get("LNRNN_REC_DIR"):',
         tests=REC_NEW + REC_OLD,
         why="LNRNN_REC_RECORD_DIR is looked up under another name: records go to the package and user caches"),
    dict(name="v117-rec-choice-record-named-by-blas", file=REC,
         old="        path = record_path(folder, key)",
         new="        path = record_path(folder, blas_name)",
         tests=REC_NEW + REC_OLD,
         why="the record file is named by the BLAS, not the host key: a record of this host is never found"),
    # ---- thread blocks ----
    dict(name="v117-threads-block-rows-not-restored", file=THREADS,
         old='        _BLOCKS["rows"] = old',
         new='        _BLOCKS["rows"] = rows',
         tests=KERNELS_NEW + THREADS_OLD,
         why="block_rows keeps its rows after the with block: every later batch is split by them"),
    # ---- BatchNorm and its parts ----
    dict(name="v117-bn-inference-mean-from-running-var", file=BN,
         old="            m_[k] = rm[k]",
         new="            m_[k] = rv[k]",
         tests=KERNELS_NEW + BN_OLD,
         why="inference normalizes by the running variance where the running mean belongs"),
    dict(name="v117-bn-parts-sum-parts-first-from-column-0", file=PARTS,
         old="out[k] = parts[0, k0 + k]",
         new="out[k] = parts[0, k]",
         tests=KERNELS_NEW + PARTS_OLD,
         why="sum_parts starts from part 0's columns [0, w), not [k0, k1)"),
    dict(name="v117-bn-parts-part-rows-end-at-last-block-start", file=PARTS,
         old="chunk_bounds(B, nblk, k1 - 1)[1]",
         new="chunk_bounds(B, nblk, k1 - 1)[0]",
         tests=KERNELS_NEW + PARTS_OLD,
         why="a part's rows end where its last block starts: the last block's rows belong to no part"),
    # ---- Hershey strokes ----
    dict(name="v117-hershey-layout-no-space-between-words", file=HERSHEY,
         old="x += width + space + rng.uniform",
         new="x += width + rng.uniform",
         tests=DATA_NEW + HERSHEY_OLD,
         why="words follow each other without the font's space"),
    # ---- IDX files ----
    dict(name="v117-idx-written-dims-reversed", file=IDX,
         old="for d in arr.shape)",
         new="for d in arr.shape[::-1])",
         tests=DATA_NEW + IDX_OLD,
         why="write_idx writes the dimensions last first: a (2, 3) array reads back as (3, 2)"),
    dict(name="v117-idx-short-by-one-item-not-refused", file=IDX,
         old="    if len(raw) < expected:",
         new="    if len(raw) < expected - dtype.itemsize:",
         tests=DATA_NEW + IDX_OLD,
         why="a file one item short passes the length check: numpy's ValueError, not a DataError naming the file"),
]
