"""Planted bugs, round 196 (format: tests/mutants/mutants.py): single-line slips in the JAX binding and the
Python API, a ninth pass on lines no earlier round mutates: lnrnn.jax's init making one layer run per layer
instead of per layer and direction, the hidden size read off weight_ih, the backward direction's gather taking
the rows along the time axis, the lengths refusal asking for T integers, a bidirectional state refusal quoting
num_layers rows, the RNN's final state handed back as (h_n,); load_run keeping a pathlib.Path, predict's batches
stopping one row short, its lengths refusal saying 0 is allowed, its per-step classes past a row's end reading 0,
its probabilities left unnormalized, and evaluate_run's mismatch message calling a head's outputs classes.

12 mutants. Against the existing targeted tests alone (the old lists below, without the baseline run; the
measurement was cut short for time after nine) 7 of the nine measured were caught and 2 missed: load_run of a
pathlib.Path keeping the Path (no old test loads a run from a Path and reads its path) and predict's batches
stopping one row short (no old test predicts in batches whose size divides N - 1 and checks the last row); the
last three (class 0 past a row's end, unnormalized probabilities, the head words) were not measured against the
old tests.
The new value tests catch every mutant here on their own (checked with the old tests taken off the lists):
test_values196_jax (a plain LSTM and a plain RNN written in jax.numpy with lax.scan in float64, every row at once
with its state held after its own last step: a two-layer bidirectional LSTM from init(bidirectional=True), its
names and shapes written out, over ragged lengths with T == B and I != H; a two-layer RNN whose h_n is one array,
under jit(vmap) over x, its gradients over ragged lengths by jax.test_util.check_grads in reverse mode; the
refusals of lengths of the wrong shape and of a bidirectional state with num_layers rows, each matched whole),
test_values196_api (a per-step LSTM classifier trained by lnrnn.fit: predict in batches of two over five rows,
lengths 1 and T among them, against the LSTM and its head recomputed in NumPy float64 from the run's export by
export_run, torch's formulas; classes their argmax and -1 past each row's end, probabilities summing to 1;
load_run of a pathlib.Path; the refusals of lengths out of range and of a data file with another input count,
each matched whole).

Not planted: apply's new statistics without the spec.buffers test and _host_backward's T, B, I read from the
front of x (equivalent, as an earlier round found); evaluate_run's split override as setdefault (whether a run
records a split at all decides whether any test could see it: left for a round that checks); predict's
out[s:e] written as out[s:s + batch_size] (NumPy clips the slice: equivalent).

    python tests/mutants/run.py --only 'v196-*'
"""
API = "lnrnn/api.py"
JAX = "lnrnn/interop/jax.py"

# existing tests of these modules
API_OLD = ["tests/test_values161_api.py", "tests/test_values140_api.py", "tests/test_values46_api.py",
           "tests/test_values_api.py"]
J = "tests/interop/test_jax.py"
JAX_OLD = ["tests/interop/test_values161_jax.py", "tests/interop/test_values140_jax.py",
           "tests/interop/test_jax_bidirectional.py", f"{J}::test_user_errors_are_one_sentence",
           f"{J}::test_batch_first_and_default_state"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
API_NEW = ["tests/test_values196_api.py"]
JAX_NEW = ["tests/interop/test_values196_jax.py"]

MUTANTS = [
    # ---- lnrnn/interop/jax.py: init, the params and state checks, the reversal, the RNN's state ----
    dict(name="v196-jax-init-bidirectional-one-run-per-layer", file=JAX,
         old="    for j in range(L * D):\n        p = spec.init_params(",
         new="    for j in range(L):\n        p = spec.init_params(",
         tests=JAX_NEW + JAX_OLD,
         why="init makes L layer runs instead of L * D: a two-layer bidirectional stack lacks its second layer"),
    dict(name="v196-jax-hidden-size-from-ih", file=JAX,
         old='H = params["weight_hh_l0"].shape[-1]',
         new='H = params["weight_ih_l0"].shape[-1]',
         tests=JAX_NEW + JAX_OLD,
         why="_layer_params reads the hidden size off weight_ih (its input size): a stack with I != H is refused"),
    dict(name="v196-jax-reverse-valid-rows-on-wrong-axis", file=JAX,
         old="return a[idx, jnp.arange(B)[None, :]]",
         new="return a[idx, jnp.arange(B)[:, None]]",
         tests=JAX_NEW + JAX_OLD,
         why="the backward direction's gather indexes the rows along the time axis: a ragged bidirectional "
             "stack fails (T != B) or reads other rows' steps (T == B)"),
    dict(name="v196-jax-lengths-message-names-T", file=JAX,
         old='raise ValueError(f"lengths must be {B} integers (one per sequence)',
         new='raise ValueError(f"lengths must be {T} integers (one per sequence)',
         tests=JAX_NEW + JAX_OLD,
         why="the lengths refusal asks for T integers instead of one per sequence (B)"),
    dict(name="v196-jax-state-message-counts-layers-only", file=JAX,
         old="= {(L, B, H)}, got {tuple(s.shape)}.",
         new="= {(L // D, B, H)}, got {tuple(s.shape)}.",
         tests=JAX_NEW + JAX_OLD,
         why="a bidirectional stack's state refusal quotes num_layers rows instead of num_layers * 2"),
    dict(name="v196-jax-rnn-state-not-unwrapped", file=JAX,
         old="out = (y, out_state if spec.nstate == 2 else out_state[0])",
         new="out = (y, out_state)",
         tests=JAX_NEW + JAX_OLD,
         why="the RNN hands back (h_n,) instead of h_n"),
    # ---- lnrnn/api.py: load_run, predict's batches, refusals and outputs, the mismatch message ----
    dict(name="v196-api-run-path-not-str", file=API,
         old="return Run(str(path), meta, model)",
         new="return Run(path, meta, model)",
         tests=API_NEW + API_OLD,
         why="load_run of a pathlib.Path keeps the Path: Run.path and its repr are not the folder's string"),
    dict(name="v196-api-predict-last-row-dropped", file=API,
         old="for i, s in enumerate(range(0, N, batch_size)):",
         new="for i, s in enumerate(range(0, N - 1, batch_size)):",
         tests=API_NEW + API_OLD,
         why="predict's batches stop one row short: when N - 1 is a multiple of batch_size the last row is "
             "never run (its outputs are whatever np.empty held)"),
    dict(name="v196-api-predict-lengths-message-from-zero", file=API,
         old="integers between 1 and T={T}.",
         new="integers between 0 and T={T}.",
         tests=API_NEW + API_OLD,
         why="predict's lengths refusal says 0 is allowed, which the check itself refuses"),
    dict(name="v196-api-predict-past-steps-class-zero", file=API,
         old="    classes[past] = -1",
         new="    classes[past] = 0",
         tests=API_NEW + API_OLD,
         why="a per-step classifier's steps past a row's end read class 0 instead of -1"),
    dict(name="v196-api-predict-probabilities-unnormalized", file=API,
         old="    probs = softmax(out)",
         new="    probs = np.exp(out)",
         tests=API_NEW + API_OLD,
         why="the head's outputs are exponentiated but not normalized: the classes are right, the "
             "probabilities do not sum to 1"),
    dict(name="v196-api-head-words-outputs-called-classes", file=API,
         old="_how_many(head['outputs'], 'output')",
         new="_how_many(head['outputs'], 'class')",
         tests=API_NEW + API_OLD,
         why="evaluate_run's mismatch message calls a head's outputs classes"),
]
