"""Inference in time chunks (``SequenceModel._infer_chunks``): evaluation runs the stack over
chunks of ``infer_chunk_steps(B)`` steps from the carried state instead of one whole-sequence forward,
so that the BPTT activations the forward saves stay a chunk's size. Its results must be those of the
whole-sequence inference forward: the reference below runs ``stack.forward`` over all T steps at once
and scores the rows the head reads, for every cell (BatchNorm with per-step population statistics,
fewer rows of them than steps), padded batches with an empty and a full row, two layers, Graves's skip
stack, initial-state noise, and the classifier, regression and mixture density heads (last step and
every step). float64, so that rounding is far below what a wrong state, step or row would change.
"""
import numpy as np
import pytest

from lnrnn.model import cells, models
from lnrnn.model.functional import check_lengths, running_mask
from lnrnn.model.layers import RecurrentLayer
from lnrnn.model.models import build_model, infer_chunk_steps

ALL = [(c.cell, c.norm) for c in cells.CELLS.values()]
T, B, I, H = 13, 5, 3, 4
CHUNK = 4  # steps per chunk in these tests: 4 + 4 + 4 + 1 (a ragged last chunk)
LENGTHS = np.array([13, 8, 0, 6, 1])  # a full row, one ending on a chunk's last step, an empty one


@pytest.fixture(autouse=True)
def small_chunks(monkeypatch):
    monkeypatch.setattr(models, "INFER_CHUNK_ROWS", CHUNK * B)


def make(cell, norm, head, layers=1, skip=False, noise=0.0, seed=0):
    config = dict(cell=cell, norm=norm, input_size=I, hidden_size=H, num_layers=layers, dtype="float64",
                  forget_bias=1.0, head=head, state_noise=noise)
    if skip:
        config["skip"] = True
    m = build_model(config, seed=seed)
    rng = np.random.default_rng(seed + 1)
    for layer in m.stack.layers:  # per-step population statistics, fewer rows (T-4) than steps: the clamp
        for k, v in layer.buffers.items():
            shape = (T - 4,) + v.shape[1:]
            layer.buffers[k] = rng.uniform(0.5, 2.0, shape) if k.startswith("rv") else rng.normal(0, 0.5, shape)
    return m


def data(head, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(0, 1, (T, B, I))
    kind, per_step = head["kind"], head.get("per_step", False)
    if kind == "classifier":
        y = rng.integers(-1 if per_step else 0, head["outputs"], (B, T) if per_step else B)
    elif kind == "regression":
        y = rng.normal(0, 1, (B, T, head["outputs"]) if per_step else (B, head["outputs"]))
    else:  # mdn: (dx, dy, pen)
        y = np.concatenate([rng.normal(0, 1, (B, T, 2)), rng.integers(0, 2, (B, T, 1))], axis=2)
    return x, y


def whole_sequence(model, x, targets, lengths, state):
    """The reference: one inference forward over all T steps, then the head on the rows it reads."""
    T_, B_ = x.shape[0], x.shape[1]
    lengths = check_lengths(lengths, T_, B_)
    L = np.full(B_, T_) if lengths is None else lengths
    y, _ = model.stack.forward(np.ascontiguousarray(x), state, training=False, lengths=lengths)
    if model.head.steps == "all":
        sums, count, _ = model.head.forward(y, targets, running_mask(L, T_, bool))
    else:
        h = y[np.clip(L - 1, 0, T_ - 1), np.arange(B_)]
        sums, count, _ = model.head.forward(h, targets, L > 0)
    return sums, count, y


def check_equal(model, x, targets, lengths, key=0):
    state = model.noise_state(B, (2, key))
    want, want_count, y = whole_sequence(model, x, targets, lengths, state)
    got, got_count = model.loss_sums(x, targets, lengths, noise_key=key)
    assert got_count == want_count
    for k in want:
        assert got[k] == pytest.approx(want[k], rel=1e-11, abs=1e-11), k
    return y


HEADS = {"last": {"kind": "classifier", "outputs": 3, "per_step": False},
         "per-step": {"kind": "classifier", "outputs": 3, "per_step": True}}


@pytest.mark.parametrize("cell,norm", ALL)
@pytest.mark.parametrize("padded", [False, True], ids=["full", "padded"])
@pytest.mark.parametrize("steps", ["last", "per-step"])
def test_chunked_inference_equals_the_whole_sequence(cell, norm, padded, steps):
    head = HEADS[steps]
    model = make(cell, norm, head)
    x, targets = data(head)
    lengths = LENGTHS if padded else None
    y = check_equal(model, x, targets, lengths)
    if steps == "last":  # the rows themselves, not only the loss
        L = LENGTHS if padded else np.full(B, T)
        h = model.last_outputs(x, lengths=lengths)
        ran = L > 0
        np.testing.assert_allclose(h[ran], y[L[ran] - 1, np.arange(B)[ran]], rtol=1e-12, atol=1e-12)
        assert np.all(h[~ran] == 0)


@pytest.mark.parametrize("cell,norm", [("lstm", "ln"), ("lstm", "bn"), ("rnn", "bn")])
@pytest.mark.parametrize("skip", [False, True], ids=["stacked", "skip"])
def test_two_layers_and_state_noise(cell, norm, skip):
    """Each layer's chunk feeds the next layer's chunk; the skip stack's input reaches every layer;
    noise states are drawn once per batch and carried."""
    head = HEADS["per-step"]
    model = make(cell, norm, head, layers=2, skip=skip, noise=0.3)
    x, targets = data(head, seed=1)
    check_equal(model, x, targets, LENGTHS, key=3)
    check_equal(model, x, targets, None, key=4)


@pytest.mark.parametrize("head", [
    {"kind": "regression", "outputs": 2, "per_step": False, "tolerance": 0.5},
    {"kind": "regression", "outputs": 2, "per_step": True, "tolerance": 0.5},
    {"kind": "mdn", "components": 2, "per_step": True, "scale": [1.0, 1.0]},
], ids=["regression-last", "regression-per-step", "mdn"])
def test_other_heads(head):
    model = make("lstm", "ln", head, layers=2, skip=head["kind"] == "mdn")
    x, targets = data(head, seed=2)
    check_equal(model, x, targets, LENGTHS)
    check_equal(model, x, targets, None)


def test_forwards_run_in_chunks_and_evaluate_agrees(monkeypatch):
    """No layer forward of an evaluation sees more than a chunk of steps, BatchNorm gets each chunk's
    absolute first step, and evaluate over several batches gives the whole-sequence means."""
    head = HEADS["last"]
    model = make("lstm", "bn", head, layers=2)
    x, targets = data(head, seed=3)
    calls, forward = [], RecurrentLayer.forward

    def spy(self, x, state=None, training=True, on_device=False, lengths=None, t0=0, keep=True):
        calls.append((x.shape[0], t0, training or keep))
        return forward(self, x, state, training, on_device, lengths, t0, keep)

    monkeypatch.setattr(RecurrentLayer, "forward", spy)
    means = model.evaluate(models.batches_of(x, targets, LENGTHS, batch_size=3))
    chunks = [(min(CHUNK * B // b, T), b) for b in (3, 2)]  # steps per chunk of the batches of 3 and 2
    assert {(n, t0) for n, t0, _ in calls} == {(min(s, T - t0), t0) for s, _ in chunks for t0 in range(0, T, s)}
    assert not any(tr for _, _, tr in calls)
    monkeypatch.setattr(RecurrentLayer, "forward", forward)
    tot, count = dict.fromkeys(model.head.sum_keys, 0.0), 0
    for i, s in enumerate((slice(0, 3), slice(3, 5))):  # batch i starts from evaluate's noise draw for i
        sums, c, _ = whole_sequence(model, x[:, s], targets[s], LENGTHS[s], model.noise_state(s.stop - s.start, (2, i)))
        for k in sums:
            tot[k] += sums[k]
        count += c
    want = model.head.mean(tot, count)
    for k in want:
        assert means[k] == pytest.approx(want[k], rel=1e-11)


def test_chunk_steps():
    """max(1, rows // B) steps, at most T: a batch wider than the budget still advances a step at a time."""
    assert infer_chunk_steps(B, T) == CHUNK
    assert infer_chunk_steps(CHUNK * B + 1, T) == 1 and infer_chunk_steps(10 ** 9, T) == 1
    assert infer_chunk_steps(1, T) == T


def test_cuda_chunks_equal_cpu(monkeypatch):
    """On 'cuda' (the simulator in CI) a padded per-step evaluation also runs in chunks, its states
    coming back to the host between them: the same figures as on the CPU."""
    from lnrnn import backend

    ok, why = backend.cuda_usable()
    if not ok:
        pytest.skip(f"CUDA not usable: {why}")
    head = HEADS["per-step"]
    x, targets = data(head, seed=4)
    x, targets, lengths = x[:3, :2], targets[:2, :3], np.array([3, 1])  # tiny: the simulator takes seconds
    monkeypatch.setattr(models, "INFER_CHUNK_ROWS", 2 * 2)               # two chunks: 2 + 1 steps
    got = {}
    for device in ("cpu", "cuda"):
        m = build_model(dict(cell="lstm", norm="ln", input_size=I, hidden_size=H, num_layers=1, dtype="float64",
                             forget_bias=1.0, head=head, state_noise=0.2), seed=5, device=device)
        got[device] = m.loss_sums(x, targets, lengths, noise_key=1)
    (s0, c0), (s1, c1) = got["cpu"], got["cuda"]
    assert c0 == c1 and all(s1[k] == pytest.approx(s0[k], rel=1e-11) for k in s0)
