"""Planted bugs, round 298 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the PyTorch and JAX bindings (lnrnn/interop/torch.py, lnrnn/interop/jax.py), fifteenth pass: an
LSTM built without a norm made plain instead of layer-normalized; an RNN built without a nonlinearity defaulting
to relu (refused by its own check); the cells refusing every norm but 'ln' (norm=None refused with the 'bn'
sentence); a stack's forward running only the first direction of a bidirectional layer; the layer loop one
layer short; T and B read the wrong way round from the time-major input; the reversal of each row's valid steps
reading T and B the wrong way round; a run config's norm not passed on (every loaded stack layer-normalized);
in JAX, every parameter named untransposed (the pytree holds (I, G) where torch holds (G, I)); init and
init_stats taking float16 without the dtype check; apply's dtype check skipped (float16 x met by the
mixed-dtype sentence instead); apply's layer loop one layer short; and JAX's reversal of valid steps reading T
and B the wrong way round.

14 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on
their own (checked with the old files taken off the lists): test_values298_torch (an LSTM built with no norm
given against reference.lstm_forward with norm 'ln', its LN vectors drawn away from 1 and 0, and its
state_dict's keys and shapes written out; an RNN given no nonlinearity loading nn.RNN's weights and giving its
values; an LSTMCell with norm=None against nn.LSTMCell, values and the gradients of x, h and c, and the 'bn'
refusal word for word; a two-layer bidirectional batch_first nn.LSTM / nn.RNN with hx given over rows of
lengths 4, 1, 3 at T 4 != B 3, lengths passed as a list: out, h_n and the gradients of x, h0 and every weight;
a two-layer bidirectional nn.LSTM's tensors loaded through a norm-None run config in evaluation mode with
dropout 0.5 between layers), test_values298_jax (init's pytree keys and shapes written out for a two-layer
LN-LSTM; a two-layer bidirectional torch.nn.LSTM / nn.RNN's state_dict passed to apply over rows of lengths 5,
1, 4 at T 5 != B 3 with the state given: y, final states and torch's gradients of x, h0 and every weight; the
float16 sentence of init, init_stats and apply word for word). Left out as equivalent: the stack's
directions written 2 if bidirectional (the argument) instead of the stored bool (bool() of the same value);
the cell's layer call passing training=True (only BatchNorm reads it, and the cells refuse 'bn'); the BN
growth test made self.training (a cell without BatchNorm has no buffers to grow); set_materialize_grads(True)
(the backward fills None with zeros itself); JAX's layer count started at L = 1 (weight_ih_l0 is checked
first); mutable's (new_stats if spec.buffers else {}) as new_stats (empty without BatchNorm). Left out as a
crash everywhere rather than a value: the transpose test in _layer_params inverted, and the cell's batch size
read from x.shape[1] (both fail on every call).

    python tests/mutants/run.py --only 'v298-*'
"""
TORCH = "lnrnn/interop/torch.py"
JAX = "lnrnn/interop/jax.py"

T_TORCH = "tests/interop/test_values298_torch.py::"
T_JAX = "tests/interop/test_values298_jax.py::"
OLD_TORCH = ["tests/interop/test_torch.py", "tests/interop/test_torch_cell.py",
             "tests/interop/test_values255_torch.py", "tests/interop/test_values290_torch.py"]
OLD_JAX = ["tests/interop/test_jax.py", "tests/interop/test_values273_jax.py",
           "tests/interop/test_values291_jax.py"]

STACK = [T_TORCH + "test_a_two_layer_bidirectional_batch_first_stack_over_lengths_1_and_t_is_nn_modules[lstm]",
         T_TORCH + "test_a_two_layer_bidirectional_batch_first_stack_over_lengths_1_and_t_is_nn_modules[rnn]"]
JSTACK = [T_JAX + "test_a_two_layer_bidirectional_torch_stack_with_lengths_1_and_t_runs_as_torch[lstm]",
          T_JAX + "test_a_two_layer_bidirectional_torch_stack_with_lengths_1_and_t_runs_as_torch[rnn]"]
F16 = T_JAX + "test_float16_is_refused_by_init_init_stats_and_apply_word_for_word"

MUTANTS = [
    # ---- the PyTorch modules: lnrnn/interop/torch.py ----
    dict(name="v298-torch-lstm-default-norm-none", file=TORCH,
         old='    def __init__(self, input_size, hidden_size, num_layers=1, norm="ln", proj_size=0, **kw):',
         new='    def __init__(self, input_size, hidden_size, num_layers=1, norm=None, proj_size=0, **kw):',
         tests=[T_TORCH + "test_an_lstm_built_without_a_norm_is_the_layer_normalized_spec"] + OLD_TORCH,
         why="LSTM(I, H) without norm= is the plain LSTM, not the layer-normalized one the docstring promises"),
    dict(name="v298-torch-rnn-default-relu", file=TORCH,
         old='num_layers=1, norm="ln", nonlinearity="tanh", **kw):',
         new='num_layers=1, norm="ln", nonlinearity="relu", **kw):',
         tests=[T_TORCH + "test_an_rnn_built_without_a_nonlinearity_is_nn_rnns_tanh"] + OLD_TORCH,
         why="RNN(I, H) without nonlinearity= defaults to relu, which its own check refuses"),
    dict(name="v298-torch-cell-refuses-all-but-ln", file=TORCH,
         old='        if _NORMS[norm] == "bn":\n',
         new='        if _NORMS[norm] != "ln":\n',
         tests=[T_TORCH + "test_an_lstm_cell_takes_norm_none_as_nn_lstmcell_and_refuses_bn_word_for_word"] + OLD_TORCH,
         why="LSTMCell(norm=None) is refused with the 'bn' sentence: nn.LSTMCell's weights cannot be loaded"),
    dict(name="v298-torch-forward-one-direction", file=TORCH,
         old="            for d in range(self.directions):\n                # the backward direction runs",
         new="            for d in range(1):\n                # the backward direction runs",
         tests=STACK + OLD_TORCH,
         why="a bidirectional layer runs its forward direction only: out is (T, B, H) and the next layer is fed "
             "half its width"),
    dict(name="v298-torch-forward-one-layer-short", file=TORCH,
         old="        ys, finals, inp = [], [], x\n        for k in range(self.num_layers):",
         new="        ys, finals, inp = [], [], x\n        for k in range(self.num_layers - 1):",
         tests=STACK + OLD_TORCH,
         why="the stack's forward stops one layer early: out is the next-to-last layer's, h_n one row per "
             "direction short"),
    dict(name="v298-torch-t-b-swapped", file=TORCH,
         old="        T, B = x.shape[0], x.shape[1]\n        if T < 1 or B < 1:",
         new="        T, B = x.shape[1], x.shape[0]\n        if T < 1 or B < 1:",
         tests=STACK + OLD_TORCH,
         why="T and B read the wrong way round: hx of (L*D, B, H) refused where T != B, zero states of the wrong "
             "batch"),
    dict(name="v298-torch-reverse-valid-t-b-swapped", file=TORCH,
         old="    T, B = a.shape[0], a.shape[1]\n    t = torch.arange(T)[:, None]",
         new="    T, B = a.shape[1], a.shape[0]\n    t = torch.arange(T)[:, None]",
         tests=STACK + OLD_TORCH,
         why="the backward direction over ragged rows builds its step index with T and B swapped: fails where "
             "T != B"),
    dict(name="v298-torch-from-tensors-norm-not-passed", file=TORCH,
         old='config["num_layers"], norm=config["norm"],',
         new='config["num_layers"], norm="ln",',
         tests=[T_TORCH + "test_tensors_of_a_norm_none_run_config_load_as_nn_lstm_in_evaluation"] + OLD_TORCH,
         why="a run config's norm is dropped: a plain or BatchNorm run loads into a layer-normalized stack"),
    # ---- the JAX functions: lnrnn/interop/jax.py ----
    dict(name="v298-jax-params-named-untransposed", file=JAX,
         old='out = [(n, f"{PARAM_NAMES[n][0]}_{sfx}", PARAM_NAMES[n][1]) for n in spec.param_names]',
         new='out = [(n, f"{PARAM_NAMES[n][0]}_{sfx}", False) for n in spec.param_names]',
         tests=[T_JAX + "test_inits_pytree_keys_and_shapes_written_out"] + JSTACK + OLD_JAX,
         why="the pytree holds Wx (I, G) and Wh (H, G) under torch's names: torch's state_dict is refused"),
    dict(name="v298-jax-init-dtype-unchecked", file=JAX,
         old='    dt = _check_dtype(dtype)\n    I, H, L = check_sizes("init"',
         new='    dt = np.dtype(dtype)\n    I, H, L = check_sizes("init"',
         tests=[F16] + OLD_JAX,
         why="init draws float16 parameters the kernels cannot run, instead of refusing the dtype"),
    dict(name="v298-jax-init-stats-dtype-unchecked", file=JAX,
         old='    dt = _check_dtype(dtype)\n    H, T, L = check_sizes("init_stats"',
         new='    dt = np.dtype(dtype)\n    H, T, L = check_sizes("init_stats"',
         tests=[F16] + OLD_JAX,
         why="init_stats makes float16 statistics instead of refusing the dtype"),
    dict(name="v298-jax-apply-dtype-unchecked", file=JAX,
         old="    dt = _check_dtype(x.dtype)\n",
         new="    dt = np.dtype(x.dtype)\n",
         tests=[F16] + OLD_JAX,
         why="apply's float16 x meets the mixed-dtype sentence (weight_ih_l0 is float32 ...), not the dtype one"),
    dict(name="v298-jax-apply-one-layer-short", file=JAX,
         old="    for k in range(L):\n        ys = []",
         new="    for k in range(L - 1):\n        ys = []",
         tests=JSTACK + OLD_JAX,
         why="apply runs one layer fewer than the parameters hold: y is the next-to-last layer's"),
    dict(name="v298-jax-reverse-valid-t-b-swapped", file=JAX,
         old="    T, B = a.shape[0], a.shape[1]\n    t = jnp.arange(T)[:, None]",
         new="    T, B = a.shape[1], a.shape[0]\n    t = jnp.arange(T)[:, None]",
         tests=JSTACK + OLD_JAX,
         why="the backward direction over ragged rows builds its step index with T and B swapped: fails where "
             "T != B"),
]
