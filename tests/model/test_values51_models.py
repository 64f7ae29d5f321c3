"""Sequence models of plain LSTM stacks (2 layers; skip, bidirectional, both) in float64 at tiny sizes, against
a NumPy reimplementation written here from the equations: each row runs its own steps (its final state is its
state after its last step), a backward direction reads each row's valid steps reversed, a skip stack's layer
k > 0 reads [x | h_{k-1}] and its output is every layer's, a last-step head reads the forward columns at the
row's last step and the backward ones at step 0, the loss is the mean over scored units. Gradients against
central differences of that NumPy loss; truncated BPTT against the same loss with each chunk's initial state
held fixed; state noise against the documented draws; the stack's names, states and initial-state gradients.
"""
import numpy as np
import pytest

from lnrnn.model import models
from lnrnn.model.heads import ClassifierHead
from lnrnn.model.layers import RecurrentStack
from lnrnn.model.models import SequenceModel, build_model
from gradcheck_util import numeric_grad

I, H, C = 2, 2, 3
T, B = 5, 3


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def np_lstm(x, h0, c0, p, lengths):
    """Plain LSTM, gates [i|f|g|o]; row b runs steps t < lengths[b] -> y (T,B,H) (0 at padded steps), (h, c)."""
    Hh = h0.shape[1]
    h, c = h0.copy(), c0.copy()
    ys = np.zeros((x.shape[0], x.shape[1], Hh))
    for t in range(x.shape[0]):
        a = x[t] @ p["Wx"] + h @ p["Wh"] + p["b"]
        i, f = sigmoid(a[:, :Hh]), sigmoid(a[:, Hh:2 * Hh])
        g, o = np.tanh(a[:, 2 * Hh:3 * Hh]), sigmoid(a[:, 3 * Hh:])
        cn = f * c + i * g
        hn = o * np.tanh(cn)
        run = (t < lengths)[:, None]
        h, c = np.where(run, hn, h), np.where(run, cn, c)
        ys[t] = np.where(run, hn, 0.0)
    return ys, (h, c)


def np_reverse(a, lengths):
    """Each row's first lengths[b] steps in reverse order, padding in place."""
    out = a.copy()
    for b in range(a.shape[1]):
        n = lengths[b]
        out[:n, b] = a[:n, b][::-1]
    return out


def np_stack(x, p, layers, skip, bidir, lengths, state=None):
    """-> y (T,B,out), final states [(h, c)] in the stack's order (layer by layer, forward direction first)."""
    D = 2 if bidir else 1
    Bn = x.shape[1]
    inp, ys, finals = x, [], []
    for k in range(layers):
        outs = []
        for d in range(D):
            name = f"rnn.l{k}_reverse." if d else f"rnn.l{k}."
            pk = {n: p[name + n] for n in ("Wx", "Wh", "b")}
            h0, c0 = (np.zeros((Bn, H)), np.zeros((Bn, H))) if state is None else state[k * D + d]
            y, fin = np_lstm(np_reverse(inp, lengths) if d else inp, h0, c0, pk, lengths)
            outs.append(np_reverse(y, lengths) if d else y)
            finals.append(fin)
        h = np.concatenate(outs, axis=2)
        ys.append(h)
        inp = np.concatenate([x, h], axis=2) if skip else h
    return (np.concatenate(ys, axis=2) if skip else ys[-1]), finals


def np_logp(z):
    z = z - z.max(-1, keepdims=True)
    return z - np.log(np.exp(z).sum(-1, keepdims=True))


def np_last_rows(y, lengths, bidir):
    """Each row's head input: forward columns at its last step, backward columns (bidirectional) at step 0."""
    rows = y[np.maximum(lengths - 1, 0), np.arange(y.shape[1])]
    if bidir:
        back = (np.arange(y.shape[2]) % (2 * H)) >= H
        rows = np.where(back, y[0], rows)
    return rows


def np_sums(p, x, labels, lengths, layers=2, skip=False, bidir=False, per_step=False, state=None):
    """(loss sum, correct, count) of a classifier head over the scored units."""
    y, _ = np_stack(x, p, layers, skip, bidir, lengths, state)
    if per_step:
        logits = y @ p["head.W"] + p["head.b"]                            # (T,B,C)
        lab = labels.T                                                    # (T,B)
        mask = (np.arange(x.shape[0])[:, None] < lengths[None, :]) & (lab >= 0)
    else:
        logits = np_last_rows(y, lengths, bidir) @ p["head.W"] + p["head.b"]   # (B,C)
        lab = labels
        mask = lengths > 0
    lp = np_logp(logits)
    picked = np.take_along_axis(lp, np.where(mask, lab, 0)[..., None], -1)[..., 0]
    correct = np.count_nonzero((logits.argmax(-1) == lab) & mask)
    return -picked[mask].sum(), correct, int(mask.sum())


def np_mean_loss(p, *a, **kw):
    s, _, n = np_sums(p, *a, **kw)
    return s / n


def central(f, p, names, eps=1e-6):
    """{name: d f / d p[name]} by central differences (p: {name: float64 array}, copied)."""
    q = {n: v.copy() for n, v in p.items()}
    out = {}
    for n in names:
        out[n] = numeric_grad(lambda: f(q), q[n], eps=eps, order=2)
    return out


def make(layers=2, skip=False, bidir=False, per_step=False, state_noise=0.0, seed=0):
    cfg = dict(cell="lstm", norm="none", input_size=I, hidden_size=H, num_layers=layers, dtype="float64",
               forget_bias=1.0, head={"kind": "classifier", "outputs": C, "per_step": per_step},
               state_noise=state_noise)
    if skip:
        cfg["skip"] = True
    if bidir:
        cfg["bidirectional"] = True
    return build_model(cfg, seed=seed)


def host_params(model):
    return {n: np.array(v, dtype=np.float64) for n, v in model.params.items()}


def data(seed=1, per_step=False, Tn=T):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((Tn, B, I))
    labels = rng.integers(0, C, (B, Tn) if per_step else B)
    return x, labels


LENGTHS = np.array([5, 2, 4])


# ---- the loss and its gradient, whole sequences ----

@pytest.mark.parametrize("skip,bidir", [(False, False), (True, False), (False, True), (True, True)])
@pytest.mark.parametrize("lengths", [None, LENGTHS])
def test_last_step_loss_and_gradient_equal_numpy_and_central_differences(skip, bidir, lengths):
    model = make(skip=skip, bidir=bidir)
    x, labels = data()
    L = np.full(B, T) if lengths is None else lengths
    m = model.loss_and_grad(x, labels, lengths)
    p = host_params(model)
    want = np_mean_loss(p, x, labels, L, skip=skip, bidir=bidir)
    assert m["loss"] == pytest.approx(want, rel=1e-10)
    num = central(lambda q: np_mean_loss(q, x, labels, L, skip=skip, bidir=bidir), p, list(p))
    for n, g in model.grads.items():
        np.testing.assert_allclose(g, num[n], rtol=1e-5, atol=1e-8, err_msg=n)


@pytest.mark.parametrize("bidir", [False, True])
def test_per_step_head_with_masked_labels_and_lengths(bidir):
    model = make(bidir=bidir, per_step=True)
    x, labels = data(2, per_step=True)
    labels[0, 1] = -1                                   # an unscored step inside a row
    m = model.loss_and_grad(x, labels, LENGTHS)
    p = host_params(model)
    s, correct, n = np_sums(p, x, labels, LENGTHS, bidir=bidir, per_step=True)
    assert model.last_count == n == LENGTHS.sum() - 1
    assert m["loss"] == pytest.approx(s / n, rel=1e-10)
    assert m["acc"] == pytest.approx(correct / n, rel=1e-12)
    num = central(lambda q: np_mean_loss(q, x, labels, LENGTHS, bidir=bidir, per_step=True), p, list(p))
    for name, g in model.grads.items():
        np.testing.assert_allclose(g, num[name], rtol=1e-5, atol=1e-8, err_msg=name)


def test_a_row_without_steps_is_not_counted():
    model = make(layers=2)
    x, labels = data(3)
    lengths = np.array([5, 0, 3])
    m = model.loss_and_grad(x, labels, lengths)
    p = host_params(model)
    s, _, n = np_sums(p, x, labels, lengths)
    assert n == 2 and model.last_count == 2
    assert m["loss"] == pytest.approx(s / 2, rel=1e-10)
    num = central(lambda q: np_mean_loss(q, x, labels, lengths), p, ["head.W", "head.b", "rnn.l0.Wx"])
    for name in num:
        np.testing.assert_allclose(model.grads[name], num[name], rtol=1e-5, atol=1e-8, err_msg=name)


# ---- truncated BPTT: chunks from the carried state, detached ----

def np_chunked_loss(p, x, labels, lengths, chunk, boundary, per_step):
    """The mean loss as a sum over chunks, each run from boundary[c] (held fixed: no gradient crosses)."""
    total, count = 0.0, 0
    Tn = x.shape[0]
    for c, t0 in enumerate(range(0, Tn, chunk)):
        t1 = min(t0 + chunk, Tn)
        lc = np.clip(lengths - t0, 0, t1 - t0)
        y, _ = np_stack(x[t0:t1], p, 2, False, False, lc, boundary[c])
        if per_step:
            logits = y @ p["head.W"] + p["head.b"]
            lab = labels[:, t0:t1].T
            mask = (np.arange(t1 - t0)[:, None] < lc[None, :]) & (lab >= 0)
        else:
            end = lengths - 1 - t0
            mask = (end >= 0) & (end < t1 - t0)
            logits = y[np.clip(end, 0, t1 - t0 - 1), np.arange(x.shape[1])] @ p["head.W"] + p["head.b"]
            lab = labels
        lp = np_logp(logits)
        total -= np.take_along_axis(lp, np.where(mask, lab, 0)[..., None], -1)[..., 0][mask].sum()
        count += int(mask.sum())
    return total, count


def boundaries(p, x, lengths, chunk):
    """The state each chunk starts from: the whole sequence's state after the previous chunk."""
    out, state = [], None
    for t0 in range(0, x.shape[0], chunk):
        out.append(state)
        t1 = min(t0 + chunk, x.shape[0])
        _, state = np_stack(x[t0:t1], p, 2, False, False, np.clip(lengths - t0, 0, t1 - t0), state)
    return out


@pytest.mark.parametrize("per_step", [False, True])
def test_truncated_bptt_equals_the_chunked_numpy_loss_and_its_detached_gradient(per_step):
    model = make(per_step=per_step)
    x, labels = data(4, per_step=per_step)
    lengths = np.array([5, 1, 3])                    # rows ending in chunks 0, 1 and 2 (chunk = 2)
    m = model.loss_and_grad(x, labels, lengths, tbptt=2)
    p = host_params(model)
    whole, _, n = np_sums(p, x, labels, lengths, per_step=per_step)
    assert model.last_count == n
    assert m["loss"] == pytest.approx(whole / n, rel=1e-10)    # forward values agree for any chunk size
    bnd = boundaries(p, x, lengths, 2)
    s, cnt = np_chunked_loss(p, x, labels, lengths, 2, bnd, per_step)
    assert cnt == n and s == pytest.approx(whole, rel=1e-10)
    num = central(lambda q: np_chunked_loss(q, x, labels, lengths, 2, bnd, per_step)[0] / n, p, list(p))
    for name, g in model.grads.items():
        np.testing.assert_allclose(g, num[name], rtol=1e-5, atol=1e-8, err_msg=name)


# ---- inference: the last outputs and the sums in time chunks ----

def test_inference_in_time_chunks_reads_each_rows_own_last_step(monkeypatch):
    monkeypatch.setattr(models, "INFER_CHUNK_ROWS", 2 * B)       # chunks of 2 steps
    assert models.infer_chunk_steps(B, T) == 2
    model = make(skip=True)
    x, labels = data(5)
    lengths = np.array([5, 2, 3])
    p = host_params(model)
    y, _ = np_stack(x, p, 2, True, False, lengths)
    want = y[lengths - 1, np.arange(B)]
    np.testing.assert_allclose(model.last_outputs(x, lengths=lengths), want, rtol=1e-10, atol=1e-12)
    sums, count = model.loss_sums(x, labels, lengths)
    s, correct, n = np_sums(p, x, labels, lengths, skip=True)
    assert count == n and sums["loss"] == pytest.approx(s, rel=1e-10) and sums["acc"] == correct


def test_per_step_inference_sums_add_over_chunks(monkeypatch):
    monkeypatch.setattr(models, "INFER_CHUNK_ROWS", 2 * B)
    model = make(per_step=True)
    x, labels = data(6, per_step=True)
    sums, count = model.loss_sums(x, labels, LENGTHS)
    s, correct, n = np_sums(host_params(model), x, labels, LENGTHS, per_step=True)
    assert count == n and sums["loss"] == pytest.approx(s, rel=1e-10) and sums["acc"] == correct


# ---- initial states: given, noise per update ----

def test_noise_draws_have_the_given_spread_and_depend_on_the_key():
    model = make(state_noise=0.5, seed=3)
    a = model.noise_state(4000, (1, 0))
    assert len(a) == 2 and all(len(s) == 2 and s[0].shape == (4000, H) for s in a)
    v = np.concatenate([e.ravel() for s in a for e in s])
    assert abs(v.mean()) < 0.02 and v.std() == pytest.approx(0.5, rel=0.03)
    b = model.noise_state(4000, (1, 0))
    c = model.noise_state(4000, (1, 1))
    assert all(np.array_equal(e, f) for s, t in zip(a, b) for e, f in zip(s, t))
    assert not np.allclose(a[0][0], c[0][0])


def test_updates_without_a_key_draw_the_next_keys_in_turn():
    model = make(state_noise=0.5)
    x, labels = data(7)
    p = host_params(model)
    got = [model.loss_and_grad(x, labels)["loss"] for _ in range(2)]
    want = [np_mean_loss(p, x, labels, np.full(B, T), state=model.noise_state(B, (1, k))) for k in range(2)]
    np.testing.assert_allclose(got, want, rtol=1e-10)
    assert abs(got[0] - got[1]) > 1e-6


def test_a_given_initial_state_is_used_as_given_by_a_noisy_model():
    model = make(state_noise=0.5)
    x, labels = data(8)
    rng = np.random.default_rng(9)
    state = [(rng.standard_normal((B, H)), rng.standard_normal((B, H))) for _ in range(2)]
    m = model.loss_and_grad(x, labels, state=state)
    assert m["loss"] == pytest.approx(np_mean_loss(host_params(model), x, labels, np.full(B, T), state=state),
                                      rel=1e-10)


# ---- the stack: names, final states, initial-state gradients, truncated BPTT of one direction ----

def test_stack_names_follow_layers_and_directions():
    model = make(layers=2, bidir=True)
    names = {n.rsplit(".", 1)[0] for n in model.params}
    assert names == {"rnn.l0", "rnn.l0_reverse", "rnn.l1", "rnn.l1_reverse", "head"}
    assert [n for n, _, _ in model.flat[0].layout] == list(model.params)
    flat = np.concatenate([v.ravel() for v in model.params.values()])
    np.testing.assert_array_equal(model.flat[0].data, flat)


@pytest.mark.parametrize("skip", [False, True])
@pytest.mark.parametrize("lengths", [None, LENGTHS])
def test_bidirectional_stack_outputs_and_final_states(skip, lengths):
    stack = RecurrentStack("lstm", "none", I, H, num_layers=2, dtype=np.float64, seed=2, skip=skip,
                           bidirectional=True)
    x, _ = data(10)
    L = np.full(B, T) if lengths is None else lengths
    y, states = stack.forward(x, lengths=lengths)
    p = {"rnn." + n: v for n, v in stack.params.items()}
    want_y, finals = np_stack(x, p, 2, skip, True, L)
    run = (np.arange(T)[:, None] < L[None, :])[:, :, None]
    np.testing.assert_allclose(np.where(run, y, 0), want_y, rtol=1e-10, atol=1e-12)
    assert len(states) == 4
    for got, want in zip(states, finals):
        np.testing.assert_allclose(got[0], want[0], rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(got[1], want[1], rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("bidir", [False, True])
def test_initial_state_gradients_equal_central_differences(bidir):
    model = make(bidir=bidir, skip=True)
    x, labels = data(11)
    rng = np.random.default_rng(12)
    state = [(0.5 * rng.standard_normal((B, H)), 0.5 * rng.standard_normal((B, H))) for _ in model.stack.layers]
    model.loss_and_grad(x, labels, LENGTHS, state=state)
    p = host_params(model)
    flat = {f"s{j}_{e}": np.array(s[e]) for j, s in enumerate(state) for e in range(2)}

    def loss(q):
        st = [(q[f"s{j}_0"], q[f"s{j}_1"]) for j in range(len(state))]
        return np_mean_loss(p, x, labels, LENGTHS, skip=True, bidir=bidir, state=st)

    num = central(loss, flat, list(flat))
    assert len(model.stack.dstate0) == len(state)
    for j, ds in enumerate(model.stack.dstate0):
        for e in range(2):
            np.testing.assert_allclose(ds[e], num[f"s{j}_{e}"], rtol=1e-5, atol=1e-8, err_msg=f"{j},{e}")


def test_a_model_of_a_plain_stack_is_built_around_the_stack_it_is_given():
    stack = RecurrentStack("lstm", "none", I, H, num_layers=2, dtype=np.float64, seed=4)
    head = ClassifierHead(H, C, dtype="float64", seed=4)
    model = SequenceModel(stack, head)
    assert model.reverse_columns is None
    x, labels = data(13)
    m = model.loss_and_grad(x, labels, tbptt=3)
    assert m["loss"] == pytest.approx(np_mean_loss(host_params(model), x, labels, np.full(B, T)), rel=1e-10)
