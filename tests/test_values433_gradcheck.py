"""The model each head of the finite-difference check is built with (lnrnn/gradcheck.py: check_model), as its
docstring names them: a classifier of 3 classes, a regression of 2 outputs (on the last step or every step), a
mixture density head of 2 bivariate Gaussians and an end-of-stroke bit on every step (13 outputs), each over the
stack's last hidden width; and the check of each passes."""
import pytest

import lnrnn.model.models
from lnrnn.gradcheck import check_model

H = 3


@pytest.mark.parametrize("head, per_step, want", [
    ("classifier", False, {"kind": "classifier", "outputs": 3, "per_step": False}),
    ("regression", True, {"kind": "regression", "outputs": 2, "per_step": True}),
    ("mdn", True, {"kind": "mdn", "components": 2, "per_step": True}),
    ("mdn", False, {"kind": "mdn", "components": 2, "per_step": True}),
])
def test_each_head_is_the_one_named(monkeypatch, head, per_step, want):
    built = []
    real = lnrnn.model.models.build_model

    def recording(config, **kw):
        built.append((config, real(config, **kw)))
        return built[-1][1]

    monkeypatch.setattr(lnrnn.model.models, "build_model", recording)
    results = check_model("lstm", "ln", head=head, per_step=per_step, T=3, B=2, I=2, H=H, num_layers=1,
                          max_elems=6)
    (config, model), = built
    assert config["head"] == want
    outputs = 6 * 2 + 1 if head == "mdn" else want["outputs"]
    assert model.params["head.W"].shape == (H, outputs) and model.params["head.b"].shape == (outputs,)
    assert {"head.W", "head.b", "rnn.l0.Wx", "rnn.l0.Wh"} <= {n for n, _ in results}
    assert max(err for _, err in results) < 1e-6
