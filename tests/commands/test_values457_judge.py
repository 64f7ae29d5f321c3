"""lnrnn/judge.py: judge() reads the written lines with the reader's best path (beam 1, lnrnn.api.read's own
default) unless given a beam, as `lnrnn sample --judge` runs it; a beam given is the one read() is given. Watched
by standing in for lnrnn.api.read (judge imports it when called) with a function that has no default beam, so a
judge that left the beam out fails too; test_values387_judge's runs (its one-layer writer and its reader of every
line as "a")."""
import inspect

from lnrnn import api
from lnrnn.judge import judge
from test_values360_judge import rows as written_rows
from test_values387_judge import LINES, SIZES, runs  # noqa: F401 - runs: a fixture (the writer model, writer, reader)


def test_judge_reads_with_the_best_path_unless_given_a_beam(runs, monkeypatch):
    _, writer, reader = runs
    rows = written_rows(None, LINES, SIZES, seed=3)
    real, beams = api.read, []

    def read(run, strokes, beam):                              # no default: a judge must say which decoding
        beams.append(beam)
        return real(run, strokes, beam=beam)

    monkeypatch.setattr(api, "read", read)
    assert [j.read for j in judge(writer, reader, rows)] == ["a", "a"]
    assert [j.read for j in judge(writer, reader, rows, beam=3)] == ["a", "a"]
    assert beams == [1, 3]
    assert inspect.signature(real).parameters["beam"].default == 1    # read's own default: the best path
