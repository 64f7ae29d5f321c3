"""lnrnn read's handling of several --input files, without training a reader: the run is a stand-in and
lnrnn.api.read is replaced by one that names each line by its point count, so what the command prints (and
writes) shows which lines it read, in which order, and with which --beam and --batch-size. The files are real
stroke files (.npy, one line; .npz of points and lengths, several), read by the command's own reader."""
import numpy as np
import pytest

from test_values_read import invoke


def line(n):
    """A stroke-3 line of n points (pen down until the last)."""
    pts = np.zeros((n, 3))
    pts[:, 0] = np.arange(n) % 3 + 1.0
    pts[-1, 2] = 1.0
    return pts


@pytest.fixture
def stand_in(monkeypatch):
    import lnrnn.api
    calls = []

    def read(run, lines, beam=1, batch_size=None, progress=None):
        calls.append((run, beam, batch_size))
        return [f"n{len(ln)}" for ln in lines]

    monkeypatch.setattr(lnrnn.api, "load_run", lambda path: ("run", str(path)))
    monkeypatch.setattr(lnrnn.api, "require_reader", lambda run: None)
    monkeypatch.setattr(lnrnn.api, "read", read)
    return calls


def test_inputs_are_read_in_the_order_given_not_by_name(stand_in, tmp_path):
    """--input z.npy --input a.npz --input m.npy: z's line, then a's three lines in their order, then m's."""
    np.save(tmp_path / "z.npy", line(7))
    np.savez(tmp_path / "a.npz", points=np.concatenate([line(4), line(9), line(5)]), lengths=[4, 9, 5])
    np.save(tmp_path / "m.npy", line(6))
    res = invoke("read", "--checkpoint", tmp_path / "run", "--input", tmp_path / "z.npy", "--input",
                 tmp_path / "a.npz", "--input", tmp_path / "m.npy", "--beam", 3, "--batch-size", 2, "-q")
    assert res.exit_code == 0, res.output + repr(res.exception)
    assert res.stdout.splitlines() == ["n7", "n4", "n9", "n5", "n6"]
    assert stand_in == [(("run", str(tmp_path / "run")), 3, 2)]
    out = tmp_path / "texts.txt"
    res = invoke("read", "--checkpoint", tmp_path / "run", "--input", tmp_path / "m.npy", "--input",
                 tmp_path / "z.npy", "--out", out, "-q")
    assert res.exit_code == 0, res.output + repr(res.exception)
    assert out.read_text(encoding="utf-8") == "n6\nn7\n"
    assert "2 lines" in res.stderr
