"""Options that take different code paths together, for all six cells (the gate clip for the LSTM
cells only: an RNN has no gates, and that combination is refused in one sentence):
    truncated BPTT with masks     the forward values equal the whole sequence's (per-step mixture
                                  density and last-step classifier heads; BN: per-step batch statistics)
    state noise on evaluation     each evaluation batch i starts from noise_state(B, (2, i))
    gate clip with masks          a bound below the gate derivatives changes the gradient, one above
                                  every derivative leaves it equal; both with padded rows"""
import numpy as np
import pytest

from lnrnn.model.models import build_model, head_config

CELLS = [("lstm", "none"), ("lstm", "ln"), ("lstm", "bn"), ("rnn", "none"), ("rnn", "ln"), ("rnn", "bn")]
IDS = ["lstm", "ln-lstm", "bn-lstm", "rnn", "ln-rnn", "bn-rnn"]
T, B, I, H = 7, 4, 3, 5
LENGTHS = np.array([7, 2, 5, 6])


def model(cell, norm, head, noise=0.0, clip_gates=0.0, seed=0):
    return build_model(dict(cell=cell, norm=norm, input_size=I, hidden_size=H, num_layers=2, dtype="float64",
                            forget_bias=1.0, state_noise=noise, head=head), seed=seed, max_steps=T,
                       clip_gates=clip_gates)


def data(head, seed=1):
    rng = np.random.default_rng(seed)
    x = rng.normal(0, 1, (T, B, I))
    if head["kind"] == "mdn":
        tg = rng.normal(0, 1, (B, T, 3))
        tg[..., 2] = rng.integers(0, 2, (B, T))
    else:
        tg = rng.integers(0, head["outputs"], B)
    return x, tg


HEADS = {"mdn": {"kind": "mdn", "components": 2}, "ce": head_config("ce", 3)}


@pytest.mark.parametrize("head", list(HEADS))
@pytest.mark.parametrize("cell,norm", CELLS, ids=IDS)
def test_tbptt_with_masks_keeps_the_forward_values(cell, norm, head):
    """loss_and_grad with tbptt = 3 over padded rows: the metrics (and the BN statistics it updates)
    equal the whole sequence's; with tbptt >= T the gradients are the whole sequence's too."""
    x, tg = data(HEADS[head])
    whole, chunked, long = (model(cell, norm, HEADS[head]) for _ in range(3))
    want = whole.loss_and_grad(x, tg, LENGTHS)
    got = chunked.loss_and_grad(x, tg, LENGTHS, tbptt=3)
    for k in want:
        assert got[k] == pytest.approx(want[k], rel=1e-10), k
    for k, v in whole.buffers.items():
        np.testing.assert_allclose(chunked.buffers[k], v, rtol=1e-10, atol=1e-12, err_msg=k)
    long.loss_and_grad(x, tg, LENGTHS, tbptt=T)
    np.testing.assert_allclose(long.flat[1].data, whole.flat[1].data, rtol=1e-10, atol=1e-12)
    assert not np.allclose(chunked.flat[1].data, whole.flat[1].data)  # truncation cut some gradient


@pytest.mark.parametrize("cell,norm", CELLS, ids=IDS)
def test_state_noise_on_evaluation_is_each_batch_own(cell, norm):
    """evaluate over three padded batches = the sums of inference forwards from noise_state(B, (2, i)),
    batch i; and the noise matters (a model without it evaluates differently)."""
    head = HEADS["mdn"]
    m = model(cell, norm, head, noise=0.5, seed=4)
    batches = []
    for i in range(3):
        x, tg = data(head, seed=10 + i)
        batches.append((x, tg, np.roll(LENGTHS, i)))
    tot, count = 0.0, 0
    for i, (x, tg, L) in enumerate(batches):
        y, _ = m.stack.forward(x, m.noise_state(B, (2, i)), training=False, lengths=L)
        valid = np.arange(T)[:, None] < L[None, :]
        s, c, _ = m.head.forward(y, tg, valid)
        tot, count = tot + s["loss"], count + c
    got = m.evaluate(batches)
    assert got["loss"] == pytest.approx(tot / count, rel=1e-10)
    quiet = model(cell, norm, head, noise=0.0, seed=4)
    assert quiet.evaluate(batches)["loss"] != pytest.approx(got["loss"], rel=1e-6)


@pytest.mark.parametrize("cell,norm", [c for c in CELLS if c[0] == "lstm"], ids=[i for i in IDS if "lstm" in i])
def test_gate_clip_with_masks_bounds_the_gradient(cell, norm):
    """A clip far above every gate derivative gives the unclipped gradient; a tiny one changes it (and
    keeps it finite); both with padded rows and the classifier reading each row's own last step."""
    head = HEADS["ce"]
    x, tg = data(head)
    x *= 4  # saturating inputs: large and small gate derivatives side by side
    grads = {}
    for clip in (0.0, 1e9, 1e-4):
        m = model(cell, norm, head, clip_gates=clip)
        m.loss_and_grad(x, tg, LENGTHS)
        grads[clip] = m.flat[1].data.copy()
    np.testing.assert_allclose(grads[1e9], grads[0.0], rtol=1e-12, atol=1e-14)
    assert np.isfinite(grads[1e-4]).all()
    assert np.abs(grads[1e-4] - grads[0.0]).max() > 1e-3 * np.abs(grads[0.0]).max()


@pytest.mark.parametrize("cell", ["rnn", "ln-rnn", "bn-rnn"])
def test_gate_clip_on_a_cell_without_gates_is_refused_in_one_line(cell):
    from lnrnn.training.plan import resolve
    from lnrnn.training.runconfig import TrainConfig
    from lnrnn.errors import UserError
    with pytest.raises(UserError) as e:
        resolve(TrainConfig(cell=cell, clip_gates=1.0))
    assert "\n" not in str(e.value) and "--clip-gates" in str(e.value)
