"""Planted bugs, round 224 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates, in
the PyTorch binding (lnrnn/interop/torch.py): layer_forward's fake implementation giving y the input's width (what
torch.compile and opcheck see); the backward op dropping the lengths (every row's BPTT over all T steps); the hx refusal
of a bidirectional stack counting num_layers rows instead of num_layers * 2, and the hx check reading h0 only (a c0 of
the wrong shape runs); the module's dtype refusal naming the default dtype instead of the one passed, the proj_size
refusal quoting the hidden size, the empty-input refusal naming the (T, B, I) the module made of a batch_first x, the
lengths refusal quoting x's shape; the mixed-dtype check leaving out its last tensor (the module's weights: the refusal
then comes from the layer op, naming lnrnn's layer instead of the module); layer k > 0 of a bidirectional skip stack
built for [x | H] instead of [x|2H]; bias_hh_l{k} never added into lnrnn's b (a wrong key); *_reverse parameters
registered on every stack; a bidirectional layer's output [backward | forward].

13 mutants. Against the existing targeted files alone (test_torch, test_torch_bidirectional, test_torch_cell,
test_torch_refusals_as_passed, test_values39_torch_lengths) 9 were caught and 4 missed: the c0 left unchecked, the dtype
refusal naming the default, the lengths refusal quoting x, the mixed-dtype check without the weights. Those files read
the refusals by pattern (a c0 of the wrong shape was never passed beside a right h0, a half-precision module's refusal
was matched without its dtype, the lengths refusal and the mixed dtypes only by their first words, which the layer op's
sentence matches too). The new value tests catch every mutant on their own (checked with the old files taken off the
lists): test_values224_torch (state_dict names and shapes written out here, nn.LSTM's key order, [x|2H] above layer 0 of
a bidirectional skip stack; nn.LSTM's / nn.RNN's own weights, with their nonzero bias_hh, give their out, h_n, c_n and
the gradients of x, h0, c0 and every parameter, batch_first or unbatched, one or two directions;
torch.autograd.gradcheck (fast mode) of two bidirectional LN-LSTM layers with every option on at once: batch_first,
skip, rows of lengths 3, 1, 0, 2, given h0 and c0, dropout 0.3 between the layers under a seed set inside the function;
layer_forward's (T, B, H) at I != H under a FakeTensorMode, residuals as the real call's; the refusals word for word,
naming what was passed). Dropped before the catalogue as equivalent: the second ``if bn_training`` of _direction widened
to every training stack, and the first likewise (LN and plain cells have no buffers: both loops are empty);
set_materialize_grads(True) (the backward reads only dy and the seeds it asks for, zeros for a missing one either way);
keep=True for every forward (residuals kept, nothing seen but memory); the cells' forward passing training=True (no cell
a step takes, LN or plain, reads the mode); the lengths cast to int32 instead of int64 (functional.check_lengths casts
any integer width to int64, torch promotes the index arithmetic); x.contiguous() left out before the layers (the ops'
array() makes every input contiguous); _refuse_nonzero returning its gradient instead of zeros (it returns only when the
gradient is all zeros); _NORMS[norm] == "bn" in the cells' refusal as norm == "bn" (only 'bn' maps to 'bn'). Left out as
needing a GPU: the CUDA stream hand-off (_Cuda.running).

    python tests/mutants/run.py --only 'v224-*'
"""
TORCH = "lnrnn/interop/torch.py"

NEW = "tests/interop/test_values224_torch.py"
OLD = ["tests/interop/test_torch.py", "tests/interop/test_torch_bidirectional.py", "tests/interop/test_torch_cell.py",
       "tests/interop/test_torch_refusals_as_passed.py", "tests/interop/test_values39_torch_lengths.py"]


def _new(*names):
    return [f"{NEW}::{n}" for n in names]


MUTANTS = [
    dict(name="v224-fake-output-width-is-input", file=TORCH,
         old="    return (x.new_empty((T, B, H)), [s.new_empty(s.shape) for s in state], res,",
         new="    return (x.new_empty((T, B, I)), [s.new_empty(s.shape) for s in state], res,",
         tests=_new("test_layer_forward_promises_t_b_h_under_a_fake_tensor_mode") + OLD,
         why="layer_forward's fake implementation gives y the input's width: torch.compile and opcheck see (T,B,I)"),
    dict(name="v224-backward-lengths-dropped", file=TORCH,
         old="y_a, dy_a, dfinal=tuple(df), lengths=_host_lengths(lengths),",
         new="y_a, dy_a, dfinal=tuple(df), lengths=None,",
         tests=_new("test_gradcheck_with_every_option_on_at_once") + OLD,
         why="the backward op runs every row over all T steps: gradients of ragged batches are wrong"),
    dict(name="v224-hx-refusal-counts-layers-not-directions", file=TORCH,
         old='state where ({L}, {B}, {H}) was expected "',
         new='state where ({self.num_layers}, {B}, {H}) was expected "',
         tests=_new("test_a_bidirectional_stacks_hx_refusal_counts_both_directions") + OLD,
         why="a bidirectional stack's refusal of a wrong hx asks for num_layers rows instead of num_layers * 2"),
    dict(name="v224-hx-only-h0-checked", file=TORCH,
         old="        for s in hx:\n",
         new="        for s in hx[:1]:\n",
         tests=_new("test_a_c0_of_the_wrong_shape_is_refused_after_a_right_h0") + OLD,
         why="only h0's shape is checked: a c0 of the wrong shape reaches the kernels"),
    dict(name="v224-dtype-refusal-names-the-default", file=TORCH,
         old='                            f"or torch.float64, not {dtype}.")\n'
             "        self.spec = cells.lookup(self._kind, _NORMS[norm])\n"
             "        self.input_size, self.hidden_size, self.num_layers",
         new='                            f"or torch.float64, not {torch.get_default_dtype()}.")\n'
             "        self.spec = cells.lookup(self._kind, _NORMS[norm])\n"
             "        self.input_size, self.hidden_size, self.num_layers",
         tests=_new("test_a_module_dtype_the_kernels_lack_is_named_as_passed") + OLD,
         why="LSTM(dtype=torch.float16)'s refusal names the default dtype, not the one passed"),
    dict(name="v224-proj-refusal-names-hidden-size", file=TORCH,
         old='f"nn.Linear on the output), not {proj_size!r}.")',
         new='f"nn.Linear on the output), not {hidden_size!r}.")',
         tests=_new("test_a_projection_is_refused_naming_the_proj_size_passed") + OLD,
         why="the proj_size refusal quotes the hidden size as the projection passed"),
    dict(name="v224-skip-layer-input-one-direction", file=TORCH,
         old="        return self.input_size + W if self.skip else W",
         new="        return self.input_size + self.hidden_size if self.skip else W",
         tests=_new("test_a_bidirectional_skip_stack_reads_x_and_both_directions_above_layer_0",
                    "test_gradcheck_with_every_option_on_at_once") + OLD,
         why="with skip connections a bidirectional layer k > 0 is built for [x | H] instead of [x | 2H]"),
    dict(name="v224-bias-hh-not-added", file=TORCH,
         old='        elif name == "b":\n',
         new='        elif name == "bias":\n',
         tests=_new("test_nn_lstms_weights_with_nonzero_bias_hh_give_its_values_and_gradients") + OLD,
         why="the second bias bias_hh_l{k} never reaches the kernels (wrong key): nn.LSTM's weights give other "
             "outputs"),
    dict(name="v224-reverse-parameters-always", file=TORCH,
         old="            for d in range(self.directions):\n                _add_layer(",
         new="            for d in range(2):\n                _add_layer(",
         tests=_new("test_a_plain_two_layer_lstms_state_dict_has_nn_lstms_names_and_shapes",
                    "test_nn_lstms_weights_with_nonzero_bias_hh_give_its_values_and_gradients") + OLD,
         why="every stack registers *_reverse parameters: a unidirectional state_dict has extra names"),
    dict(name="v224-bidirectional-output-order", file=TORCH,
         old="            y = torch.cat(y_dirs, dim=2) if self.bidirectional else y_dirs[0]",
         new="            y = torch.cat(y_dirs[::-1], dim=2) if self.bidirectional else y_dirs[0]",
         tests=_new("test_nn_lstms_weights_with_nonzero_bias_hh_give_its_values_and_gradients") + OLD,
         why="a bidirectional layer's output is [backward | forward] instead of nn.LSTM's [forward | backward]"),
    dict(name="v224-no-steps-refusal-names-transposed", file=TORCH,
         old='f"{given}.")',
         new='f"{tuple(x.shape)}.")',
         tests=_new("test_an_empty_input_is_named_as_passed") + OLD,
         why="the refusal of an empty x names the (T,B,I) the module made of it, not the shape passed"),
    dict(name="v224-lengths-refusal-names-x", file=TORCH,
         old='f"{tuple(lengths.shape)}.")',
         new='f"{tuple(x.shape)}.")',
         tests=_new("test_lengths_of_the_wrong_shape_are_named_by_their_own_shape") + OLD,
         why="the refusal of lengths of the wrong shape quotes x's shape instead of the lengths'"),
    dict(name="v224-mixed-dtypes-leave-out-the-last", file=TORCH,
         old="    dtypes = {t.dtype for _, t in named}",
         new="    dtypes = {t.dtype for _, t in named[:-1]}",
         tests=_new("test_a_float64_input_to_a_float32_module_is_refused_at_the_module_naming_the_weights") + OLD,
         why="the mixed-dtype check leaves out the last tensor named (the module's weights): the refusal comes "
             "from the layer op, naming lnrnn's layer instead of the module"),
]
