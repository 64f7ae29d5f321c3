"""Group.fail (lnrnn/training/distributed.py) against its definition, with a recording stand-in for the
communicator: the status each kind of error ends the group with (a UserError's exit_code, 130 for Ctrl-C, a
SystemExit's integer code or 1 for one with a message, 1 for a bug), and the one line each rank prints (rank 0
at once and plain; another rank after the grace wait, naming itself)."""

import pytest

import lnrnn.training.distributed as dist
from lnrnn.config import MPI_FAIL_GRACE_S, MPI_FLUSH_S
from lnrnn.errors import CheckpointError, UserError


class Comm:
    def __init__(self, rank, size):
        self.rank, self.size, self.aborted = rank, size, []

    def Get_rank(self):
        return self.rank

    def Get_size(self):
        return self.size

    def Abort(self, code):
        self.aborted.append(code)


@pytest.fixture
def sleeps(monkeypatch):
    seen = []
    monkeypatch.setattr(dist.time, "sleep", seen.append)
    return seen


def fail(rank, exc):
    comm = Comm(rank, 3)
    dist.Group(comm).fail(exc)
    return comm.aborted


def expected_code(exc):
    if isinstance(exc, UserError):
        return exc.exit_code
    if isinstance(exc, KeyboardInterrupt):
        return 130
    if isinstance(exc, SystemExit):
        return exc.code if isinstance(exc.code, int) else 1
    return 1


@pytest.mark.parametrize("exc", [UserError("bad"), CheckpointError("gone"), KeyboardInterrupt(), SystemExit(4),
                                 SystemExit(0), SystemExit("stopped: a message"),
                                 RuntimeError("bug")], ids=repr)
@pytest.mark.parametrize("rank", [0, 2])
def test_the_groups_exit_status(exc, rank, sleeps, capsys):
    assert fail(rank, exc) == [expected_code(exc)]
    assert sleeps[-1] == MPI_FLUSH_S


def test_a_message_exit_is_a_failure(sleeps, capsys):
    assert fail(0, SystemExit("stopped")) == [1]
    assert fail(1, SystemExit("stopped")) == [1]


def test_rank_0_prints_at_once_and_plainly(sleeps, capsys):
    fail(0, UserError("the data is gone"))
    err = capsys.readouterr().err
    assert err == "Error: the data is gone\n"
    assert sleeps == [MPI_FLUSH_S]                 # no grace wait: rank 0 reports first


def test_another_rank_waits_and_names_itself(sleeps, capsys):
    fail(2, UserError("the data is gone"))
    assert capsys.readouterr().err == "Error (rank 2 of 3): the data is gone\n"
    assert sleeps == [MPI_FAIL_GRACE_S, MPI_FLUSH_S]
    fail(1, KeyboardInterrupt())
    assert capsys.readouterr().err == "Error: interrupted.\n"


def test_a_bug_keeps_its_traceback(sleeps, capsys):
    try:
        raise RuntimeError("a bug")
    except RuntimeError as e:
        exc = e
    fail(0, exc)
    err = capsys.readouterr().err
    assert err.startswith("Traceback (most recent call last):") and err.rstrip().endswith("RuntimeError: a bug")
