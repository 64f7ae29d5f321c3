"""Planted bugs, round 241 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates, in
the PyTorch and JAX bindings (lnrnn/interop/torch.py, lnrnn/interop/jax.py), second pass over every option through
them.

PyTorch: a bidirectional BatchNorm stack's backward direction never copying its updated running statistics into its
buffers; the device refusal naming the last tensor checked (the module's weights) instead of the module; every layer
built for the stack's input size (layer k > 0 reading I instead of D*H); a loaded run's head left in training mode; a
skip stack's outputs collecting each layer's input instead of its output.

JAX: init's names for a bidirectional stack counted as one direction (l0, l1 instead of l0, l0_reverse);
params_from_stack's likewise; apply's initial states read as one direction; training's statistics grown to T + 1 rows
instead of T; the params refusal listing the missing names as the unexpected ones; the state dtype refusal with x's
dtype and the state's swapped; the backward callback dropping the lengths (every row's BPTT over all T steps).

12 mutants. Against the existing targeted files alone (torch: test_torch, test_torch_bidirectional, test_torch_cell,
test_torch_refusals_as_passed; jax: test_jax, test_jax_bidirectional, test_jax_refusals_as_passed) the first 6 were
measured on a heavily loaded host (each run of the torch files took 5-15 minutes): 3 caught (the reverse statistics not
copied, layers above the first built for I, init's one-direction names) and 3 missed (the device refusal naming
'weights': no old test puts tensors on two devices; the loaded head in training mode: the old files read the head's
values, never its mode; params_from_stack's one-direction names: the old files take params_from_stack of one-direction
stacks only). The other 6 were not measured against the old files. The new value tests catch all 12 on their own
(checked with the old files taken off the lists): test_values241_torch (a bidirectional BN stack's *_reverse running
statistics against a one-direction BN stack loaded with the reverse parameters run over x flipped, the module
docstring's definition of the backward direction; state_dict shapes of three bidirectional layers written out, with
and without skip; a skip stack's out against two torch.nn.LSTM layers run on its weights, layer 1 reading [x | y_0],
with gradcheck at float64; _from_tensors' stack and head in eval mode and the head's W h + b by hand; the two-device
refusal word for word on a meta-device x) and test_values241_jax (init's and params_from_stack's names and shapes of
bidirectional stacks written out, the stack's own weights; a bidirectional stack's given (2, B, H) states with ragged
lengths against test_values161_jax's lax.scan LN-LSTM: y, h_n, c_n and the gradients of every parameter, x, h0 and c0
at float64; statistics of 2 rows grown to exactly T = 4 by a training pass; the params refusal listing missing names
and the state dtype refusal word for word). Dropped before the catalogue as equivalent: the float16 refusal's
``dt.name`` as ``dt`` (NumPy prints a dtype by its name); apply's ``new_stats if spec.buffers else {}`` as
``new_stats`` (a stack without BatchNorm collects no statistics names); the host forward's lengths cast to int32
(functional.check_lengths casts every integer width to int64). Left out as needing a GPU: _Cuda's stream hand-off.

    python tests/mutants/run.py --only 'v241-*'
"""
TORCH = "lnrnn/interop/torch.py"
JAX = "lnrnn/interop/jax.py"

NEW_TORCH = "tests/interop/test_values241_torch.py"
NEW_JAX = "tests/interop/test_values241_jax.py"
OLD_TORCH = ["tests/interop/test_torch.py", "tests/interop/test_torch_bidirectional.py",
             "tests/interop/test_torch_cell.py", "tests/interop/test_torch_refusals_as_passed.py"]
OLD_JAX = ["tests/interop/test_jax.py", "tests/interop/test_jax_bidirectional.py",
           "tests/interop/test_jax_refusals_as_passed.py"]


def _torch(*names):
    return [f"{NEW_TORCH}::{n}" for n in names]


def _jax(*names):
    return [f"{NEW_JAX}::{n}" for n in names]


MUTANTS = [
    dict(name="v241-torch-reverse-bn-statistics-not-copied", file=TORCH,
         old="        if bn_training:\n            with torch.no_grad():",
         new="        if bn_training and not d:\n            with torch.no_grad():",
         tests=_torch("test_a_bidirectional_batchnorm_stacks_reverse_statistics_are_a_forward_stacks_over_x_reversed")
         + OLD_TORCH,
         why="a bidirectional BN stack's backward direction computes its updated statistics but never copies them "
             "into its *_reverse buffers"),
    dict(name="v241-torch-device-refusal-names-the-last-tensor", file=TORCH,
         old='raise RuntimeError(f"{where}: tensors on',
         new='raise RuntimeError(f"{n}: tensors on',
         tests=_torch("test_tensors_on_two_devices_are_refused_naming_the_module") + OLD_TORCH,
         why="the refusal of tensors on different devices opens with the last tensor's name ('weights') instead "
             "of the module's"),
    dict(name="v241-torch-every-layer-reads-the-input-size", file=TORCH,
         old="            I_k = self.layer_input_size(k)",
         new="            I_k = self.layer_input_size(0)",
         tests=_torch("test_layers_above_the_first_read_both_directions") + OLD_TORCH,
         why="layers above the first are built for the stack's input size instead of D*H (I + D*H with skip)"),
    dict(name="v241-torch-loaded-head-in-training-mode", file=TORCH,
         old="        head.eval()",
         new="        head.train()",
         tests=_torch("test_a_stack_and_head_built_from_a_runs_tensors_are_in_eval_mode") + OLD_TORCH,
         why="from_run / load_exported hand back the head in training mode, not eval mode as documented"),
    dict(name="v241-torch-skip-output-collects-inputs", file=TORCH,
         old="            ys.append(y)",
         new="            ys.append(inp)",
         tests=_torch("test_a_skip_stacks_output_is_every_layers_output_as_torchs_lstm_gives_it") + OLD_TORCH,
         why="out collects each layer's input instead of its output"),
    dict(name="v241-jax-init-bidirectional-names-one-direction", file=JAX,
         old="        for n, name, transposed in _param_names(spec, j, D):\n            a = np.zeros_like",
         new="        for n, name, transposed in _param_names(spec, j):\n            a = np.zeros_like",
         tests=_jax("test_init_names_a_bidirectional_stacks_directions") + OLD_JAX,
         why="init of a bidirectional stack names its layer runs l0, l1, ... instead of l0, l0_reverse, ..."),
    dict(name="v241-jax-params-from-stack-one-direction", file=JAX,
         old="        for n, name, transposed in _param_names(layer.spec, j, D):",
         new="        for n, name, transposed in _param_names(layer.spec, j):",
         tests=_jax("test_params_from_a_bidirectional_stack_name_its_directions_and_hold_its_weights") + OLD_JAX,
         why="params_from_stack of a bidirectional RecurrentStack names its backward directions as further layers"),
    dict(name="v241-jax-initial-states-one-direction", file=JAX,
         old="    states = _initial_states(state, spec, L, B, H, dt, D)",
         new="    states = _initial_states(state, spec, L, B, H, dt)",
         tests=_jax("test_a_bidirectional_stacks_initial_states_and_gradients_with_ragged_lengths") + OLD_JAX,
         why="apply reads the initial states of a bidirectional stack as (num_layers, B, H)"),
    dict(name="v241-jax-statistics-grown-one-row-too-many", file=JAX,
         old="                v = F.grown(v, T)",
         new="                v = F.grown(v, T + 1)",
         tests=_jax("test_training_grows_batchnorm_statistics_to_exactly_t_rows") + OLD_JAX,
         why="training grows BatchNorm statistics to T + 1 rows instead of T: mutable=True hands back an extra row"),
    dict(name="v241-jax-params-refusal-unexpected-lists-missing", file=JAX,
         old='f"unexpected {extra or',
         new='f"unexpected {missing or',
         tests=_jax("test_plain_params_passed_as_layer_normalized_ones_are_refused_listing_the_missing_names")
         + OLD_JAX,
         why="the refusal of params that do not match the stack lists the missing names as the unexpected ones"),
    dict(name="v241-jax-state-dtype-refusal-swapped", file=JAX,
         old='raise TypeError(f"{n} is {s.dtype} but x is {dt}',
         new='raise TypeError(f"{n} is {dt} but x is {s.dtype}',
         tests=_jax("test_a_state_in_another_dtype_is_refused_naming_each_dtype_where_it_belongs") + OLD_JAX,
         why="the refusal of a state in another dtype names x's dtype as the state's and the state's as x's"),
    dict(name="v241-jax-backward-lengths-dropped", file=JAX,
         old="    lengths = None if lengths is None else np.array(lengths, dtype=np.int64)\n    dx, d0",
         new="    lengths = None\n    dx, d0",
         tests=_jax("test_a_bidirectional_stacks_initial_states_and_gradients_with_ragged_lengths") + OLD_JAX,
         why="the backward callback runs every row's BPTT over all T steps: gradients of ragged batches are wrong"),
]
