"""Planted bugs, round 216 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates,
in the JAX binding (a tenth pass), the flat parameter views, the thread scopes and the MKL glue: lnrnn.jax's
parameter reading dropping bias_ih, its upper layers' expected shapes taken from x's input size, the residuals'
batch axes read off one batch size, the forward callback's hidden size read off the state's batch axis, the
folded vmap forward reshaping x without moving the example axis, BatchNorm statistics read for one run per layer
instead of per layer and direction; threadscope's wait policy defaulting to its own value (passive never set),
prepare_process calling the unguarded threading-layer start, nested kernel_threads() blocks counted as one; mkl's
search loading the last sorted match, missing versioned names, overwriting the user's MKL_THREADING_LAYER;
flat's join writing over the parameters' own buffer, repack's empty buffer made float64.

14 mutants. Against the existing targeted tests alone (the old lists below, the most direct files of each
module, without the baseline run) 8 were caught and 6 missed: the wait policy taken from its own default (no old
test sees the variable while the threading layer starts in this process), prepare_process calling the unguarded
start (no old test makes the start fail), mkl loading the last sorted match, missing versioned names and
overwriting the user's MKL_THREADING_LAYER (no old test builds a prefix with several or only versioned names, or
sets the variable), and repack's empty float64 buffer (no old test packs leaves without arrays). All six jax.py
mutants were caught by the old tests too.
The new value tests catch every mutant here on their own (checked with the old tests taken off the lists):
test_values216_jax (an LN-LSTM written in jax.numpy with lax.scan in float64, from given initial states, a
row's state held after its own last step: a two-layer bidirectional stack with every option at once, batch_first,
ragged lengths, (h0, c0) given, both biases off zero, T != B and I != H != 2H, and its gradients by
jax.test_util.check_grads with remat; jit(vmap(value_and_grad)) over x with shared parameters against
jax.value_and_grad of the scan per example; a bidirectional BN-LSTM's statistics by name and shape before and
after training with mutable=True, and in inference its two halves equal to one-direction stacks made of the
forward and the ``*_reverse`` parameters and statistics, the latter over x reversed), test_values216_threadscope
(OMP_WAIT_POLICY seen from a stand-in numba.get_num_threads and gone after; prepare_process once per process, a
failing start leaving None; nested blocks keeping every BLAS at one thread until the outer one closes, counted by
threadpoolctl), test_values216_mkl (a prefix made in tmp_path with empty files named as the wheel names its
library, llvmlite's loader replaced by a recorder: the first sorted match, a versioned name alone, SEQUENTIAL only
where the user set nothing), test_values216_flat (join into a new array leaving the viewed buffer as it was, an
empty repack float32, writes showing through both ways in the dtype asked for).

Not planted: _param_names' bias_hh entry with transposed=True (a 1-D array's .T is itself) or placed after
another entry (the dict's order reaches no result: equivalent); _host_backward's layout read with x's input size
for H (only the layout's dtypes are used there: equivalent); apply's remat switched off (the results are the
same, only memory differs: equivalent); _read_only's views left writeable (the kernels only read them: no test
could see it); _forward_one's statistics copied with np.asarray (the read-only buffer makes Numba compile a new
read-only specialization before failing: too slow a test for the suite); the folded forward's y moved with
moveaxis(..., 0, 1) (the same permutation of two axes: equivalent); glibc's mallopt parameter numbers swapped (no
test could read the allocator's thresholds back).

    python tests/mutants/run.py --only 'v216-*'
"""
JAX = "lnrnn/interop/jax.py"
FLAT = "lnrnn/model/flat.py"
THREADS = "lnrnn/threadscope.py"
MKL = "lnrnn/mkl.py"

# existing tests of these modules (the most direct ones)
JAX_OLD = ["tests/interop/test_values161_jax.py", "tests/interop/test_values196_jax.py",
           "tests/interop/test_jax_bidirectional.py", "tests/interop/test_values19_jax.py"]
FLAT_OLD = ["tests/model/test_values119_flat.py", "tests/model/test_values64_flat.py",
            "tests/model/test_values_flat.py"]
THREADS_OLD = ["tests/test_values9_threadscope.py", "tests/test_threads_scope.py"]
MKL_OLD = ["tests/kernels/test_values_mkl.py", "tests/kernels/test_values141_blas_choice.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
JAX_NEW = ["tests/interop/test_values216_jax.py"]
FLAT_NEW = ["tests/model/test_values216_flat.py"]
THREADS_NEW = ["tests/test_values216_threadscope.py"]
MKL_NEW = ["tests/kernels/test_values216_mkl.py"]

MUTANTS = [
    # ---- lnrnn/interop/jax.py: the parameters' reading, the callbacks' shapes, vmap's folding, BN statistics ----
    dict(name="v216-jax-bias-ih-dropped", file=JAX,
         old='                p["b"] = p["b"] + a\n',
         new='                p["b"] = a\n',
         tests=JAX_NEW + JAX_OLD,
         why="_layer_params hands the kernels bias_hh alone: bias_ih (the forget bias among it) is dropped"),
    dict(name="v216-jax-upper-layer-shapes-from-input-size", file=JAX,
         old="shapes = dict(spec.param_shapes(Ik, H))",
         new="shapes = dict(spec.param_shapes(I, H))",
         tests=JAX_NEW + JAX_OLD,
         why="the expected shapes of every layer use x's input size: layer 1's weight_ih (G, D*H) is refused"),
    dict(name="v216-jax-batch-axes-read-at-one-batch-size", file=JAX,
         old="b = F.residual_layout(cell, 2, 5, I, H, dtype)",
         new="b = F.residual_layout(cell, 2, 3, I, H, dtype)",
         tests=JAX_NEW + JAX_OLD,
         why="_batch_axes compares the layout with itself: no residual has a batch axis, and the folded "
             "forward under vmap(grad) hands back residuals of the wrong shape"),
    dict(name="v216-jax-callback-hidden-size-from-batch", file=JAX,
         old="    H = state[0].shape[1]\n",
         new="    H = state[0].shape[0]\n",
         tests=JAX_NEW + JAX_OLD,
         why="_forward_call reads H off the state's batch axis: the callback's declared shapes are (T,B,B)"),
    dict(name="v216-jax-folded-x-not-moved", file=JAX,
         old="xf = np.ascontiguousarray(np.moveaxis(rows(x), 0, 1)).reshape(T, V * B, I)",
         new="xf = np.ascontiguousarray(rows(x)).reshape(T, V * B, I)",
         tests=JAX_NEW + JAX_OLD,
         why="the folded vmap forward reshapes (V,T,B,I) straight to (T,V*B,I): steps and examples mix"),
    dict(name="v216-jax-stats-one-entry-per-layer", file=JAX,
         old="    for j in range(L * D):\n        bufs = {}",
         new="    for j in range(L):\n        bufs = {}",
         tests=JAX_NEW + JAX_OLD,
         why="_layer_stats reads statistics for L layer runs, not L * D: a bidirectional BN stack has none "
             "for its later runs"),
    # ---- lnrnn/threadscope.py: the wait policy, prepare_process, nested scopes ----
    dict(name="v216-threads-wait-policy-given-by-default", file=THREADS,
         old='given = os.environ.get("OMP_WAIT_POLICY")',
         new='given = os.environ.get("OMP_WAIT_POLICY", WAIT_POLICY)',
         tests=THREADS_NEW + THREADS_OLD,
         why="start_kernel_threads takes its own default for the user's setting: passive is never set"),
    dict(name="v216-threads-prepare-calls-the-raising-start", file=THREADS,
         old='_prepared["THREADING_LAYER"] = _start_kernel_threads()',
         new='_prepared["THREADING_LAYER"] = start_kernel_threads()',
         tests=THREADS_NEW + THREADS_OLD,
         why="prepare_process calls the unguarded start: a threading layer that fails raises from it"),
    dict(name="v216-threads-nested-users-not-counted", file=THREADS,
         old="        _users += 1",
         new="        _users = 1",
         tests=THREADS_NEW + THREADS_OLD,
         why="kernel_threads counts open blocks as one: an inner block's exit restores the BLAS threads "
             "while the outer block still runs"),
    # ---- lnrnn/mkl.py: the wheel's library under the prefix, MKL's threading layer ----
    dict(name="v216-mkl-last-match-loaded", file=MKL,
         old="path, how = hits[0],",
         new="path, how = hits[-1],",
         tests=MKL_NEW + MKL_OLD,
         why="_load takes the last of the sorted matches instead of the first"),
    dict(name="v216-mkl-glob-without-versions", file=MKL,
         old='"libmkl_rt.so*"',
         new='"libmkl_rt.so"',
         tests=MKL_NEW + MKL_OLD,
         why="the search finds only an unversioned libmkl_rt.so: a wheel shipping libmkl_rt.so.2 alone is missed"),
    dict(name="v216-mkl-threading-layer-overridden", file=MKL,
         old='os.environ.setdefault("MKL_THREADING_LAYER", "SEQUENTIAL")',
         new='os.environ["MKL_THREADING_LAYER"] = "SEQUENTIAL"',
         tests=MKL_NEW + MKL_OLD,
         why="_load overwrites the user's MKL_THREADING_LAYER instead of setting a default"),
    # ---- lnrnn/model/flat.py: join, repack's default dtype ----
    dict(name="v216-flat-join-writes-into-the-buffer", file=FLAT,
         old="for name, v in FlatArrays(out, self.layout).views.items():",
         new="for name, v in FlatArrays(self.data, self.layout).views.items():",
         tests=FLAT_NEW + FLAT_OLD,
         why="join writes the named arrays over the parameters' own buffer and returns an unfilled array"),
    dict(name="v216-flat-empty-repack-float64", file=FLAT,
         old="dtype = dts.pop() if dts else np.float32",
         new="dtype = dts.pop() if dts else np.float64",
         tests=FLAT_NEW + FLAT_OLD,
         why="repack of leaves without arrays makes a float64 buffer, not the documented float32"),
]
