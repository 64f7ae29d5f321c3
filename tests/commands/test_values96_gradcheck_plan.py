"""lnrnn gradcheck's plan against its own description (the command's docstring), with the checks themselves
replaced by fakes that record what they were asked: the mask mode's padded batch has four more rows than
--batch, one length per row (two more full, one shorter but not empty, one empty); every LSTM cell (plain, LN,
BN) and no RNN cell gets the synthesis network's write check; BN cells also check inference; an error at the
tolerance passes and one above it fails with exit status 1."""
import pytest
from test_cli import invoke

from lnrnn.commands import gradcheck as cmd

T, B = 4, 3


@pytest.fixture
def calls(monkeypatch):
    seen = []

    def stack(cell, norm, **kw):
        seen.append(("stack", cell, norm, kw))
        return [("Wx", 1e-9)]

    def model(cell, norm, head="classifier", per_step=False, **kw):
        seen.append(("model", cell, norm, dict(kw, head=head, per_step=per_step)))
        return [("Wx", 1e-9)]
    monkeypatch.setattr(cmd, "check_stack", stack)
    monkeypatch.setattr(cmd, "check_model", model)
    return seen


def _modes(output, cell):
    return [line.split()[1] for line in output.splitlines() if line.split()[:1] == [cell]]


def test_the_mask_mode_pads_four_more_rows_one_length_each(calls):
    r = invoke("gradcheck", "--cell", "ln-rnn", "--steps", T, "--batch", B, "-q")
    assert r.exit_code == 0, r.output
    masked = [kw for kind, _, _, kw in calls if kind == "stack" and kw.get("lengths") is not None]
    assert len(masked) == 1
    kw = masked[0]
    lengths = list(kw["lengths"])
    assert kw["B"] == B + 4 == len(lengths)
    assert sorted(lengths, reverse=True)[:B + 2] == [T] * (B + 2)
    assert 0 < sorted(lengths)[1] < T and sorted(lengths)[0] == 0
    for kind, _, _, kw in calls:                                   # every check with lengths has a row for each
        if kw.get("lengths") is not None:
            assert kw["B"] == len(kw["lengths"]), (kind, kw)


@pytest.mark.parametrize("cell,lstm", [("lstm", True), ("ln-lstm", True), ("bn-lstm", True), ("rnn", False),
                                       ("ln-rnn", False), ("bn-rnn", False)])
def test_every_lstm_cell_and_no_rnn_cell_checks_the_writer(calls, cell, lstm):
    r = invoke("gradcheck", "--cell", cell, "--steps", T, "--batch", B, "-q")
    assert r.exit_code == 0, r.output
    modes = _modes(r.stdout, cell)
    want = ["train"] + (["infer"] if cell.startswith("bn-") else []) + ["mask", "chunk"] + \
        (["write"] if lstm else []) + ["clf", "clf-step", "reg"]
    assert modes == want
    writes = [kw for kind, _, _, kw in calls if kind == "model" and kw["head"] == "mdn"]
    assert len(writes) == (1 if lstm else 0)


def test_an_error_at_the_tolerance_passes_and_above_it_fails(monkeypatch):
    errs = iter([0.5, 0.25] + [0.0] * 50)
    monkeypatch.setattr(cmd, "check_stack", lambda *a, **k: [("Wx", next(errs))])
    monkeypatch.setattr(cmd, "check_model", lambda *a, **k: [("Wx", 0.0)])
    r = invoke("gradcheck", "--cell", "rnn", "--tolerance", "0.25", "-q")
    assert r.exit_code == 1
    assert r.stdout.splitlines()[-1] == "max relative error 5.00e-01; 1 above tolerance 0.25"
    assert [line.split()[-1] for line in r.stdout.splitlines()[:2]] == ["FAIL", "ok"]
