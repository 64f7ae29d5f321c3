"""Planted bugs, round 71 (format: tests/mutants/mutants.py): single-line slips in the threads and row blocks, the
BLAS wrappers, the measured choice of the per-step product, rgemm's checks, the threaded GEMMs and the compile
machinery, on lines no earlier round mutates: readonly freezing the caller's array instead of a view, batch_blocks
reading config's rows past block_rows, block_rows(0) let through, run_chunks's calling thread taking the last run of
chunks, a nested dry run ending the outer one; transposed skipping the last tile of 8 rows, projection_grads's dWx
from dHW, weight_grad's transposed partial zeroed but for its last column; MKL's packed float32 product with beta 1,
gemm_mul_fetch multiplying by A^T, dwh_block_rows without big, the record keyed by the CPU's model name without its
flags, LNRNN_REC_GEMM read case-sensitively; the record written without its key, a record that is not JSON raising;
rgemm letting a C that is a column block through; the compile clock keeping only the last interval, and the cache
index check stopping at a missing data file.

18 mutants. Against the existing targeted tests alone 9 were caught and 9 missed: readonly's frozen caller array (no
test looked at the caller's flags), run_chunks's last run (the old test runs on Numba's thread count, one under
NUMBA_NUM_THREADS=1), the nested dry run, projection_grads's dWx (tested through the cells only), MKL's beta (no test
wrote a packed product into an out that held values), gemm_mul_fetch (never called directly), the CPU key without
flags, rgemm's strided C (only wrong shapes were refused) and the index check past a missing data file. The new value
tests catch every mutant on their own (checked with the old tests taken off the lists): test_values71_gemm (blas_mul
on MKL's packed GEMM, rgemm_mul on rgemm's panels, gemm_mul and both fetching twins, gemm and gemm_add plain and
transposed, matmul over more and fewer chunks than rows, transposed, weight_grad both ways, all against np.dot in
float64 at sizes 1, 7, 33 and 65 in float64 and float32, into outputs of 9s or NaN; projection_grads against its three
definitions summed over the steps here; rgemm refusing a column block and leaving the buffer alone),
test_values71_threads (chunk_bounds and run_chunks on 1, 2 and 3 threads against "every row exactly once",
batch_blocks against its rule written out for any thread count, matmul_tn bit-identical on 1, 2 and 3 threads,
readonly's views and the caller's flags, dry_run nested), test_values71_rec_choice (decide on ratios at and just past
the margins, a record read back and one written by hand taken without measuring, six corrupt records measured again,
LNRNN_REC_GEMM in any case and spacing, two hosts of one model with other flags keyed apart, dwh_blocks against its
docstring written out over ragged H, I, m, T and worked S1-S3 examples), test_values71_compiling (the compile clock
against the union of the intervals of separate and nested events, an index whose first data file is missing and second
holds another signature deleted). Dropped before the catalogue as equivalent: rgemm_mul's np.dot branch without its
check of out's layout (Numba compiles np.dot into a contiguous out only, so every out that reaches it is
C-contiguous); rgemm_add's edge tile zeroed over its valid part alone (the rest is never copied out); grad_blocks's
big without REC == "rgemm" (DWH is "rgemm" only where REC is, _asked_dwh); run_chunks growing its pool at <= (a new
pool, the same chunks); blas_pack with no buffer for one row (blas_mul falls back to np.dot: the same values). Left
out: matmul and matmul_tn's chunk count left unclamped (only what np.empty's memory held would show: no test can see
it every time).

    python tests/mutants/run.py --only 'v71-*'
"""
THREADS = "lnrnn/kernels/cpu/threads.py"
BLAS = "lnrnn/kernels/cpu/blas.py"
REC = "lnrnn/kernels/cpu/rec_choice.py"
RGEMM = "lnrnn/kernels/cpu/rgemm.py"
GEMM = "lnrnn/kernels/cpu/gemm.py"
COMPILING = "lnrnn/compiling.py"

# existing tests of these modules
THREADS_OLD = ["tests/kernels/test_values27_threads.py", "tests/kernels/test_values9_threads.py",
               "tests/kernels/test_blocks.py::test_batch_blocks_depend_on_the_batch_alone",
               "tests/kernels/test_blocks.py::test_run_chunks_runs_every_chunk_once_on_at_most_the_threads",
               "tests/kernels/test_blocks.py::test_block_rows_setting_is_scoped_and_checked"]
GEMM_OLD = ["tests/kernels/test_gemm.py", "tests/kernels/test_values40_gemm.py", "tests/kernels/test_rgemm.py",
            "tests/kernels/test_races.py::test_column_sums_and_weight_gradient_gemm"]
BLAS_OLD = ["tests/kernels/test_values_blas.py", "tests/kernels/test_values40_gemm.py",
            "tests/kernels/test_values45_rgemm.py", "tests/kernels/test_rgemm.py", "tests/kernels/test_gemm.py"]
CHOICE_OLD = ["tests/kernels/test_rec_choice.py", "tests/kernels/test_values27_rec_choice.py",
              "tests/kernels/test_cache_blas.py::test_per_step_product_rule_follows_the_cpu",
              "tests/kernels/test_cache_blas.py::test_per_step_product_is_measured_unless_asked_for"]
RGEMM_OLD = ["tests/kernels/test_rgemm.py", "tests/kernels/test_values45_rgemm.py"]
COMPILING_OLD = ["tests/test_values_compiling.py", "tests/test_values17_compiling.py",
                 "tests/test_values32_compiling.py", "tests/test_values_compiling_stamp.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
THREADS_NEW = ["tests/kernels/test_values71_threads.py"]
GEMM_NEW = ["tests/kernels/test_values71_gemm.py"]
CHOICE_NEW = ["tests/kernels/test_values71_rec_choice.py"]
COMPILING_NEW = ["tests/test_values71_compiling.py"]

MUTANTS = [
    # ---- threads: row blocks, chunks on threads, read-only views, dry runs ----
    dict(name="v71-readonly-makes-the-callers-array-read-only", file=THREADS,
         old="            v = a.view()\n",
         new="            v = a\n",
         tests=THREADS_NEW + THREADS_OLD,
         why="readonly flags the caller's own array read-only instead of a view of it: the layer's next write "
             "into its buffer raises"),
    dict(name="v71-batch-blocks-ignore-block-rows", file=THREADS,
         old='    rows = _BLOCKS["rows"]\n',
         new="    rows = BLOCK_ROWS\n",
         tests=THREADS_NEW + THREADS_OLD,
         why="batch_blocks reads config.BLOCK_ROWS whatever block_rows set: a run's --block-rows changes nothing"),
    dict(name="v71-block-rows-zero-accepted", file=THREADS,
         old="    if rows < 1:\n",
         new="    if rows < 0:\n",
         tests=THREADS_NEW + THREADS_OLD,
         why="block_rows(0) is let through: batch_blocks then divides by zero at the first layer call"),
    dict(name="v71-run-chunks-caller-takes-the-last-run", file=THREADS,
         old="    _run_range(rows, n, nch, *runs[0], args)\n",
         new="    _run_range(rows, n, nch, *runs[-1], args)\n",
         tests=THREADS_NEW + THREADS_OLD,
         why="the calling thread runs the last worker's chunks again instead of chunk 0's run: on two threads or "
             "more the first chunks are never run and the last ones twice"),
    dict(name="v71-dry-run-nested-leaves-none", file=THREADS,
         old='        _dry["mode"] = old\n',
         new='        _dry["mode"] = None\n',
         tests=THREADS_NEW + THREADS_OLD,
         why="a dry run nested in another one ends the outer one too: the rest of the outer block runs its "
             "time loops for real"),
    # ---- gemm: the threaded products ----
    dict(name="v71-transposed-drops-the-last-k-block", file=GEMM,
         old="    for k0 in range(0, K, 8):\n",
         new="    for k0 in range(0, K - 1, 8):\n",
         tests=GEMM_NEW + GEMM_OLD,
         why="transposed skips the last tile of 8 rows of W when K is one more than a multiple of 8 (K 1, 9, 33, "
             "65): those columns of W^T are left unwritten"),
    dict(name="v71-projection-dwx-from-dhw", file=GEMM,
         old="    dWx = matmul_tn(np.ascontiguousarray(x).reshape(T * B, I), dX2, nchunks)\n",
         new="    dWx = matmul_tn(np.ascontiguousarray(x).reshape(T * B, I), "
             "np.ascontiguousarray(dHW).reshape(T * B, G), nchunks)\n",
         tests=GEMM_NEW + GEMM_OLD,
         why="projection_grads takes dWx = X^T dHW, the recurrent product's gradient, instead of X^T dXW"),
    dict(name="v71-weight-grad-last-column-not-zeroed", file=GEMM,
         old="        for k in range(out.shape[1]):\n",
         new="        for k in range(out.shape[1] - 1):\n",
         tests=GEMM_NEW + GEMM_OLD,
         why="weight_grad's transposed partial (tw) is zeroed but for its last column, which then adds the blocks "
             "onto whatever np.empty left there"),
    # ---- blas: the wrappers ----
    dict(name="v71-blas-mul-float32-beta-one", file=BLAS,
         old="_aligned(P), N, np.float32(0.0),\n",
         new="_aligned(P), N, np.float32(1.0),\n",
         tests=GEMM_NEW + BLAS_OLD,
         why="MKL's packed float32 product adds into out (beta 1, copied from gemm_add) instead of writing it: "
             "every step's h Wh carries the buffer's old values"),
    dict(name="v71-gemm-mul-fetch-transposes-a", file=BLAS,
         old="    \"\"\"gemm_mul (rows_mul without rgemm); the plan's prefetches left out.\"\"\"\n"
             "    gemm(A, W, out, False)\n",
         new="    \"\"\"gemm_mul (rows_mul without rgemm); the plan's prefetches left out.\"\"\"\n"
             "    gemm(A, W, out, True)\n",
         tests=GEMM_NEW + BLAS_OLD,
         why="gemm_mul_fetch (rows_mul_fetch on the BLAS) multiplies by A^T instead of A"),
    dict(name="v71-dwh-block-rows-drops-big", file=BLAS,
         old="    return grad_block_rows(H, 4 * H, I, itemsize, big)\n",
         new="    return grad_block_rows(H, 4 * H, I, itemsize)\n",
         tests=CHOICE_NEW + BLAS_OLD,
         why="dwh_block_rows forgets big: where this host measured rgemm's blocks faster for a partial larger "
             "than L2 (S3), the LSTM backward's dWh still takes the BLAS's 4096-row blocks"),
    dict(name="v71-cpu-key-without-flags", file=BLAS,
         old='    return cpuinfo("model name") + " | " + cpuinfo("flags")',
         new='    return cpuinfo("model name")',
         tests=CHOICE_NEW + CHOICE_OLD,
         why="the measured choice is keyed by the CPU's model name alone: a host of that model with other "
             "flags (no AVX-512 in a VM) reads another host's record"),
    dict(name="v71-rec-gemm-env-case-sensitive", file=BLAS,
         old='    asked = os.environ.get("LNRNN_REC_GEMM", "").strip().lower()\n',
         new='    asked = os.environ.get("LNRNN_REC_GEMM", "").strip()\n',
         tests=CHOICE_NEW + CHOICE_OLD,
         why="LNRNN_REC_GEMM=RGEMM is not taken for rgemm: the per-step product is measured and chosen by the "
             "record, against what the user asked for"),
    # ---- rec_choice: the measured choice's record ----
    dict(name="v71-record-written-without-key", file=REC,
         old='            rec["key"] = key\n',
         new="",
         tests=CHOICE_NEW + CHOICE_OLD,
         why="the record is written without its key: read_record refuses it, so every process measures again"),
    dict(name="v71-corrupt-record-raises", file=REC,
         old="    except (OSError, ValueError):\n        return None\n    return rec if whole(rec)",
         new="    except OSError:\n        return None\n    return rec if whole(rec)",
         tests=CHOICE_NEW + CHOICE_OLD,
         why="a record that is not JSON (torn, garbled) raises at import instead of being measured again"),
    # ---- rgemm: its checks ----
    dict(name="v71-rgemm-check-lets-a-strided-c-through", file=RGEMM,
         old="    if not (A.flags.c_contiguous and Wp.flags.c_contiguous and C.flags.c_contiguous):\n",
         new="    if not (A.flags.c_contiguous and Wp.flags.c_contiguous):\n",
         tests=GEMM_NEW + RGEMM_OLD,
         why="rgemm takes a C that is a column block of a wider buffer and writes its rows at C.shape[1] apart: "
             "the values land across the buffer's rows, no error"),
    # ---- compiling: the compile clock, the cache index check ----
    dict(name="v71-compile-clock-keeps-the-last-interval", file=COMPILING,
         old="                self._total += time.perf_counter() - self._since\n",
         new="                self._total = time.perf_counter() - self._since\n",
         tests=COMPILING_NEW + COMPILING_OLD,
         why="each compilation's interval replaces the total instead of adding to it: the clock says the last "
             "compilation's seconds"),
    dict(name="v71-index-check-stops-at-a-missing-data-file", file=COMPILING,
         old="            except FileNotFoundError:  # Numba compiles that signature again\n                continue\n",
         new="            except FileNotFoundError:  # Numba compiles that signature again\n"
             "                return False\n",
         tests=COMPILING_NEW + COMPILING_OLD,
         why="a data file missing ends the index check: the data files after it are not read, and one holding "
             "another signature is loaded by Numba for its key"),
]
