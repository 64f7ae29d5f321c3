"""Planted bugs, round 169 (format: tests/mutants/mutants.py): a seventh pass over the cell
registry and the functional layer API, on lines no earlier round mutates.

Covered: cells.get offering the cell kinds instead of the registry's names and cells.lookup offering them for
an unknown norm; the orthogonal init scaling Q by R's diagonal instead of its sign; the LSTM's recurrent blocks
stacked by rows ((4H, H)); every gain and bias after Wx, Wh, b made H wide; the RNN's inference forward
returning no state sequence (a masked keep=False forward cannot read each row's final h); the BatchNorm buffer
names grouped by prefix (rmx, rmh, rvx, rvh); the lengths refusals naming T for the count and B for the bound;
the gate-clip refusal naming the cell's kind instead of its name; layer_forward checking the lengths with T
and B swapped; layer_backward taking the hidden width from x (a missing dy gets I columns); dL/dc_n of an empty
row reaching dc0 only when every row is empty; the BatchNorm statistics' step count read from their width.

14 mutants. Against the existing targeted tests the measurement was cut short (one mutant's run over the old
lists took 140-200 s): on the two most direct old registry files (test_values88_cells, test_values67_cells)
the first 2 were measured and both missed (no old test reads the refusal sentences of an unknown cell name or
norm); the other 12 were not measured against the old tests. The new value tests catch every mutant on their
own (checked with the old tests taken off the lists): test_values169_cells (every cell's initial parameters
by name, order and shape against the row's definition, param_names, grads and param_shapes in that order,
gains and biases at their initial values, Wx inside sqrt(6 / (I + H)); each H x H block of Wh orthogonal, the
identity init, _orthogonal against Q of NumPy's QR with R's diagonal signs; BN buffer names against
init_buffers' order; the unknown cell, norm and kind sentences), test_values169_functional (I != H, T != B in
float64: an LSTM's layer_forward with one length per row against lnrnn.reference run row by row, y and each
row's h_n and c_n; an RNN's and an LN-RNN's keep=False forward with lengths, an empty row's h_n being h0; a
BN-RNN training forward with statistics of T rows, more than the layer is wide, against the reference's y,
h_n and running statistics, and the inference forward from them; layer_backward with no dy and only dL/dh_n,
and with dL/dc_n over full and empty rows, against central differences of the reference; the lengths and
gate-clip refusals sentence for sentence). Dropped before the catalogue as equivalent: the unit gains' values
or widths ('1G', '0G', '1H', '0H'; the kernels without LayerNorm never read them); the masked forward passing
lengths to the plain kernels (their adapters ignore them); the forward returning its saved tuple with
keep=False (layer_forward returns [] whatever it is). Also left out: residual_layout (only the JAX bindings read it) and the CUDA paths.

    python tests/mutants/run.py --only 'v169-*'
"""
CELLS = "lnrnn/model/cells.py"
FUNC = "lnrnn/model/functional.py"

# existing tests of these modules
CELLS_OLD = ["tests/model/test_values13_cells.py", "tests/model/test_values67_cells.py",
             "tests/model/test_values88_cells.py", "tests/model/test_infer_path.py"]
FUNC_OLD = ["tests/model/test_functional.py", "tests/model/test_values13_functional.py",
            "tests/model/test_values16_functional.py", "tests/model/test_values22_functional.py",
            "tests/model/test_values51_functional.py", "tests/model/test_values77_functional.py",
            "tests/model/test_values148_functional.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
CELLS_NEW = ["tests/model/test_values169_cells.py"]
FUNC_NEW = ["tests/model/test_values169_functional.py"]

MUTANTS = [
    # ---- the cell registry ----
    dict(name="v169-get-lists-the-kinds", file=CELLS,
         old="choose one of {', '.join(CELLS)}.",
         new="choose one of {', '.join(KINDS)}.",
         tests=CELLS_NEW + CELLS_OLD,
         why="an unknown cell name is answered with 'rnn, lstm' as the choices: the registry's names "
             "(ln-lstm, bn-rnn, ...) are never offered"),
    dict(name="v169-lookup-norm-refusal-lists-the-kinds", file=CELLS,
         old="expected one of {', '.join(NORMS)}",
         new="expected one of {', '.join(KINDS)}",
         tests=CELLS_NEW + CELLS_OLD,
         why="an unknown norm is answered with the cell kinds as its choices"),
    dict(name="v169-orthogonal-scaled-by-r-diagonal", file=CELLS,
         old="return (q * np.sign(np.diag(r))).astype(dtype)",
         new="return (q * np.diag(r)).astype(dtype)",
         tests=CELLS_NEW + CELLS_OLD,
         why="the recurrent init multiplies Q's columns by R's diagonal instead of its sign: Wh's blocks "
             "are no longer orthogonal (column norms ~ sqrt(H))"),
    dict(name="v169-recurrent-blocks-stacked-by-rows", file=CELLS,
         old="for _ in range(self.blocks)], axis=1),",
         new="for _ in range(self.blocks)], axis=0),",
         tests=CELLS_NEW + CELLS_OLD,
         why="the LSTM's four orthogonal H x H blocks are stacked into a (4H, H) Wh instead of (H, 4H)"),
    dict(name="v169-extra-parameters-all-h-wide", file=CELLS,
         old="p[n] = np.full(self.width(H, w), v, dtype)",
         new="p[n] = np.full(H, v, dtype)",
         tests=CELLS_NEW + CELLS_OLD,
         why="every gain and bias after Wx, Wh, b is made H wide: the LN-LSTM's and BN-LSTM's gate-wide "
             "gx, bx, gh, bh get H entries instead of 4H"),
    dict(name="v169-rnn-inference-keeps-no-sequence", file=CELLS,
         old="return y, (hT,), None, (y,)",
         new="return y, (hT,), None, None",
         tests=FUNC_NEW + CELLS_OLD + FUNC_OLD,
         why="the RNN's inference forward returns no state sequence, as the LSTM's does: a masked forward "
             "with keep=False cannot read each row's final h from y"),
    dict(name="v169-buffer-names-grouped-by-prefix", file=CELLS,
         old='for s, _ in self.buffers for p in ("rm", "rv"))',
         new='for p in ("rm", "rv") for s, _ in self.buffers)',
         tests=CELLS_NEW + CELLS_OLD,
         why="the BatchNorm buffer names come as rmx, rmh, rvx, rvh instead of each mean beside its "
             "variance: callers zipping them with init_buffers' order pair a mean with a variance"),
    # ---- the functional layer API ----
    dict(name="v169-lengths-refusal-counts-steps", file=FUNC,
         old="lengths must be {B} integers",
         new="lengths must be {T} integers",
         tests=FUNC_NEW + FUNC_OLD,
         why="the refusal of lengths of the wrong shape asks for T integers instead of one per sequence"),
    dict(name="v169-lengths-range-refusal-names-batch", file=FUNC,
         old="lie in [0, {T}]",
         new="lie in [0, {B}]",
         tests=FUNC_NEW + FUNC_OLD,
         why="the refusal of a length past T states the batch size as the bound"),
    dict(name="v169-gate-clip-refusal-names-the-kind", file=FUNC,
         old="the {spec.name} cell has no gates",
         new="the {spec.cell} cell has no gates",
         tests=FUNC_NEW + FUNC_OLD,
         why="clip_gates on an LN-RNN or BN-RNN is refused naming 'the rnn cell', not the cell asked for"),
    dict(name="v169-layer-forward-lengths-checked-against-b-t", file=FUNC,
         old="lengths = check_lengths(lengths, T, B)\n    bufs",
         new="lengths = check_lengths(lengths, B, T)\n    bufs",
         tests=FUNC_NEW + FUNC_OLD,
         why="layer_forward checks the lengths with T and B swapped: B lengths are refused when T != B"),
    dict(name="v169-layer-backward-width-from-x", file=FUNC,
         old="H = state[0].shape[1]",
         new="H = x.shape[2]",
         tests=FUNC_NEW + FUNC_OLD,
         why="layer_backward takes the hidden width from x's features: with no dy and I != H the zero dy "
             "has I columns"),
    dict(name="v169-dc-n-of-empty-rows-only-when-all-empty", file=FUNC,
         old="lengths is not None and np.any(lengths == 0):  # c_n",
         new="lengths is not None and np.all(lengths == 0):  # c_n",
         tests=FUNC_NEW + FUNC_OLD,
         why="dL/dc_n of an empty row (whose c_n is c0) reaches dc0 only when every row is empty"),
    dict(name="v169-buffer-rows-steps-from-width", file=FUNC,
         old="Ts = next(iter(buffers.values())).shape[0]",
         new="Ts = next(iter(buffers.values())).shape[1]",
         tests=FUNC_NEW + FUNC_OLD,
         why="the BatchNorm statistics' step count is read from their width: a training pass over more "
             "steps than the width is refused and inference reads the wrong rows"),
]
