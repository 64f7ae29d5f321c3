"""Planted bugs, round 449 (format: tests/mutants/mutants.py): the real survivors of a twenty-fourth random sample
(tests/mutants/random_sample.py --seed 24 --count 40 --all-named, on 049c64c with round 448's tests: 36 of 40
caught) and their neighbours, forty-fourth pass.

Seed 24's 4 missed: 1 equivalent (rnd24-26: a bidirectional stack's input width read from its second layer, the
first layer's backward direction, which reads the same x), 3 real: RecurrentStack.step training by default
(rnd24-01: every test of a step was on an LN or plain stack, or passed training), check_stack's default chunk
starting at step 1 (rnd24-19: the check still passes, on another problem than its signature documents), and the
torch binding's check of exported BN statistics reading the width for the step count (rnd24-37: a table of no step
taken; seed 22's rnd22-19 planted the same line, an equivalent there).

The planted bugs: a step training by default, never training, and reading step 0's statistics at every step;
check_stack's defaults changed one at a time (the chunk from step 1, two rows, one layer, inference, 20 elements);
the torch loader's check of BN statistics reading the width for the step count, taking no step, and taking another
width. 11 mutants. The old files named after the modules (OLD_*) catch 1 (check_stack of one layer); the new files
alone catch 11 of 11.

    python tests/mutants/run.py --only 'v449-*'
"""
LAYERS = "lnrnn/model/layers.py"
GRADCHECK = "lnrnn/gradcheck.py"
TORCH = "lnrnn/interop/torch.py"
NEW_LAYERS = ["tests/model/test_values449_layers.py"]
NEW_GRADCHECK = ["tests/test_values449_gradcheck.py"]
NEW_TORCH = ["tests/interop/test_values449_torch.py"]
# every file named after the module (pytest -k <name>, as random_sample.py --all-named judges)
OLD_LAYERS = ["tests/interop/test_values46_layers_sizes.py", "tests/model/test_layers.py",
              "tests/model/test_layers_models_bidirectional.py", "tests/model/test_values101_layers.py",
              "tests/model/test_values13_layers.py", "tests/model/test_values148_layers.py",
              "tests/model/test_values163_layers.py", "tests/model/test_values193_layers_stacks.py",
              "tests/model/test_values211_layers.py", "tests/model/test_values231_layers.py",
              "tests/model/test_values242_layers_stacks.py", "tests/model/test_values24_layers.py",
              "tests/model/test_values257_layers_stacks.py", "tests/model/test_values295_layers_stacks.py",
              "tests/model/test_values297_layers_stacks.py", "tests/model/test_values313_layers.py",
              "tests/model/test_values33_layers.py", "tests/model/test_values341_layers_stacks.py",
              "tests/model/test_values363_layers.py", "tests/model/test_values385_layers_stacks.py",
              "tests/model/test_values428_layers.py", "tests/model/test_values77_layers.py",
              "tests/model/test_values9_layers.py"]
OLD_GRADCHECK = ["tests/commands/test_gradcheck_cli.py", "tests/commands/test_values10_gradcheck.py",
                 "tests/commands/test_values173_gradcheck_plan.py", "tests/commands/test_values215_gradcheck.py",
                 "tests/commands/test_values253_gradcheck.py", "tests/commands/test_values281_gradcheck_cli.py",
                 "tests/commands/test_values37_predict_read_gradcheck.py",
                 "tests/commands/test_values437_gradcheck.py", "tests/commands/test_values440_gradcheck.py",
                 "tests/commands/test_values96_gradcheck_plan.py", "tests/test_values118_gradcheck.py",
                 "tests/test_values184_gradcheck.py", "tests/test_values214_gradcheck_files.py",
                 "tests/test_values267_gradcheck.py", "tests/test_values27_gradcheck.py",
                 "tests/test_values281_gradcheck.py", "tests/test_values373_gradcheck.py",
                 "tests/test_values409_gradcheck_problems.py", "tests/test_values430_gradcheck.py",
                 "tests/test_values433_gradcheck.py", "tests/test_values435_gradcheck.py",
                 "tests/test_values439_gradcheck.py", "tests/test_values440_gradcheck_model.py",
                 "tests/test_values83_gradcheck.py", "tests/test_values9_gradcheck.py",
                 "tests/test_values_gradcheck.py"]
OLD_TORCH = ["tests/interop/test_torch.py", "tests/interop/test_torch_bidirectional.py",
             "tests/interop/test_torch_cell.py", "tests/interop/test_torch_refusals_as_passed.py",
             "tests/interop/test_values107_torch.py", "tests/interop/test_values121_torch.py",
             "tests/interop/test_values132_torch.py", "tests/interop/test_values14_torch.py",
             "tests/interop/test_values160_torch.py", "tests/interop/test_values16_torch.py",
             "tests/interop/test_values192_torch.py", "tests/interop/test_values212_torch.py",
             "tests/interop/test_values224_torch.py", "tests/interop/test_values23_torch.py",
             "tests/interop/test_values241_torch.py", "tests/interop/test_values255_torch.py",
             "tests/interop/test_values25_torch.py", "tests/interop/test_values273_torch.py",
             "tests/interop/test_values290_torch.py", "tests/interop/test_values298_torch.py",
             "tests/interop/test_values309_torch.py", "tests/interop/test_values334_torch.py",
             "tests/interop/test_values359_torch.py", "tests/interop/test_values39_torch_lengths.py",
             "tests/interop/test_values41_torch.py", "tests/interop/test_values433_torch.py",
             "tests/interop/test_values49_torch.py", "tests/interop/test_values49_torch_cell.py",
             "tests/interop/test_values74_torch_modules.py", "tests/interop/test_values74_torch_ops.py",
             "tests/interop/test_values86_torch.py", "tests/interop/test_values98_torch.py",
             "tests/interop/test_values_torch.py"]

STEP = "    def step(self, x_t, state=None, t=0, training=False):"
STEP_CALL = "y, states = self.forward(x_t[None], state, training=training, t0=t, keep=False)"
SIG = "def check_stack(cell, norm, T=5, B=3, I=3, H=4, num_layers=2, training=True, seed=0, max_elems=40,"
CHUNK = "lengths=None, t0=0, skip=False):"
FITS = 'return a == w or ("_running_" in k and len(a) == 2 and a[0] >= 1 and a[1:] == w[1:])'


def _sig(name, old, new, why, line=SIG):
    return dict(name=f"v449-check-stack-{name}", file=GRADCHECK, old=line, new=line.replace(old, new),
                tests=NEW_GRADCHECK + OLD_GRADCHECK, why=why)


def _fits(name, new, why):
    return dict(name=f"v449-fits-{name}", file=TORCH, old=FITS, new=new, tests=NEW_TORCH + OLD_TORCH, why=why)


MUTANTS = [
    dict(name="v449-step-trains", file=LAYERS, old=STEP, new=STEP.replace("training=False", "training=True"),
         tests=NEW_LAYERS + OLD_LAYERS, why="a step uses the batch's BN statistics and moves the population's "
                                            "(rnd24-01)"),
    dict(name="v449-step-never-trains", file=LAYERS, old=STEP_CALL, new=STEP_CALL.replace("training=training",
                                                                                          "training=False"),
         tests=NEW_LAYERS + OLD_LAYERS, why="a step asked to train uses the population's statistics"),
    dict(name="v449-step-at-zero", file=LAYERS, old=STEP_CALL, new=STEP_CALL.replace("t0=t,", "t0=0,"),
         tests=NEW_LAYERS + OLD_LAYERS, why="every step reads step 0's population statistics"),
    _sig("chunk-from-1", "t0=0", "t0=1", "check_stack's default chunk starts at step 1 (rnd24-19)", CHUNK),
    _sig("two-rows", "B=3", "B=2", "check_stack's default batch has two rows"),
    _sig("one-layer", "num_layers=2", "num_layers=1", "check_stack checks one layer by default"),
    _sig("inference", "training=True", "training=False", "check_stack checks inference by default"),
    _sig("20-elements", "max_elems=40", "max_elems=20", "check_stack samples 20 elements of each array"),
    _fits("width-for-steps", FITS.replace("a[0] >= 1", "a[1] >= 1"), "a table of no step is taken (rnd24-37)"),
    _fits("no-step-taken", FITS.replace("a[0] >= 1", "a[0] >= 0"), "a table of no step is taken"),
    _fits("any-width", FITS.replace(" and a[1:] == w[1:]", ""), "a table of another width is taken"),
]
