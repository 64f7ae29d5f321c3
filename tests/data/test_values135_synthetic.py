"""lnrnn/data/strokes.py's synthetic lines and next-point batches against their definitions: a glitch rate of 0
plants no spike and of 1 one spike per line, two consecutive offsets about SYN_SPIKE long that cancel (the point
between them moved, the rest of the line not); the task's spike count is half its dropped glitch steps, both
splits included; training and validation lines come from separate streams (no validation line is a training
line, and the validation lines do not change with the training count); a batch is padded to the longest row's
steps, N - 1, with inputs p_t and targets p_{t+1} taken here from the line; the offset scale is NumPy's std of
the training offsets."""
import numpy as np

from lnrnn.data import strokes as S


def long_rows(seq):
    return np.flatnonzero(np.hypot(seq[:, 0], seq[:, 1]) > S.GLITCH_STEP)


def test_glitch_rate_zero_plants_none_and_one_plants_one_per_line():
    lines, spikes = S.synthetic_lines(np.random.default_rng(3), 8, glitch_rate=0.0)
    assert spikes == 0 and all(len(long_rows(ln)) == 0 for ln in lines)
    lines, spikes = S.synthetic_lines(np.random.default_rng(4), 12, glitch_rate=1.0)
    assert spikes == len(lines) == 12
    for ln in lines:
        i, j = long_rows(ln)                          # exactly two long offsets ...
        assert j == i + 1 and 1 <= i and j <= len(ln) - 1   # ... into and out of one inner point
        assert abs(np.hypot(*ln[i, :2]) - S.SYN_SPIKE) < 400    # about SYN_SPIKE long (plus the line's own step)
        assert np.hypot(*(ln[i, :2] + ln[j, :2])) < 400          # and cancelling: the line goes on where it was


def test_the_spike_count_is_half_the_dropped_steps_over_both_splits():
    n_train, n_val = 20, 120
    _, s_val = S.synthetic_lines(np.random.default_rng([S.DATA_SEED, 1]), n_val)
    assert s_val > 0                                  # the validation stream does plant spikes
    t = S.build_synthetic({"task": "strokes-synthetic", "split": f"{n_train}/{n_val}"})
    assert t.extra["spikes"] >= s_val
    assert 2 * t.extra["spikes"] == t.extra["dropped_steps"]


def raw_val(t):
    s = t.sets["val"]
    return [s.line(i).astype(np.float64) * [t.scale[0], t.scale[1], 1.0] for i in range(len(s))]


def test_train_and_val_come_from_separate_streams():
    a = S.build_synthetic({"task": "strokes-synthetic", "split": "4/3"})
    b = S.build_synthetic({"task": "strokes-synthetic", "split": "7/3"})
    for i in range(3):
        tr, va = a.sets["train"].line(i), a.sets["val"].line(i)
        assert tr.shape != va.shape or not np.allclose(tr, va)
    for x, y in zip(raw_val(a), raw_val(b)):
        assert x.shape == y.shape and np.allclose(x, y, rtol=1e-5, atol=1e-3)


def line(n, k):
    d = np.column_stack([np.arange(n) + k, (-1.0) ** np.arange(n) * (k + 1), np.zeros(n)])
    d[0, :2] = 0.0
    d[-1, 2] = 1.0
    return d


def test_batch_pads_to_the_longest_steps_with_inputs_and_targets_from_the_line():
    train = [line(n, k) for k, n in enumerate((2, 6, 3, 5))]
    val = [line(4, 9), line(2, 1)]
    t = S.make_task({"task": "strokes-npz"}, "lines", S.RawSplit(train), S.RawSplit(val))
    d = np.concatenate([ln[1:, :2] for ln in train])
    assert np.allclose(t.scale, d.std(axis=0))        # the training offsets' std, NumPy's
    idx = [2, 0, 3]
    x, y, lengths = t.batch("train", idx)
    want_len = [len(train[i]) - 1 for i in idx]
    assert list(lengths) == want_len
    assert x.shape == (max(want_len), len(idx), 3) and y.shape == (len(idx), max(want_len), 3)
    for b, i in enumerate(idx):
        pts = train[i] / [t.scale[0], t.scale[1], 1.0]
        n = want_len[b]
        assert np.allclose(x[:n, b], pts[:-1]) and np.allclose(y[b, :n], pts[1:])
        assert not x[n:, b].any() and not y[b, n:].any()
    assert t.steps == max(len(ln) for ln in train + val) - 1
