"""Planted bugs in the model's layers and their options (format: tests/mutants/mutants.py): the bidirectional
stack's backward direction and initial states, its skip connections' dL/dx and the columns a head reads at
step 0, the plain and skip stacks' chunk time and masks above the bottom layer, the cells' identity
initialization, gate clip, BatchNorm settings and initial BN-LSTM bias, the layer function's running mask,
final states, dL/dh_n and dL/dc_n of empty rows, the bindings' residual layout at the widest folded input and
their momentum and gate clip, the compiled beam search's merge of a repeated label and the classes a step
draws from, the optimizer's float64 norm, its loaded hyper-parameters and slot names and the momentum
RMSProp's centring, the run config's option names, the command's defaults reaching TrainConfig, the JAX
binding's custom VJP (inference BatchNorm, remat with lengths, the padded step at each row's length), the
safetensors header's padding, and the synthetic tasks (the pmnist order's fixed points, the adding problem's
halves, the copy task's symbols). Each is a single-line slip of a kind that happens: an option not passed
down one path, a bound one step off, an argument pair swapped, a forgotten case, a state not restored, a
default copied from the line above.

33 mutants; the existing tests caught 19. New value tests catch the other 14, 33/33 now: a bidirectional skip
stack's dL/dx against central differences, a 2-layer BN stack in chunks from carried states against the whole
sequence, a padded row of a skip stack against the row alone (test_values13_layers); the plain LSTM layer's
gate clip bounding one step's dL/dx and the BN-LSTM's initial biases (test_values13_cells); a row one step
short against the row alone, the residual layout at I = FOLD_MAX_I against what layer_forward returns, the
bindings' momentum and gate clip against a RecurrentLayer given the same (test_values13_functional); a loaded
state's hyper-parameters in the next step and a slot with a name the parameters lack (test_values13_optim);
the safetensors header padded to the next multiple of 8 (test_values13_export); the pmnist order of images
of other sizes and the copy task's symbols (test_values13_tasks). The files test_values13_runconfig and
test_values13_train_command check config.json's option names and the command's defaults against TrainConfig
(their mutants the existing tests caught too). No mutant was dropped as equivalent (the pmnist one is
equivalent for 784 pixels at the data seed, not for images of other sizes).

    python tests/mutants/run.py --only 'v13-*'
"""

LAYERS = "tests/model/test_layers.py"
BIDIR = "tests/model/test_layers_models_bidirectional.py"
LAYERS9 = "tests/model/test_values9_layers.py"
FUNC = "tests/model/test_functional.py"
BN_V = "tests/model/test_values_bn.py"
MODELS = "tests/model/test_models.py"
BEAM = "tests/model/test_beam.py"
BEAM9 = "tests/model/test_values9_beam.py"
OPTIM = "tests/training/test_optim.py"
OPTIM_V = "tests/training/test_values_optim.py"
OPTIM9 = "tests/training/test_values9_optim.py"
RUNCONFIG_V = "tests/training/test_values_runconfig.py"
CLI_CONFIG = "tests/commands/test_cli_train_config.py"
TRAIN_CMD = "tests/commands/test_values_train_command.py"
OPTIONS_V = "tests/commands/test_values_options.py"
JAX = "tests/interop/test_jax.py"
JAX_BIDIR = "tests/interop/test_jax_bidirectional.py"
EXPORT_V = "tests/interop/test_values_export.py"
EXPORT10 = "tests/interop/test_values10_export.py"
DATA = "tests/data/test_data.py"
TASKS_V = "tests/data/test_values_tasks.py"
TASKS9 = "tests/data/test_values9_tasks.py"
TASKS12 = "tests/data/test_values12_tasks.py"
# value tests written for the bugs below that the tests above let through
LAYERS_T = "tests/model/test_values13_layers.py"
CELLS_T = "tests/model/test_values13_cells.py"
FUNC_T = "tests/model/test_values13_functional.py"
OPTIM_T = "tests/training/test_values13_optim.py"
RUNCONFIG_T = "tests/training/test_values13_runconfig.py"
TRAIN_CMD_T = "tests/commands/test_values13_train_command.py"
EXPORT_T = "tests/interop/test_values13_export.py"
TASKS_T = "tests/data/test_values13_tasks.py"

LAYERSPY = "lnrnn/model/layers.py"
CELLSPY = "lnrnn/model/cells.py"
FUNCPY = "lnrnn/model/functional.py"
BEAMPY = "lnrnn/model/beam.py"
OPTIMPY = "lnrnn/training/optim.py"
RUNCONFIGPY = "lnrnn/training/runconfig.py"
CMDTRAINPY = "lnrnn/commands/train.py"
JAXPY = "lnrnn/interop/jax.py"
EXPORTPY = "lnrnn/interop/export.py"
TASKSPY = "lnrnn/data/tasks.py"

L_TESTS = [LAYERS, BIDIR, LAYERS9, LAYERS_T]
C_TESTS = [LAYERS, FUNC, BN_V, CELLS_T]
F_TESTS = [FUNC, LAYERS, FUNC_T]
B_TESTS = [BEAM, BEAM9]
O_TESTS = [OPTIM, OPTIM_V, OPTIM9, OPTIM_T]
R_TESTS = [RUNCONFIG_V, CLI_CONFIG, RUNCONFIG_T]
T_TESTS = [TRAIN_CMD, CLI_CONFIG, OPTIONS_V, TRAIN_CMD_T]
J_TESTS = [JAX, JAX_BIDIR]
E_TESTS = [EXPORT_V, EXPORT10, EXPORT_T]
D_TESTS = [DATA, TASKS_V, TASKS9, TASKS12, TASKS_T]

MUTANTS = [
    # ---- layers.py: stacks ----
    dict(name="v13-layers-bidir-backward-direction-unmasked", file=LAYERSPY,
         old="hb, sb = bwd.forward(rev(inp), st[1], training, on_device=dev, lengths=lengths, keep=keep)",
         new="hb, sb = bwd.forward(rev(inp), st[1], training, on_device=dev, keep=keep)",
         tests=L_TESTS,
         why="the backward direction runs without the lengths: its final state and BN statistics read padding"),
    dict(name="v13-layers-bidir-initial-states-swapped", file=LAYERSPY,
         old="st = (None, None) if state is None else (state[j], state[j + 1])",
         new="st = (None, None) if state is None else (state[j + 1], state[j])",
         tests=L_TESTS,
         why="a bidirectional layer's forward direction starts from the backward direction's given state"),
    dict(name="v13-layers-bidir-skip-dx-of-bottom-only", file=LAYERSPY,
         old="                dx = kn.take_columns(d_in, 0, I, dx)\n                d_above = kn.take_columns(d_in, I, I + W)",
         new="                dx = kn.take_columns(d_in, 0, I)\n                d_above = kn.take_columns(d_in, I, I + W)",
         tests=L_TESTS,
         why="a bidirectional skip stack's dL/dx keeps only the bottom layer's share (the upper layers' x input dropped)"),
    dict(name="v13-layers-stack-t0-bottom-layer-only", file=LAYERSPY,
         old="lengths=lengths, t0=t0, keep=keep)",
         new="lengths=lengths, t0=t0 if k == 0 else 0, keep=keep)",
         tests=L_TESTS,
         why="a chunk of a plain stack gives its time only to the bottom layer: upper BN layers read step 0's statistics"),
    dict(name="v13-layers-skip-lengths-bottom-layer-only", file=LAYERSPY,
         old="training, on_device=dev, lengths=lengths,\n",
         new="training, on_device=dev, lengths=lengths if k == 0 else None,\n",
         tests=L_TESTS,
         why="a skip stack masks its bottom layer only: the upper layers' final states read padded steps"),
    dict(name="v13-layers-reverse-columns-one-off", file=LAYERSPY,
         old="np.tile(np.arange(W) >= H,",
         new="np.tile(np.arange(W) > H,",
         tests=L_TESTS + [MODELS],
         why="the first backward column counts as a forward one: a last-step head reads it at the last step, not step 0"),
    # ---- cells.py ----
    dict(name="v13-cells-identity-init-first-block-only", file=CELLSPY,
         old='p["Wh"] = np.tile(np.eye(H, dtype=dtype), (1, self.blocks))',
         new='p["Wh"] = np.eye(H, self.blocks * H, dtype=dtype)',
         tests=C_TESTS,
         why="recurrent_init='identity' makes only the first gate block the identity, the others zero"),
    dict(name="v13-cells-lstm-gate-clip-dropped", file=CELLSPY,
         old="NORM_LN if ln else NORM_NONE, nch, clip=f.clip_gates, dcT=dc_n)",
         new="NORM_LN if ln else NORM_NONE, nch, clip=0.0, dcT=dc_n)",
         tests=C_TESTS,
         why="the plain and LN LSTMs' backward ignores clip_gates (the BN-LSTM's keeps it)"),
    dict(name="v13-cells-bn-rnn-eps-momentum-swapped", file=CELLSPY,
         old="b[\"rmx\"], b[\"rvx\"], b[\"rmh\"], b[\"rvh\"], training, f.momentum, f.eps,",
         new="b[\"rmx\"], b[\"rvx\"], b[\"rmh\"], b[\"rvh\"], training, f.eps, f.momentum,",
         tests=C_TESTS,
         why="the BN-RNN's kernel gets eps as the momentum and the momentum as eps"),
    dict(name="v13-cells-bn-lstm-cell-bias-at-gain", file=CELLSPY,
         old='("gc", "H", BN_GAIN_INIT), ("bc", "H", 0.0))',
         new='("gc", "H", BN_GAIN_INIT), ("bc", "H", BN_GAIN_INIT))',
         tests=C_TESTS,
         why="the BN-LSTM's cell-norm bias starts at the BN gain (0.1), not 0"),
    # ---- functional.py ----
    dict(name="v13-func-running-mask-inclusive", file=FUNCPY,
         old="return (np.arange(T)[:, None] < np.asarray(lengths)[None, :]).astype(dtype)",
         new="return (np.arange(T)[:, None] <= np.asarray(lengths)[None, :]).astype(dtype)",
         tests=F_TESTS,
         why="the running mask keeps the first padded step: its dL/dy reaches the gradients"),
    dict(name="v13-func-final-state-row-one-short", file=FUNCPY,
         old="rows = np.nonzero(lengths < seqs[0].shape[0])[0]",
         new="rows = np.nonzero(lengths < seqs[0].shape[0] - 1)[0]",
         tests=F_TESTS,
         why="a row that ends one step before T keeps the kernel's state after step T-1 as its final state"),
    dict(name="v13-func-dh-n-replaces-dy", file=FUNCPY,
         old="dy[last[run] - 1, run] += dh_n[run]",
         new="dy[last[run] - 1, run] = dh_n[run]",
         tests=F_TESTS,
         why="dL/dh_n replaces dL/dy at each row's last step instead of adding to it"),
    dict(name="v13-func-dc-n-seeds-empty-rows", file=FUNCPY,
         old='seed["dc_n"] = k.to_device(np.ascontiguousarray(np.where((last == T)[:, None], dc_n, 0).astype(x.dtype)))',
         new='seed["dc_n"] = k.to_device(np.ascontiguousarray(dc_n.astype(x.dtype)))',
         tests=F_TESTS,
         why="dL/dc_n of a row of length 0 also seeds the last step (it runs unmasked in the kernel), besides dc0"),
    dict(name="v13-func-residual-fold-bound", file=FUNCPY,
         old="fold = 0 < I <= FOLD_MAX_I",
         new="fold = 0 < I < FOLD_MAX_I",
         tests=F_TESTS,
         why="the residual layout takes an input of exactly FOLD_MAX_I as unfolded, the kernels fold it"),
    dict(name="v13-func-binding-momentum-dropped", file=FUNCPY,
         old="s = setup(spec, state[0].shape[1], x.dtype, device, eps, momentum)",
         new="s = setup(spec, state[0].shape[1], x.dtype, device, eps)",
         tests=F_TESTS,
         why="layer_forward ignores its momentum: the bindings update BN statistics at the default rate"),
    dict(name="v13-func-binding-clip-dropped", file=FUNCPY,
         old="s = setup(spec, H, x.dtype, device, clip_gates=clip_gates)",
         new="s = setup(spec, H, x.dtype, device)",
         tests=F_TESTS,
         why="layer_backward ignores clip_gates: the bindings' LSTM gradients are never clipped"),
    # ---- beam.py ----
    dict(name="v13-beam-merge-route-ignores-repeat", file=BEAMPY,
         old="e = (bval[1, j] if c == label[bnode[j]] else bval[0, j]) + lp[c]",
         new="e = bval[0, j] + lp[c]",
         tests=B_TESTS,
         why="where a kept prefix's parent is kept, the parent's extension by a repeated label reads all its paths"),
    dict(name="v13-beam-classes-drawn-from-width", file=BEAMPY,
         old="K = min(C - 1, 2 * W)",
         new="K = min(C - 1, W)",
         tests=B_TESTS,
         why="a step's extensions come from its W most probable classes: merged ones leave fewer than W plain ones"),
    # ---- optim.py ----
    dict(name="v13-optim-norm-summed-in-float32", file=OPTIMPY,
         old="flat = g.reshape(-1).astype(np.float64)",
         new="flat = g.reshape(-1)",
         tests=O_TESTS,
         why="the global norm sums float32 squares in float32: large gradients overflow to inf"),
    dict(name="v13-optim-loaded-hyper-ignored", file=OPTIMPY,
         old="        self.hyper.update(hyper)\n",
         new="",
         tests=O_TESTS,
         why="load_state_dict restores lr and step but not the saved hyper-parameters (alpha, momentum, eps ...)"),
    dict(name="v13-optim-extra-slot-names-accepted", file=OPTIMPY,
         old="missing = set(layout.names) ^ set(d)",
         new="missing = set(layout.names) - set(d)",
         tests=O_TESTS,
         why="a saved slot holding names the parameters lack is joined without a word"),
    dict(name="v13-optim-momentum-rmsprop-centred-not-passed", file=OPTIMPY,
         old="eps=1e-8, centred=False):\n        super().__init__(lr, alpha, momentum, eps, centred)",
         new="eps=1e-8, centred=False):\n        super().__init__(lr, alpha, momentum, eps)",
         tests=O_TESTS,
         why="rmsprop-momentum does not pass centred down: it runs centred (the parent's default)"),
    # ---- runconfig.py ----
    dict(name="v13-runconfig-option-name-first-underscore", file=RUNCONFIGPY,
         old='return field_name.replace("_", "-")',
         new='return field_name.replace("_", "-", 1)',
         tests=R_TESTS,
         why="config.json names save_every_seconds 'save-every_seconds': not lnrnn train's option name"),
    # ---- commands/train.py ----
    dict(name="v13-cmdtrain-clip-gates-default-from-clip", file=CMDTRAINPY,
         old='@click.option("--clip-gates", type=float, default=D.clip_gates,',
         new='@click.option("--clip-gates", type=float, default=D.clip,',
         tests=T_TESTS,
         why="--clip-gates defaults to --clip's default (1.0): every default run clips the gates"),
    dict(name="v13-cmdtrain-save-seconds-default-from-save-every", file=CMDTRAINPY,
         old="default=D.save_every_seconds, show_default=True,",
         new="default=D.save_every, show_default=True,",
         tests=T_TESTS,
         why="--save-every-seconds defaults to --save-every's (None): the CLI's default differs from TrainConfig's"),
    # ---- interop/jax.py: the custom VJP ----
    dict(name="v13-jax-backward-inference-bn-as-training", file=JAXPY,
         old="training=cfg.training)",
         new=")",
         tests=J_TESTS,
         why="the backward callback runs BatchNorm's training-mode backward after an inference forward"),
    dict(name="v13-jax-remat-forward-unmasked", file=JAXPY,
         old="y, _, res, _ = _forward_one(cfg, True, x, state, p, lengths, bufs)",
         new="y, _, res, _ = _forward_one(cfg, True, x, state, p, None, bufs)",
         tests=J_TESTS,
         why="remat's rerun forward drops the lengths: the residuals the backward reads are of unmasked rows"),
    dict(name="v13-jax-padded-step-at-length-kept", file=JAXPY,
         old="y = jnp.where((jnp.arange(T)[:, None] < lengths[None, :])",
         new="y = jnp.where((jnp.arange(T)[:, None] <= lengths[None, :])",
         tests=J_TESTS,
         why="y is zeroed from one step after each row's end: the step at lengths[b] keeps the kernel's value"),
    # ---- interop/export.py ----
    dict(name="v13-export-header-padding-sign", file=EXPORTPY,
         old='text += b" " * (-len(text) % 8)',
         new='text += b" " * (len(text) % 8)',
         tests=E_TESTS,
         why="the header is padded by its length mod 8, not up to the next multiple: the data start unaligned"),
    # ---- data/tasks.py ----
    dict(name="v13-tasks-pmnist-fixed-points-accepted", file=TASKSPY,
         old="if not np.any(perm == np.arange(n)):",
         new="if not np.all(perm == np.arange(n)):",
         tests=D_TESTS,
         why="the pmnist order is the first permutation drawn, pixels it leaves in place and all"),
    dict(name="v13-tasks-adding-first-marker-at-half", file=TASKSPY,
         old="first = rng.integers(0, half, n)",
         new="first = rng.integers(0, half + 1, n)",
         tests=D_TESTS,
         why="the adding problem's first marker may fall on step T//2, the second half's (both markers on one step)"),
    dict(name="v13-tasks-copy-last-symbol-never-drawn", file=TASKSPY,
         old="symbols = rng.integers(1, COPY_ALPHABET + 1, (n, K))",
         new="symbols = rng.integers(1, COPY_ALPHABET, (n, K))",
         tests=D_TESTS,
         why="the copy task never draws its last symbol (the exclusive bound taken as inclusive)"),
]
