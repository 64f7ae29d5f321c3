"""Planted bugs, round 469 (format: tests/mutants/mutants.py): the real survivors of a fiftieth random sample
(tests/mutants/random_sample.py --seed 50 --count 40 --all-named, on 4d61a4a with round 468's changes: 33 of 39
caught, and 1 more whose tests failed without it) and their neighbours, sixty-fourth pass.

Seed 50's 6 missed: 4 equivalent (rnd50-04: the KanjiVG path tokenizer looping while pos <= len(d), where the match
at the end breaks out as at pos < len(d); rnd50-13: an MPI rank's error line printed to stderr without flush=True,
and stderr is line-buffered; rnd50-20: the CTC head's default seed 1 for 0, every caller passes its own; rnd50-33:
the steps a CTC alignment needs counting labels > 0 for >= 0, and no label is 0, the blank's class), 2 real: lnrnn
train's --reproducible on by default (TrainConfig's default is the option's: every run then split into reproducible
blocks, and a run on 'cuda' refused) (rnd50-11); a one-way stack on 'cuda' of three layers or more handing its
middle layers' dL/dx through the host (rnd50-38; the values are the same, and two layers have no middle one). The
sample's unjudged one (rnd50-03: a test failing without it on a Zen 3 host) is judged since that test was
mended: caught.

The planted bugs: a flag of lnrnn train on by default (--reproducible, --allow-pickle, --bidirectional) or of
another command (predict --force, sample --no-cap, eval --json); a stack's middle layer handing its output or its
dL/dx through the host (one way, skip, either direction of a bidirectional stack) with on_device=True. 11 mutants.
The old files named after the modules (OLD_*) with the CUDA files that run stacks on the device (OLD_CUDA) and a
file of each other command's catch 6 (every flag but --reproducible; a bidirectional stack's forward direction
handing its output through the host); the new files alone catch 11 of 11.

    python tests/mutants/run.py --only 'v469-*'
"""
RUNCONFIG = "lnrnn/training/runconfig.py"
LAYERS = "lnrnn/model/layers.py"
PREDICT = "lnrnn/commands/predict.py"
SAMPLE = "lnrnn/commands/sample.py"
EVAL = "lnrnn/commands/eval.py"
NEW_FLAGS = ["tests/training/test_values469_runconfig_flags.py"]
NEW_LAYERS = ["tests/model/test_values469_stack_copies_cuda.py"]
# the sample's own files for the two modules (every file named after the module, then importers up to 8)
OLD_RUNCONFIG = ["tests/commands/test_values142_runconfig.py", "tests/commands/test_values236_runconfig.py",
                 "tests/commands/test_values426_runconfig.py", "tests/training/test_values102_runconfig.py",
                 "tests/training/test_values122_runconfig.py", "tests/training/test_values13_runconfig.py",
                 "tests/training/test_values209_runconfig.py", "tests/training/test_values266_runconfig.py",
                 "tests/training/test_values283_runconfig.py", "tests/training/test_values321_runconfig.py",
                 "tests/training/test_values348_runconfig.py", "tests/training/test_values371_runconfig_setup.py",
                 "tests/training/test_values427_runconfig.py", "tests/training/test_values_runconfig.py"]
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
              "tests/model/test_values428_layers.py", "tests/model/test_values449_layers.py",
              "tests/model/test_values454_layers_step.py", "tests/model/test_values456_layers_skip.py",
              "tests/model/test_values464_layers_device_check.py", "tests/model/test_values77_layers.py",
              "tests/model/test_values9_layers.py"]
# the CUDA files that run stacks on the device (the sample leaves the CUDA files out)
OLD_CUDA = ["tests/model/test_values22_layers_cuda.py", "tests/model/test_cuda_layers.py",
            "tests/model/test_values466_stack_residence_cuda.py"]
# for the other commands' flags: a file of each command's that gives the flag or runs without it
OLD_COMMANDS = {PREDICT: ["tests/commands/test_values131_predict.py"],
                SAMPLE: ["tests/commands/test_values427_sample.py", "tests/commands/test_values400_sample_command.py"],
                EVAL: ["tests/commands/test_values437_eval.py", "tests/commands/test_values_eval_predict.py"]}
FLAGS = NEW_FLAGS + OLD_RUNCONFIG
STACK = NEW_LAYERS + OLD_LAYERS + OLD_CUDA

REPRODUCIBLE = "    reproducible: bool = False"
PICKLE = "    allow_pickle: bool = False"
BIDIRECTIONAL = "    bidirectional: bool = False"
FORCE = '@click.option("--force", is_flag=True, default=False,'
NO_CAP = '@click.option("--no-cap", is_flag=True, default=False,'
JSON = '@click.option("--json", "as_json", is_flag=True, default=False,'
ONE_WAY_DX = "            dy, ds = layer.backward(dy, on_device or k > 0)"
ONE_WAY_Y = "training, on_device or k < last,"
SKIP_DX = "(k + 1) * H, dh_above), on_device=True)"
BI_Y = "            hf, sf = fwd.forward(inp, st[0], training, on_device=dev, lengths=lengths, keep=keep)"
BI_DX = "            db, dsb = bwd.backward(rev(kn.take_columns(dyk, H, W)), on_device=dev)"


def _on(name, file, old, why, tests=FLAGS):
    return dict(name=name, file=file, old=old, new=old.replace("False", "True"), tests=tests, why=why)


MUTANTS = [
    _on("v469-reproducible-on", RUNCONFIG, REPRODUCIBLE,
        "rnd50-11: --reproducible on by default: reproducible blocks in every run, a run on 'cuda' refused"),
    _on("v469-allow-pickle-on", RUNCONFIG, PICKLE, "--allow-pickle on by default: object arrays unpickled unasked"),
    _on("v469-bidirectional-on", RUNCONFIG, BIDIRECTIONAL, "--bidirectional on by default"),
    _on("v469-force-on", PREDICT, FORCE, "predict --force on by default: a length or range mismatch only warns",
        NEW_FLAGS + OLD_COMMANDS[PREDICT]),
    _on("v469-no-cap-on", SAMPLE, NO_CAP, "sample --no-cap on by default", NEW_FLAGS + OLD_COMMANDS[SAMPLE]),
    _on("v469-json-on", EVAL, JSON, "eval --json on by default", NEW_FLAGS + OLD_COMMANDS[EVAL]),
    dict(name="v469-one-way-middle-dx-to-host", file=LAYERS, old=ONE_WAY_DX, new=ONE_WAY_DX.replace("k > 0", "k > 1"),
         tests=STACK, why="rnd50-38: a one-way stack's middle layers hand dL/dx through the host"),
    dict(name="v469-one-way-middle-y-to-host", file=LAYERS, old=ONE_WAY_Y,
         new=ONE_WAY_Y.replace("k < last", "k < last - 1"), tests=STACK,
         why="a one-way stack's middle layers hand their output through the host"),
    dict(name="v469-skip-dx-to-host", file=LAYERS, old=SKIP_DX, new=SKIP_DX.replace("True", "False"), tests=STACK,
         why="a skip stack's upper layers hand dL/dx through the host"),
    dict(name="v469-bidirectional-forward-y-to-host", file=LAYERS, old=BI_Y, new=BI_Y.replace("=dev", "=False", 1),
         tests=STACK, why="a bidirectional stack's forward direction hands its output through the host"),
    dict(name="v469-bidirectional-backward-dx-to-host", file=LAYERS, old=BI_DX, new=BI_DX.replace("=dev", "=False"),
         tests=STACK, why="a bidirectional stack's backward direction hands dL/dx through the host"),
]
