"""Planted bugs, round 340 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the JAX binding (lnrnn/interop/jax.py; lnrnn/jax.py only re-exports it), eighteenth pass: init made
bidirectional by default; params_from_stack returning no statistics; the 64-bit setting read inverted at trace
time; residuals declared for the wire as if 64-bit types were on; the backward's wire residuals viewed back only
when already in their dtype; the per-example results stacked in NumPy's default float64; the folded vmap forward
reshaping the parameters past one mapped axis only and reading H off the folded batch; the backward callback
handed no lengths; the state, the lengths and the BatchNorm statistics cast on arrival (so their dtype refusals
never fire); a non-BatchNorm cell's mutable statistics returned as the stats argument (None) instead of {}; the
64-bit refusal telling to set jax_enable_x64 to False.

14 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on
their own (checked with the old files taken off the lists): test_values340_jax (init's names, order and shapes
against torch.nn.LSTM's state_dict in one and two directions; a BN stack's statistics read back by name; a
float32 BN-RNN with 64-bit types off, its y and every gradient against reference.bn_rnn_forward in float64 by
central differences entry by entry; vmap(grad) of a float32 RNN per example against reference.rnn_forward by
central differences; two nested vmaps of an LN-LSTM with lengths 0, 1 and T against reference.lstm_forward row
by row; check_grads of an LN-LSTM with lengths 0, 1 and T and the length-0 row's h0 gradient equal to its h_n
weight; BN statistics after one call written out by hand (m * mean, (1 - m) + m * var * B / (B - 1)) and after a
second with lengths against the reference's momentum updates, {} for LN and plain cells; refusals word for word).
Left out as equivalent: the default D=1 of _suffix, _param_names, _stat_names, _initial_states and _layer_stats
changed (every caller passes D); _layer_params' layer count starting at 1 (weight_ih_l0 is checked before);
_read_only's views (the kernels only read them); _x64_everywhere's fallback (not reached with this JAX);
_forward_one's lengths as int32 (the kernels convert), _backward_one's dt read off y; _forward_folded's
T, B, I read off the last three axes (the same axes); the folded residuals' no-batch test written `not a` (no
folded residual has its batch axis first).
Left out as a crash everywhere rather than a value: _lead's axis count, _layer_bwd's cotangents swapped, mutable
tested as `is not None`, _layer_params' `n is None` inverted.

    python tests/mutants/run.py --only 'v340-*'
"""
JAX = "lnrnn/interop/jax.py"

T_JAX = "tests/interop/test_values340_jax.py::"
OLD_JAX = ["tests/interop/test_jax.py", "tests/interop/test_jax_bidirectional.py",
           "tests/interop/test_jax_refusals_as_passed.py", "tests/interop/test_values291_jax.py",
           "tests/interop/test_values314_jax.py"]

F32 = T_JAX + "test_float32_bn_rnn_without_x64_against_the_float64_reference"
REFUSALS = T_JAX + "test_state_statistics_and_lengths_refusals_word_for_word"

MUTANTS = [
    dict(name="v340-jax-init-bidirectional-default", file=JAX,
         old="         bidirectional=False):\n    \"\"\"Parameters of a num_layers stack",
         new="         bidirectional=True):\n    \"\"\"Parameters of a num_layers stack",
         tests=[T_JAX + "test_init_names_order_and_shapes_are_torch_lstms"] + OLD_JAX,
         why="init without bidirectional= makes a two-direction stack (weight_ih_l0_reverse, ...)"),
    dict(name="v340-jax-stack-stats-dropped", file=JAX,
         old="            stats[name] = jnp.asarray(layer.buffers[n])\n    return params, stats",
         new="            stats[name] = jnp.asarray(layer.buffers[n])\n    return params, {}",
         tests=[T_JAX + "test_params_from_a_bn_stack_carry_its_statistics_by_name"] + OLD_JAX,
         why="params_from_stack of a BatchNorm stack returns no running statistics"),
    dict(name="v340-jax-x64-read-inverted", file=JAX,
         old="    return jax.dtypes.canonicalize_dtype(np.float64) == np.float64",
         new="    return jax.dtypes.canonicalize_dtype(np.float64) != np.float64",
         tests=[F32] + OLD_JAX,
         why="64-bit types read as on where they are off: BN's float64 residuals are declared float64 to JAX"),
    dict(name="v340-jax-wire-declared-as-x64", file=JAX,
         old="    res = [sds(*_wire(s, d, x64)) for s, d in",
         new="    res = [sds(*_wire(s, d, True)) for s, d in",
         tests=[F32] + OLD_JAX,
         why="without 64-bit types the 8-byte residuals are declared in their own dtype, not as uint32 pairs"),
    dict(name="v340-jax-from-wire-inverted", file=JAX,
         old="    return r.view(dtype) if r.dtype != dtype else r",
         new="    return r.view(dtype) if r.dtype == dtype else r",
         tests=[F32] + OLD_JAX,
         why="the backward gets BN's fold and lengths as raw uint32 pairs without 64-bit types"),
    dict(name="v340-jax-per-example-default-dtype", file=JAX,
         old="            outs = jax.tree.map(lambda r: np.empty(lead + np.shape(r), np.asarray(r).dtype), o)",
         new="            outs = jax.tree.map(lambda r: np.empty(lead + np.shape(r)), o)",
         tests=[T_JAX + "test_vmap_of_grad_in_float32_per_example_against_the_reference"] + OLD_JAX,
         why="per-example results (every vmapped backward) are stacked as float64 for float32 inputs"),
    dict(name="v340-jax-folded-params-one-axis", file=JAX,
         old="    pf = {n: v.reshape(v.shape[nl:]) for n, v in p.items()}",
         new="    pf = {n: v.reshape(v.shape[1:]) for n, v in p.items()}",
         tests=[T_JAX + "test_nested_vmap_of_ln_lstm_with_lengths_0_1_and_T_against_the_reference_rows"]
         + OLD_JAX,
         why="under two nested vmaps the folded forward keeps a mapped axis on every parameter"),
    dict(name="v340-jax-folded-h-off-batch", file=JAX,
         old="    H = y.shape[2]\n",
         new="    H = y.shape[1]\n",
         tests=[T_JAX + "test_nested_vmap_of_ln_lstm_with_lengths_0_1_and_T_against_the_reference_rows"]
         + OLD_JAX,
         why="the folded forward reads H off the folded batch axis (V * B) when unfolding y"),
    dict(name="v340-jax-backward-drops-lengths", file=JAX,
         old="                                          lengths, bufs, vmap_method=VMAP_METHOD)",
         new="                                          None, bufs, vmap_method=VMAP_METHOD)",
         tests=[T_JAX + "test_ln_lstm_lengths_0_1_and_T_forward_and_check_grads"] + OLD_JAX,
         why="the backward runs every row to T: h_n's gradient is seeded at step T, not at each row's last step"),
    dict(name="v340-jax-state-cast-to-x-dtype", file=JAX,
         old="    parts = tuple(jnp.asarray(s) for s in parts)",
         new="    parts = tuple(jnp.asarray(s, dt) for s in parts)",
         tests=[REFUSALS] + OLD_JAX,
         why="a state of another dtype is cast silently instead of refused"),
    dict(name="v340-jax-lengths-cast-to-int", file=JAX,
         old="    a = jnp.asarray(lengths)\n",
         new="    a = jnp.asarray(lengths, jnp.int32)\n",
         tests=[REFUSALS] + OLD_JAX,
         why="float lengths are truncated to integers instead of refused"),
    dict(name="v340-jax-stats-cast-to-x-dtype", file=JAX,
         old="            v = jnp.asarray(stats[name])",
         new="            v = jnp.asarray(stats[name], dt)",
         tests=[REFUSALS] + OLD_JAX,
         why="BatchNorm statistics of another dtype are cast silently instead of refused"),
    dict(name="v340-jax-mutable-non-bn-returns-stats-arg", file=JAX,
         old="        return out, (new_stats if spec.buffers else {})",
         new="        return out, (new_stats if spec.buffers else stats)",
         tests=[T_JAX + "test_mutable_statistics_by_the_momentum_formula_and_none_for_ln"] + OLD_JAX,
         why="mutable=True for a cell without BatchNorm returns None (the stats argument), not {}"),
    dict(name="v340-jax-x64-refusal-says-false", file=JAX,
         old="""        raise TypeError("float64 needs 64-bit JAX: call jax.config.update('jax_enable_x64', True) first, or \"""",
         new="""        raise TypeError("float64 needs 64-bit JAX: call jax.config.update('jax_enable_x64', False) first, or \"""",
         tests=[T_JAX + "test_float64_without_64_bit_jax_refused_word_for_word"] + OLD_JAX,
         why="the float64 refusal tells to turn 64-bit types off"),
]
