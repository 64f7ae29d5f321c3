"""Planted bugs, round 442 (format: tests/mutants/mutants.py): the real survivor of a fifteenth random sample
(tests/mutants/random_sample.py --seed 15 --count 40 --all-named, after round 441) and its neighbours, thirty-seventh
pass.

Seed 15: 35 of 40 caught; missed: 2 equivalent (hershey's rng.random() < CAPS as <=; the BlockRing's any(done) or as
and, judged equivalent in round 239), 1 near-equivalent (check_model's synthesis texts of lengths arange(B) %
(U - 1): the same lengths at its default B of 3), 1 on a CUDA-only line caught by the synthesis CUDA files (rnd15-17,
planted here with them as its tests), 1 real: the diagnostics' BN-LSTM forward starting from c0 as h0 (rnd15-31).
The planted bugs: the diagnostics' BN-LSTM h0 from c0, LSTM c0 from h0, BN-RNN from zeros, the model's running
statistics written, BN on the running statistics; the window layer's device parameters read from its gradients. 6
mutants. The old files named after diagnostics (OLD_DIAGNOSTICS) catch 2 of the 5 with a new file; the new file
alone catches 5 of 5, so NEW + OLD does too (run: 6 of 6).

    python tests/mutants/run.py --only 'v442-*'
"""
DIAGNOSTICS = "lnrnn/diagnostics.py"
WINDOW = "lnrnn/model/window.py"
NEW_DIAGNOSTICS = ["tests/test_values442_diagnostics.py"]
# every file named after the module (pytest -k diagnostics, as random_sample.py --all-named judges)
OLD_DIAGNOSTICS = ["tests/test_diagnostics.py", "tests/test_values37_diagnostics.py",
                   "tests/test_values70_diagnostics.py", "tests/test_values96_diagnostics.py",
                   "tests/test_values118_diagnostics_judge.py", "tests/test_values145_diagnostics.py",
                   "tests/test_values184_diagnostics.py", "tests/test_values21_diagnostics.py",
                   "tests/test_values267_diagnostics.py", "tests/test_values281_diagnostics.py",
                   "tests/test_values365_diagnostics.py", "tests/test_values_diagnostics.py"]

BN_LSTM = "            y, _, _, saved = ref.bn_lstm_forward(x, st[0], st[1], p[\"Wx\"], p[\"Wh\"], p[\"b\"], p[\"gx\"],"
LSTM = "y, _, _, cache = ref.lstm_forward(x, st[0], st[1], p[\"Wx\"]"
BN_RNN = "y, _, saved = ref.bn_rnn_forward(x, st[0], p[\"Wx\"]"
COPIES = "        bufs = {k: np.array(v, np.float64) for k, v in layer.buffers.items()}"
TRAINING = "bufs[\"rmc\"], bufs[\"rvc\"], True, layer.momentum, layer.eps, lengths)"
VIEWS = "        p = self.device_views[0] if self.device_views else {n: k.to_device(v) for n, v in self.params.items()}"

MUTANTS = [
    dict(name="v442-diagnostics-bn-lstm-h0-from-c0", file=DIAGNOSTICS, old=BN_LSTM,
         new=BN_LSTM.replace("st[0], st[1]", "st[1], st[1]"), tests=NEW_DIAGNOSTICS + OLD_DIAGNOSTICS,
         why="a BN-LSTM layer's diagnostics start from c0 as h0 (rnd15-31): another loss than the model's"),
    dict(name="v442-diagnostics-lstm-c0-from-h0", file=DIAGNOSTICS, old=LSTM,
         new=LSTM.replace("st[0], st[1]", "st[0], st[0]"), tests=NEW_DIAGNOSTICS + OLD_DIAGNOSTICS,
         why="an LSTM or LN-LSTM layer's diagnostics start from h0 as c0"),
    dict(name="v442-diagnostics-bn-rnn-from-zeros", file=DIAGNOSTICS, old=BN_RNN,
         new=BN_RNN.replace("x, st[0],", "x, 0 * st[0],"), tests=NEW_DIAGNOSTICS + OLD_DIAGNOSTICS,
         why="a BN-RNN layer's diagnostics start from zeros whatever state is given"),
    dict(name="v442-diagnostics-bn-writes-the-models-statistics", file=DIAGNOSTICS, old=COPIES,
         new=COPIES.replace("np.array(v, np.float64)", "np.asarray(v, np.float64)"),
         tests=NEW_DIAGNOSTICS + OLD_DIAGNOSTICS,
         why="the diagnostics' training-mode forward updates a float64 model's own running statistics"),
    dict(name="v442-diagnostics-bn-on-running-statistics", file=DIAGNOSTICS, old=TRAINING,
         new=TRAINING.replace("True, layer.momentum", "False, layer.momentum"),
         tests=NEW_DIAGNOSTICS + OLD_DIAGNOSTICS,
         why="a BN-LSTM layer's diagnostics normalize with the running statistics, not the batch's as training does"),
    dict(name="v442-window-device-parameters-from-the-gradients", file=WINDOW, old=VIEWS,
         new=VIEWS.replace("device_views[0]", "device_views[1]"),
         tests=["tests/model/test_synthesis_cuda.py", "tests/model/test_values441_synthesis_cuda.py"],
         why="a device update's window layer reads its gradients as its parameters (rnd15-17, CUDA only)"),
]
