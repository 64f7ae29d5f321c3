"""lnrnn gradcheck's progress bar and its results (lnrnn/commands/gradcheck.py): on a terminal the bar's line is
cleared ("\\r\\033[K" on stderr) once before each check's results are printed, and only there; with --quiet nothing at
all goes to stderr, terminal or not; into a log (no terminal) no clearing sequence is written. The checks are
stand-ins (``check_stack``/``check_model`` replaced, one result each), Progress's stream reports a terminal where the
test says so, and click keeps escape sequences as on a terminal."""
import pytest
from click.testing import CliRunner

import lnrnn.commands.gradcheck as cmd
from lnrnn.cli import main
from lnrnn.training.progress import Progress

from test_cli import assert_ok

CLEAR = "\r\033[K"


def invoke(*args):
    """As a terminal gets it: click keeps the escape sequences (``color=True``)."""
    return CliRunner().invoke(main, list(args), color=True)


def _one_result(*a, **k):
    return [("Wx", 1e-12)]


@pytest.fixture
def checks(monkeypatch):
    """-> set_tty(flag): the checks replaced by one result each; Progress built as on a terminal when flag."""
    monkeypatch.setattr(cmd, "check_stack", _one_result)
    monkeypatch.setattr(cmd, "check_model", _one_result)

    def set_tty(flag):
        class Bar(Progress):
            def __init__(self, *a, **k):
                super().__init__(*a, **k)
                self.tty = flag
        monkeypatch.setattr(cmd, "Progress", Bar)
    return set_tty


@pytest.mark.parametrize("cells", [["rnn"], ["lstm", "bn-rnn"]])
def test_on_a_terminal_each_checks_results_follow_one_cleared_line(checks, cells):
    checks(True)
    r = invoke("gradcheck", *[a for c in cells for a in ("--cell", c)])
    assert_ok(r)
    results = [line for line in r.stdout.splitlines() if line.endswith(" ok")]
    assert len(results) >= 4 * len(cells)       # train, mask, chunk and the heads of each cell: one result each
    assert r.stderr.count(CLEAR) == len(results)


@pytest.mark.parametrize("tty", [True, False])
def test_quiet_writes_nothing_to_stderr(checks, tty):
    checks(tty)
    r = invoke("gradcheck", "--cell", "lstm", "--quiet")
    assert_ok(r)
    assert r.stderr == ""
    assert sum(line.endswith(" ok") for line in r.stdout.splitlines()) >= 4


def test_into_a_log_no_clearing_sequence_is_written(checks):
    checks(False)
    r = invoke("gradcheck", "--cell", "ln-lstm")
    assert_ok(r)
    assert sum(line.endswith(" ok") for line in r.stdout.splitlines()) >= 4
    assert "\033[K" not in r.stderr and "\r" not in r.stderr
