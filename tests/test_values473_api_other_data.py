"""lnrnn/api.py's evaluate_run of a handwriting run on data it was not trained on (another split of the same lines):
the task it evaluates on is the new split read as the run reads, offsets in the run's units and texts in the
alphabet its checkpoint records (a reader's CTC classes, a writer's character codes), and a free writer, which reads
no text, keeps the new split's own alphabet. Each val line's text is encoded in that alphabet by definition
(data.strokes.encode_text), and the metrics are those of lnrnn.training.evaluation.evaluate on the same task
rebuilt by hand (load_task, StrokeTask.as_trained), at the run's own evaluation batch size or a given one, with the
run's block rows and one BLAS thread."""
import numpy as np
import pytest

from lnrnn.api import evaluate_run, load_run
from lnrnn.data.strokes import CTC_SHIFT, encode_text
from lnrnn.data.tasks import load_task
from lnrnn.kernels.cpu.threads import block_rows
from lnrnn.threadscope import kernel_threads
from lnrnn.training.evaluation import evaluate

from test_values424_damaged_meta import reader, writer  # noqa: F401 (module fixtures)
from test_values425_other_data import OTHER, free  # noqa: F401 (free: a module fixture)


def _by_hand(run, alphabet):
    """The new split rebuilt as the run reads it: its own task, then the run's scale and ``alphabet``."""
    task = load_task({**run.task_spec, "split": OTHER})
    return task.as_trained(run.config["head"]["scale"], alphabet)


@pytest.mark.parametrize("kind", ["reader", "writer", "free"])
def test_another_split_is_read_in_the_runs_alphabet_and_evaluated_as_by_hand(kind, request):
    run = load_run(request.getfixturevalue(kind))
    own = load_task({**run.task_spec, "split": OTHER})
    recorded = run.meta["text"]["alphabet"] if kind != "free" else None
    want_alphabet = own.alphabet if kind == "free" else recorded
    assert isinstance(want_alphabet, str) and (kind == "free" or want_alphabet != own.alphabet)
    hand = _by_hand(run, recorded)  # evaluate reads a task without changing it: one for both batch sizes
    for batch_size in (None, 2):
        result = evaluate_run(run, split=OTHER, batch_size=batch_size)
        task = result.task
        assert task.alphabet == want_alphabet
        assert task.scale == run.config["head"]["scale"] != own.scale
        texts = task.texts_val
        assert len(texts) == result.sequences == 3
        for i, text in enumerate(texts):
            codes, ulen = task.text_batch("val", [i])
            assert int(ulen[0]) == len(text)
            np.testing.assert_array_equal(codes[0, :len(text)], encode_text(text, want_alphabet))
        if kind == "reader":
            assert task.head["outputs"] == len(recorded) + CTC_SHIFT == run.model.head.O
        size = batch_size or run.train_config["eval_batch_size"]
        # as evaluate_run runs it: the rows the run's kernels were split by, one BLAS thread
        with block_rows(run.block_rows), kernel_threads():
            want = evaluate(run.model, hand, "val", size)
        assert sorted(result.metrics) == sorted(want)
        for name, v in want.items():
            assert np.isfinite(v) and result.metrics[name] == pytest.approx(v, rel=1e-12, abs=1e-12), name
