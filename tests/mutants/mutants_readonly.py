"""Planted bugs in how the cells hand their inputs to their compiled time loops (lnrnn/kernels/cpu/threads.py:
readonly), each caught by tests/kernels/test_threads.py (format: tests/mutants/mutants.py).

    python tests/mutants/run.py --only 'readonly-*'
"""

TEST = "tests/kernels/test_threads.py::test_read_only_inputs_reach_the_same_compiled_time_loop"

MUTANTS = [
    dict(name="readonly-views-stay-writable", file="lnrnn/kernels/cpu/threads.py",
         old="            v.flags.writeable = False\n",
         new="",
         tests=[TEST],
         why="the views keep the caller's flags: a JAX call compiles every cell's loops a second time"),
    dict(name="readonly-tuples-passed-through", file="lnrnn/kernels/cpu/threads.py",
         old="        if type(a) is tuple:\n            return tuple(view(b) for b in a)\n",
         new="",
         tests=[TEST],
         why="arrays inside tuples (the saved tuple, the weights) keep their flags: compiled again per caller"),
    dict(name="readonly-lstm-backward-saved-as-given", file="lnrnn/kernels/lstm.py",
         old="*readonly(dy, saved, x, h0, c0, (Wx, WxT, WhT, Wc, Mc))",
         new="dy, saved, *readonly(x, h0, c0, (Wx, WxT, WhT, Wc, Mc))",
         tests=[TEST + "[ln-lstm]"],
         why="the LSTM backward's loop meets the residuals as the caller kept them: one compile per caller"),
    dict(name="readonly-bn-rnn-forward-weights-as-given", file="lnrnn/kernels/bn_rnn.py",
         old="*readonly(lengths, h0, Wh, gh)",
         new="lengths, h0, Wh, gh",
         tests=[TEST + "[bn-rnn]"],
         why="the BN-RNN forward's loop meets h0, Wh and gh as given: compiled again for read-only callers"),
]
