"""Planted bugs, round 128 (format: tests/mutants/mutants.py): single-line slips in the JAX binding and the
safetensors export (lnrnn/interop/jax.py, lnrnn/interop/export.py), a sixth pass on lines no earlier round mutates.

JAX: norm=None looked up as the LN cell, float16 let through the dtype check, init's forget_bias defaulting to 0,
init_stats making two rows by default, apply reading H from weight_hh's gate rows, the state-count refusal naming
the count it wants, the folded vmap forward dropping lengths, load_export stripping 'rnn' without its dot. Export:
int32 written under the code I64, the LN-RNN's gain exported as norm_cell_weight, a shape with one good size
passing the shape check, data_offsets of three numbers let through, pytorch_compatible spelled 'True'/'False'.

13 mutants. Against the existing targeted tests alone 6 were caught and 7 missed: float16 let through, the
forget_bias default, init_stats' default rows, the folded vmap forward without lengths, load_export's prefix,
the LN-RNN's gain name and three data_offsets. The JAX mutants were measured on the two most direct old files
(test_values86_jax, test_values107_jax; the four old JAX files took about three minutes a mutant on one
core), the export mutants on all six old export files. The new value tests catch all 13 on their own (checked
with the old files taken off the lists): tests/interop/test_values128_jax.py (a two-layer LSTM and tanh RNN with
norm=None against the same cells written in jax.numpy under lax.scan, values and gradients under jit and
jax.test_util.check_grads in float64, the names and shapes of torch.nn.LSTM's state_dict; jax.vmap over
examples with shared parameters and rows of their own lengths against the lax.scan LSTM per example, each h_n
the y at its own last step; init's bias blocks and init_stats' one row of zeros and ones by definition; an
export loaded with load_export running as the model's last_outputs; the float16 and state-count refusals word
for word) and tests/interop/test_values128_export.py (a safetensors reader written from the format's
definition: header length little-endian, dtype codes with their byte sizes, shapes, offsets; every dtype lnrnn
writes under its own code and read back by both readers; an LN-RNN's export under the documented names with the
model's values, transposed by hand; the metadata's 'true'/'false'; headers with a negative size or three
offsets refused naming what is wrong). Dropped as equivalent: _param_names placing bias_hh elsewhere in its list
(only the order of a dict's keys changes), write_safetensors without sorted names (the format does not order
the header; offsets still cover the data back to back) and json.dumps' default separators (the header is
padded either way).

    python tests/mutants/run.py --only 'v128-*'
"""
JAX = "lnrnn/interop/jax.py"
EXPORT = "lnrnn/interop/export.py"

# existing tests of these modules (the most direct files)
JAX_OLD = ["tests/interop/test_values86_jax.py", "tests/interop/test_values107_jax.py", "tests/interop/test_jax.py",
           "tests/interop/test_jax_bidirectional.py"]
EXPORT_OLD = ["tests/interop/test_values_export.py", "tests/interop/test_values10_export.py",
              "tests/interop/test_values23_export.py", "tests/interop/test_values41_export.py",
              "tests/interop/test_values63_export.py", "tests/interop/test_values116_export.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
JAX_NEW = ["tests/interop/test_values128_jax.py"]
EXPORT_NEW = ["tests/interop/test_values128_export.py"]

MUTANTS = [
    # ---- the JAX binding ----
    dict(name="v128-jax-norm-none-read-as-ln", file=JAX,
         old='return cells.lookup(cell, "none" if norm is None else norm)',
         new='return cells.lookup(cell, "ln" if norm is None else norm)',
         tests=JAX_NEW + JAX_OLD,
         why="norm=None (documented as no norm) looks up the LN cell: a plain stack's params are refused as "
             "missing the norm's gains"),
    dict(name="v128-jax-float16-let-through", file=JAX,
         old="    if dt not in DTYPES:\n",
         new='    if dt.kind != "f":\n',
         tests=JAX_NEW + JAX_OLD,
         why="the dtype check lets float16 through (any float kind): init makes float16 parameters and apply "
             "hands float16 to kernels compiled for float32/float64 instead of the one-sentence refusal"),
    dict(name="v128-jax-init-forget-bias-default-zero", file=JAX,
         old="dtype=jnp.float32, forget_bias=1.0,\n",
         new="dtype=jnp.float32, forget_bias=0.0,\n",
         tests=JAX_NEW + JAX_OLD,
         why="init's forget_bias defaults to 0: an LSTM's forget block of bias_ih starts at 0, not 1 as the "
             "rest of lnrnn (and the docstring) has it"),
    dict(name="v128-jax-init-stats-two-rows-by-default", file=JAX,
         old="def init_stats(cell, norm, hidden_size, num_layers=1, max_steps=1,",
         new="def init_stats(cell, norm, hidden_size, num_layers=1, max_steps=2,",
         tests=JAX_NEW + JAX_OLD,
         why="init_stats makes two rows of statistics per name by default, not one"),
    dict(name="v128-jax-hidden-size-from-gate-rows", file=JAX,
         old='    L, H = len(layers) // D, params["weight_hh_l0"].shape[-1]',
         new='    L, H = len(layers) // D, params["weight_hh_l0"].shape[0]',
         tests=JAX_NEW + JAX_OLD,
         why="apply reads H from weight_hh's rows (G = 4H for the LSTM; G = H for the RNN, where it is "
             "right): an LSTM's zero state and given state are checked and made 4H wide"),
    dict(name="v128-jax-state-count-message-names-the-want", file=JAX,
         old='got {len(parts)} array{\'s\' * (len(parts) != 1)}.")',
         new='got {spec.nstate} array{\'s\' * (len(parts) != 1)}.")',
         tests=JAX_NEW + JAX_OLD,
         why="the refusal of a state with the wrong count of arrays says it got the count it wants"),
    dict(name="v128-jax-folded-vmap-drops-lengths", file=JAX,
         old="    lf = None if lengths is None else rows(lengths).reshape(V * B)",
         new="    lf = None",
         tests=JAX_NEW + JAX_OLD,
         why="the folded vmap forward (plain and LN cells, shared parameters) drops lengths: every vmapped row "
             "runs all T steps, its final state taken after the padding"),
    dict(name="v128-jax-load-export-prefix-one-short", file=JAX,
         old='stack = {k[len("rnn."):]: jnp.asarray(v)',
         new='stack = {k[len("rnn"):]: jnp.asarray(v)',
         tests=JAX_NEW + JAX_OLD,
         why="load_export strips 'rnn' without its dot: every name keeps a leading '.', and apply refuses the "
             "params"),
    # ---- the export ----
    dict(name="v128-export-int32-coded-as-i64", file=EXPORT,
         old='np.dtype("int32"): "I32"',
         new='np.dtype("int32"): "I64"',
         tests=EXPORT_NEW + EXPORT_OLD,
         why="int32 arrays are written under the code I64 (a copy slip): a reader of the format reads 8-byte "
             "integers, and the int64 code now reads back as int32"),
    dict(name="v128-export-ln-rnn-gain-named-as-cell-norm", file=EXPORT,
         old='"g": ("norm_weight", False)',
         new='"g": ("norm_cell_weight", False)',
         tests=EXPORT_NEW + EXPORT_OLD,
         why="the LN-RNN's joint gain g exports as norm_cell_weight (the LSTM's cell norm), not the documented "
             "norm_weight"),
    dict(name="v128-export-shape-any-size", file=EXPORT,
         old="all(whole(s) for s in shape)",
         new="any(whole(s) for s in shape)",
         tests=EXPORT_NEW + EXPORT_OLD,
         why="a shape with one good size passes the shape check: [2, -1] is refused as offsets that do not fit, "
             "not as a shape that is no list of sizes"),
    dict(name="v128-export-offsets-three-let-through", file=EXPORT,
         old="len(offsets) == 2 and",
         new="len(offsets) >= 2 and",
         tests=EXPORT_NEW + EXPORT_OLD,
         why="data_offsets with more than two entries are read as their first two instead of being refused"),
    dict(name="v128-export-pytorch-compatible-capitalized", file=EXPORT,
         old='str(pytorch_compatible(run.model.config)).lower()}',
         new='str(pytorch_compatible(run.model.config))}',
         tests=EXPORT_NEW + EXPORT_OLD,
         why="the metadata's pytorch_compatible reads 'True'/'False' (Python's spelling), not the JSON-like "
             "'true'/'false' the other metadata use"),
]
