"""Round 373 value tests: the progress bar's lines and notes word for word (plain lines joined by single
spaces, a plain line per log_every on a non-terminal, a note as its own line, the compile note's exact
sentence), the fine-tune refusals word for word (the shape options of check_settings, a model config's
hidden size in load_into, an --init-from path with nothing there), and split_arrays' two dicts against
the checkpoint's 'kind/name' keys split by hand."""
import io
import re
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.errors import CheckpointError, UserError
from lnrnn.training import progress
from lnrnn.training.evaluation import split_arrays
from lnrnn.training.finetune import Source, check_settings, load_into, read_source
from lnrnn.training.progress import Progress, compile_note

COMPILE_SENTENCE = "Compiling kernels (once per install; later runs load them from Numba's cache)...\n"


def test_line_is_its_parts_joined_by_single_spaces():
    out = io.StringIO()
    p = Progress(10, "train", stream=out, width=4)
    p.update(10, loss=0.12345, acc=0.5)
    p.t0 -= 100.0  # 10 samples in 100 s: '0 samples/s', no thousands comma
    line = p.line()
    assert line.startswith("train [####] 10/10 loss 0.1235 acc 50.0% "), line
    assert re.fullmatch(r"train \[####\] 10/10 loss 0\.1235 acc 50\.0% 0 samples/s 1:4\d", line), line
    assert ", " not in line


def test_plain_stream_gets_a_plain_line_per_log_every():
    out = io.StringIO()
    p = Progress(10, "ep 1", stream=out, width=5, log_every=0.0)
    p.update(3, loss=0.25)
    text = out.getvalue()
    assert "\r" not in text and "\033[K" not in text
    assert text.endswith("\n") and text.count("\n") == 1
    assert text.startswith("ep 1 [##...] 3/10 loss 0.2500 "), text


def test_note_is_a_line_of_its_own_unless_quiet():
    out = io.StringIO()
    Progress(10, "x", stream=out).note("val loss 0.5000")
    assert out.getvalue() == "val loss 0.5000\n"
    quiet = io.StringIO()
    Progress(10, "x", stream=quiet, quiet=True).note("val loss 0.5000")
    assert quiet.getvalue() == ""


def test_compile_note_sentence_word_for_word(monkeypatch):
    monkeypatch.setattr(progress, "COMPILE_NOTE_AFTER_S", 0.01)
    out = io.StringIO()
    compile_note(SimpleNamespace(busy=True), stream=out).join(10)
    assert out.getvalue() == COMPILE_SENTENCE
    idle = io.StringIO()
    compile_note(SimpleNamespace(busy=False), stream=idle).join(10)
    assert idle.getvalue() == ""


# ---- fine-tuning ----
TRAIN = dict(cell="lstm", hidden=5, layers=1, bidirectional=False, dtype="float64")


def test_check_settings_passes_equal_and_refuses_a_difference_word_for_word():
    src = Source("runs/a", {"train": dict(TRAIN)}, {})
    assert check_settings(src, SimpleNamespace(**TRAIN)) is None
    with pytest.raises(UserError) as e:
        check_settings(src, SimpleNamespace(**{**TRAIN, "bidirectional": True}))
    assert str(e.value) == ("--init-from runs/a: its model has --bidirectional off, this run on; the shapes must "
                            "match: give --bidirectional off, or start without --init-from.")


def _config(hidden):
    return dict(cell="lstm", norm="ln", input_size=3, hidden_size=hidden, num_layers=1, dtype="float64",
                head={"kind": "classifier", "outputs": 3, "per_step": False})


def test_load_into_refuses_another_hidden_size_word_for_word():
    loaded = []
    model = SimpleNamespace(config=_config(4), load_arrays=loaded.append)
    src = Source("runs/b", {"model": _config(5)}, {"param/w": np.zeros(2)})
    with pytest.raises(UserError) as e:
        load_into(model, src)
    assert str(e.value) == ("--init-from runs/b: its model has --hidden 5, this run 4; the shapes must match: "
                            "give --hidden 5, or start without --init-from.")
    assert loaded == []
    same = SimpleNamespace(config=_config(5), load_arrays=loaded.append)
    load_into(same, src)
    assert len(loaded) == 1 and list(loaded[0]) == ["w"]


def test_read_source_with_nothing_there_names_the_path(tmp_path):
    where = str(tmp_path / "no_run_here")
    with pytest.raises(CheckpointError) as e:
        read_source(where)
    assert str(e.value) == (f"--init-from {where}: there is nothing there; give the folder of a run "
                            "(the --out of `lnrnn train`).")


def test_split_arrays_model_first_then_slots():
    a, b, c, d = (np.full(2, float(i)) for i in range(4))
    model, slots = split_arrays({"param/rnn.w": a, "buffer/rnn.rm": b, "optim/m/rnn.w": c, "optim/v/rnn.w": d})
    assert set(model) == {"rnn.w", "rnn.rm"} and model["rnn.w"] is a and model["rnn.rm"] is b
    assert set(slots) == {"m", "v"} and slots["m"] == {"rnn.w": c} and slots["v"]["rnn.w"] is d
