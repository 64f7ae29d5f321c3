"""Planted bugs, round 382 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates, in
the cell registry (lnrnn/model/cells.py), twentieth pass, planted before any test was written for them: the
parameters' order Wh, Wx, b; a fresh bias at one; the memory rows (activations) of the RNN, the LSTM and the LN-RNN
each short; the BN-RNN's recurrent gain starting at 1; the BN-LSTM's cell statistics kept gate-wide; the BN-LSTM's
and the RNN's y read from another saved array; the LN-LSTM's gx and bx gradients under each other's names; the LSTM
inference path's final (h, c) swapped; the identity recurrent initialization refused.

12 mutants. Against the old targeted files alone (tests/model/test_values*_cells.py): 9 of 12 caught; missed: the
three activations rows (the memory plan's files check the LSTM's 11 H by hand, but no cells file derives the rows
from what the kernels keep). The new file test_values382_cells catches the three, and 10 of the 12 on its own (not
the gradient names swapped or the inference states swapped, which the old cells files' gradient and step tests
catch): the activations counted from the CPU kernels' saved tuples plus x Wx where only the CUDA twin keeps it over
all steps; saved_y against the y returned; the BN buffers' widths; the initial gains (0.1 for BN, Cooijmans et al.
2016), Wx, Wh, b's order and shapes and b's initial blocks; the identity initialization.

    python tests/mutants/run.py --only 'v382-*'
"""
CELLS = "lnrnn/model/cells.py"
T382 = "tests/model/test_values382_cells.py::"

OLD_CELLS = [
    "tests/model/test_values13_cells.py",
    "tests/model/test_values169_cells.py",
    "tests/model/test_values204_cells.py",
    "tests/model/test_values282_cells.py",
    "tests/model/test_values313_cells.py",
    "tests/model/test_values347_cells.py",
    "tests/model/test_values67_cells.py",
    "tests/model/test_values88_cells.py",
]

MUTANTS = [
    dict(name="v382-cells-param-names-order", file=CELLS,
         old='return ("Wx", "Wh", "b") + tuple(n for n, _, _ in self.extra)',
         new='return ("Wh", "Wx", "b") + tuple(n for n, _, _ in self.extra)',
         tests=[T382 + "test_initial_gains_and_biases_of_the_norms"] + OLD_CELLS,
         why="the parameters' documented order Wx, Wh, b broken"),
    dict(name="v382-cells-init-bias-ones", file=CELLS,
         old='"b": np.zeros(G, dtype)}',
         new='"b": np.ones(G, dtype)}',
         tests=[T382 + "test_initial_gains_and_biases_of_the_norms"] + OLD_CELLS,
         why="a fresh cell's bias at one (the forget block and the candidate's small random draw on top)"),
    dict(name="v382-cells-rnn-activations-one", file=CELLS,
         old='activations=(2, 0), backward_loop=rnn._backward_rows',
         new='activations=(1, 0), backward_loop=rnn._backward_rows',
         tests=[T382 + "test_activations_count_the_saved_elements_per_step_and_row"] + OLD_CELLS,
         why="the RNN's memory counted as y alone, without the x Wx it holds while the forward runs"),
    dict(name="v382-cells-lstm-activations-ten", file=CELLS,
         old='activations=(11, 0), backward_loop=lstm._backward_rows',
         new='activations=(10, 0), backward_loop=lstm._backward_rows',
         tests=[T382 + "test_activations_count_the_saved_elements_per_step_and_row"] + OLD_CELLS,
         why="the LSTM's saved elements per (step, row) counted one H short"),
    dict(name="v382-cells-ln-rnn-activations-no-rstd", file=CELLS,
         old='activations=(3, 1), backward_loop=rnn._backward_rows',
         new='activations=(3, 0), backward_loop=rnn._backward_rows',
         tests=[T382 + "test_activations_count_the_saved_elements_per_step_and_row"] + OLD_CELLS,
         why="the LN-RNN's per-row rstd left out of its memory"),
    dict(name="v382-cells-bn-rnn-gh-init-one", file=CELLS,
         old='(("gx", "H", BN_GAIN_INIT), ("gh", "H", BN_GAIN_INIT))',
         new='(("gx", "H", BN_GAIN_INIT), ("gh", "H", 1.0))',
         tests=[T382 + "test_initial_gains_and_biases_of_the_norms"] + OLD_CELLS,
         why="the BN-RNN's recurrent gain starting at 1, not Cooijmans et al.'s 0.1"),
    dict(name="v382-cells-bn-lstm-c-buffer-gate-wide", file=CELLS,
         old='(("x", "G"), ("h", "G"), ("c", "H"))',
         new='(("x", "G"), ("h", "G"), ("c", "G"))',
         tests=[T382 + "test_bn_buffers_are_gate_wide_for_x_and_h_and_hidden_wide_for_c"] + OLD_CELLS,
         why="the BN-LSTM's cell statistics kept 4H wide"),
    dict(name="v382-cells-bn-lstm-saved-y-is-c", file=CELLS,
         old='cuda=bn_lstm_cuda, saved_y=BN_LSTM_SAVED_Y,',
         new='cuda=bn_lstm_cuda, saved_y=BN_LSTM_SAVED_C,',
         tests=[T382 + "test_saved_y_points_at_the_y_returned"] + OLD_CELLS,
         why='the BN-LSTM layer reads y from the saved c'),
    dict(name="v382-cells-rnn-saved-y-index", file=CELLS,
         old='RNN_SAVED_Y = 0                            #',
         new='RNN_SAVED_Y = 1                            #',
         tests=[T382 + "test_saved_y_points_at_the_y_returned"] + OLD_CELLS,
         why='the RNN layers read y from ahat'),
    dict(name="v382-cells-ln-lstm-grad-names-swapped", file=CELLS,
         old='("Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc"), activations=(16, 3)',
         new='("Wx", "Wh", "b", "bx", "gx", "gh", "bh", "gc", "bc"), activations=(16, 3)',
         tests=OLD_CELLS,
         why="the LN-LSTM's gradients of gx and bx given each other's names"),
    dict(name="v382-cells-lstm-infer-states-swapped", file=CELLS,
         old='        y, hT, cT = kern.infer(*args)',
         new='        y, cT, hT = kern.infer(*args)',
         tests=OLD_CELLS,
         why="the LSTM's inference path hands back (cT, hT) as (hT, cT)"),
    dict(name="v382-cells-recurrent-inits-orthogonal-only", file=CELLS,
         old='RECURRENT_INITS = ("orthogonal", "identity")',
         new='RECURRENT_INITS = ("orthogonal",)',
         tests=[T382 + "test_the_identity_recurrent_init_gives_identity_blocks"] + OLD_CELLS,
         why='--recurrent-init identity refused'),
]
