"""lnrnn gradcheck's plan against the command's own description, with check_stack and check_model replaced by
fakes that record what they are asked and return chosen errors: --cell picks the cells checked and nothing
else; the modes per cell are the docstring's (train, infer for BN, mask, chunk, write for LSTM cells, clf,
clf-step, reg); mask pads four more rows (two full, one shorter but not empty, one empty); chunk runs steps
T..2T-1 (t0 = T); the whole model runs B + 4 rows, as many as its lengths; one error above --tolerance fails
the run (exit 1) and the summary counts it, an error at the tolerance passes."""
import pytest
from click.testing import CliRunner

from lnrnn.cli import main
from lnrnn.commands import gradcheck as cmd

T, B = 4, 3


@pytest.fixture
def calls(monkeypatch):
    seen = []
    errors = {}  # "stack" or a head's name -> the error its checks report (else 1e-9)

    def stack(cell, norm, **kw):
        seen.append(("stack", cell, norm, kw))
        return [("Wx", errors.get("stack", 1e-9))]

    def model(cell, norm, head="classifier", per_step=False, **kw):
        seen.append(("model", cell, norm, dict(kw, head=head, per_step=per_step)))
        return [("Wx", errors.get(head, 1e-9))]
    monkeypatch.setattr(cmd, "check_stack", stack)
    monkeypatch.setattr(cmd, "check_model", model)
    return seen, errors


def run(*args):
    return CliRunner().invoke(main, ["gradcheck", "--steps", str(T), "--batch", str(B), "-q", *args])


def printed(result):
    """(cell, mode) of every result line."""
    return [tuple(line.split()[:2]) for line in result.stdout.splitlines()
            if line.split() and line.split()[-1] in ("ok", "FAIL")]


@pytest.mark.parametrize("cell, modes", [
    ("ln-lstm", ["train", "mask", "chunk", "write", "clf", "clf-step", "reg"]),
    ("bn-rnn", ["train", "infer", "mask", "chunk", "clf", "clf-step", "reg"]),
])
def test_cell_option_picks_the_cells_and_the_docstring_modes(calls, cell, modes):
    seen, _ = calls
    r = run("--cell", cell)
    assert r.exit_code == 0, r.output
    assert sorted(printed(r)) == sorted((cell, m) for m in modes)
    want = (cell.split("-")[-1], cell.split("-")[0] if "-" in cell else "none")
    assert {(c, n) for _, c, n, _ in seen} == {want}


def test_mask_chunk_and_model_rows(calls):
    seen, _ = calls
    r = run("--cell", "lstm")
    assert r.exit_code == 0, r.output
    stacks = [kw for kind, _, _, kw in seen if kind == "stack"]
    masked = [kw for kw in stacks if kw.get("lengths") is not None]
    assert len(masked) == 1
    lengths = [int(v) for v in masked[0]["lengths"]]
    assert masked[0]["B"] == B + 4 == len(lengths)
    assert lengths.count(T) == B + 2 and lengths.count(0) == 1
    assert [v for v in lengths if 0 < v < T] and len([v for v in lengths if 0 < v < T]) == 1
    chunked = [kw for kw in stacks if "t0" in kw]
    assert len(chunked) == 1 and chunked[0]["t0"] == T and chunked[0]["B"] == B  # steps T..2T-1
    models = [kw for kind, _, _, kw in seen if kind == "model"]
    assert len(models) == 4  # write, clf, clf-step, reg
    for kw in models:
        assert kw["B"] == B + 4
        if kw.get("lengths") is not None:
            assert len(kw["lengths"]) == kw["B"]


@pytest.mark.parametrize("err, code, count", [(0.5, 1, 1), (1e-3, 0, 0)])
def test_one_error_above_the_tolerance_fails(calls, err, code, count):
    _, errors = calls
    errors["regression"] = err
    r = run("--cell", "rnn", "--tolerance", "1e-3")
    assert r.exit_code == code, r.output
    worst = max(err, 1e-9)
    assert f"max relative error {worst:.2e}; {count} above tolerance 0.001" in r.stdout
    assert sum(line.endswith("FAIL") for line in r.stdout.splitlines()) == count
