"""Planted bugs, round 369 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the compile machinery (lnrnn/compiling.py), the backend choice (lnrnn/backend.py), the thread scope's
process set-up (lnrnn/threadscope.py) and prewarming (lnrnn/training/prewarm.py), nineteenth pass: the compile
clock listening to Numba's per-pass event instead of its compile event; a user's function judged lnrnn's by the
names of its globals instead of their values; the data file peek rebuilding the environment it names (an entry
compiled under another existing module kept); an index cut short escaping as an UnpicklingError instead of being
deleted; exclusive() taking its lock only where there is no fcntl; compile_lock_path refusing lnrnn's own locator;
every CPU array called a device array; the CPU's zeros always float64; the training BatchNorm forward bound to the
inference one; glibc's mallopt parameter numbers swapped (the 1 GiB mmap threshold given as the trim threshold);
prepare_process never doing its work; Ctrl-C in an armed block leaving the children running; a child past WAIT_S
escaping wait() as subprocess.TimeoutExpired; the child reading its own script path as its spec.

14 mutants. Against the old targeted files alone (each mutant's v369 files taken off its list): 10 of 14 caught;
missed: the clock listening to numba:run_pass, the CPU's zeros always float64, mallopt's parameter numbers swapped,
Ctrl-C in an armed block leaving the children running. The old targeted files are test_values_compiling,
test_values96_compiling, test_values205_compiling, test_values254_compiling, test_values325_compiling and
test_values351_compiling (the compile machinery), test_values17_backend, test_values186_backend and
test_values271_backend_threads (the backend), test_threads_scope, test_values9_threadscope and
test_values216_threadscope (the thread scope), test_prewarm, test_values32_prewarm, test_values70_prewarm and
test_values271_prewarm_memory (prewarming). The new value tests catch every mutant on their own (checked with the old
files taken off the lists): test_values369_compiling (the clock under a "numba:compile" event on a clock stood in,
from 10.0 to 12.5 counted as 2.5 s; _uses_lnrnn for functions whose globals hold lnrnn's module or class, or only
names and strings; index and data files pickled here, an entry of module json dropped and one of the function's own
module kept, an index cut after its version deleted; exclusive() against a second open file during and after the
block; the lock file beside a stood-in locator's cache folder, one per signature, none once compiled or for a locator
not lnrnn's), test_values369_backend_threads (the CPU namespace's is_device, moves, zeros in float32 and float64, the
BatchNorm forwards by name and no op shared; mallopt's calls on a libc stood in against malloc.h's M_TRIM_THRESHOLD -1
and M_MMAP_THRESHOLD -3; prepare_process once, with what it did; OMP_WAIT_POLICY passive only while the threading
layer starts, a user's value standing), test_values369_prewarm (KeyboardInterrupt in an armed block killing the child;
a child past the bound killed and reaped, the key marked done; main() reading sys.argv[1]).

Left out: every candidate line of lnrnn/config.py. Its lines are the tunables and the decorator flags: a slip in a
measured tuning number (block rows, chunk counts, thresholds) changes speed, not a value any definition fixes, and
any edit of config.py changes the source stamp of every kernel (compiling.kernel_sources), so each such mutant
recompiles every kernel its tests touch; the flags' LNRNN_NO_CACHE reading is on a line an earlier round mutates.
Left out as equivalent: exclusive()'s except OSError around flock narrowed to BlockingIOError (flock with LOCK_NB
raises only that for a held lock); _identity returning np.asarray(obj) (the CPU callers pass ndarrays, and
asarray of an ndarray is the same object); the CPU namespace's to_device and to_host swapped (both identities).

    python tests/mutants/run.py --only 'v369-*'
"""
COMPILING = "lnrnn/compiling.py"
BACKEND = "lnrnn/backend.py"
SCOPE = "lnrnn/threadscope.py"
PREWARM = "lnrnn/training/prewarm.py"

T_COMP = "tests/test_values369_compiling.py::"
T_BT = "tests/test_values369_backend_threads.py::"
T_PRE = "tests/training/test_values369_prewarm.py::"
OLD_COMP = ["tests/test_values_compiling.py", "tests/test_values96_compiling.py", "tests/test_values205_compiling.py",
            "tests/test_values254_compiling.py", "tests/kernels/test_values325_compiling.py",
            "tests/kernels/test_values351_compiling.py"]
OLD_BACKEND = ["tests/kernels/test_values17_backend.py", "tests/kernels/test_values186_backend.py",
               "tests/kernels/test_values271_backend_threads.py"]
OLD_SCOPE = ["tests/test_threads_scope.py", "tests/test_values9_threadscope.py",
             "tests/test_values216_threadscope.py"]
OLD_PREWARM = ["tests/training/test_prewarm.py", "tests/training/test_values32_prewarm.py",
               "tests/training/test_values70_prewarm.py", "tests/training/test_values271_prewarm_memory.py"]

MUTANTS = [
    # ---- the compile machinery: lnrnn/compiling.py ----
    dict(name="v369-compiling-clock-hears-run-pass", file=COMPILING,
         old='KIND = "numba:compile"',
         new='KIND = "numba:run_pass"',
         tests=[T_COMP + "test_the_clock_hears_numbas_compile_event_and_counts_its_seconds"] + OLD_COMP,
         why="the compile clock counts Numba's compiler passes, not compilations: a compile announced as "
             "numba:compile is never counted"),
    dict(name="v369-compiling-globals-names-not-values", file=COMPILING,
         old='    for v in list(getattr(py_func, "__globals__", {}).values()):',
         new='    for v in list(getattr(py_func, "__globals__", {}).keys()):',
         tests=[T_COMP + "test_a_users_function_is_lnrnns_by_what_its_globals_hold"] + OLD_COMP,
         why="a user's function calling lnrnn's kernels is judged by its globals' names: never lnrnn's, so its "
             "cache files carry no BLAS choice"),
    dict(name="v369-compiling-peek-rebuilds-the-environment", file=COMPILING,
         old='        if (module, name) == ("numba.core.environment", "_rebuild_env"):',
         new='        if (module, name) == ("numba.core.environment", "rebuild_env"):',
         tests=[T_COMP + "test_an_entry_of_another_existing_module_is_dropped_and_the_own_kept"] + OLD_COMP,
         why="the peek rebuilds the data file's environment: an entry compiled under another existing module's "
             "name is kept, and Numba later runs it with that module's globals"),
    dict(name="v369-compiling-cut-index-escapes", file=COMPILING,
         old="    except Exception:  # noqa: BLE001 - any failure to read it is what this guards against",
         new="    except (OSError, ValueError):  # noqa: BLE001 - any failure to read it is what this guards against",
         tests=[T_COMP + "test_an_index_cut_short_is_deleted"] + OLD_COMP,
         why="an index cut short raises UnpicklingError out of the check instead of being deleted"),
    dict(name="v369-compiling-lock-only-without-fcntl", file=COMPILING,
         old="    if fcntl is not None:",
         new="    if fcntl is None:",
         tests=[T_COMP + "test_exclusive_holds_its_file_for_the_block_and_lets_go_after"] + OLD_COMP,
         why="exclusive() never takes its lock where fcntl exists: processes compile the same kernel side by side"),
    dict(name="v369-compiling-lock-path-refuses-ours", file=COMPILING,
         old="    if not isinstance(locator, KernelCacheLocator):",
         new="    if isinstance(locator, KernelCacheLocator):",
         tests=[T_COMP + "test_the_lock_file_sits_beside_the_cache_one_per_signature"] + OLD_COMP,
         why="no lock file for lnrnn's own kernels (and one for functions whose cache lnrnn does not locate)"),
    # ---- the backend: lnrnn/backend.py ----
    dict(name="v369-backend-cpu-arrays-on-a-device", file=BACKEND,
         old="def _is_host_only(a):\n    return False",
         new="def _is_host_only(a):\n    return True",
         tests=[T_BT + "test_on_the_cpu_nothing_is_on_a_device_and_moves_are_identities"] + OLD_BACKEND,
         why="the CPU namespace calls every host array a device array"),
    dict(name="v369-backend-zeros-always-float64", file=BACKEND,
         old="    return np.zeros(shape, dtype)",
         new="    return np.zeros(shape)",
         tests=[T_BT + "test_zeros_in_the_dtype_asked_for[float32]"] + OLD_BACKEND,
         why="the CPU's zeros drops the dtype: float32 layers get float64 buffers"),
    dict(name="v369-backend-bn-train-bound-to-infer", file=BACKEND,
         old="        batchnorm_forward_train=batchnorm.batchnorm_forward_train,",
         new="        batchnorm_forward_train=batchnorm.batchnorm_forward_infer,",
         tests=[T_BT + "test_batchnorm_train_and_infer_bound_by_name_and_no_op_shared"] + OLD_BACKEND,
         why="the CPU namespace's training BatchNorm forward is the inference one (running statistics used)"),
    # ---- the thread scope: lnrnn/threadscope.py ----
    dict(name="v369-threadscope-mallopt-numbers-swapped", file=SCOPE,
         old="        M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameter numbers",
         new="        M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -3, -1  # glibc's mallopt parameter numbers",
         tests=[T_BT + "test_mallopt_gets_glibcs_parameter_numbers_and_configs_thresholds"] + OLD_SCOPE,
         why="the 1 GiB mmap threshold is given to glibc as the trim threshold and the 2 GiB trim one as mmap's"),
    dict(name="v369-threadscope-prepare-never-done", file=SCOPE,
         old="        if not _prepared:",
         new="        if _prepared:",
         tests=[T_BT + "test_prepare_process_works_once_and_says_what_it_did"] + OLD_SCOPE,
         why="prepare_process never tunes malloc or starts the threading layer, and reports nothing done"),
    # ---- prewarming: lnrnn/training/prewarm.py ----
    dict(name="v369-prewarm-ctrl-c-leaves-children", file=PREWARM,
         old="    except BaseException:",
         new="    except Exception:",
         tests=[T_PRE + "test_ctrl_c_in_the_armed_block_stops_the_children"] + OLD_PREWARM,
         why="Ctrl-C in the trainer's first update leaves the prewarm children compiling"),
    dict(name="v369-prewarm-timeout-escapes", file=PREWARM,
         old="            except subprocess.TimeoutExpired:",
         new="            except TimeoutError:",
         tests=[T_PRE + "test_a_child_past_the_bound_is_killed_and_wait_returns"] + OLD_PREWARM,
         why="a child still compiling after WAIT_S raises TimeoutExpired out of the backward instead of being "
             "killed"),
    dict(name="v369-prewarm-child-reads-its-script-path", file=PREWARM,
         old="    compile_backward(json.loads((sys.argv[1:] if argv is None else argv)[0]))",
         new="    compile_backward(json.loads((sys.argv if argv is None else argv)[0]))",
         tests=[T_PRE + "test_the_child_reads_its_spec_from_its_first_argument"] + OLD_PREWARM,
         why="the child parses its own script path as the spec: it dies and the parent compiles the loop itself"),
]
