"""Planted bugs, round 430 (format: tests/mutants/mutants.py): the survivors of a fourth random sample
(tests/mutants/random_sample.py --seed 4 --count 40, after rounds 426 to 429) and their neighbours: the BatchNorm
statistics lnrnn.jax makes for a stack (lnrnn/interop/jax.py: init_stats) and the elements a finite-difference check
looks at (lnrnn/gradcheck.py: sample_idx), twenty-sixth pass.

The planted bugs: a bidirectional stack's statistics for one direction only, or for the first layer only; the
finite-difference check's elements drawn with replacement, left unsorted, or indexed past a small array's end. 5
mutants. The old files named after each module (OLD_JAX, OLD_GRADCHECK) catch 3 of 5: the JAX statistics' two (by
the bidirectional BatchNorm files) and the small array. The new files alone (test_values430_jax,
test_values430_gradcheck) catch 5 of 5, so NEW + OLD does too (not run separately). How they were found: the fourth
sample caught 30 of 40; of its 10 misses, 1 sits on a line only the CUDA twins run, 4 are equivalent (the kernels'
nogil flag, the threading probe's start value, a time rounded to 4 places for 3, and a third direction in
init_stats, whose names fold onto the second's: planted here first, the new file could not catch it, and it went),
the elements' draw is planted here with its neighbours, and four are left (two memory estimates' formulas, a beam's
tie order, sample_run's text list).

    python tests/mutants/run.py --only 'v430-*'
"""
NEW_JAX = ["tests/interop/test_values430_jax.py"]
NEW_GRADCHECK = ["tests/test_values430_gradcheck.py"]
JAX = "lnrnn/interop/jax.py"
GRADCHECK = "lnrnn/gradcheck.py"
# the files named after each module, as a developer who changed it would run them (test_jax.py is the slow one)
OLD_JAX = ["tests/interop/test_jax_bidirectional.py", "tests/interop/test_values19_jax.py",
           "tests/interop/test_values23_jax.py", "tests/interop/test_values107_jax.py",
           "tests/interop/test_values314_jax.py", "tests/interop/test_values365_jax.py"]
OLD_GRADCHECK = ["tests/commands/test_gradcheck_cli.py", "tests/commands/test_values281_gradcheck_cli.py",
                 "tests/test_values118_gradcheck.py", "tests/model/test_layers.py"]

MUTANTS = [
    dict(name="v430-jax-stats-one-direction", file=JAX,
         old="    D = 2 if bidirectional else 1\n    return {name: jnp.asarray(bufs[n])",
         new="    D = 1\n    return {name: jnp.asarray(bufs[n])",
         tests=NEW_JAX + OLD_JAX,
         why="the backward direction of a bidirectional stack has no statistics"),
    dict(name="v430-jax-stats-first-layer-only", file=JAX,
         old="for j in range(L * D) for n, name, _ in _stat_names(spec, j, D)}",
         new="for j in range(D) for n, name, _ in _stat_names(spec, j, D)}",
         tests=NEW_JAX + OLD_JAX,
         why="layers above the first have no statistics"),
    dict(name="v430-sample-idx-with-replacement", file=GRADCHECK,
         old="    return np.sort(rng.choice(arr.size, size=k, replace=False))\n",
         new="    return np.sort(rng.choice(arr.size, size=k, replace=True))\n",
         tests=NEW_GRADCHECK + OLD_GRADCHECK,
         why="a check of 40 elements checks fewer, some twice"),
    dict(name="v430-sample-idx-unsorted", file=GRADCHECK,
         old="    return np.sort(rng.choice(arr.size, size=k, replace=False))\n",
         new="    return rng.choice(arr.size, size=k, replace=False)\n",
         tests=NEW_GRADCHECK + OLD_GRADCHECK,
         why="the elements come in draw order: a report's first bad element is not the first by index"),
    dict(name="v430-sample-idx-small-array-past-its-end", file=GRADCHECK,
         old="        return np.arange(arr.size)\n",
         new="        return np.arange(k)\n",
         tests=NEW_GRADCHECK + OLD_GRADCHECK,
         why="an array smaller than k is indexed past its end"),
]
