"""lnrnn.judge's boundary and report, lnrnn.backend's CUDA check, by hand: check_judge refuses a reader trained
on another task than the writer's (and passes one of the same task, returning its alphabet); report_lines marks
exactly the capped lines and sums the table as its summary line says (means over the lines, computed here);
without the numba-cuda package CUDA is reported unusable, naming the package, and asking for cuda refuses."""
import importlib.util
from types import SimpleNamespace

import pytest

from lnrnn import backend
from lnrnn.data.strokes import CTC_SHIFT
from lnrnn.errors import UserError
from lnrnn.judge import Judged, check_judge, report_lines

ALPHABET = " abc"


def _runs(writer_task, reader_task):
    writer = SimpleNamespace(model=SimpleNamespace(conditioned=True), path="runs/w",
                             task_spec={"task": writer_task})
    head = SimpleNamespace(kind="ctc", scale=(1.0, 1.0), O=len(ALPHABET) + CTC_SHIFT)
    reader = SimpleNamespace(model=SimpleNamespace(conditioned=False, head=head), path="runs/r",
                             meta={"text": {"alphabet": ALPHABET}}, task_spec={"task": reader_task})
    return writer, reader


def test_a_reader_of_another_task_is_refused():
    writer, reader = _runs("strokes-hershey", "strokes-kanjivg")
    with pytest.raises(UserError) as e:
        check_judge(writer, reader, ["abc"])
    assert "reads strokes-kanjivg but the writer writes strokes-hershey" in str(e.value)
    writer, reader = _runs("strokes-hershey", "strokes-hershey")
    assert check_judge(writer, reader, ["abc", "cab"]) == ALPHABET


def test_the_report_marks_exactly_the_capped_lines():
    judged = [Judged(text="ab", read="ab", cer=0.0, travel=1.0, stop_at_last=True, peak_phi=0.9, points=10,
                     capped=False),
              Judged(text="abc", read="a", cer=2 / 3, travel=0.5, stop_at_last=False, peak_phi=0.3, points=40,
                     capped=True)]
    lines = report_lines(judged)
    assert len(lines) == 4
    assert not lines[1].endswith("(capped)") and lines[1].endswith("'ab' -> 'ab'")
    assert lines[2].endswith("'abc' -> 'a' (capped)")
    assert lines[1].split()[:5] == ["1", "0.000", "1.00", "yes", "0.90"]
    assert lines[2].split()[:5] == ["2", "0.667", "0.50", "no", "0.30"]
    assert lines[3].startswith(f"mean CER {(0 + 2 / 3) / 2:.3f} over 2 lines (all edits / all characters "
                               f"{2 / 5:.3f}); mean travel 0.75; stop rule at the last character 1/2; "
                               "mean peak phi 0.60")


@pytest.fixture
def fresh_cuda_answer():
    backend.cuda_usable.cache_clear()
    yield
    backend.cuda_usable.cache_clear()


def test_without_numba_cuda_cuda_is_not_usable(monkeypatch, fresh_cuda_answer):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "numba_cuda" else real(name, *a))
    ok, why = backend.cuda_usable()
    assert not ok and "numba-cuda package is not installed" in why
    with pytest.raises(backend.CudaUnavailable) as e:
        backend.kernels("cuda")
    assert "numba-cuda" in str(e.value) and "--device cpu" in str(e.value)
    assert backend.kernels("cpu").device == "cpu"
    with pytest.raises(ValueError):
        backend.check_device("gpu")
