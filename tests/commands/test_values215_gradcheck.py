"""lnrnn gradcheck's checks get the sizes given and the lengths its docstring promises, with the checks replaced
by fakes that record what they were asked: every stack and model check gets --input as I and --hidden as H;
clf and reg run on whole sequences (no lengths) and clf-step on the padded batch of B + 4 rows; --batch 1 is
refused for a BN cell in one exact 'Error:' line naming --batch, before any check runs, and accepted for a
plain cell."""
import pytest
from test_cli import invoke

from lnrnn.commands import gradcheck as cmd

T, B, I, H = 4, 3, 2, 5


@pytest.fixture
def calls(monkeypatch):
    seen = []

    def stack(cell, norm, **kw):
        seen.append(("stack", kw))
        return [("Wx", 1e-9)]

    def model(cell, norm, head="classifier", per_step=False, **kw):
        seen.append(("model", dict(kw, head=head, per_step=per_step)))
        return [("Wx", 1e-9)]
    monkeypatch.setattr(cmd, "check_stack", stack)
    monkeypatch.setattr(cmd, "check_model", model)
    return seen


def test_every_check_gets_the_input_and_hidden_sizes_given(calls):
    r = invoke("gradcheck", "--cell", "ln-lstm", "--steps", T, "--batch", B, "--input", I, "--hidden", H, "-q")
    assert r.exit_code == 0, r.output
    assert {kind for kind, _ in calls} == {"stack", "model"}
    for kind, kw in calls:
        assert (kw["T"], kw["I"], kw["H"]) == (T, I, H), (kind, kw)


def test_whole_sequence_heads_get_no_lengths_and_clf_step_the_padded_batch(calls):
    r = invoke("gradcheck", "--cell", "rnn", "--steps", T, "--batch", B, "-q")
    assert r.exit_code == 0, r.output
    heads = {(kw["head"], kw["per_step"]): kw for kind, kw in calls if kind == "model"}
    assert set(heads) == {("classifier", False), ("classifier", True), ("regression", False)}
    assert heads[("classifier", False)]["lengths"] is None
    assert heads[("regression", False)]["lengths"] is None
    padded = heads[("classifier", True)]
    assert padded["B"] == B + 4 == len(padded["lengths"])
    assert sorted(padded["lengths"]) == [0, T - 2] + [T] * (B + 2)


def test_batch_of_one_refused_for_bn_cells_only(calls):
    r = invoke("gradcheck", "--cell", "bn-lstm", "--batch", 1, "-q")
    assert r.exit_code == 2, r.output
    assert r.output == "Error: --batch must be at least 2 for BN cells (statistics over the batch).\n"
    assert calls == []
    r = invoke("gradcheck", "--cell", "lstm", "--batch", 1, "-q")
    assert r.exit_code == 0, r.output
    assert calls and all(kw["B"] in (1, 5) for _, kw in calls)
