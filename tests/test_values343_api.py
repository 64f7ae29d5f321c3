"""The public API's refusals (lnrnn/api.py), eighteenth pass, word for word, with a Run built in the test
around a bare head (no checkpoint read, nothing written): predict of a mixture density run names the run's
task; read of a run that is not a handwriting reader names its head and '?' for a task spec without a task;
read of a CTC reader whose alphabet does not match its classes names the alphabet's own length (classes =
characters + 1, the blank)."""
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn import api
from lnrnn.errors import CheckpointError, UserError
from lnrnn.model.heads import ClassifierHead, CTCHead, MDNHead


def bare_run(head, meta):
    return api.Run("runs/r343", meta, SimpleNamespace(head=head, config={"input_size": 3}))


def test_predict_refuses_a_mixture_density_run_naming_its_task(tmp_path):
    run = bare_run(MDNHead(4, components=1), {"task": {"task": "strokes-hershey", "steps": 7}})
    with pytest.raises(UserError) as e:
        api.predict(run, np.zeros((2, 5, 3)))
    assert str(e.value) == ("the run in runs/r343 draws handwriting (a mixture density head, strokes-hershey): use "
                            "lnrnn sample to draw it, or lnrnn eval for its likelihood.")


def test_read_refuses_a_classifier_run_of_no_named_task():
    run = bare_run(ClassifierHead(4, 3), {"task": {"steps": 7}})
    with pytest.raises(UserError) as e:
        api.read(run, np.zeros((5, 3)))
    assert str(e.value) == ("the run in runs/r343 is not a handwriting reader (it has a classifier head on ?); "
                            "train one with lnrnn train --task strokes-hershey --head ctc.")


def test_read_refuses_a_reader_whose_alphabet_misses_its_classes():
    run = bare_run(CTCHead(4, 6, scale=[1.0, 2.0]), {"task": {"task": "strokes-hershey"}, "text": {"alphabet": "abc"}})
    with pytest.raises(CheckpointError) as e:
        api.read(run, np.zeros((5, 3)))
    assert str(e.value) == ("the run in runs/r343 has 6 CTC classes but an alphabet of 3 characters; its "
                            "checkpoint is corrupt.")
    # the matching alphabet (5 characters + the blank = 6 classes) passes the check
    assert api.require_reader(bare_run(CTCHead(4, 6, scale=[1.0, 2.0]), {"text": {"alphabet": "abcde"}})) == \
        ("abcde", [1.0, 2.0])
