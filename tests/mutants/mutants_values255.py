"""Planted bugs, round 255 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the PyTorch binding (lnrnn/interop/torch.py) and the JAX binding (lnrnn/interop/jax.py), twelfth
pass: a batch_first input of the wrong width refused naming the (T, B, I) the module turned it into; a refusal
of hx naming the module where the layout of its rows belongs; LSTM and RNN dropping the norm they were given
(norm=None runs LN); layer 1 reading input_size instead of H; weights stored (I, G) instead of torch's (G, I);
apply's bidirectional params refused as unexpected (the names wanted counted over one direction); the initial
state's rows counted L + D - 1 instead of L * D; every weight's expected shape taken untransposed; an empty
batch_first input named by its swapped shape; apply's batch_first defaulting to True; params_from_stack leaving
the weights untransposed; a bidirectional batch_first output left time-major.

13 mutants. Against the old targeted files alone: cut short on a loaded host (2 to 10 minutes a mutant): the second
and third were caught, the first ran past its 600 s limit (unmeasured), the other 10 were not run. The new value
tests catch every mutant on their own (checked with the old files taken off the lists): test_values255_torch
(torch.nn.LSTM and nn.RNN at three layers with I = 3 != H = 4, their own weights loaded strictly: out, final states
and every gradient with given states; a three-layer bidirectional LN-LSTM's state_dict names and shapes written out
from the module docstring; gradcheck of a bidirectional LN-RNN with lengths 3, 0 and 2; the refusals of a
batch_first x and of hx word for word), test_values255_jax (nn.LSTM row by row on each row's valid steps for a
two-layer bidirectional batch_first stack with given (h0, c0) and lengths 4, 0, 2, and check_grads of it; nn.LSTM
and nn.RNN for apply's defaults on (5, 2, 3); params_from_stack's names and shapes written out with the stack's Wx
and Wh transposed; a weight of the wrong shape and an empty input refused word for word). Left out as equivalent:
lengths cast to int32 instead of int64 in the torch stack (the kernels read either); the lengths' torch.as_tensor
without device="cpu" (a CPU-only test tree: the same tensor); x.contiguous() dropped before the layers (the host
conversion makes its own contiguous copy); _grow_buffers called whenever training, not only for BN (a cell without
BatchNorm has no buffers to grow); apply's mutable result returning new_stats without the spec.buffers test
(new_stats is {} for a cell without BatchNorm); the order of the bias_hh name among a layer's pytree names (JAX
flattens dicts by sorted key, and every check reads the dict by name). Left out as a crash rather than a value: the
torch stack's zero states given once for the LSTM ((z,) instead of (z,) * 2: the kernels fail on the missing c0);
the skip concatenation inverted (every layer above the first gets an input of the wrong width); the JAX layer loop
over range(L) (an IndexError on the backward directions).

    python tests/mutants/run.py --only 'v255-*'
"""
TORCH = "lnrnn/interop/torch.py"
JAX = "lnrnn/interop/jax.py"

T_TORCH = "tests/interop/test_values255_torch.py::"
T_JAX = "tests/interop/test_values255_jax.py::"
OLD_TORCH = ["tests/interop/test_torch.py", "tests/interop/test_values224_torch.py",
             "tests/interop/test_values241_torch.py"]
OLD_JAX = ["tests/interop/test_jax.py", "tests/interop/test_values225_jax.py",
           "tests/interop/test_values241_jax.py"]

NN_VALUES = T_TORCH + "test_a_three_layer_stack_without_norm_gives_nn_modules_values_and_gradients"
LAYOUT = T_TORCH + "test_a_three_layer_bidirectional_ln_lstms_state_dict_layout"
ROWS = T_JAX + "test_a_bidirectional_batch_first_lstm_with_states_and_lengths_0_and_t_is_nn_lstm_row_by_row"
DEFAULTS = T_JAX + "test_applys_defaults_are_time_major_from_zero_states_as_nn_modules"

MUTANTS = [
    # ---- the PyTorch binding: lnrnn/interop/torch.py ----
    dict(name="v255-torch-batch-first-refusal-names-transposed-shape", file=TORCH,
         old='f"batch_first=True), not {given}.")',
         new='f"batch_first=True), not {tuple(x.shape)}.")',
         tests=[T_TORCH + "test_a_batch_first_input_of_the_wrong_width_is_named_as_passed"] + OLD_TORCH,
         why="a batch_first x of the wrong width is refused naming (T, B, I) as the module transposed it, not "
             "the (B, T, I) passed"),
    dict(name="v255-torch-hx-refusal-names-module-not-layout", file=TORCH,
         old='f"({dims}).")',
         new='f"({what}).")',
         tests=[T_TORCH + "test_an_hx_of_the_wrong_shape_is_refused_with_the_layout_of_its_rows"] + OLD_TORCH,
         why="an hx of the wrong shape is refused with '(RNN)' where the layout of its rows belongs"),
    dict(name="v255-torch-lstm-norm-not-passed", file=TORCH,
         old='not {proj_size!r}.")\n        super().__init__(input_size, hidden_size, num_layers, norm, **kw)',
         new='not {proj_size!r}.")\n        super().__init__(input_size, hidden_size, num_layers, **kw)',
         tests=[NN_VALUES + "[lstm]"] + OLD_TORCH,
         why="LSTM drops the norm it was given: norm=None (and 'bn') build a layer-normalized LSTM"),
    dict(name="v255-torch-rnn-norm-not-passed", file=TORCH,
         old='not {nonlinearity!r}.")\n        super().__init__(input_size, hidden_size, num_layers, norm, **kw)',
         new='not {nonlinearity!r}.")\n        super().__init__(input_size, hidden_size, num_layers, **kw)',
         tests=[NN_VALUES + "[rnn]"] + OLD_TORCH,
         why="RNN drops the norm it was given: norm=None (and 'bn') build a layer-normalized RNN"),
    dict(name="v255-torch-layer-1-reads-input-size", file=TORCH,
         old="        if k == 0:\n            return self.input_size",
         new="        if k <= 1:\n            return self.input_size",
         tests=[NN_VALUES + "[lstm]", LAYOUT] + OLD_TORCH,
         why="layer 1 is built reading input_size, not D*H: nn.LSTM's state_dict no longer loads"),
    dict(name="v255-torch-weights-stored-untransposed", file=TORCH,
         old="value = torch.from_numpy(np.ascontiguousarray(p[name].T if transpose else p[name]))",
         new="value = torch.from_numpy(np.ascontiguousarray(p[name] if transpose else p[name].T))",
         tests=[NN_VALUES + "[lstm]", LAYOUT] + OLD_TORCH,
         why="weight_ih / weight_hh are registered (I, G) / (H, G), lnrnn's layout, not torch's (G, I)"),
    # ---- the JAX binding: lnrnn/interop/jax.py ----
    dict(name="v255-jax-wanted-names-one-direction", file=JAX,
         old="want = {name for j in range(L * D)",
         new="want = {name for j in range(L)",
         tests=[ROWS] + OLD_JAX,
         why="a bidirectional stack's params are refused: the names wanted are counted over L layer runs, so "
             "the upper layers' and reverse names are 'unexpected'"),
    dict(name="v255-jax-state-rows-l-plus-d-minus-1", file=JAX,
         old="    L *= D\n",
         new="    L += D - 1\n",
         tests=[ROWS] + OLD_JAX,
         why="the initial state's rows are counted L + D - 1, right only for one layer: a two-layer "
             "bidirectional (4, B, H) state is refused as not (3, B, H)"),
    dict(name="v255-jax-expected-shape-untransposed", file=JAX,
         old="(shapes[n][::-1] if transposed else shapes[n])",
         new="shapes[n]",
         tests=[T_JAX + "test_a_weight_of_the_wrong_shape_is_refused_with_its_layers_expected_shape", ROWS]
         + OLD_JAX,
         why="every weight is expected in lnrnn's (I, G) layout, not the pytree's (G, I): valid params refused"),
    dict(name="v255-jax-empty-refusal-names-swapped-shape", file=JAX,
         old='got shape {given}.")',
         new='got shape {tuple(x.shape)}.")',
         tests=[T_JAX + "test_an_empty_batch_first_input_is_named_as_passed"] + OLD_JAX,
         why="an empty batch_first x is refused naming the time-major shape apply swapped it into"),
    dict(name="v255-jax-batch-first-default-true", file=JAX,
         old="mutable=False, batch_first=False, remat=False):",
         new="mutable=False, batch_first=True, remat=False):",
         tests=[DEFAULTS + "[lstm]", DEFAULTS + "[rnn]"] + OLD_JAX,
         why="apply reads x as (B, T, I) by default: a time-major batch runs with time and batch swapped"),
    dict(name="v255-jax-params-from-stack-untransposed", file=JAX,
         old="params[name] = jnp.asarray(a.T if transposed else a)",
         new="params[name] = jnp.asarray(a)",
         tests=[T_JAX + "test_params_from_a_ln_rnn_stack_hold_its_weights_in_torchs_g_by_i_layout"] + OLD_JAX,
         why="params_from_stack hands back Wx and Wh in lnrnn's (I, G) layout, not the pytree's (G, I)"),
    dict(name="v255-jax-bidirectional-output-left-time-major", file=JAX,
         old="    if batch_first:\n        y = jnp.swapaxes(y, 0, 1)",
         new="    if batch_first and D == 1:\n        y = jnp.swapaxes(y, 0, 1)",
         tests=[ROWS] + OLD_JAX,
         why="a bidirectional batch_first stack returns its output (T, B, 2H), not (B, T, 2H)"),
]
