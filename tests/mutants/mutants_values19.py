"""Planted bugs in modules whose lines carry few mutants so far (format: tests/mutants/mutants.py): the JAX
binding's parameter and argument checks (interop/jax.py), the CUDA array helpers other than the plan copies
of mutants_graphs_cuda.py (kernels/cuda/arrays_cuda.py: add_into, to_host, transpose), the IDX reader and
writer (data/idx.py), the checkpoint reader and keep_past (training/checkpoint.py) and the optimizers'
argument and state checks (training/optim.py). Each is a single-line slip of a kind that happens: a check
dropped or narrowed, a size compared where a shape should be, two arguments swapped, an index off by one, a
name spelled wrong.

28 mutants; the existing tests caught 13: the jax binding's swapped init_stats arguments, unknown parameter
names, the first layer's backward direction checked for 2H inputs, the backward direction's reversal one step
late and the residuals' batch axes read off two equal batch sizes; three of the four IDX ones (a header cut
short, a byte too many, the dotted file names); all three of the checkpoint reader's; two of the optimizers'
four (the centred flag inverted, another kind's state loaded). They missed 15: eight in the jax binding
(num_layers 0 accepted, bias_hh a copy of bias_ih, a skip stack converted by params_from_stack or loaded by
load_export, float lengths under jit, where no later check sees them, statistics of another width or dtype, an
empty batch), all three array helpers (add_into comparing sizes, to_host passing lists through, transpose
indexed by the wrong extent: no test called them directly), write_idx not gzipping a .gz name (the tests
round-tripped through read_idx, which reads either), keep_past leaving a stale arrays file in an update kept
twice, and the optimizers' flat-length and extra-key checks. 28/28 now, with test_values19_jax (init's bias halves and
init_stats's rows by hand, each refusal, the backward half against the layer run by hand on each row's reversed
valid steps, vmapped input gradients against plain calls), test_values19_arrays_cuda (the three helpers against
NumPy), test_values19_idx (hand-made bytes: a header cut inside its dimensions, a byte too many, the .gz bytes
on disk, the dotted file names), test_values19_checkpoint and test_values19_optim (each refusal, and two steps
of both momentum RMSProps recomputed from their equations).
Dropped as equivalent: load_mnist_split's uint8 check of the labels (the labels' magic number 2049 already says
uint8 and one dimension, so an int32 labels file is refused as a bad magic number before it), grid_1d rounding
its block count down (the kernels' grid-stride loops cover every element with fewer blocks; only the speed
changes), seq_fits taking ``<`` for ``<=`` (only the choice between the sequence kernel and the per-step path,
which compute the same), save_checkpoint's arrays-file name without zero padding (the description names the
file; nothing sorts them).

    python tests/mutants/run.py --only 'v19-*'
"""

JAXPY = "lnrnn/interop/jax.py"
ARRPY = "lnrnn/kernels/cuda/arrays_cuda.py"
IDXPY = "lnrnn/data/idx.py"
CKPTPY = "lnrnn/training/checkpoint.py"
OPTPY = "lnrnn/training/optim.py"

# existing tests of these modules
JAX = "tests/interop/test_jax.py"
J_ERR = [f"{JAX}::test_user_errors_are_one_sentence"]
J_BN = [f"{JAX}::test_batchnorm_inference_and_statistics_like_flax"]
J_INIT = [f"{JAX}::test_plain_lstm_params_are_a_torch_state_dict", f"{JAX}::test_batch_first_and_default_state"]
JAXBI = "tests/interop/test_jax_bidirectional.py"
J_BI = [f"{JAXBI}::test_check_grads_two_bidirectional_layers_ragged",
        f"{JAXBI}::test_bad_bidirectional_arguments_are_refused_in_one_sentence_naming_them"]
J_VMAP = [f"{JAX}::test_vmap_folds_independent_rows_into_one_kernel_call",
          f"{JAX}::test_vmap_forward_and_per_example_gradients"]
A_OLD = ["tests/kernels/test_values_arrays_cuda.py", "tests/kernels/test_values17_cuda_host.py"]
I_OLD = ["tests/data/test_data.py", "tests/data/test_values_idx.py", "tests/data/test_values10_idx.py"]
C_OLD = ["tests/training/test_checkpoint.py", "tests/training/test_values14_checkpoint.py"]
O_OLD = ["tests/training/test_optim.py"]

# value tests written for the bugs below
J_NEW = "tests/interop/test_values19_jax.py"
A_NEW = "tests/kernels/test_values19_arrays_cuda.py"
I_NEW = "tests/data/test_values19_idx.py"
C_NEW = "tests/training/test_values19_checkpoint.py"
O_NEW = "tests/training/test_values19_optim.py"

MUTANTS = [
    # ---- interop/jax.py ----
    dict(name="v19-jax-init-zero-layers-accepted", file=JAXPY,
         old="    I, H, L = check_sizes(\"init\", input_size=input_size, hidden_size=hidden_size, num_layers=num_layers).values()",
         new="    I, H, L = int(input_size), int(hidden_size), int(num_layers)",
         tests=J_ERR + [J_NEW],
         why="init(num_layers=0) returns an empty dict instead of refusing"),
    dict(name="v19-jax-init-bias-hh-copies-bias-ih", file=JAXPY,
         old="            a = np.zeros_like(p[\"b\"]) if n is None else p[n]\n            out[name]",
         new="            a = p[\"b\"] if n is None else p[n]\n            out[name]",
         tests=J_INIT + [J_NEW],
         why="init's bias_hh repeats bias_ih: the kernels add the two, so the forget bias counts twice"),
    dict(name="v19-jax-init-stats-steps-and-width-swapped", file=JAXPY,
         old="    bufs = spec.init_buffers(H, T, dt)",
         new="    bufs = spec.init_buffers(T, H, dt)",
         tests=J_BN + [J_NEW],
         why="init_stats passes max_steps as the hidden size and the hidden size as the step count"),
    dict(name="v19-jax-stack-with-skip-accepted", file=JAXPY,
         old="    if stack.skip:\n",
         new="    if False:\n",
         tests=J_ERR + [J_NEW],
         why="params_from_stack converts a stack with skip connections, which apply runs without them"),
    dict(name="v19-jax-unexpected-params-accepted", file=JAXPY,
         old="    if missing or extra:",
         new="    if missing:",
         tests=J_ERR + [J_NEW],
         why="a parameter dict with names the stack does not have (another layer, a typo) is run, the extras ignored"),
    dict(name="v19-jax-reverse-layer0-reads-2H", file=JAXPY,
         old="        Ik = I if j < D else D * H",
         new="        Ik = I if j == 0 else D * H",
         tests=J_BI + [J_NEW],
         why="the first layer's backward direction is checked for 2H inputs instead of I"),
    dict(name="v19-jax-float-lengths-accepted", file=JAXPY,
         old="    if a.shape != (B,) or not jnp.issubdtype(a.dtype, jnp.integer):",
         new="    if a.shape != (B,):",
         tests=J_ERR + [J_NEW],
         why="float lengths pass the boundary check"),
    dict(name="v19-jax-stats-width-unchecked", file=JAXPY,
         old="v.ndim != 2 or v.shape[1] != spec.width(H, w) or v.shape[0] < 1",
         new="v.ndim != 2 or v.shape[0] < 1",
         tests=J_BN + J_ERR + [J_NEW],
         why="statistics of another width reach the kernels"),
    dict(name="v19-jax-empty-batch-accepted", file=JAXPY,
         old="    if T < 1 or B < 1:",
         new="    if T < 1:",
         tests=J_ERR + [J_NEW],
         why="x with no sequence (B = 0) is not refused at the boundary"),
    dict(name="v19-jax-reverse-valid-one-late", file=JAXPY,
         old="    idx = jnp.where(t < L, L - 1 - t, t)",
         new="    idx = jnp.where(t < L, L - t, t)",
         tests=J_BI + [J_NEW],
         why="the backward direction of a ragged row reads each valid step one later (step L at t = 0)"),
    dict(name="v19-jax-batch-axes-one-size", file=JAXPY,
         old="    b = F.residual_layout(cell, 2, 5, I, H, dtype)",
         new="    b = F.residual_layout(cell, 2, 3, I, H, dtype)",
         tests=J_VMAP + [J_NEW],
         why="the residuals' batch axes are read off two equal batch sizes: none is found, every residual is "
             "broadcast from the folded call instead of split per example"),
    dict(name="v19-jax-stats-dtype-unchecked", file=JAXPY,
         old="or v.shape[0] < 1 or v.dtype != dt:",
         new="or v.shape[0] < 1:",
         tests=J_BN + J_ERR + [J_NEW],
         why="float32 statistics of a float64 stack reach the kernels"),
    dict(name="v19-jax-load-export-skip-key-misspelt", file=JAXPY,
         old="    if config.get(\"skip\"):",
         new="    if config.get(\"skip_connections\"):",
         tests=[f"{JAX}::test_load_export_round_trip", J_NEW],
         why="load_export looks for the wrong key: an export of a skip stack loads and runs without its skips"),
    # ---- kernels/cuda/arrays_cuda.py ----
    dict(name="v19-arrays-add-into-sizes-not-shapes", file=ARRPY,
         old="    if out.shape != a.shape:\n        raise ValueError(f\"add_into",
         new="    if out.size != a.size:\n        raise ValueError(f\"add_into",
         tests=A_OLD + [A_NEW],
         why="add_into accepts a (3,2) array into a (2,3) one (the same size): elements land transposed"),
    dict(name="v19-arrays-to-host-list-passes-through", file=ARRPY,
         old="    if isinstance(obj, (tuple, list)):",
         new="    if isinstance(obj, tuple):",
         tests=A_OLD + [A_NEW],
         why="to_host of a list returns the device arrays unconverted"),
    dict(name="v19-arrays-transpose-indexed-by-N", file=ARRPY,
         old="        i = q // M\n        j = q - i * M",
         new="        i = q // N\n        j = q - i * N",
         tests=A_OLD + [A_NEW],
         why="the transpose kernel splits the flat index by the wrong extent: only square arrays come out right"),
    # ---- data/idx.py ----
    dict(name="v19-idx-header-length-without-magic", file=IDXPY,
         old="    if len(raw) < header:",
         new="    if len(raw) < 4 * ndim:",
         tests=I_OLD + [I_NEW],
         why="a file cut inside its dimensions passes the header check (the magic's 4 bytes forgotten)"),
    dict(name="v19-idx-trailing-bytes-accepted", file=IDXPY,
         old="    if len(raw) > expected:",
         new="    if len(raw) > expected + 1:",
         tests=I_OLD + [I_NEW],
         why="one byte after the array is not refused (a concatenated or padded file)"),
    dict(name="v19-idx-gz-name-not-compressed", file=IDXPY,
         old="        compress = str(path).endswith(\".gz\")",
         new="        compress = str(path).endswith(\".gzip\")",
         tests=I_OLD + [I_NEW],
         why="write_idx to a .gz name writes raw bytes (read_idx still reads them: it looks at the bytes)"),
    dict(name="v19-idx-alt-spelling-not-found", file=IDXPY,
         old="    alt = stem.replace(\"-idx\", \".idx\")",
         new="    alt = stem.replace(\"-idx\", \"_idx\")",
         tests=I_OLD + [I_NEW],
         why="the train-images.idx3-ubyte spelling of the MNIST files is not found"),
    # ---- training/checkpoint.py ----
    dict(name="v19-ckpt-npz-path-not-led-to-description", file=CKPTPY,
         old="        desc = sibling  # e.g.",
         new="        desc = path  # e.g.",
         tests=C_OLD + [C_NEW],
         why="--checkpoint naming the run's arrays file reads that npz as the JSON description"),
    dict(name="v19-ckpt-foreign-format-read", file=CKPTPY,
         old="    if not isinstance(meta, dict) or meta.get(\"format\") != FORMAT:",
         new="    if not isinstance(meta, dict):",
         tests=C_OLD + [C_NEW],
         why="a checkpoint.json of another program (no lnrnn format field) is read as a checkpoint"),
    dict(name="v19-ckpt-missing-arrays-checks-the-folder", file=CKPTPY,
         old="    if not os.path.isfile(npz_path):",
         new="    if not os.path.isdir(os.path.dirname(npz_path)):",
         tests=C_OLD + [C_NEW],
         why="a missing arrays file is a raw FileNotFoundError from the hash, not a CheckpointError"),
    dict(name="v19-ckpt-kept-update-keeps-stale-arrays", file=CKPTPY,
         old="    _drop_other_arrays(dest, name)\n",
         new="",
         tests=C_OLD + [C_NEW],
         why="keeping an update already kept (a resumed run saving the same step) leaves the old arrays file "
             "beside the new one"),
    # ---- training/optim.py ----
    dict(name="v19-optim-flat-grad-length-unchecked", file=OPTPY,
         old="or getattr(grads, \"shape\", None) != params.shape",
         new="or getattr(grads, \"ndim\", None) != params.ndim",
         tests=O_OLD + [O_NEW],
         why="a flat gradient of another length reaches the update kernels"),
    dict(name="v19-optim-extra-grad-keys-accepted", file=OPTPY,
         old="        if params.keys() != grads.keys():",
         new="        if not params.keys() <= grads.keys():",
         tests=O_OLD + [O_NEW],
         why="a gradient dict with names the parameters lack is stepped, the extras ignored"),
    dict(name="v19-optim-centred-inverted", file=OPTPY,
         old="        avg = self._slot(\"avg\", name, p) if h[\"centred\"] else None",
         new="        avg = self._slot(\"avg\", name, p) if not h[\"centred\"] else None",
         tests=O_OLD + [O_NEW],
         why="Graves's centred RMSProp runs uncentred and the uncentred one centred"),
    dict(name="v19-optim-other-kind-loaded", file=OPTPY,
         old="        if state.get(\"kind\") != self.kind:",
         new="        if state.get(\"kind\") not in OPTIMIZERS:",
         tests=O_OLD + [O_NEW],
         why="Adam's saved state (m, v) loads into RMSProp: a resumed run silently restarts its slots"),
]
