"""Sequence models (lnrnn/model/models.py) of 2-layer LSTM stacks in float64 at tiny sizes, against the NumPy
reimplementation of test_values51_models (each row its own steps, a skip stack's layer 1 reading [x | h_0],
a classifier head on the last step or on every step): the parameter list and shapes from the config; the
mean loss as the sum over real (running, labelled) steps divided by their count, for truncated BPTT in
chunks of 1, 2, 3 and T steps (the forward values agree for any chunk size) and for inference over time
chunks of one and two steps (``INFER_CHUNK_ROWS`` made small); ``infer_chunk_steps`` by its definition,
batches wider than ``INFER_CHUNK_ROWS`` included; a given total as the normalizer (the sums and the
gradients scaled by count / total); load_arrays refusing arrays of another shape; one sampling step as the
head's h W + b of the stack's step, carried from step to step."""
import numpy as np
import pytest

from lnrnn.model import models
from test_values51_models import B, C, H, I, T, data, host_params, make, np_last_rows, np_stack, np_sums

LENGTHS = np.array([5, 1, 3])


@pytest.mark.parametrize("skip", [False, True])
def test_parameters_and_shapes_follow_the_config(skip):
    model = make(skip=skip)
    G = 4 * H
    want = {"rnn.l0.Wx": (I, G), "rnn.l0.Wh": (H, G), "rnn.l0.b": (G,),
            "rnn.l1.Wx": (I + H if skip else H, G), "rnn.l1.Wh": (H, G), "rnn.l1.b": (G,),
            "head.W": (2 * H if skip else H, C), "head.b": (C,)}
    assert {n: p.shape for n, p in model.params.items()} == want
    assert {n: g.shape for n, g in model.grads.items()} == want
    assert model.num_params() == sum(int(np.prod(s)) for s in want.values())
    assert model.config["num_layers"] == 2 and model.config["hidden_size"] == H
    assert model.config.get("skip", False) == skip


@pytest.mark.parametrize("tbptt", [1, 2, 3, None])
@pytest.mark.parametrize("per_step", [True, False])
def test_truncated_bptt_loss_is_the_sum_over_real_steps(tbptt, per_step):
    model = make(per_step=per_step)
    x, labels = data(4, per_step=per_step)
    if per_step:
        labels[2, 0] = -1                                 # an unlabelled step inside a row
    p = host_params(model)
    s, correct, n = np_sums(p, x, labels, LENGTHS, per_step=per_step)
    if per_step:
        on = np.arange(T)[:, None] < LENGTHS[None, :]
        assert n == int(np.count_nonzero(on & (labels.T >= 0)))
    m = model.loss_and_grad(x, labels, LENGTHS, tbptt=tbptt)
    assert model.last_count == n
    assert m["loss"] == pytest.approx(s / n, rel=1e-11)
    assert m["acc"] == pytest.approx(correct / n, rel=1e-12)
    assert model.last_sums["loss"] == pytest.approx(s, rel=1e-11)


@pytest.mark.parametrize("rows", [2, 3 * 2])                 # chunks of 1 and 2 steps for B = 3
@pytest.mark.parametrize("per_step", [True, False])
def test_inference_over_time_chunks(rows, per_step, monkeypatch):
    monkeypatch.setattr(models, "INFER_CHUNK_ROWS", rows)
    assert models.infer_chunk_steps(B, T) == max(1, rows // B)
    model = make(per_step=per_step, skip=True)
    x, labels = data(6, per_step=per_step)
    p = host_params(model)
    s, correct, n = np_sums(p, x, labels, LENGTHS, per_step=per_step, skip=True)
    sums, count = model.loss_sums(x, labels, LENGTHS)
    assert count == n
    assert sums["loss"] == pytest.approx(s, rel=1e-11) and sums["acc"] == correct
    assert sums["seqs"] == np.count_nonzero(LENGTHS > 0)
    y, _ = np_stack(x, p, 2, True, False, LENGTHS)
    np.testing.assert_allclose(model.last_outputs(x, lengths=LENGTHS), np_last_rows(y, LENGTHS, False),
                               rtol=1e-11, atol=1e-14)
    batches = [(x[:, :2], labels[:2], LENGTHS[:2]), (x[:, 2:], labels[2:], LENGTHS[2:])]
    means = model.evaluate(batches)
    assert means["loss"] == pytest.approx(s / n, rel=1e-11)


def test_infer_chunk_steps_by_definition():
    R = models.INFER_CHUNK_ROWS
    for b_, t_ in ((1, 1), (3, 5), (R, 7), (R + 1, 7), (3 * R, 2), (0, 4), (5, 0)):
        assert models.infer_chunk_steps(b_, t_) == max(1, min(t_, R // max(b_, 1)))
        assert models.infer_chunk_steps(b_, t_) >= 1


def test_a_given_total_normalizes_the_loss_and_the_gradients():
    model = make()
    x, labels = data(8)
    m_own = model.loss_and_grad(x, labels, LENGTHS)
    own = {k: g.copy() for k, g in model.grads.items()}
    s, _, n = np_sums(host_params(model), x, labels, LENGTHS)
    total = 7                                             # this batch: a shard of 7 scored sequences
    m = model.loss_and_grad(x, labels, LENGTHS, total=total)
    assert model.last_count == n == 3
    assert m["loss"] == pytest.approx(s / total, rel=1e-11)
    assert m["loss"] == pytest.approx(m_own["loss"] * n / total, rel=1e-12)
    for k, g in model.grads.items():
        np.testing.assert_allclose(g, own[k] * n / total, rtol=1e-12, atol=1e-16, err_msg=k)


def test_load_arrays_refuses_another_shape():
    model = make()
    arrays = {k: np.array(v) + 0.5 for k, v in model.params.items()}
    model.load_arrays(arrays)
    for k, v in model.params.items():
        assert np.array_equal(v, arrays[k])
    for name, bad in (("head.b", np.zeros(1)), ("head.W", np.zeros((H, 1))), ("rnn.l0.b", np.zeros((1,)))):
        wrong = dict(arrays, **{name: bad})
        with pytest.raises(ValueError, match=name):
            model.load_arrays(wrong)
        assert np.array_equal(model.params[name], arrays[name])      # nothing of the refused array got in


def test_a_sampling_step_is_the_heads_linear_map_of_the_stack():
    model = make(skip=True)
    model.params["head.b"][...] = [0.5, -1.0, 2.0]
    x, _ = data(9)
    p = host_params(model)
    y, _ = np_stack(x[:, :1], p, 2, True, False, np.array([T]))           # (T,1,2H) one row, every step
    state = None
    for t in range(3):
        out, state = model.step(x[t, :1], state, t=t)
        np.testing.assert_allclose(out, y[t] @ p["head.W"] + p["head.b"], rtol=1e-12, atol=1e-14)


def test_batches_of_cuts_consecutive_rows():
    rng = np.random.default_rng(0)
    N = 7
    x, targets, lengths = rng.standard_normal((T, N, I)), np.arange(N), np.arange(N) % (T + 1)
    parts = list(models.batches_of(x, targets, lengths, batch_size=3))
    assert [p[1].tolist() for p in parts] == [[0, 1, 2], [3, 4, 5], [6]]
    assert np.array_equal(np.concatenate([p[0] for p in parts], axis=1), x)
    assert np.array_equal(np.concatenate([p[2] for p in parts]), lengths)
    assert all(p[0].flags.c_contiguous for p in parts)
    assert [p[2] for p in models.batches_of(x, targets, batch_size=4)] == [None, None]
