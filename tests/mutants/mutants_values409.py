"""Planted bugs, round 409 (format: tests/mutants/mutants.py): single-line slips in the problems the gradient
judge builds (lnrnn/gradcheck.py, check_stack and check_model), twentieth pass, planted before any test was written
for them: each leaves every check passing on a correct backward and blinds it to a class of wrong ones.

The planted bugs: check_stack's parameters left at their initial values (the loop rebinds its name instead of moving
the array: LN gains of 1 and biases of 0 hide a backward that multiplies by a gain or forgets a bias' path); its BN
running statistics left at 0 and 1 in inference mode; its initial states all zero (dWh's first step and the state's
paths vanish); its loss weights R all ones (every step's and unit's dL/dy the same: a backward that reads dy from
the wrong step or unit passes); check_model's end-of-stroke targets all 0 (the MDN's pen-up term never checked); its
classifier targets never the last class; its window texts all full length (no padding past a text). 7 mutants. The
old targeted files alone (the gradcheck module's files in OLD) catch 0 of 7: they check the judge's verdicts on a
right backward and on a gradient planted 1.001 times too large everywhere, never on a slip that only the problem's
values can show. test_values409_gradcheck_problems plants a gain slip hidden at gains of 1 and a backward reading
dL/dy in reversed time and requires check_stack to report them, and records what the stack and the model are given:
moved BN statistics the same at every evaluation, random initial states, end-of-stroke targets of both values, every
class, texts of different lengths with one empty. NEW + OLD catch 7 of 7; the new file alone catches 7 of 7. Nothing
left out as equivalent.

    python tests/mutants/run.py --only 'v409-*'
"""
GC = "lnrnn/gradcheck.py"
NEW = ["tests/test_values409_gradcheck_problems.py"]
OLD = [
    "tests/test_values_gradcheck.py",
    "tests/test_values184_gradcheck.py",
    "tests/test_values281_gradcheck.py",
    "tests/test_values373_gradcheck.py",
]

MUTANTS = [
    dict(name="v409-stack-params-not-moved", file=GC,
         old="        v += 0.3 * rng.standard_normal(v.shape)",
         new="        v = v + 0.3 * rng.standard_normal(v.shape)",
         tests=NEW + OLD,
         why="check_stack judges the stack at its initial parameters (LN gains 1, biases 0): gain and bias slips hide"),
    dict(name="v409-stack-buffers-not-moved", file=GC,
         old="            v[...] = rng.uniform(0.5, 1.5, v.shape) if",
         new="            v = rng.uniform(0.5, 1.5, v.shape) if",
         tests=NEW + OLD,
         why="inference-mode BN is judged with running means 0 and variances 1, where the statistics' paths vanish"),
    dict(name="v409-stack-states-zero", file=GC,
         old="    state = [tuple(rng.standard_normal((B, H)) for _ in range(layer.nstate)) for layer in stack.layers]",
         new="    state = [tuple(np.zeros((B, H)) for _ in range(layer.nstate)) for layer in stack.layers]",
         tests=NEW + OLD,
         why="zero initial states: the first step's h_{-1} Wh term and its dWh share are never exercised"),
    dict(name="v409-stack-loss-weights-ones", file=GC,
         old="    R = rng.standard_normal((T, B, stack.output_size))",
         new="    R = np.ones((T, B, stack.output_size))",
         tests=NEW + OLD,
         why="loss sum(y): dL/dy is the same at every step and unit, so a backward reading the wrong step passes"),
    dict(name="v409-model-pen-never-up", file=GC,
         old="        targets[..., 2] = rng.integers(0, 2, (B, T))",
         new="        targets[..., 2] = rng.integers(0, 1, (B, T))",
         tests=NEW + OLD,
         why="every end-of-stroke target is 0: the MDN's pen-up branch of the loss is never gradient-checked"),
    dict(name="v409-model-last-class-never", file=GC,
         old="        targets = rng.integers(0, outputs, (B, T) if per_step else B)",
         new="        targets = rng.integers(0, outputs - 1, (B, T) if per_step else B)",
         tests=NEW + OLD,
         why="the classifier's last class is never a target: a slip in its column of the softmax gradient passes"),
    dict(name="v409-model-texts-full", file=GC,
         old="        text = (rng.integers(0, alphabet, (B, U)), np.arange(B) % (U + 1))",
         new="        text = (rng.integers(0, alphabet, (B, U)), np.full(B, U))",
         tests=NEW + OLD,
         why="every text fills U characters: the window's positions past a text (padding) are never judged"),
]
