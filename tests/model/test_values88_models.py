"""Sequence models (lnrnn/model/models.py, the stacks of lnrnn/model/layers.py, lnrnn/model/heads.py) in float64 at tiny
sizes against a stack written here from ``lnrnn.reference``: each row runs its own steps through
``reference.lstm_forward`` (a backward direction reads the row's steps reversed and its output is reversed back,
a layer's output is [forward | backward]), a last-step head reads the top layer's forward columns at the row's
last step and its backward ones at step 0; the classifier's loss is logsumexp minus the label's logit, the
regression's the sum of squared errors, the mixture density's ``reference.mdn_nll``; means over the scored
units. Gradients against central differences of that loss (``gradcheck_util.numeric_grad``); truncated BPTT
against the same loss with each chunk's initial state held at the value the full forward gives it, for chunks
that do not divide T. Parameter names and counts of stacks written out by hand; inference skipping rows of no
step; a BatchNorm model's sampling step against the running statistics of its step, by the formula. Every
parameter, head biases included, is drawn away from its initial value."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.config import EPS
from lnrnn.model.models import build_model
from gradcheck_util import numeric_grad

I, H = 2, 2


def make(layers=2, bidirectional=False, head=None, cell="lstm", norm="none", skip=False, seed=0, max_steps=1):
    head = head or {"kind": "classifier", "outputs": 3, "per_step": False}
    cfg = dict(cell=cell, norm=norm, input_size=I, hidden_size=H, num_layers=layers, dtype="float64",
               forget_bias=1.0, head=head)
    if bidirectional:
        cfg["bidirectional"] = True
    if skip:
        cfg["skip"] = True
    model = build_model(cfg, seed=seed, max_steps=max_steps)
    rng = np.random.default_rng(100 + seed)
    for v in model.params.values():                      # every parameter away from its initial value
        v[...] = rng.normal(0.0, 0.6, v.shape)
    return model


def copies(model):
    return {n: np.array(v) for n, v in model.params.items()}


def lstm(p, pre, x, h0, c0):
    """reference.lstm_forward of a plain LSTM: x (n,B,I) -> y (n,B,H), hT, cT."""
    G = p[pre + "b"].shape[0]
    Hh = G // 4
    y, hT, cT, _ = ref.lstm_forward(x, h0, c0, p[pre + "Wx"], p[pre + "Wh"], p[pre + "b"], np.ones(G), np.zeros(G),
                                    np.ones(G), np.zeros(G), np.ones(Hh), np.zeros(Hh), "none")
    return y, hT, cT


def ref_row(p, x, b, n, layers, bidir):
    """Row b's n steps -> its top output (n, out) and final states [(h, c)] in the stack's layer order."""
    inp = x[:n, b:b + 1]
    z = np.zeros((1, H))
    finals = []
    for k in range(layers):
        if n == 0:
            finals += [(z, z)] * (2 if bidir else 1)
            continue
        yf, hf, cf = lstm(p, f"rnn.l{k}.", inp, z, z)
        finals.append((hf, cf))
        if bidir:
            yr, hb, cb = lstm(p, f"rnn.l{k}_reverse.", inp[::-1], z, z)
            finals.append((hb, cb))
            yf = np.concatenate([yf, yr[::-1]], axis=2)
        inp = yf
    return (inp[:, 0] if n else None), finals


def ref_last_rows(p, x, lengths, layers, bidir):
    """(B, out) each row's head input (zeros where a row has no step)."""
    out = np.zeros((x.shape[1], (2 if bidir else 1) * H))
    for b, n in enumerate(lengths):
        if n:
            y, _ = ref_row(p, x, b, n, layers, bidir)
            out[b] = np.concatenate([y[n - 1, :H], y[0, H:]]) if bidir else y[n - 1]
    return out


def ce_sum(p, h, labels, rows):
    logits = h @ p["head.W"] + p["head.b"]
    z = logits.max(1, keepdims=True)
    lse = (z + np.log(np.exp(logits - z).sum(1, keepdims=True)))[:, 0]
    picked = logits[np.arange(len(labels)), labels]
    return float(np.sum((lse - picked)[rows])), int(np.count_nonzero((logits.argmax(1) == labels) & rows))


def check_grads(model, p, loss, names=None, rtol=1e-6, atol=1e-9):
    for n in names or p:
        want = numeric_grad(loss, p[n], eps=1e-6, order=2)
        np.testing.assert_allclose(model.grads[n], want, rtol=rtol, atol=atol, err_msg=n)


# ---- names and counts ----

def test_names_and_counts_of_a_three_layer_stack_by_hand():
    C = 4
    model = make(layers=3, head={"kind": "classifier", "outputs": C, "per_step": False})
    G = 4 * H
    want = {}
    for k in range(3):
        want.update({f"rnn.l{k}.Wx": (I if k == 0 else H, G), f"rnn.l{k}.Wh": (H, G), f"rnn.l{k}.b": (G,)})
    want.update({"head.W": (H, C), "head.b": (C,)})
    assert {n: v.shape for n, v in model.params.items()} == want
    # 2*8 + 2*8 + 8 = 40 for layer 0, 2*8 + 2*8 + 8 = 40 for layers 1 and 2, 2*4 + 4 = 12 for the head
    assert model.num_params() == 40 + 40 + 40 + 12
    assert set(model.grads) == set(want)


@pytest.mark.parametrize("skip", [False, True])
def test_names_and_counts_of_a_bidirectional_stack_by_hand(skip):
    model = make(layers=2, bidirectional=True, skip=skip)
    G = 4 * H
    up = I + 2 * H if skip else 2 * H                   # layer 1 reads [x | h_0] or h_0, h_0 = [fwd | bwd]
    want = {}
    for d in ("", "_reverse"):
        want.update({f"rnn.l0{d}.Wx": (I, G), f"rnn.l0{d}.Wh": (H, G), f"rnn.l0{d}.b": (G,),
                     f"rnn.l1{d}.Wx": (up, G), f"rnn.l1{d}.Wh": (H, G), f"rnn.l1{d}.b": (G,)})
    out = 2 * (2 * H) if skip else 2 * H
    want.update({"head.W": (out, 3), "head.b": (3,)})
    assert {n: v.shape for n, v in model.params.items()} == want
    per_dir = (I * G + H * G + G) + (up * G + H * G + G)
    assert model.num_params() == 2 * per_dir + out * 3 + 3
    assert model.stack.output_size == out


# ---- classifiers on the last valid step of ragged rows ----

@pytest.mark.parametrize("bidir", [False, True])
def test_two_layer_classifier_on_ragged_rows_loss_grads_and_states(bidir):
    T, B = 5, 3
    lengths = np.array([5, 2, 4])
    model = make(layers=2, bidirectional=bidir)
    rng = np.random.default_rng(1)
    x = rng.normal(size=(T, B, I))
    labels = np.array([2, 0, 1])
    p = copies(model)
    rows = lengths > 0

    def loss():
        return ce_sum(p, ref_last_rows(p, x, lengths, 2, bidir), labels, rows)[0] / rows.sum()

    s, correct = ce_sum(p, ref_last_rows(p, x, lengths, 2, bidir), labels, rows)
    m = model.loss_and_grad(x, labels, lengths)
    assert m["loss"] == pytest.approx(s / 3, rel=1e-12)
    assert m["acc"] == pytest.approx(correct / 3)
    check_grads(model, p, loss)
    # the stack's final states: each row's after its last step, in the layers' order (forward first)
    _, states = model.stack.forward(x, lengths=lengths, keep=False, training=False)
    for b, n in enumerate(lengths):
        _, finals = ref_row(p, x, b, n, 2, bidir)
        assert len(states) == len(finals)
        for got, want in zip(states, finals):
            np.testing.assert_allclose(got[0][b], want[0][0], rtol=1e-12, atol=1e-14)
            np.testing.assert_allclose(got[1][b], want[1][0], rtol=1e-12, atol=1e-14)


def test_inference_skips_rows_of_no_step_and_adds_batches_up():
    T, B = 4, 3
    lengths = np.array([4, 0, 2])
    model = make(layers=2)
    rng = np.random.default_rng(2)
    x = rng.normal(size=(T, B, I))
    labels = np.array([1, 2, 0])
    p = copies(model)
    rows = lengths > 0
    s, correct = ce_sum(p, ref_last_rows(p, x, lengths, 2, False), labels, rows)
    sums, count = model.loss_sums(x, labels, lengths)
    assert count == 2
    assert sums["loss"] == pytest.approx(s, rel=1e-12) and sums["acc"] == correct and sums["seqs"] == 2
    np.testing.assert_allclose(model.last_outputs(x, lengths=lengths), ref_last_rows(p, x, lengths, 2, False),
                               rtol=1e-12, atol=1e-14)
    means = model.evaluate([(x[:, :2], labels[:2], lengths[:2]), (x[:, 2:], labels[2:], lengths[2:])])
    assert means["loss"] == pytest.approx(s / 2, rel=1e-12)


# ---- truncated BPTT over chunks that do not divide T ----

def batch_stack(p, x, layers, states):
    """Whole batch, every row all steps, from given states [(h, c)] -> top y, final states."""
    inp, out = x, []
    for k in range(layers):
        y, h, c = lstm(p, f"rnn.l{k}.", inp, *states[k])
        out.append((h, c))
        inp = y
    return inp, out


def chunk_starts(p, x, layers, chunk):
    """The state each chunk starts from (the full forward's, held fixed: no gradient crosses a chunk edge)."""
    B = x.shape[1]
    st = [(np.zeros((B, H)), np.zeros((B, H))) for _ in range(layers)]
    starts = []
    for t0 in range(0, x.shape[0], chunk):
        starts.append([(h.copy(), c.copy()) for h, c in st])
        _, st = batch_stack(p, x[t0:t0 + chunk], layers, st)
    return starts


def test_truncated_bptt_last_step_head_without_lengths():
    T, B, chunk = 7, 3, 3                                # chunks of 3, 3 and 1 steps
    model = make(layers=2)
    rng = np.random.default_rng(3)
    x = rng.normal(size=(T, B, I))
    labels = np.array([0, 2, 1])
    p = copies(model)
    everyone = np.ones(B, bool)
    y, _ = batch_stack(p, x, 2, [(np.zeros((B, H)),) * 2] * 2)
    s, correct = ce_sum(p, y[-1], labels, everyone)
    m = model.loss_and_grad(x, labels, tbptt=chunk)
    assert m["loss"] == pytest.approx(s / B, rel=1e-12) and m["acc"] == pytest.approx(correct / B)
    starts = chunk_starts(copies(model), x, 2, chunk)

    def loss():                                          # only the last chunk reaches the head
        yl, _ = batch_stack(p, x[6:], 2, starts[-1])
        return ce_sum(p, yl[-1], labels, everyone)[0] / B

    check_grads(model, p, loss)


def test_truncated_bptt_per_step_regression_carries_states_over_chunk_edges():
    T, B, O, chunk = 7, 2, 2, 3
    model = make(layers=2, head={"kind": "regression", "outputs": O, "per_step": True, "tolerance": 0.5})
    rng = np.random.default_rng(4)
    x = rng.normal(size=(T, B, I))
    tg = rng.normal(size=(B, T, O))
    p = copies(model)
    starts = chunk_starts(copies(model), x, 2, chunk)

    def sums():
        total, within = 0.0, 0
        for j, t0 in enumerate(range(0, T, chunk)):
            y, _ = batch_stack(p, x[t0:t0 + chunk], 2, starts[j])
            err = y @ p["head.W"] + p["head.b"] - np.swapaxes(tg[:, t0:t0 + chunk], 0, 1)
            total += float(np.sum(err ** 2))
            within += int(np.count_nonzero(np.all(np.abs(err) < 0.5, axis=-1)))
        return total, within

    s, within = sums()
    m = model.loss_and_grad(x, tg, tbptt=chunk)
    assert model.last_count == T * B
    assert m["loss"] == pytest.approx(s / (T * B), rel=1e-12)
    assert m["acc"] == pytest.approx(within / (T * B))
    check_grads(model, p, lambda: sums()[0] / (T * B))


# ---- per-step heads on ragged rows ----

def test_per_step_regression_on_ragged_rows():
    T, B, O = 4, 3, 2
    lengths = np.array([4, 1, 3])
    model = make(layers=1, head={"kind": "regression", "outputs": O, "per_step": True, "tolerance": 0.3})
    rng = np.random.default_rng(5)
    x = rng.normal(size=(T, B, I))
    tg = rng.normal(size=(B, T, O))
    p = copies(model)

    def loss():
        total = 0.0
        for b, n in enumerate(lengths):
            y, _ = ref_row(p, x, b, n, 1, False)
            total += float(np.sum((y @ p["head.W"] + p["head.b"] - tg[b, :n]) ** 2))
        return total

    n_steps = int(lengths.sum())
    m = model.loss_and_grad(x, tg, lengths)
    assert model.last_count == n_steps
    assert m["loss"] == pytest.approx(loss() / n_steps, rel=1e-12)
    check_grads(model, p, lambda: loss() / n_steps)


def test_mixture_density_head_on_ragged_rows():
    T, B, M = 4, 2, 2
    lengths = np.array([4, 2])
    model = make(layers=1, head={"kind": "mdn", "components": M, "per_step": True})
    assert model.params["head.W"].shape == (H, 6 * M + 1)
    rng = np.random.default_rng(6)
    x = rng.normal(size=(T, B, I))
    tg = np.concatenate([rng.normal(0, 0.5, (B, T, 2)), rng.integers(0, 2, (B, T, 1))], axis=2)
    p = copies(model)

    def loss():
        total = 0.0
        for b, n in enumerate(lengths):
            y, _ = ref_row(p, x, b, n, 1, False)
            total += float(ref.mdn_nll(y @ p["head.W"] + p["head.b"], tg[b, :n], np.ones(n), M).sum())
        return total

    n_pts = int(lengths.sum())
    m = model.loss_and_grad(x, tg, lengths)
    assert model.last_count == n_pts
    assert m["loss"] == pytest.approx(loss() / n_pts, rel=1e-10)
    assert m["nats_seq"] == pytest.approx(loss() / B, rel=1e-10)
    check_grads(model, p, lambda: loss() / n_pts, names=["head.W", "head.b", "rnn.l0.b"], rtol=1e-5)


# ---- a BatchNorm model's step reads the running statistics of its step ----

def test_bn_model_step_uses_the_running_statistics_of_step_t():
    Ts = 3
    model = make(layers=1, cell="rnn", norm="bn", max_steps=Ts)
    rng = np.random.default_rng(7)
    bufs = model.stack.layers[0].buffers
    for n in ("rmx", "rmh"):
        bufs[n][...] = rng.normal(0, 0.5, bufs[n].shape)
    for n in ("rvx", "rvh"):
        bufs[n][...] = rng.uniform(0.5, 2.0, bufs[n].shape)
    p = copies(model)
    B = 2
    x_t = rng.normal(size=(B, I))
    h0 = rng.normal(0, 0.5, (B, H))
    for t in (0, 1, 2, 5):                                # t = 5 is past the last row: that row serves
        r = min(t, Ts - 1)
        xw, hw = x_t @ p["rnn.l0.Wx"], h0 @ p["rnn.l0.Wh"]
        pre = (p["rnn.l0.gx"] * (xw - bufs["rmx"][r]) / np.sqrt(bufs["rvx"][r] + EPS)
               + p["rnn.l0.gh"] * (hw - bufs["rmh"][r]) / np.sqrt(bufs["rvh"][r] + EPS) + p["rnn.l0.b"])
        h = np.tanh(pre)
        out, state = model.step(x_t, [(h0.copy(),)], t=t)
        np.testing.assert_allclose(state[0][0], h, rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(out, h @ p["head.W"] + p["head.b"], rtol=1e-12, atol=1e-14)
