"""Planted bugs, round 447 (format: tests/mutants/mutants.py): the real survivor of a twenty-first random sample
(tests/mutants/random_sample.py --seed 21 --count 40 --all-named, on the tree with round 446's tests: 38 of 40
caught) and its neighbours, forty-second pass.

Seed 21's 2 missed: 1 equivalent (the regression head's device targets reshaped with -2 for -1, which NumPy 2.4
reads as the one unknown size, as seed 19's rnd19-11), 1 real: SequenceClassifier's default input size 2 for 1
(rnd21-13: lnrnn 0.1's pixel classifier by its old arguments; every test passed its own sizes).

The planted bugs: each default of SequenceClassifier changed on its own (input size, width, layers, classes, cell,
norm, per-step head, dtype, forget bias, seed). 10 mutants. The old files named after the module (OLD_MODELS) catch
3 (the LN norm, the per-step head and the forget bias); the new file alone catches 10 of 10.

    python tests/mutants/run.py --only 'v447-*'
"""
MODELS = "lnrnn/model/models.py"
NEW_MODELS = ["tests/model/test_values447_models.py"]
# every file named after the module (pytest -k <name>, as random_sample.py --all-named judges)
OLD_MODELS = ["tests/model/test_layers_models_bidirectional.py", "tests/model/test_models.py",
              "tests/model/test_values10_models.py", "tests/model/test_values129_models.py",
              "tests/model/test_values163_models.py", "tests/model/test_values16_models.py",
              "tests/model/test_values193_models.py", "tests/model/test_values20_models.py",
              "tests/model/test_values211_models.py", "tests/model/test_values231_models.py",
              "tests/model/test_values242_models.py", "tests/model/test_values257_models.py",
              "tests/model/test_values276_models.py", "tests/model/test_values297_models.py",
              "tests/model/test_values315_models.py", "tests/model/test_values341_models.py",
              "tests/model/test_values363_models.py", "tests/model/test_values37_models.py",
              "tests/model/test_values388_models.py", "tests/model/test_values445_models.py",
              "tests/model/test_values51_models.py", "tests/model/test_values73_models.py",
              "tests/model/test_values88_models.py"]

SIG = 'def SequenceClassifier(cell="lstm", norm="none", input_size=1, hidden_size=64, num_layers=1, num_classes=10,'
SIG2 = ('                       objective="ce", per_step=False, tolerance=0.04, dtype="float32", forget_bias=1.0, '
        'seed=0,')


def _default(name, old, new, why, line=SIG):
    return dict(name=f"v447-classifier-default-{name}", file=MODELS, old=line, new=line.replace(old, new),
                tests=NEW_MODELS + OLD_MODELS, why=why)


MUTANTS = [
    _default("two-inputs", "input_size=1", "input_size=2", "the pixel classifier takes two inputs a step (rnd21-13)"),
    _default("128-units", "hidden_size=64", "hidden_size=128", "the default classifier is twice as wide"),
    _default("two-layers", "num_layers=1", "num_layers=2", "the default classifier has two layers"),
    _default("two-classes", "num_classes=10", "num_classes=2", "the default classifier tells two classes apart"),
    _default("rnn", 'cell="lstm"', 'cell="rnn"', "the default classifier is a plain RNN"),
    _default("ln", 'norm="none"', 'norm="ln"', "the default classifier is layer-normalized"),
    _default("per-step", "per_step=False", "per_step=True", "the default classifier scores every step", SIG2),
    _default("float64", 'dtype="float32"', 'dtype="float64"', "the default classifier runs in float64", SIG2),
    _default("forget-bias-0", "forget_bias=1.0", "forget_bias=0.0", "the forget gates start half open", SIG2),
    _default("seed-1", "seed=0,", "seed=1,", "the default classifier starts from other weights", SIG2),
]
