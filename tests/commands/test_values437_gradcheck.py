"""lnrnn gradcheck (lnrnn/commands/gradcheck.py) shows its progress: a bar line on stderr after every check
(13 for an RNN and an LSTM at these sizes), its rate at the end, nothing of it on stdout, none with --quiet
(which its help names); and every check runs its own cell (the RNN's train lines are check_stack's of the RNN,
not of the last cell the loop bound)."""
import lnrnn.training.progress
from lnrnn.gradcheck import check_stack
from test_cli import invoke


def test_gradcheck_shows_progress_unless_quiet_and_checks_each_cell(monkeypatch):
    monkeypatch.setattr(lnrnn.training.progress, "LOG_EVERY_S", 0.0)   # a line after every check
    small = ["--layers", 1, "--steps", 2, "--batch", 2, "--hidden", 2, "--input", 2, "--max-elems", 3]
    r = invoke("gradcheck", "--cell", "rnn", "--cell", "lstm", *small)
    assert r.exit_code == 0, r.output
    bars = [line for line in r.stderr.splitlines() if line.startswith("gradcheck [")]
    assert [b.split("] ")[1].split()[0] for b in bars] == [f"{k}/13" for k in range(1, 14)], r.stderr
    assert "checks/s" in bars[-1] and "gradcheck [" not in r.stdout
    # every check runs its own cell: the rnn's train lines are the rnn's, not the last cell's
    mine = [line.split()[2:4] for line in r.stdout.splitlines() if line.split()[:2] == ["rnn", "train"]]
    want = check_stack("rnn", "none", T=2, B=2, I=2, H=2, num_layers=1, training=True, seed=0, max_elems=3)
    assert mine == [[p, f"{e:9.2e}".strip()] for p, e in want]
    q = invoke("gradcheck", "--cell", "rnn", *small, "--quiet")
    assert q.exit_code == 0 and q.stderr == "" and "0 above tolerance" in q.stdout
    assert "--quiet" in invoke("gradcheck", "--help").output
