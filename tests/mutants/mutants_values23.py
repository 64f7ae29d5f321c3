"""Planted bugs, round 23 (format: tests/mutants/mutants.py): single-line slips in the bindings and the
export path, which earlier rounds of values left alone: the output-path helpers (a file under folders that do
not exist yet, a failed write's temp file and the path its error names, the advice for a read-only file
system), the safetensors writer and reader (an unknown format, the suggested name of a refused suffix, bytes
past the last tensor, the byte order), the PyTorch modules (an unbatched input to a batch_first stack, dropout
in eval mode, a float64 run's stack and head rebuilt in another dtype, the functional layer op writing the
statistics it was given, a bidirectional BN stack's backward direction on the forward one's statistics), the
JAX functions (BN inference without statistics, load_export's split of statistics and parameters, init's
forget bias) and the short modules users import (lnrnn.torch, lnrnn.jax: their public names).

19 mutants. Against the existing targeted tests alone (each run before the new tests were listed) 9 were caught
and 10 missed: a failed write's temp file left beside a new target, its OSError naming the temp file, an
unknown export format written anyway, the suffix refusal suggesting weights.pt.safetensors, a file with bytes
past its last tensor read, an unbatched input of a batch_first torch stack transposed, dropout between layers
in eval mode, a float64 run's head rebuilt in float32, and lnrnn.torch's and lnrnn.jax's star imports without
load_exported / load_export. The new value tests catch every mutant: test_values23_files (a file under missing
folders checked and written, a full disk's write leaving nothing new and naming the target, space_hint for each
errno its docstring sorts), test_values23_export (the bytes parsed by hand against the format, trailing and
skipped bytes refused, unknown formats refused before writing, the suggested name), test_values23_torch (an
unbatched batch_first input against torch.nn.LSTM/RNN, eval mode against a dropout-free copy and nn.LSTM, a
float64 run rebuilt bit for bit with its head applied by hand, the layer op's inputs untouched, each BN
direction against a one-direction stack on the reversed rows, a bidirectional stack with lengths against
nn.LSTM on packed rows, the star import), test_values23_jax (BN inference refused without statistics and equal
to RecurrentStack's with them, directly and through load_export; init's forget bias in the forget block only;
the star import). One mutant written for this round was dropped as equivalent: torch's _reverse_valid
reversing a row's first padded step too (t <= L): that entry reads the last step, which is padded as well, the
kernels ignore padded steps and the stack zeroes them in out, so no output or state changes.

    python tests/mutants/run.py --only 'v23-*'
"""

FILES = "lnrnn/files.py"
EXPORT = "lnrnn/interop/export.py"
TORCH = "lnrnn/interop/torch.py"
JAX = "lnrnn/interop/jax.py"
TORCH_API = "lnrnn/torch.py"
JAX_API = "lnrnn/jax.py"

# existing tests of these modules
FILES_OLD = ["tests/test_values12_files.py", "tests/commands/test_values_output_paths.py",
             "tests/commands/test_values_output_checks.py", "tests/commands/test_values9_output_files.py",
             "tests/commands/test_values21_paths.py"]
EXPORT_OLD = ["tests/interop/test_values_export.py", "tests/interop/test_values10_export.py",
              "tests/interop/test_values13_export.py", "tests/interop/test_predict_export.py"]
TORCH_OLD = ["tests/interop/test_torch.py", "tests/interop/test_torch_bidirectional.py",
             "tests/interop/test_values_torch.py", "tests/interop/test_values14_torch.py",
             "tests/interop/test_values16_torch.py"]
JAX_OLD = ["tests/interop/test_jax.py", "tests/interop/test_jax_bidirectional.py",
           "tests/interop/test_values19_jax.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
FILES_NEW = ["tests/test_values23_files.py"]
EXPORT_NEW = ["tests/interop/test_values23_export.py"]
TORCH_NEW = ["tests/interop/test_values23_torch.py"]
JAX_NEW = ["tests/interop/test_values23_jax.py"]

MUTANTS = [
    # ---- output paths ----
    dict(name="v23-files-probe-the-missing-folder", file=FILES,
         old="    e = write_error(probe)\n",
         new="    e = write_error(os.path.dirname(target))\n",
         tests=FILES_NEW + FILES_OLD,
         why="the write probe runs in the file's own folder, not its nearest existing ancestor: an output under "
             "a folder that does not exist yet is refused"),
    dict(name="v23-files-temp-kept-when-target-new", file=FILES,
         old="        if tmp is not None and os.path.exists(tmp):",
         new="        if tmp is not None and os.path.exists(path):",
         tests=FILES_NEW + FILES_OLD,
         why="a failed write removes its temp file only when the target already existed: a new output's "
             "failure leaves a .tmp- file behind"),
    dict(name="v23-files-error-names-the-temp-file", file=FILES,
         old="        raise OSError(cause.errno, cause.strerror or str(cause), str(path)) from None",
         new="        raise OSError(cause.errno, cause.strerror or str(cause), str(tmp)) from None",
         tests=FILES_NEW + FILES_OLD,
         why="a failed write's OSError names the hidden temp file instead of the path the user gave"),
    dict(name="v23-files-read-only-fs-hint", file=FILES,
         old="(errno.EACCES, errno.EPERM, errno.EROFS)",
         new="(errno.EACCES, errno.EPERM)",
         tests=FILES_NEW + FILES_OLD,
         why="a read-only file system is told to 'check that file system' instead of to make the place writable"),
    # ---- safetensors export ----
    dict(name="v23-export-unknown-format-written", file=EXPORT,
         old="    if fmt not in FORMATS:",
         new="    if not fmt:",
         tests=EXPORT_NEW + EXPORT_OLD,
         why="export_weights writes safetensors under any format name it is given"),
    dict(name="v23-export-suggestion-keeps-the-suffix", file=EXPORT,
         old="{os.path.splitext(text)[0] if ext else text}{SUFFIX}",
         new="{text}{SUFFIX}",
         tests=EXPORT_NEW + EXPORT_OLD,
         why="a refused weights.pt is told to be named weights.pt.safetensors"),
    dict(name="v23-export-trailing-bytes-accepted", file=EXPORT,
         old="spans[0][0] != 0 or spans[-1][1] != len(data)",
         new="spans[0][0] != 0 or spans[-1][1] > len(data)",
         tests=EXPORT_NEW + EXPORT_OLD,
         why="read_safetensors takes a file with bytes past its last tensor (truncated header, appended data)"),
    dict(name="v23-export-big-endian-data", file=EXPORT,
         old='np.ascontiguousarray(a, dtype=a.dtype.newbyteorder("<"))',
         new='np.ascontiguousarray(a, dtype=a.dtype.newbyteorder(">"))',
         tests=EXPORT_NEW + EXPORT_OLD,
         why="tensors are written big-endian: safetensors is little-endian"),
    # ---- the torch modules ----
    dict(name="v23-torch-unbatched-batch-first-transposed", file=TORCH,
         old="        if packed is None and self.batch_first and x.dim() == 3:",
         new="        if packed is None and self.batch_first:",
         tests=TORCH_NEW + TORCH_OLD,
         why="an unbatched (T,I) input to a batch_first module is transposed to (I,T), as nn.LSTM does not"),
    dict(name="v23-torch-dropout-in-eval", file=TORCH,
         old="nn.functional.dropout(y, self.dropout, self.training)",
         new="nn.functional.dropout(y, self.dropout)",
         tests=TORCH_NEW + TORCH_OLD,
         why="dropout between layers also in eval mode (F.dropout's training defaults to True)"),
    dict(name="v23-torch-run-loaded-in-default-dtype", file=TORCH,
         old="                dtype=dtype, **kw)",
         new="                **kw)",
         tests=TORCH_NEW + TORCH_OLD,
         why="a float64 run loads into a module of the default dtype: its weights are silently rounded"),
    dict(name="v23-torch-head-in-default-dtype", file=TORCH,
         old="        head = nn.Linear(W.shape[1], W.shape[0], dtype=dtype)",
         new="        head = nn.Linear(W.shape[1], W.shape[0])",
         tests=TORCH_NEW + TORCH_OLD,
         why="a float64 run's head loads as a float32 nn.Linear: it refuses the stack's float64 output"),
    dict(name="v23-torch-op-writes-its-buffers", file=TORCH,
         old="    new_buffers = [b.clone() for b in buffers] if training else []",
         new="    new_buffers = list(buffers) if training else []",
         tests=TORCH_NEW + TORCH_OLD,
         why="the functional layer_forward op updates the BN statistics it was given in place (declared "
             "mutates_args=()): a caller's buffers change under it"),
    dict(name="v23-torch-reverse-direction-reads-forward-stats", file=TORCH,
         old='_{_suffix(k, d)}") for n in self.spec.buffer_names]',
         new='_{_suffix(k, 0)}") for n in self.spec.buffer_names]',
         tests=TORCH_NEW + TORCH_OLD,
         why="a bidirectional BN stack's backward direction reads and updates the forward direction's statistics"),
    # ---- the JAX functions ----
    dict(name="v23-jax-bn-inference-without-stats", file=JAX,
         old="        if not training:\n            raise ValueError(\"BatchNorm inference",
         new="        if not training and stats is not None:\n            raise ValueError(\"BatchNorm inference",
         tests=JAX_NEW + JAX_OLD,
         why="BN inference without stats runs on fresh statistics (means 0, variances 1) instead of refusing"),
    dict(name="v23-jax-load-export-keeps-variances-in-params", file=JAX,
         old='if "_running_" in k}',
         new='if "_running_mean" in k}',
         tests=JAX_NEW + JAX_OLD,
         why="load_export leaves the BN running variances among the parameters, where apply refuses them"),
    dict(name="v23-jax-init-forget-bias-dropped", file=JAX,
         old="I if j < D else D * H, H, dt, forget_bias)",
         new="I if j < D else D * H, H, dt, 1.0)",
         tests=JAX_NEW + JAX_OLD,
         why="init ignores its forget_bias (always 1)"),
    # ---- the names users import ----
    dict(name="v23-torch-facade-without-load-exported", file=TORCH_API,
         old='"from_run", "load_exported", "layer_forward", "layer_backward"]',
         new='"from_run", "layer_forward", "layer_backward"]',
         tests=TORCH_NEW + TORCH_OLD,
         why="from lnrnn.torch import * leaves out load_exported"),
    dict(name="v23-jax-facade-without-load-export", file=JAX_API,
         old='"params_from_stack", "load_export", "VMAP_METHOD"]',
         new='"params_from_stack", "VMAP_METHOD"]',
         tests=JAX_NEW + JAX_OLD,
         why="from lnrnn.jax import * leaves out load_export"),
]
