"""A handwriting run evaluated on data it was not trained on (lnrnn eval --split or --data-dir), and lnrnn plot of a
run whose config.json is damaged (lnrnn/data/strokes.py: StrokeTask.as_trained, ReadingTask.as_trained,
lnrnn/api.py: evaluate_run, lnrnn/sample.py: writer_alphabet, lnrnn/commands/plot.py: _config_title).

Found by evaluating runs with each of a list of --split values, and by setting config.json to values other than an
object under lnrnn plot. Before: every writer, free writer and reader evaluated on another split (or another
IAM-OnDB folder) was refused with "checkpoint R expects 3 inputs and a mdn head with 20 components, but
strokes-hershey has 3 inputs and needs a mdn head with 20 components": a stroke task divides its offsets by its own
training split's standard deviation, and the head records the run's, so the two never matched; a reader's classes
and a writer's character codes came from the new split's alphabet. lnrnn plot of a run whose config.json is a list,
a number or null was an AttributeError.

The judges: the rebuilt task's offsets, by the definition of the units (the new split's normalized offsets times
its own scale over the run's), its pen column and its scale records; the texts encoded in the run's alphabet, a
reader's classes as many as that alphabet's characters and the blank; the description's added words; a task in the
run's own units left as it was; an evaluation on another split that runs, and one of a writer whose alphabet is
damaged refused in the writer's words."""
import json
import shutil

import numpy as np
import pytest

from lnrnn.api import evaluate_run, load_run
from lnrnn.commands.plot import _config_title
from lnrnn.data.strokes import CTC_SHIFT, RawSplit, encode_text, make_task
from lnrnn.data.tasks import load_task
from lnrnn.errors import CheckpointError
from test_cli import assert_ok, invoke
from test_values424_damaged_meta import TINY, reader, trained, writer  # noqa: F401 (writer, reader: module fixtures)

OTHER = "6/3"   # another split of the same lines: other training lines, another scale and alphabet


@pytest.fixture(scope="module")
def free(tmp_path_factory):
    return trained(tmp_path_factory, "free", *TINY, "--window", 0)


def lines():
    rng = np.random.default_rng(4)
    out = []
    for n in (5, 7, 4, 6):
        ln = np.c_[rng.normal(0, 3, (n, 2)), (rng.random(n) < 0.3).astype(float)]
        ln[0, :2] = 0
        out.append(ln)
    return out


def small_task(head=None):
    train, val = lines()[:3], lines()[3:]
    spec = {"task": "strokes-npz", **({"head": head} if head else {})}
    texts = (["ab", "ba", "abc"], ["cad"])
    return make_task(spec, "lines", RawSplit(train, texts=texts[0]), RawSplit(val, texts=texts[1]))


def test_offsets_in_the_run_units_by_definition():
    task = small_task()
    own, before = list(task.scale), {w: s.points.copy() for w, s in task.sets.items()}
    run_scale = [2.5, 0.5]
    assert task.as_trained(run_scale, None) is task
    for w, s in task.sets.items():
        want = before[w][:, :2].astype(np.float64) * np.array(own) / np.array(run_scale)
        np.testing.assert_allclose(s.points[:, :2], want, rtol=2e-6)
        np.testing.assert_array_equal(s.points[:, 2], before[w][:, 2])   # the pen is not an offset
    assert task.scale == task.head["scale"] == task.extra["offset_scale"] == run_scale
    assert task.description.endswith("; offsets in the run's units (divided by 2.5, 0.5)")
    assert task.alphabet == "\ufffdabc"


def test_a_task_already_in_the_run_units_is_left_as_it_is():
    task = small_task()
    points, words = task.sets["val"].points.copy(), task.description
    task.as_trained(list(task.scale), task.alphabet)
    np.testing.assert_array_equal(task.sets["val"].points, points)
    assert task.description == words


def test_texts_in_the_run_alphabet_and_a_readers_classes():
    task = small_task(head="ctc")
    run_alphabet = "\ufffdbcdx"
    task.as_trained(list(task.scale), run_alphabet)
    assert task.alphabet == run_alphabet
    assert task.head["outputs"] == len(run_alphabet) + CTC_SHIFT
    codes, ulen = task.text_batch("val", [0])
    np.testing.assert_array_equal(codes[0, :ulen[0]], encode_text("cad", run_alphabet))
    assert list(codes[0, :3]) == [2, 0, 3]                  # c, a (not in the run's alphabet: unknown), d
    assert task.description.endswith("; texts in the run's alphabet of 5 characters")


@pytest.mark.parametrize("kind", ["writer", "reader", "free"])
def test_a_handwriting_run_evaluates_on_another_split(kind, request):
    path = request.getfixturevalue(kind)
    run = load_run(path)
    result = evaluate_run(run, split=OTHER)
    task = result.task
    own = load_task({**run.task_spec, "split": OTHER})      # the new split in its own units
    assert own.scale != run.config["head"]["scale"]         # the case that was refused
    assert task.scale == run.config["head"]["scale"]
    np.testing.assert_allclose(task.sets["val"].points[:, :2],
                               own.sets["val"].points[:, :2] * np.array(own.scale) / np.array(task.scale), rtol=2e-6)
    assert result.sequences == 3 and all(np.isfinite(v) for v in result.metrics.values())
    recorded = run.meta["text"]["alphabet"]
    assert recorded != own.alphabet                         # the new split's training texts use other characters
    assert task.alphabet == (own.alphabet if kind == "free" else recorded)   # a free writer reads no text
    if kind == "reader":
        assert task.head["outputs"] == len(recorded) + CTC_SHIFT == run.model.head.O


def test_lnrnn_eval_on_another_split_says_in_which_units(writer):
    result = invoke("eval", "--checkpoint", writer, "--split", OTHER)
    assert_ok(result)
    assert "; offsets in the run's units (divided by " in result.output


def test_a_writer_whose_alphabet_is_damaged_is_refused_in_the_writers_words(writer, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(writer, copy)
    meta = json.loads((copy / "checkpoint.json").read_text())
    meta["text"]["alphabet"] = meta["text"]["alphabet"][:-1]
    (copy / "checkpoint.json").write_text(json.dumps(meta))
    with pytest.raises(CheckpointError) as e:
        evaluate_run(load_run(copy), split=OTHER)
    C = len(meta["text"]["alphabet"]) + 1
    assert str(e.value) == (f"the run in {copy} reads {C} character codes, but its checkpoint records an alphabet of "
                            f"{C - 1} characters ({C - 1} distinct); it is corrupt.")


@pytest.fixture(scope="module")
def curves(tmp_path_factory):
    out = tmp_path_factory.mktemp("plot") / "run"
    assert_ok(invoke("train", "--task", "digits", "--split", "32/16", "--hidden", 3, "--batch-size", 16,
                     "--max-steps", 2, "--eval-every", 1, "-q", "--out", out))
    return out


def test_a_config_that_names_the_run_titles_the_picture(curves):
    assert _config_title([str(curves)]).startswith("ln-lstm H=3 on digits (1 layer, adam lr 0.003, batch 16")


@pytest.mark.parametrize("config", [[], 3, None, "ln-lstm"])
def test_a_config_json_that_is_not_an_object_gives_the_plain_title(curves, tmp_path, config):
    copy = tmp_path / "copy"
    shutil.copytree(curves, copy)
    (copy / "config.json").write_text(json.dumps(config))
    assert _config_title([str(copy)]) is None
    result = invoke("plot", copy, "--out", tmp_path / "curves.svg")
    assert_ok(result)
    assert "learning curves" in (tmp_path / "curves.svg").read_text()
