"""Planted bugs, round 384 (format: tests/mutants/mutants.py): the functional layer API (lnrnn/model/functional.py),
twentieth pass, planted before any test was written: the BN cells' hw residual laid out H wide instead of over the
gates; the BN residuals' lengths announced as int32; an LN-LSTM with a narrow (folded) input announced with an xp it
never keeps; the LN-LSTM's chat announced gate-wide; its rstd announced (T, 3, B); y put back at the end of the saved
tuple instead of where the kernels keep it; the residuals dropping the tuple's last array instead of y;
layer_backward checking lengths against (B, T); reverse_valid's lengths broadcast down the steps instead of across
the rows. 9 mutants. The old targeted files (test_functional and the thirteen test_values*_functional files listed in
OLD_FUNC) catch all 9 on their own (measured with test_values384_functional off the lists); that file (the residual
layout against what layer_forward returns for all six cells, I 2 and 5, float32 and float64; residuals handed back
giving the spec's gradients with ragged lengths 4, 1, 3; reverse_valid by its definition) also catches all 9 alone.
Left out as equivalent: layer_backward's copy of the caller's dy made without copy=True (backward copies dy again, on
the host and on the device, before any kernel writes into it).

    python tests/mutants/run.py --only 'v384-*'
"""
FUNC = "lnrnn/model/functional.py"
NEW = ["tests/model/test_values384_functional.py"]

OLD_FUNC = [
    "tests/model/test_functional.py",
    "tests/model/test_values13_functional.py",
    "tests/model/test_values148_functional.py",
    "tests/model/test_values169_functional.py",
    "tests/model/test_values16_functional.py",
    "tests/model/test_values204_functional.py",
    "tests/model/test_values22_functional.py",
    "tests/model/test_values234_functional.py",
    "tests/model/test_values252_functional.py",
    "tests/model/test_values310_functional.py",
    "tests/model/test_values343_functional.py",
    "tests/model/test_values364_functional.py",
    "tests/model/test_values51_functional.py",
    "tests/model/test_values77_functional.py",
]

MUTANTS = [
    dict(name="v384-functional-layout-bn-hw-hidden-wide", file=FUNC,
         old='out = [x_side, ((T, G), dt), ((T, G), dt), ((T, B, G), dt), ((T, G), dt), ((T, G), dt)]',
         new='out = [x_side, ((T, G), dt), ((T, G), dt), ((T, B, H), dt), ((T, G), dt), ((T, G), dt)]',
         tests=NEW + OLD_FUNC,
         why="the BN cells' hw laid out H wide, not over the gates"),
    dict(name="v384-functional-layout-bn-lengths-int32", file=FUNC,
         old='return out + [((B,), np.dtype(np.int64))]',
         new='return out + [((B,), np.dtype(np.int32))]',
         tests=NEW + OLD_FUNC,
         why="the BN residuals' lengths announced as int32"),
    dict(name="v384-functional-layout-lstm-xp-narrow", file=FUNC,
         old='((T, B, G) if ln and not fold else (0, 0, 0), dt),',
         new='((T, B, G) if ln else (0, 0, 0), dt),',
         tests=NEW + OLD_FUNC,
         why='an LN-LSTM with a narrow input announced with an xp it never keeps'),
    dict(name="v384-functional-layout-lstm-chat-gate-wide", file=FUNC,
         old='((T, B, G) if ln else (0, 0, 0), dt), ((T, B, H) if ln else (0, 0, 0), dt),',
         new='((T, B, G) if ln else (0, 0, 0), dt), ((T, B, G) if ln else (0, 0, 0), dt),',
         tests=NEW + OLD_FUNC,
         why="the LN-LSTM's chat announced gate-wide"),
    dict(name="v384-functional-layout-lstm-rstd-axes", file=FUNC,
         old='((3, T, B) if ln else (3, 0, 0), dt)]',
         new='((T, 3, B) if ln else (3, 0, 0), dt)]',
         tests=NEW + OLD_FUNC,
         why="the LN-LSTM's rstd announced (T,3,B)"),
    dict(name="v384-functional-from-residuals-y-appended", file=FUNC,
         old='    items.insert(spec.saved_y, y)',
         new='    items.append(y)',
         tests=NEW + OLD_FUNC,
         why='y put back at the end of the saved tuple, not where the kernels keep it'),
    dict(name="v384-functional-to-residuals-drops-last", file=FUNC,
         old='    del items[spec.saved_y]',
         new='    del items[-1]',
         tests=NEW + OLD_FUNC,
         why="the residuals drop the tuple's last array instead of y"),
    dict(name="v384-functional-backward-lengths-swapped", file=FUNC,
         old='    k = s.k\n    lengths = check_lengths(lengths, T, B)',
         new='    k = s.k\n    lengths = check_lengths(lengths, B, T)',
         tests=NEW + OLD_FUNC,
         why='layer_backward checks lengths against (B, T)'),
    dict(name="v384-functional-reverse-valid-lengths-column", file=FUNC,
         old='L = np.asarray(lengths)[None, :]',
         new='L = np.asarray(lengths)[:, None]',
         tests=NEW + OLD_FUNC,
         why="reverse_valid's lengths broadcast down the steps"),
]
