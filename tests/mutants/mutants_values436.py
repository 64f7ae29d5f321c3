"""Planted bugs, round 436 (format: tests/mutants/mutants.py): where a kernel's buffers lie in memory
(tests/kernels/test_placement.py), thirty-second pass.

A bitwise test of the distributed update failed at random: an LN-RNN backward gave other bits, by an ulp, from one
call to the next in one process. The kernels were compiled with fastmath's nsz beside reassoc, and LLVM's vectorised
loop and the scalar loop it keeps for buffers that lie a few vectors apart then rounded differently, so the bits
depended on where malloc put the buffers; lnrnn/config.py now leaves nsz out. The new test places every pair of a
kernel's buffers side by side, in an arena filled with NaN, and compares the bits.

The planted bugs: nsz put back beside reassoc (the cause of the failure); and, as the arena also shows, a buffer
from np.empty where a kernel adds onto it or carries a gradient from it: the RNN's and the LSTM's partial sums and
carried dL/dh (and dL/dc), the BN-RNN's carried dL/dh, the BN-LSTM's carried dL/dc. 7 mutants. Every old file named
after each module (OLD_CONFIG, OLD_RNN, OLD_LSTM, OLD_BN_RNN, OLD_BN_LSTM) catches 6 of 7: the six buffers from
np.empty, by the garbage malloc hands back; missed: nsz, whose ulp none of them can see. The new file alone catches
7 of 7, so NEW + OLD does too (not run separately).

    python tests/mutants/run.py --only 'v436-*'
"""
CONFIG = "lnrnn/config.py"
RNN = "lnrnn/kernels/rnn.py"
LSTM = "lnrnn/kernels/lstm.py"
BN_RNN = "lnrnn/kernels/bn_rnn.py"
BN_LSTM = "lnrnn/kernels/bn_lstm.py"
NEW = ["tests/kernels/test_placement.py"]
# every file named after each module (pytest -k <name>, as random_sample.py --all-named judges)
OLD_CONFIG = ["tests/test_values186_config.py", "tests/test_values_config.py",
              "tests/training/test_values283_runconfig.py", "tests/commands/test_cli_train_config.py",
              "tests/commands/test_values142_runconfig.py", "tests/commands/test_values236_runconfig.py",
              "tests/commands/test_values421_config_numbers.py", "tests/commands/test_values426_runconfig.py",
              "tests/training/test_values102_runconfig.py", "tests/training/test_values122_runconfig.py",
              "tests/training/test_values13_runconfig.py", "tests/training/test_values209_runconfig.py",
              "tests/training/test_values266_runconfig.py", "tests/training/test_values321_runconfig.py",
              "tests/training/test_values348_runconfig.py", "tests/training/test_values371_runconfig_setup.py",
              "tests/training/test_values427_runconfig.py", "tests/training/test_values_runconfig.py"]
OLD_RNN = ["tests/kernels/test_values123_rnn.py", "tests/kernels/test_values147_rnn.py",
           "tests/kernels/test_values168_rnn.py", "tests/kernels/test_values190_rnn.py",
           "tests/kernels/test_values268_lstm_rnn.py", "tests/kernels/test_values302_rnn.py",
           "tests/kernels/test_values344_rnn.py", "tests/kernels/test_values45_rnn.py",
           "tests/kernels/test_values72_rnn.py", "tests/kernels/test_values92_rnn.py",
           "tests/kernels/test_values100_bn_rnn.py", "tests/kernels/test_values287_bn_rnn.py",
           "tests/kernels/test_values65_bn_rnn.py"]
OLD_LSTM = ["tests/kernels/test_values106_lstm.py", "tests/kernels/test_values72_lstm.py",
            "tests/kernels/test_values11_lstm.py", "tests/kernels/test_values123_lstm.py",
            "tests/kernels/test_values147_lstm.py", "tests/kernels/test_values168_lstm.py",
            "tests/kernels/test_values190_lstm.py", "tests/kernels/test_values268_lstm_rnn.py",
            "tests/kernels/test_values294_lstm.py", "tests/kernels/test_values302_lstm.py",
            "tests/kernels/test_values332_lstm.py", "tests/kernels/test_values45_lstm.py",
            "tests/kernels/test_values92_lstm.py", "tests/kernels/test_values100_bn_lstm.py",
            "tests/kernels/test_values18_bn_lstm.py", "tests/kernels/test_values269_bn_lstm.py",
            "tests/kernels/test_values377_bn_lstm.py", "tests/kernels/test_values79_bn_lstm.py"]
OLD_BN_RNN = ["tests/kernels/test_values100_bn_rnn.py", "tests/kernels/test_values287_bn_rnn.py",
              "tests/kernels/test_values65_bn_rnn.py"]
OLD_BN_LSTM = ["tests/kernels/test_values100_bn_lstm.py", "tests/kernels/test_values18_bn_lstm.py",
               "tests/kernels/test_values269_bn_lstm.py", "tests/kernels/test_values377_bn_lstm.py",
               "tests/kernels/test_values79_bn_lstm.py"]

MUTANTS = [
    dict(name="v436-fastmath-ignores-signed-zeros", file=CONFIG, old='FASTMATH = {"reassoc", "contract"}',
         new='FASTMATH = {"reassoc", "contract", "nsz"}', tests=NEW + OLD_CONFIG,
         why="the vectorised and the scalar loop of a kernel round differently, the bits depend on placement"),
    dict(name="v436-rnn-backward-partials-from-empty", file=RNN,
         old="    pH = np.zeros((2, nch, H + GAP), dtype=dt)",
         new="    pH = np.empty((2, nch, H + GAP), dtype=dt)", tests=NEW + OLD_RNN,
         why="db and dg add onto whatever the memory held"),
    dict(name="v436-rnn-backward-carry-from-empty", file=RNN,
         old="    work = (np.zeros((nch, m + 1, H), dt),",
         new="    work = (np.empty((nch, m + 1, H), dt),", tests=NEW + OLD_RNN,
         why="the last step's dL/dh from the step after it is whatever the memory held, not zero"),
    dict(name="v436-lstm-backward-partials-from-empty", file=LSTM,
         old="    pG = np.zeros((3, nch, G + GAP), dtype=dt)",
         new="    pG = np.empty((3, nch, G + GAP), dtype=dt)", tests=NEW + OLD_LSTM,
         why="db, dgx and dgh add onto whatever the memory held"),
    dict(name="v436-lstm-backward-carry-from-empty", file=LSTM,
         old="            np.zeros((nch, 2, m + 1, H), dt),",
         new="            np.empty((nch, 2, m + 1, H), dt),", tests=NEW + OLD_LSTM,
         why="the last step's dL/dh and dL/dc from the step after it are whatever the memory held"),
    dict(name="v436-bn-rnn-backward-carry-from-empty", file=BN_RNN,
         old="    dhn = np.zeros((B, H), dtype=dt)",
         new="    dhn = np.empty((B, H), dtype=dt)", tests=NEW + OLD_BN_RNN,
         why="the BN-RNN's carried dL/dh starts at whatever the memory held"),
    dict(name="v436-bn-lstm-backward-cell-carry-from-empty", file=BN_LSTM,
         old="    dcarry = np.zeros((B, H), dtype=dt)",
         new="    dcarry = np.empty((B, H), dtype=dt)", tests=NEW + OLD_BN_LSTM,
         why="the BN-LSTM's carried dL/dc starts at whatever the memory held"),
]
