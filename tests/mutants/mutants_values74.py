"""Planted bugs, round 74 (format: tests/mutants/mutants.py): single-line slips in the PyTorch binding
(lnrnn/interop/torch.py), on lines no earlier round mutates: the fake implementations of lnrnn::layer_forward (time
and batch read swapped, the residuals float64 whatever x's dtype, new BN statistics returned whenever residuals are
kept) and of lnrnn::layer_backward (dx shaped like y); the backward's wiring (layer_backward's unpacking one slot
early, the saved lengths read only in train()) and setup_context's (c_n left differentiable for ragged rows, the
residuals left differentiable); the modules' hx checks (too many states let through, the (num_layers * 2, ...)
layout named by the layer count), the packed output gathered by the inverse permutation, half-precision tensors
refused as mixed dtypes instead of by name, the backward direction's parameter names (*_reversed); the aliasing
guard (_span one stride past each axis, _fresh copying only outputs that start inside an input); the cells (an
empty batch let through, an LSTMCell hx of one state let through, torch's default dtype ignored).

18 mutants. Against the existing targeted tests alone (test_torch for the ops and the modules with
test_values49_torch; test_torch_cell and test_values49_torch_cell for the cells; test_torch_bidirectional for the
names) only part was measured, the old files being slow (about two minutes a missed mutant): of the 6 mutants run
against them 3 were caught (the fake's swapped T and B, by test_torch's compiled module; the *_reversed names; the
LSTMCell hx of one state) and 3 missed (the fake's float64 residuals: its opcheck runs float64 only; the cells'
empty batch and their default dtype); the other 12 were not run against the old files alone. The new value tests
catch all 18 on their own (checked with the old tests taken off the lists): test_values74_torch_ops (the fakes run
under a FakeTensorMode against the real ops' list lengths, shapes and dtypes with T, B, I and H all different,
float32 and float64, BN in train() and eval(), with and without residuals, ragged rows, and the documented shapes
by definition; which outputs require grad; gradcheck of one op call in float64 for x, h0, c0 and every parameter;
_span against NumPy's byte_bounds of sliced, strided, reversed and transposed views; _fresh against
np.shares_memory), test_values74_torch_modules (an eval() plain LSTM on ragged rows against torch.nn.LSTM run on
each row alone over its own steps, for every gradient; a packed input sorted by a 3-cycle against nn.LSTM's
PackedSequence; a loss on c_n over ragged rows refused; the hx, dtype and cell refusals' sentences; a bidirectional
stack's names and outputs against nn.LSTM's; the cells' dtype under torch's default float64 against nn.LSTMCell's;
an LN-LSTMCell stepped T times against the LN-LSTM sequence layer). Dropped as equivalent: _span without reversed()
(NumPy gives strides only for views that are not C-contiguous, and a C-contiguous array spans the same bytes in
either order); _fresh not recomputing a copy's span (only more copies later); _refuse_nonzero returning grad for
zeros (it returns only when grad is all zero); the op's implementation registered for "cpu" instead of "default"
(only CUDA calls differ); _reverse_valid's t < L as t <= L (the entry it changes is padding: zeroed in out, never
reaching a final state); forward without x.contiguous() (the host view is made contiguous anyway); from_run's
forget_bias not passed (load_state_dict overwrites the initial bias).

    python tests/mutants/run.py --only 'v74-*'
"""
TORCH = "lnrnn/interop/torch.py"

# existing tests of these lines
OPS_OLD = ["tests/interop/test_torch.py"]
MOD_OLD = ["tests/interop/test_torch.py", "tests/interop/test_values49_torch.py"]
CELL_OLD = ["tests/interop/test_torch_cell.py", "tests/interop/test_values49_torch_cell.py"]
BI_OLD = ["tests/interop/test_torch_bidirectional.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
OPS_NEW = ["tests/interop/test_values74_torch_ops.py"]
MOD_NEW = ["tests/interop/test_values74_torch_modules.py"]

MUTANTS = [
    # ---- the ops' fake implementations against the real ones ----
    dict(name="v74-fake-forward-time-and-batch-swapped", file=TORCH,
         old="    T, B, I = x.shape\n",
         new="    B, T, I = x.shape\n",
         tests=OPS_NEW + OPS_OLD,
         why="layer_forward's fake reads x as (B,T,I): its y is (B,T,H) and its residuals are laid out for the "
             "swapped sizes, which the compiler then plans with (seen only where T != B)"),
    dict(name="v74-fake-forward-residuals-float64", file=TORCH,
         old="_numpy_dtype(x.dtype), device)",
         new="np.float64, device)",
         tests=OPS_NEW + OPS_OLD,
         why="the fake's residuals are float64 whatever x's dtype: a float32 layer's fake residuals disagree with "
             "the real op's"),
    dict(name="v74-fake-forward-buffers-when-kept", file=TORCH,
         old="[b.new_empty(b.shape) for b in buffers] if training else [])",
         new="[b.new_empty(b.shape) for b in buffers] if keep else [])",
         tests=OPS_NEW + OPS_OLD,
         why="the fake returns new BN statistics whenever residuals are kept, the real op only in training: an "
             "eval() BN layer with gradients gets two list entries the real op never returns"),
    dict(name="v74-fake-backward-dx-shaped-like-y", file=TORCH,
         old="return x.new_empty(x.shape), [s.new_empty",
         new="return y.new_empty(y.shape), [s.new_empty",
         tests=OPS_NEW + OPS_OLD,
         why="layer_backward's fake gives dx the output's shape (T,B,H) instead of the input's (T,B,I)"),
    # ---- the backward's wiring ----
    dict(name="v74-backward-state-slice-one-early", file=TORCH,
         old="    st, ps = ins[r + 1:r + 1 + n_s], ins[r + 1 + n_s:r + 1 + n_s + n_p]",
         new="    st, ps = ins[r:r + n_s], ins[r + n_s:r + n_s + n_p]",
         tests=OPS_NEW + OPS_OLD,
         why="layer_backward's unpacking starts one early: x is read as h0 and every parameter as the one before"),
    dict(name="v74-setup-c-n-seeded-with-lengths", file=TORCH,
         old="ctx.seeds_c = len(final) > 1 and lengths is None and",
         new="ctx.seeds_c = len(final) > 1 and",
         tests=MOD_NEW + MOD_OLD,
         why="c_n is left differentiable for ragged rows: it says it requires grad, and a loss on it reaches the "
             "layer function, refused there in its sentence (functional's) instead of the module's"),
    dict(name="v74-setup-residuals-differentiable", file=TORCH,
         old="ctx.mark_non_differentiable(*res, ",
         new="ctx.mark_non_differentiable(",
         tests=OPS_NEW + OPS_OLD,
         why="the residuals are not marked non-differentiable: they come back requiring grad, as if a loss on them "
             "could be carried back"),
    dict(name="v74-backward-lengths-only-in-training", file=TORCH,
         old="lengths = rest[-1] if ctx.has_lengths else None",
         new="lengths = rest[-1] if ctx.training else None",
         tests=MOD_NEW + MOD_OLD,
         why="the backward reads the saved lengths only in train(): in eval() ragged rows are carried back as full "
             "rows (dL/dh_n seeded at step T-1)"),
    # ---- the modules: states, packed outputs, dtypes, refusals, names ----
    dict(name="v74-states-too-many-let-through", file=TORCH,
         old="        if len(hx) != n:",
         new="        if len(hx) < n:",
         tests=MOD_NEW + MOD_OLD,
         why="hx with more states than the cell holds (an RNN given (h0, c0)) is taken, the extra ones ignored, "
             "instead of refused"),
    dict(name="v74-states-message-dims-by-layers", file=TORCH,
         old='if self.bidirectional else "num_layers, batch',
         new='if self.num_layers > 1 else "num_layers, batch',
         tests=MOD_NEW + MOD_OLD,
         why="a wrong hx shape's message names (num_layers * 2, ...) by the layer count, not the directions"),
    dict(name="v74-repack-unsorted-order", file=TORCH,
         old="order = packed.sorted_indices if",
         new="order = packed.unsorted_indices if",
         tests=MOD_NEW + MOD_OLD,
         why="the packed output gathers its rows by the inverse permutation: right only when the sort is its own "
             "inverse"),
    dict(name="v74-check-any-float-dtype", file=TORCH,
         old="if t.dtype not in DTYPES:",
         new="if not t.is_floating_point():",
         tests=MOD_NEW + MOD_OLD,
         why="float16/bfloat16 tensors pass the first check: they are refused as 'mixed dtypes' (or not at all) "
             "instead of with the float32/float64 sentence naming the tensor"),
    dict(name="v74-suffix-reversed", file=TORCH,
         old='return f"l{k}_reverse" if d else f"l{k}"',
         new='return f"l{k}_reversed" if d else f"l{k}"',
         tests=MOD_NEW + BI_OLD,
         why="the backward direction's parameters are named *_l{k}_reversed: nn.LSTM's bidirectional state_dict "
             "no longer loads"),
    dict(name="v74-span-one-stride-past", file=TORCH,
         old="hi + max(0, s * (n - 1))",
         new="hi + max(0, s * n)",
         tests=OPS_NEW + OPS_OLD,
         why="_span reaches one stride past each axis's last element: an output right after an input counts as "
             "overlapping it and is copied for nothing"),
    dict(name="v74-fresh-overlap-by-start-only", file=TORCH,
         old="if any(lo < e and b < hi for b, e in taken)",
         new="if any(b <= lo < e for b, e in taken)",
         tests=OPS_NEW + OPS_OLD,
         why="_fresh copies an output only when it starts inside an input: one that starts before an input and "
             "runs into it is returned aliasing it"),
    # ---- the cells ----
    dict(name="v74-cell-empty-batch-let-through", file=TORCH,
         old="x.shape[0] < 1:",
         new="x.shape[0] < 0:",
         tests=MOD_NEW + CELL_OLD,
         why="a cell's (0, I) input is no longer refused with the (B, I) sentence"),
    dict(name="v74-cell-too-few-states-let-through", file=TORCH,
         old="if len(hx) != n or any(",
         new="if len(hx) > n or any(",
         tests=MOD_NEW + CELL_OLD,
         why="an LSTMCell given (h,) alone passes the check and fails later inside the op, without the "
             "'hx must be (h, c)' sentence"),
    dict(name="v74-cell-default-dtype-float32", file=TORCH,
         old='bias=True.")\n        dtype = torch.get_default_dtype() if dtype is None else dtype',
         new='bias=True.")\n        dtype = torch.float32 if dtype is None else dtype',
         tests=MOD_NEW + CELL_OLD,
         why="the cells ignore torch's default dtype (nn.LSTMCell follows it): under float64 a cell is float32"),
]
