"""Planted bugs, round 40 (format: tests/mutants/mutants.py): single-line slips in data preparation, run folders,
config files and the CPU BLAS wrappers, on lines no earlier round mutates: offset_scale's standard deviation
(population, as defined, not the sample's), make_task's count of points per split, the synthetic spikes' row
(never row 0, which the glitch fix keeps) and the validation lines' own seeded stream; IDX's big-endian bytes
written and native ones read back, a split present only with both of its files, labels as int64; a stroke file's
lengths adding up to exactly its rows and an upper-case extension; run folders in number order past ten, the
lock file's "pid host started" and a live pid of another user (EPERM) counted alive; config keys with two dashes
read back; sgemm's leading dimension of a transposed A with K != M, np.dot's path keeping trans_a, and matmul's
chunks of one row.

17 mutants. Against the existing targeted tests alone 12 were caught and 5 missed: strokes-synthetic's validation
lines drawn from the training stream, mnist_files_present true with one of the two files, lengths adding up to
fewer rows than the strokes hold, _alive calling a live process of another user dead, and matmul skipping chunks
of a single row. The new value tests catch every mutant: test_values40_data (the synthetic task's train and val
lines against the generator's two streams, glitch-fixed and divided by the training scale by hand, and no val
line equal to a train line; each file of a split alone, then both in the dotted spelling; lengths summing to
fewer or more rows than the strokes refused by load and read_lines), test_values40_rundir (_alive on a faked
kill raising EPERM, ESRCH or nothing, and a lock without flock held by another user's live pid),
test_values40_gemm (gemm and gemm_add with A or W strided or both C-contiguous, plain and transposed, K != M !=
N, against sums by hand; matmul with 1 to 8 chunks over 1 to 5 rows against A @ W). One mutant written was
dropped as equivalent: _contiguous not checking the output, which would send a strided output to MKL with
ldc = N; no caller can pass one, since gemm and gemm_add compile np.dot(..., out) for a non-C-contiguous output
and Numba refuses that at typing (an AssertionError), with or without the bug.

    python tests/mutants/run.py --only 'v40-*'
"""
STROKES = "lnrnn/data/strokes.py"
IDX = "lnrnn/data/idx.py"
SFILES = "lnrnn/data/stroke_files.py"
RUNDIR = "lnrnn/training/rundir.py"
RUNCONFIG = "lnrnn/training/runconfig.py"
BLAS = "lnrnn/kernels/cpu/blas.py"
GEMM = "lnrnn/kernels/cpu/gemm.py"

# existing tests of these modules
STROKES_OLD = ["tests/data/test_strokes_data.py", "tests/data/test_values_strokes.py",
               "tests/data/test_values12_strokes.py", "tests/data/test_values20_strokes.py",
               "tests/data/test_values21_strokes.py", "tests/data/test_text_strokes.py",
               "tests/data/test_values_data_counts.py"]
IDX_OLD = ["tests/data/test_values_idx.py", "tests/data/test_values10_idx.py", "tests/data/test_values19_idx.py",
           "tests/data/test_data.py"]
SFILES_OLD = ["tests/data/test_values_stroke_files.py", "tests/data/test_values10_stroke_files.py",
              "tests/data/test_values21_stroke_files.py", "tests/data/test_strokes_data.py"]
RUNDIR_OLD = ["tests/training/test_values_rundir.py", "tests/training/test_values15_rundir.py",
              "tests/training/test_runs.py"]
RUNCONFIG_OLD = ["tests/training/test_values_runconfig.py", "tests/training/test_values13_runconfig.py",
                 "tests/commands/test_cli_train_config.py"]
BLAS_OLD = ["tests/kernels/test_values_blas.py", "tests/kernels/test_gemm.py"]
GEMM_OLD = ["tests/kernels/test_gemm.py", "tests/kernels/test_races.py::test_column_sums_and_weight_gradient_gemm"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
D40 = "tests/data/test_values40_data.py"
K40 = "tests/kernels/test_values40_gemm.py"
STROKES_NEW = [f"{D40}::test_synthetic_validation_lines_are_their_own_streams_by_hand"]
IDX_NEW = [f"{D40}::test_a_split_is_present_only_with_both_of_its_files"]
SFILES_NEW = [f"{D40}::test_lengths_must_add_up_to_exactly_the_rows"]
RUNDIR_NEW = ["tests/training/test_values40_rundir.py"]
BLAS_NEW = [f"{K40}::test_products_of_strided_and_transposed_operands_by_hand"]
GEMM_NEW = [f"{K40}::test_matmul_with_one_row_chunks"]

MUTANTS = [
    # ---- strokes: normalization statistics, counts, the synthetic spikes ----
    dict(name="v40-strokes-scale-sample-std", file=STROKES,
         old="    s = d.std(axis=0) if len(d) else np.ones(2)",
         new="    s = d.std(axis=0, ddof=1) if len(d) else np.ones(2)",
         tests=STROKES_NEW + STROKES_OLD,
         why="offset_scale takes the sample standard deviation (n - 1), not the std over the offsets the "
             "docstring defines: the normalized training offsets no longer have unit std"),
    dict(name="v40-strokes-points-counts-lines", file=STROKES,
         old='points=[int(sets[w].starts[-1]) for w in ("train", "val")]',
         new='points=[len(sets[w]) for w in ("train", "val")]',
         tests=STROKES_NEW + STROKES_OLD,
         why="the task's extra 'points' counts each split's lines, not its points"),
    dict(name="v40-strokes-spike-on-row-0", file=STROKES,
         old="i = int(rng.integers(1, len(seq) - 1))",
         new="i = int(rng.integers(0, len(seq) - 1))",
         tests=STROKES_NEW + STROKES_OLD,
         why="a synthetic spike may land on row 0, which drop_long_steps always keeps: the line starts with a "
             "3000-unit offset and only one of the spike's two glitch steps is dropped"),
    dict(name="v40-strokes-val-stream-is-train", file=STROKES,
         old="np.random.default_rng([DATA_SEED, 1])",
         new="np.random.default_rng([DATA_SEED, 0])",
         tests=STROKES_NEW + STROKES_OLD,
         why="strokes-synthetic's validation lines come from the training stream: they repeat the first "
             "training lines"),
    # ---- IDX: byte order, the files present, the labels' dtype ----
    dict(name="v40-idx-write-native-bytes", file=IDX,
         old="np.ascontiguousarray(arr, dtype=_IDX_TYPES[code])",
         new="np.ascontiguousarray(arr, dtype=arr.dtype)",
         tests=IDX_NEW + IDX_OLD,
         why="write_idx stores the data in native (little-endian) byte order where IDX is big-endian: every "
             "multi-byte type reads back byte-swapped"),
    dict(name="v40-idx-read-keeps-big-endian", file=IDX,
         old='return arr.astype(dtype.newbyteorder("="))',
         new="return arr.astype(dtype)",
         tests=IDX_NEW + IDX_OLD,
         why="parse_idx returns big-endian arrays, where its docstring promises native byte order"),
    dict(name="v40-idx-files-present-either", file=IDX,
         old="return all(_find(data_dir, s) is not None",
         new="return any(_find(data_dir, s) is not None",
         tests=IDX_NEW + IDX_OLD,
         why="mnist_files_present says a split is there when only its images (or labels) file is"),
    dict(name="v40-idx-labels-stay-uint8", file=IDX,
         old="return images, labels.astype(np.int64)",
         new="return images, labels",
         tests=IDX_NEW + IDX_OLD,
         why="load_mnist_split returns uint8 labels where its docstring says int64"),
    # ---- stroke files: lengths against rows, the extension's case ----
    dict(name="v40-stroke-files-short-lengths-taken", file=SFILES,
         old="if int(lengths.sum()) != len(strokes):",
         new="if int(lengths.sum()) > len(strokes):",
         tests=SFILES_NEW + SFILES_OLD,
         why="lengths adding up to fewer rows than the strokes hold are taken: the last sequence silently "
             "gets the rows left over"),
    dict(name="v40-stroke-files-extension-case", file=SFILES,
         old="ext = os.path.splitext(text)[1].lower()",
         new="ext = os.path.splitext(text)[1]",
         tests=SFILES_NEW + SFILES_OLD,
         why="read_lines refuses LINE.NPY (an upper-case extension) as not a stroke file"),
    # ---- run folders: number order, the lock's holder ----
    dict(name="v40-rundir-folders-in-name-order", file=RUNDIR,
         old="    return sorted(found)\n",
         new="    return sorted(found, key=lambda f: f[1])\n",
         tests=RUNDIR_NEW + RUNDIR_OLD,
         why="default_folders sorts by path, not number: default-10 comes before default-2"),
    dict(name="v40-rundir-lock-host-first", file=RUNDIR,
         old='f"{os.getpid()} {me} {time.strftime(',
         new='f"{me} {os.getpid()} {time.strftime(',
         tests=RUNDIR_NEW + RUNDIR_OLD,
         why="the lock file holds 'host pid started': _holder reads no pid, so a run without flock takes over a "
             "live holder's folder and the messages name no pid"),
    dict(name="v40-rundir-other-users-pid-dead", file=RUNDIR,
         old="    except PermissionError:\n        return True",
         new="    except PermissionError:\n        return False",
         tests=RUNDIR_NEW + RUNDIR_OLD,
         why="_alive calls a live process of another user (kill -> EPERM) dead: without flock its folder is "
             "taken over"),
    # ---- config files: every option's key ----
    dict(name="v40-runconfig-first-dash-only", file=RUNCONFIG,
         old='name = str(key).replace("-", "_")',
         new='name = str(key).replace("-", "_", 1)',
         tests=RUNCONFIG_OLD,
         why="a config key with two dashes (save-every-seconds, eval-batch-size) is unknown: config.json of a "
             "run holding one cannot be read back"),
    # ---- BLAS wrappers: transposed and strided operands ----
    dict(name="v40-blas-sgemm-lda-k", file=BLAS,
         old="A.ctypes.data, A.shape[1], W.ctypes.data, N,\n                np.float32(1.0 if add",
         new="A.ctypes.data, K, W.ctypes.data, N,\n                np.float32(1.0 if add",
         tests=BLAS_NEW + BLAS_OLD,
         why="sgemm gets lda K: right for A (M,K), wrong for the transposed A (K,M) of a weight gradient "
             "where K != M (float32 only)"),
    dict(name="v40-blas-dot-trans-dropped", file=BLAS,
         old="        np.dot(A.T, W, out)\n",
         new="        np.dot(A, W, out)\n",
         tests=BLAS_NEW + BLAS_OLD,
         why="np.dot's path (no MKL, or strided operands) forgets trans_a: A @ W for a square A, an error "
             "otherwise"),
    # ---- threaded GEMMs: one-row chunks ----
    dict(name="v40-gemm-one-row-chunks-skipped", file=GEMM,
         old="        if hi > lo:\n",
         new="        if hi > lo + 1:\n",
         tests=GEMM_NEW + GEMM_OLD,
         why="matmul skips chunks of a single row: with as many chunks as rows its output stays np.empty's"),
]
