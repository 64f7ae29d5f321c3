"""Planted bugs, round 49 (format: tests/mutants/mutants.py): single-line slips in the PyTorch binding
(lnrnn/interop/torch.py) off its defaults, on lines no earlier round mutates: the layer op handing the kernels
the module's own BN statistics (which the module then copies the untouched clones back over), the backward op
reading dfinal one array late, its residuals read to the end of the saved tensors (the lengths taken for one),
dL/dy zeros shaped like x for a loss on h_n alone, the backward always in training mode; check_tensors letting
meta tensors through and naming x in a float16 state's refusal; LSTM/RNN float32 whatever torch's default
dtype, LSTMCell's forget gate at 1 whatever forget_bias, output_size without the backward direction,
layer_params given (direction, layer), BN statistics of more steps than a fresh module's one row refused by
load_state_dict, initial states one row per layer when bidirectional, an unbatched (T,I) input taken as one
step of T rows, out from the first layer, h_n concatenated instead of stacked, an unbatched h_n squeezed on
the layer axis, the backward direction reading the forward's BN statistics, the backward direction of a short
row reading the padded sequence's last steps, a packed output one row too many per step; a cell keeping no
residuals when only its parameters take a gradient, an unbatched cell's h' left (1,H).

22 mutants. Against the existing targeted tests alone 19 were caught and 3 missed: meta tensors let through (no
old test hands the modules a device other than the CPU), LSTM/RNN float32 under a float64 default dtype (every
old test passes dtype) and a cell keeping no residuals when only its parameters take a gradient (the old cell
tests ask for the input's or the state's gradient too). The new value tests catch all 22 on their own (the
runner's check with the old files taken off the lists): test_values49_torch (an eager stack written there in
torch ops, torch.nn.functional.layer_norm and batch statistics by hand, with torch's autograd: out, h_n, c_n and
the gradients of x, h0, c0 and every parameter of two-layer, bidirectional, batch_first, skip, ragged (non-zero
padding), float32 and float64 stacks of every norm, BN in train() with the running statistics of each direction
after one forward and in eval() with rows fewer than the steps; a loss on h_n alone with I != H; unbatched
input; a PackedSequence's data against pack_padded_sequence of the eager output; output_size against D*H*(L with
skip); the default dtype; forget_bias in every layer and direction; a BN state_dict of 5 steps loaded into a
fresh module and run in eval(); meta tensors and a float16 state refused by name), test_values49_torch_cell
(LSTMCell and RNNCell, 'ln' and None, float32 and float64, with and without a state, against one eager step, the
parameters' gradients with neither input nor state taking one; unbatched steps; a float16 c refused by name).

Dropped before the catalogue as equivalent on the CPU: _fresh's overlap test as all(...) instead of any(...) and
_span's upper end one stride short (no CPU kernel returns an output that overlaps an input or an earlier output,
checked for two bidirectional layers of every cell, ragged or not, train() and eval(), forward and backward: the
copy never happens there); seeds_c without its `lengths is None` (functional.layer_backward refuses a c_n
gradient of a row ending inside the sequence with the same NotImplementedError, and rows of full length get the
right gradient); _reverse_valid's t < L as t <= L (only padded entries are read differently, and out zeroes them
with no gradient); _backward without dy.contiguous() (the backward op makes every array contiguous itself);
set_materialize_grads(True) (zero-filled residual gradients are never read); a cell's self.training passed as
True (no LN or plain cell differs between modes).

    python tests/mutants/run.py --only 'v49-*'
"""
TORCH = "lnrnn/interop/torch.py"

# existing tests of the binding (tests/interop/test_torch_cuda.py needs a GPU: left out)
TORCH_OLD = ["tests/interop/test_torch.py", "tests/interop/test_torch_bidirectional.py",
             "tests/interop/test_torch_cell.py", "tests/interop/test_values_torch.py",
             "tests/interop/test_values14_torch.py", "tests/interop/test_values16_torch.py",
             "tests/interop/test_values23_torch.py", "tests/interop/test_values25_torch.py",
             "tests/interop/test_values39_torch_lengths.py", "tests/interop/test_values41_torch.py",
             "tests/interop/test_values46_layers_sizes.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
TORCH_NEW = ["tests/interop/test_values49_torch.py", "tests/interop/test_values49_torch_cell.py"]

MUTANTS = [
    # ---- the layer op and its backward ----
    dict(name="v49-torch-bn-kernels-update-the-module-buffers", file=TORCH,
         old="    bufs = [arr(b) for b in (new_buffers if training else buffers)]",
         new="    bufs = [arr(b) for b in buffers]",
         tests=TORCH_NEW + TORCH_OLD,
         why="training hands the kernels the module's own BN statistics instead of the clones: they update the "
             "buffers in place, and the module then copies the untouched clones back over them, so the running "
             "statistics never move"),
    dict(name="v49-torch-backward-dfinal-one-late", file=TORCH,
         old="ins[r + 3 + n_s + n_p:]",
         new="ins[r + 4 + n_s + n_p:]",
         tests=TORCH_NEW + TORCH_OLD,
         why="the backward op reads dfinal one array late: dL/dh_n is dropped (the RNN) or dL/dc_n is taken for "
             "dL/dh_n (the LSTM whose kernels take a c_n seed)"),
    dict(name="v49-torch-backward-residuals-take-lengths", file=TORCH,
         old="    state, params, res = rest[:n_s], rest[n_s:n_s + n_p], rest[n_s + n_p:n_s + n_p + n_r]",
         new="    state, params, res = rest[:n_s], rest[n_s:n_s + n_p], rest[n_s + n_p:]",
         tests=TORCH_NEW + TORCH_OLD,
         why="the residuals are read to the end of the saved tensors: with lengths the lengths tensor is taken "
             "for one more residual"),
    dict(name="v49-torch-backward-zero-dy-like-x", file=TORCH,
         old="    dy = torch.zeros_like(y) if dy is None else dy.contiguous()",
         new="    dy = torch.zeros_like(x) if dy is None else dy.contiguous()",
         tests=TORCH_NEW + TORCH_OLD,
         why="a loss on h_n alone (no gradient for out) seeds dL/dy with zeros shaped like x (T,B,I), not y (T,B,H)"),
    dict(name="v49-torch-backward-always-training", file=TORCH,
         old="    ctx.cell, ctx.training, ctx.has_lengths = cell, training, lengths is not None",
         new="    ctx.cell, ctx.training, ctx.has_lengths = cell, True, lengths is not None",
         tests=TORCH_NEW + TORCH_OLD,
         why="the backward always runs the training-mode BN backward: in eval() the gradients of a BN stack "
             "differentiate through batch statistics the forward never used"),
    # ---- checks ----
    dict(name="v49-torch-meta-tensors-let-through", file=TORCH,
         old="    if len(devices) > 1 or not {d.type for d in devices} <= {\"cpu\", \"cuda\"}:",
         new="    if len(devices) > 1:",
         tests=TORCH_NEW + TORCH_OLD,
         why="tensors all on one device other than the CPU or CUDA (meta) pass the check"),
    dict(name="v49-torch-dtype-message-names-x", file=TORCH,
         old="raise TypeError(f\"{where}: {n} is {t.dtype}, but",
         new="raise TypeError(f\"{where}: x is {t.dtype}, but",
         tests=TORCH_NEW + TORCH_OLD,
         why="the refusal of a float16 hx (or weight) says that x is float16"),
    # ---- the modules ----
    dict(name="v49-torch-stack-default-dtype-float32", file=TORCH,
         old="            raise ValueError(f\"{what}: dropout must lie in [0, 1), not {dropout!r}.\")\n"
             "        dtype = torch.get_default_dtype() if dtype is None else dtype",
         new="            raise ValueError(f\"{what}: dropout must lie in [0, 1), not {dropout!r}.\")\n"
             "        dtype = torch.float32 if dtype is None else dtype",
         tests=TORCH_NEW + TORCH_OLD,
         why="LSTM/RNN without dtype are float32 whatever torch's default dtype (nn.LSTM follows the default)"),
    dict(name="v49-torch-cell-forget-bias-default", file=TORCH,
         old="_add_layer(self, self.spec, rng, self.input_size, self.hidden_size, forget_bias, dtype, device, \"\")",
         new="_add_layer(self, self.spec, rng, self.input_size, self.hidden_size, 1.0, dtype, device, \"\")",
         tests=TORCH_NEW + TORCH_OLD,
         why="LSTMCell's forget gate bias starts at 1 whatever forget_bias"),
    dict(name="v49-torch-output-size-one-direction", file=TORCH,
         old="        return self.directions * self.hidden_size * (self.num_layers if self.skip else 1)",
         new="        return self.hidden_size * (self.num_layers if self.skip else 1)",
         tests=TORCH_NEW + TORCH_OLD,
         why="output_size forgets the backward direction: H where out is 2H wide"),
    dict(name="v49-torch-layer-params-suffix-swapped", file=TORCH,
         old="        return _layer_params(self, self.spec, \"_\" + _suffix(k, d))",
         new="        return _layer_params(self, self.spec, \"_\" + _suffix(d, k))",
         tests=TORCH_NEW + TORCH_OLD,
         why="layer_params passes (direction, layer) for (layer, direction): layers above the first and the "
             "backward directions run the wrong parameters"),
    dict(name="v49-torch-load-bn-rows-by-step-count", file=TORCH,
         old="v.dim() == 2 and v.shape[1] == buf.shape[1]:",
         new="v.dim() == 2 and v.shape[0] == buf.shape[0]:",
         tests=TORCH_NEW + TORCH_OLD,
         why="_load_from_state_dict resizes a BN buffer only when the stored one has as many steps as it already "
             "has: statistics trained on more steps than a fresh module's one row do not load"),
    dict(name="v49-torch-states-one-row-per-layer", file=TORCH,
         old="        L, H, what = self.num_layers * self.directions, self.hidden_size, type(self).__name__",
         new="        L, H, what = self.num_layers, self.hidden_size, type(self).__name__",
         tests=TORCH_NEW + TORCH_OLD,
         why="initial states are num_layers rows, not num_layers * 2 when bidirectional"),
    dict(name="v49-torch-unbatched-time-as-batch", file=TORCH,
         old="            x = x.unsqueeze(1)\n",
         new="            x = x.unsqueeze(0)\n",
         tests=TORCH_NEW + TORCH_OLD,
         why="an unbatched (T,I) input becomes (1,T,I): one step of T sequences"),
    dict(name="v49-torch-out-of-the-first-layer", file=TORCH,
         old="        out = torch.cat(ys, dim=2) if self.skip else ys[-1]",
         new="        out = torch.cat(ys, dim=2) if self.skip else ys[0]",
         tests=TORCH_NEW + TORCH_OLD,
         why="out is the first layer's output, not the last's"),
    dict(name="v49-torch-final-states-concatenated", file=TORCH,
         old="        final = tuple(torch.stack([f[i] for f in finals]) for i in range(self.spec.nstate))",
         new="        final = tuple(torch.cat([f[i] for f in finals]) for i in range(self.spec.nstate))",
         tests=TORCH_NEW + TORCH_OLD,
         why="h_n, c_n concatenate the layers' (B,H) states into (L*D*B, H) instead of stacking (L*D, B, H)"),
    dict(name="v49-torch-unbatched-final-squeeze-layers", file=TORCH,
         old="tuple(f.squeeze(1) for f in final)",
         new="tuple(f.squeeze(0) for f in final)",
         tests=TORCH_NEW + TORCH_OLD,
         why="an unbatched input's h_n, c_n squeeze the layer axis: (L*D,1,H) is kept for two layers and one "
             "layer gives (1,H) only by chance"),
    dict(name="v49-torch-reverse-direction-forward-statistics", file=TORCH,
         old="        bufs = self.layer_buffers(k, d)",
         new="        bufs = self.layer_buffers(k)",
         tests=TORCH_NEW + TORCH_OLD,
         why="the backward direction of a bidirectional BN stack reads and updates the forward direction's "
             "statistics; its own _reverse buffers never move"),
    dict(name="v49-torch-reverse-valid-whole-sequence", file=TORCH,
         old="    idx = torch.where(t < L, L - 1 - t, t).to(a.device)",
         new="    idx = torch.where(t < L, T - 1 - t, t).to(a.device)",
         tests=TORCH_NEW + TORCH_OLD,
         why="the backward direction of a short row reads the padded sequence's last steps reversed instead of "
             "its own valid steps"),
    dict(name="v49-torch-repack-one-step-more", file=TORCH,
         old="    running = torch.arange(B)[None, :] < packed.batch_sizes[:T, None]",
         new="    running = torch.arange(B)[None, :] <= packed.batch_sizes[:T, None]",
         tests=TORCH_NEW + TORCH_OLD,
         why="a packed output takes one more row at every step than the input's batch_sizes"),
    # ---- one step ----
    dict(name="v49-torch-cell-keep-without-parameters", file=TORCH,
         old="        keep = torch.is_grad_enabled() and any(t.requires_grad for t in (x, *state, *params))",
         new="        keep = torch.is_grad_enabled() and any(t.requires_grad for t in (x, *state))",
         tests=TORCH_NEW + TORCH_OLD,
         why="a cell keeps its residuals only when the input or the state takes a gradient: training its "
             "parameters on data that does not fails in backward"),
    dict(name="v49-torch-cell-unbatched-final-wrong-axis", file=TORCH,
         old="            final = [f.squeeze(0) for f in final]",
         new="            final = [f.squeeze(1) for f in final]",
         tests=TORCH_NEW + TORCH_OLD,
         why="an unbatched step's h', c' keep their batch axis: (1,H) instead of (H,)"),
]
