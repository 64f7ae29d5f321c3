"""diagnostics.per_step on a two-layer stack without skip: the top layer's dL/dh at the last step is the
classifier head's gradient, computed here in NumPy from the top layer's h ((softmax(h W + b) - onehot) W^T / B),
and the bottom layer's reaches it only through the layer above. The judge's refusal of a writer without an
attention window names the writer's own folder."""
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.diagnostics import per_step
from lnrnn.errors import UserError
from lnrnn.judge import check_judge
from lnrnn.model.models import build_model

T, B, I, H, O = 4, 3, 2, 3, 3


@pytest.mark.parametrize("cell,norm", [("rnn", "ln"), ("lstm", "none")])
def test_the_top_layers_last_step_gets_the_heads_gradient(cell, norm):
    m = build_model(dict(cell=cell, norm=norm, input_size=I, hidden_size=H, num_layers=2, dtype="float64",
                         forget_bias=1.0, skip=False, head={"kind": "classifier", "outputs": O, "per_step": False}),
                    seed=3)
    rng = np.random.default_rng(4)
    m.flat[0].data[...] += 0.4 * rng.standard_normal(m.flat[0].data.size)
    x = rng.standard_normal((T, B, I))
    y = rng.integers(0, O, B)
    h, _ = m.stack.forward(x, None, training=False, keep=False)           # (T,B,H) the top layer's
    W, b = m.head.params["W"], m.head.params["b"]
    logits = h[-1] @ W + b
    p = np.exp(logits - logits.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    p[np.arange(B), y] -= 1.0
    want = p @ W.T / B                                                    # (B,H)
    d = per_step(m, x, y)
    np.testing.assert_allclose(d["dh"][1][-1], want, rtol=1e-9, atol=1e-13)
    assert d["grad_h"][1, -1] == pytest.approx(np.linalg.norm(want, axis=1).mean(), rel=1e-9)
    assert not np.allclose(d["dh"][0][-1], want)


def test_a_writer_without_attention_is_refused_naming_its_own_folder():
    writer = SimpleNamespace(path="runs/writer", task_spec={"task": "strokes-hershey"},
                             model=SimpleNamespace(conditioned=False))
    reader = SimpleNamespace(path="runs/reader", task_spec={"task": "strokes-hershey"},
                             meta={"text": {"alphabet": "?ab"}}, model=SimpleNamespace(conditioned=False))
    with pytest.raises(UserError) as e:
        check_judge(writer, reader, ["ab"], writer_name="the writer")
    assert str(e.value).startswith("the writer (runs/writer) writes no given text (it has no attention window)")
    assert "runs/reader" not in str(e.value)
