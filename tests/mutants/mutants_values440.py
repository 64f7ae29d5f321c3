"""Planted bugs, round 440 (format: tests/mutants/mutants.py): the real survivors of an eleventh random sample
(tests/mutants/random_sample.py --seed 11 --count 40 --all-named: 31 of 40 caught; of the 9 missed, 1 on a CUDA-only
line, 2 equivalent, 2 still to be read, 4 real: these) and their neighbours, thirty-fifth pass.

The planted bugs: lnrnn predict's --input not required (rnd11-22); functional.forward keeping nothing by default
(rnd11-24); check_model's synthesis network without skip connections (rnd11-34), or with them only when skip was
asked for; the gradcheck command's bound before any layer is built with its 2T steps divided (rnd11-37), without the
four padded rows, without Wx. 7 mutants. Every old file named after each module (OLD_*) catches 0 of 7; the new
files alone catch 7 of 7, so NEW + OLD does too (not run separately).

    python tests/mutants/run.py --only 'v440-*'
"""
PREDICT = "lnrnn/commands/predict.py"
FUNCTIONAL = "lnrnn/model/functional.py"
GRADCHECK = "lnrnn/gradcheck.py"
GRADCHECK_CMD = "lnrnn/commands/gradcheck.py"
NEW_PREDICT = ["tests/commands/test_values440_predict.py"]
NEW_FUNCTIONAL = ["tests/model/test_values440_functional.py"]
NEW_GRADCHECK = ["tests/test_values440_gradcheck_model.py"]
NEW_GRADCHECK_CMD = ["tests/commands/test_values440_gradcheck.py"]
# every file named after each module (pytest -k <name>, as random_sample.py --all-named judges)
OLD_PREDICT = ["tests/commands/test_values131_predict.py", "tests/commands/test_values156_predict_io.py",
               "tests/commands/test_values183_predict_io.py", "tests/commands/test_values215_predict_plot.py",
               "tests/commands/test_values229_files_predict_io_paths.py",
               "tests/commands/test_values240_predict_io.py", "tests/commands/test_values258_predict_io.py",
               "tests/commands/test_values277_predict_io.py",
               "tests/commands/test_values305_files_predict_io_outputs.py",
               "tests/commands/test_values319_predict_io.py",
               "tests/commands/test_values336_files_predict_io_outputs.py",
               "tests/commands/test_values349_predict_read.py",
               "tests/commands/test_values37_predict_read_gradcheck.py",
               "tests/commands/test_values_eval_predict.py", "tests/interop/test_predict_export.py",
               "tests/test_values112_predict_io.py", "tests/test_values131_predict_io.py",
               "tests/test_values14_predict_io.py", "tests/test_values214_predict_io.py",
               "tests/test_values219_predict_io.py", "tests/test_values21_predict_io.py",
               "tests/test_values34_predict_io.py", "tests/test_values365_predict_io.py",
               "tests/test_values394_predict_io.py", "tests/test_values429_predict_io.py",
               "tests/test_values54_predict_io.py", "tests/test_values80_predict_io.py",
               "tests/test_values91_predict_io.py", "tests/test_values9_predict_io.py",
               "tests/test_values_predict_io.py"]
OLD_FUNCTIONAL = ["tests/model/test_values51_functional.py", "tests/model/test_functional.py",
                  "tests/model/test_values13_functional.py", "tests/model/test_values148_functional.py",
                  "tests/model/test_values169_functional.py", "tests/model/test_values16_functional.py",
                  "tests/model/test_values204_functional.py", "tests/model/test_values22_functional.py",
                  "tests/model/test_values234_functional.py", "tests/model/test_values252_functional.py",
                  "tests/model/test_values310_functional.py", "tests/model/test_values343_functional.py",
                  "tests/model/test_values364_functional.py", "tests/model/test_values384_functional.py",
                  "tests/model/test_values438_functional.py", "tests/model/test_values77_functional.py"]
OLD_GRADCHECK = ["tests/commands/test_values437_gradcheck.py", "tests/test_values118_gradcheck.py",
                 "tests/test_values184_gradcheck.py", "tests/test_values214_gradcheck_files.py",
                 "tests/test_values267_gradcheck.py", "tests/test_values27_gradcheck.py",
                 "tests/test_values281_gradcheck.py", "tests/test_values373_gradcheck.py",
                 "tests/test_values409_gradcheck_problems.py", "tests/test_values430_gradcheck.py",
                 "tests/test_values433_gradcheck.py", "tests/test_values435_gradcheck.py",
                 "tests/test_values439_gradcheck.py", "tests/test_values83_gradcheck.py",
                 "tests/test_values9_gradcheck.py", "tests/test_values_gradcheck.py",
                 "tests/commands/test_gradcheck_cli.py", "tests/commands/test_values10_gradcheck.py",
                 "tests/commands/test_values173_gradcheck_plan.py", "tests/commands/test_values215_gradcheck.py",
                 "tests/commands/test_values253_gradcheck.py", "tests/commands/test_values281_gradcheck_cli.py",
                 "tests/commands/test_values37_predict_read_gradcheck.py",
                 "tests/commands/test_values96_gradcheck_plan.py"]
OLD_GRADCHECK_CMD = ["tests/commands/test_values37_predict_read_gradcheck.py",
                     "tests/commands/test_gradcheck_cli.py", "tests/commands/test_values10_gradcheck.py",
                     "tests/commands/test_values173_gradcheck_plan.py",
                     "tests/commands/test_values215_gradcheck.py", "tests/commands/test_values253_gradcheck.py",
                     "tests/commands/test_values96_gradcheck_plan.py",
                     "tests/commands/test_values281_gradcheck_cli.py", "tests/commands/test_values437_gradcheck.py",
                     "tests/test_values118_gradcheck.py", "tests/test_values184_gradcheck.py",
                     "tests/test_values214_gradcheck_files.py", "tests/test_values267_gradcheck.py",
                     "tests/test_values27_gradcheck.py", "tests/test_values281_gradcheck.py",
                     "tests/test_values373_gradcheck.py", "tests/test_values409_gradcheck_problems.py",
                     "tests/test_values430_gradcheck.py", "tests/test_values433_gradcheck.py",
                     "tests/test_values435_gradcheck.py", "tests/test_values439_gradcheck.py",
                     "tests/test_values83_gradcheck.py", "tests/test_values9_gradcheck.py",
                     "tests/test_values_gradcheck.py"]

INPUT = '@click.option("--input", "--data-dir", "inputs", required=True, multiple=True, type=click.Path(),'
FORWARD = "def forward(s, x, state, params, bufs, training=True, lengths=None, keep=True):"
WINDOW = "config.update(window=int(window), alphabet_size=int(alphabet), skip=True)"
BOUND = "refuse_beyond(8 * layers * (H * (I + H) + 2 * T * (B + 4) * H),"

MUTANTS = [
    dict(name="v440-predict-input-not-required", file=PREDICT, old=INPUT,
         new=INPUT.replace("required=True", "required=False"), tests=NEW_PREDICT + OLD_PREDICT,
         why="lnrnn predict without --input reads the run, then finds no sequences (the sample's rnd11-22)"),
    dict(name="v440-forward-keeps-nothing-by-default", file=FUNCTIONAL, old=FORWARD,
         new=FORWARD.replace("keep=True", "keep=False"), tests=NEW_FUNCTIONAL + OLD_FUNCTIONAL,
         why="functional.forward without keep saves nothing for the backward (rnd11-24)"),
    dict(name="v440-gradcheck-synthesis-without-skip", file=GRADCHECK, old=WINDOW,
         new=WINDOW.replace("skip=True", "skip=False"), tests=NEW_GRADCHECK + OLD_GRADCHECK,
         why="the synthesis network check_model checks has no skip connections, unlike Graves's (rnd11-34)"),
    dict(name="v440-gradcheck-synthesis-skip-as-given", file=GRADCHECK, old=WINDOW,
         new=WINDOW.replace(", skip=True", ""), tests=NEW_GRADCHECK + OLD_GRADCHECK,
         why="the synthesis network is skip-connected only when skip was asked for"),
    dict(name="v440-gradcheck-bound-over-t", file=GRADCHECK_CMD, old=BOUND, new=BOUND.replace("2 * T", "2 / T"),
         tests=NEW_GRADCHECK_CMD + OLD_GRADCHECK_CMD,
         why="the bound divides the outputs' steps by T: any --steps passes it (rnd11-37)"),
    dict(name="v440-gradcheck-bound-without-padding-rows", file=GRADCHECK_CMD, old=BOUND,
         new=BOUND.replace("(B + 4)", "B"), tests=NEW_GRADCHECK_CMD + OLD_GRADCHECK_CMD,
         why="the bound leaves out the four padded rows every problem adds to the batch"),
    dict(name="v440-gradcheck-bound-without-wx", file=GRADCHECK_CMD, old=BOUND,
         new=BOUND.replace("H * (I + H)", "H * H"), tests=NEW_GRADCHECK_CMD + OLD_GRADCHECK_CMD,
         why="the bound counts each layer's Wh but not its Wx"),
]
