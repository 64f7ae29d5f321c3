"""A run whose checkpoint.json is damaged outside the model's sizes, and two input files of the same kind: the
handwriting heads' offset scale, the alphabet of a writer's or reader's texts, the sections every command reads and
the arrays listing, the task's name, the forget-gate bias, an IAM-OnDB line whose offsets overflow, a prime whose
lengths do not fit its points (lnrnn/model/heads.py: check_scale, lnrnn/sample.py: text_inputs and read_stroke3,
lnrnn/api.py: require_reader, lnrnn/training/checkpoint.py: load_checkpoint, lnrnn/data/tasks.py: task_spec,
lnrnn/model/layers.py: the layer's forget_bias, lnrnn/data/iamondb.py: read_line).

Found by setting each field and section of a writer's, a reader's and a classifier's checkpoint.json in turn to
null, a text, 0, -1, infinity, NaN, a list, an object or nothing, and sampling, reading, evaluating and exporting
from it. Before: an infinite or NaN scale was matplotlib's "Axis limits cannot be NaN or Inf" traceback in lnrnn
sample, a zero or NaN scale the reader's "x contains NaN or infinite values", a scale of one number an unpacking
error; a negative scale drew a mirrored line and a reader read lines at a wrong size, silently. An alphabet one
character short (or with a character twice) wrote every later character as its neighbour, silently; a reader without
an alphabet was called "not a handwriting reader". A task, train or text section that is not an object was an
AttributeError or TypeError, a listed array shape of null a TypeError, a task name that is a list "unhashable type";
a NaN forget bias was exported into a file that lnrnn.torch.load_exported then refused as damaged. The same harness
on input files: an IAM-OnDB line whose points lie 2e308 apart printed NumPy's overflow warnings above a refusal that
did not name the file; a --prime-strokes .npz whose lengths do not add up to its points primed silently where lnrnn
read refuses the same file.

The judges: word-for-word refusals of each damaged field, by the commands and by the functions that hold the check;
the undamaged runs still sampled, read, evaluated and exported."""
import importlib.util
import json
import os
import shutil

import numpy as np
import pytest

import lnrnn
from lnrnn.data.tasks import task_spec
from lnrnn.errors import CheckpointError, UserError
from lnrnn.model.heads import CTCHead, MDNHead, check_scale
from lnrnn.model.layers import RecurrentStack
from test_cli import assert_clean_error, assert_ok, invoke

REQUIRE = os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1"
TINY = ["--task", "strokes-hershey", "--split", "8/4", "--hidden", 4, "--batch-size", 4, "--max-steps", 1, "-q"]


def trained(tmp_path_factory, name, *args):
    if importlib.util.find_spec("HersheyFonts") is None and not REQUIRE and "digits" not in args:
        pytest.skip("hershey-fonts is not installed")
    out = tmp_path_factory.mktemp(name) / "run"
    assert_ok(invoke("train", *args, "--out", out))
    return out


@pytest.fixture(scope="module")
def writer(tmp_path_factory):
    return trained(tmp_path_factory, "writer", *TINY, "--window", 2)


@pytest.fixture(scope="module")
def reader(tmp_path_factory):
    return trained(tmp_path_factory, "reader", *TINY, "--head", "ctc")


@pytest.fixture(scope="module")
def digits(tmp_path_factory):
    return trained(tmp_path_factory, "digits", "--task", "digits", "--hidden", 3, "--max-steps", 1, "-q")


def damaged(run, tmp_path, change):
    """A copy of ``run`` whose checkpoint.json has been through ``change(meta)``."""
    copy = tmp_path / "damaged"
    shutil.copytree(run, copy)
    path = copy / "checkpoint.json"
    meta = json.loads(path.read_text())
    change(meta)
    path.write_text(json.dumps(meta))
    return copy


def setting(*keys, value):
    def change(meta):
        d = meta
        for k in keys[:-1]:
            d = d[k]
        d[keys[-1]] = value
    return change


def scale_words(bad):
    return f"scale must be two finite positive numbers [sx, sy] (the training offsets' standard deviations), " \
           f"got {bad!r}"


# ---------------------------------------------------------------- the offset scale

BAD_SCALES = [[float("inf"), 1.0], [1.0, float("nan")], [0.0, 2.0], [2.0, -1.0], [3.0], [1.0, 2.0, 3.0],
              [True, 1.0], ["1", 1.0], "ab", 2.0, None]


@pytest.mark.parametrize("bad", BAD_SCALES, ids=repr)
def test_check_scale_refuses_all_but_two_finite_positive_numbers(bad):
    with pytest.raises(ValueError) as e:
        check_scale(bad)
    assert str(e.value) == scale_words(bad)
    with pytest.raises(ValueError) as e:
        MDNHead(4, components=2, scale=bad)
    assert str(e.value) == scale_words(bad)
    if bad is not None:                               # a CTC head of a task without strokes has no scale
        with pytest.raises(ValueError) as e:
            CTCHead(4, 3, scale=bad)
        assert str(e.value) == scale_words(bad)


def test_a_good_scale_is_kept_as_two_floats():
    assert check_scale([2, 3.5]) == [2.0, 3.5] and all(type(v) is float for v in check_scale([2, 3.5]))
    assert check_scale(np.array([0.25, 1e-3])) == [0.25, 1e-3]
    assert check_scale((np.float32(0.5), np.int64(4))) == [0.5, 4.0]
    assert MDNHead(4, components=2, scale=(1.5, 0.75)).scale == [1.5, 0.75]
    assert CTCHead(4, 3, scale=[0.5, 2]).config()["scale"] == [0.5, 2.0]
    assert CTCHead(4, 3).scale is None


@pytest.mark.parametrize("bad", [[float("inf"), 1.0], [0.0, 1.0], [-1.0, 1.0], [1.0]], ids=repr)
def test_sample_and_read_refuse_a_damaged_scale_in_one_line(writer, reader, tmp_path, bad):
    run = damaged(writer, tmp_path, setting("model", "head", "scale", value=bad))
    line = assert_clean_error(invoke("sample", "--checkpoint", run, "--text", "a", "--steps", 10,
                                     "--out", tmp_path / "s.png"), scale_words(bad))
    assert "does not describe a model lnrnn can rebuild" in line
    assert not (tmp_path / "s.png").exists()
    shutil.rmtree(run)
    run = damaged(reader, tmp_path, setting("model", "head", "scale", value=bad))
    np.save(tmp_path / "line.npy", np.array([[0.0, 0.0, 0.0], [1.0, 0.5, 0.0], [0.5, -1.0, 1.0]]))
    assert_clean_error(invoke("read", "--checkpoint", run, "--input", tmp_path / "line.npy"), scale_words(bad),
                       )


def test_the_undamaged_runs_sample_and_read(writer, reader, tmp_path):
    assert_ok(invoke("sample", "--checkpoint", writer, "--text", "a", "--steps", 10, "--out", tmp_path / "s.png"))
    assert (tmp_path / "s.png").stat().st_size > 0
    np.save(tmp_path / "line.npy", np.array([[0.0, 0.0, 0.0], [1.0, 0.5, 0.0], [0.5, -1.0, 1.0]]))
    assert_ok(invoke("read", "--checkpoint", reader, "--input", tmp_path / "line.npy"))


# ---------------------------------------------------------------- the alphabet of a writer

def alphabet_of(run):
    return json.loads((run / "checkpoint.json").read_text())["text"]["alphabet"]


def test_a_writers_alphabet_one_short_or_with_a_repeat_is_refused(writer, tmp_path):
    full = alphabet_of(writer)
    C = len(full)
    for bad, distinct in ((full[:-1], C - 1), (full[:-1] + full[1], C - 1), (full + "\u00e9", C + 1)):
        run = damaged(writer, tmp_path, setting("text", "alphabet", value=bad))
        words = (f"the run in {run} reads {C} character codes, but its checkpoint records an alphabet of "
                 f"{len(bad)} characters ({distinct} distinct); it is corrupt.")
        assert_clean_error(invoke("sample", "--checkpoint", run, "--text", "a", "--steps", 10,
                                  "--out", tmp_path / "s.png"), words)
        with pytest.raises(CheckpointError) as e:
            lnrnn.sample_run(lnrnn.load_run(run), steps=10, text="a")
        assert str(e.value) == words
        shutil.rmtree(run)
    assert not (tmp_path / "s.png").exists()


@pytest.mark.parametrize("change", [setting("text", "alphabet", value=["a", "b"]), setting("text", "alphabet", value=""),
                                    lambda meta: meta["text"].pop("alphabet")], ids=["list", "empty", "left-out"])
def test_a_writer_without_an_alphabet_is_corrupt(writer, tmp_path, change):
    run = damaged(writer, tmp_path, change)
    assert_clean_error(invoke("sample", "--checkpoint", run, "--text", "a", "--steps", 10, "--out", tmp_path / "s.png"),
                       f"the run in {run} reads a text, but its checkpoint does not record the alphabet of its "
                       "training texts; it is corrupt.")


# ---------------------------------------------------------------- the alphabet of a reader

READER_CORRUPT = ("reads handwriting, but its checkpoint does not record the alphabet of its training texts "
                  "(distinct characters, one per CTC class); it is corrupt.")


@pytest.mark.parametrize("change", [
    setting("text", "alphabet", value=None), setting("text", "alphabet", value=["a"]),
    setting("text", "alphabet", value=""), setting("text", value=None),
    lambda meta: meta["text"].update(alphabet=meta["text"]["alphabet"][:-1] + meta["text"]["alphabet"][1])],
    ids=["null", "list", "empty", "record-null", "repeat"])
def test_a_reader_without_a_whole_alphabet_is_corrupt_not_another_kind_of_run(reader, tmp_path, change):
    run = damaged(reader, tmp_path, change)
    np.save(tmp_path / "line.npy", np.array([[0.0, 0.0, 0.0], [1.0, 0.5, 0.0], [0.5, -1.0, 1.0]]))
    assert_clean_error(invoke("read", "--checkpoint", run, "--input", tmp_path / "line.npy"),
                       f"the run in {run} " + READER_CORRUPT)
    with pytest.raises(CheckpointError) as e:
        lnrnn.read(lnrnn.load_run(run), np.array([[0.0, 0.0, 0.0], [1.0, 0.5, 1.0]]))
    assert str(e.value) == f"the run in {run} " + READER_CORRUPT


def test_a_text_record_that_is_not_an_object_is_corrupt_to_the_functions_too(reader, writer):
    from lnrnn.api import require_reader
    from lnrnn.sample import text_inputs
    for bad in (["x"], "abc", 3):
        run = lnrnn.load_run(reader)
        run.meta["text"] = bad                             # a Run built by hand, not read through load_checkpoint
        with pytest.raises(CheckpointError) as e:
            require_reader(run)
        assert str(e.value) == f"the run in {reader} " + READER_CORRUPT
        with pytest.raises(CheckpointError) as e:
            text_inputs(lnrnn.load_run(writer).model, bad, ["a"])
        assert str(e.value) == ("this run reads a text, but its checkpoint does not record the alphabet of its "
                                "training texts; it is corrupt.")


def test_a_reader_one_character_short_keeps_its_class_count_words(reader, tmp_path):
    full = alphabet_of(reader)
    run = damaged(reader, tmp_path, setting("text", "alphabet", value=full[:-1]))
    np.save(tmp_path / "line.npy", np.array([[0.0, 0.0, 0.0], [1.0, 0.5, 1.0]]))
    assert_clean_error(invoke("read", "--checkpoint", run, "--input", tmp_path / "line.npy"),
                       f"has {len(full) + 1} CTC classes but an alphabet of {len(full) - 1} characters")


# ---------------------------------------------------------------- sections that are not objects

@pytest.mark.parametrize("section,bad", [("task", "digits"), ("task", None), ("task", [1]), ("train", None),
                                         ("train", 3.5), ("train", []), ("text", "abc"), ("text", ["x"])], ids=repr)
def test_a_section_every_command_reads_must_be_an_object(writer, tmp_path, section, bad):
    run = damaged(writer, tmp_path, setting(section, value=bad))
    words = (f"checkpoint description {run / 'checkpoint.json'} holds its {section} field in a form lnrnn does not "
             "write; it is corrupt.")
    for args in (["sample", "--text", "a", "--steps", 10, "--out", tmp_path / "s.png"], ["eval"],
                 ["export", "--out", tmp_path / "e.safetensors"]):
        assert_clean_error(invoke(args[0], "--checkpoint", run, *args[1:]), words)
    with pytest.raises(CheckpointError) as e:
        lnrnn.load_run(run)
    assert str(e.value) == words
    assert not (tmp_path / "s.png").exists() and not (tmp_path / "e.safetensors").exists()


@pytest.mark.parametrize("slot,bad", [(0, None), (0, 3), (0, "x"), (0, [1.5, 2]), (0, [True]), (1, None), (1, 4)],
                         ids=repr)
def test_an_arrays_listing_of_another_form_is_corrupt(digits, tmp_path, slot, bad):
    def change(meta):
        meta["arrays"]["param/head.b"][slot] = bad
    run = damaged(digits, tmp_path, change)
    words = (f"checkpoint description {run / 'checkpoint.json'} holds its arrays field in a form lnrnn does not "
             "write; it is corrupt.")
    assert_clean_error(invoke("eval", "--checkpoint", run), words)
    with pytest.raises(CheckpointError) as e:
        lnrnn.load_run(run)
    assert str(e.value) == words


def test_sections_left_out_or_a_null_text_are_still_read(digits, tmp_path):
    run = damaged(digits, tmp_path, lambda meta: [meta.update(text=None), meta.pop("train"), meta.pop("task")])
    assert_ok(invoke("export", "--checkpoint", run, "--out", tmp_path / "d.safetensors"))
    assert (tmp_path / "d.safetensors").stat().st_size > 0


# ---------------------------------------------------------------- the task's name and the forget bias

@pytest.mark.parametrize("bad", [[], {}, ["digits"], {"task": "digits"}, None, 3], ids=repr)
def test_a_task_name_that_is_not_a_text_is_an_unknown_task(digits, tmp_path, bad):
    with pytest.raises(UserError) as e:
        task_spec(bad)
    assert str(e.value).startswith(f"unknown task {bad!r}; choose one of digits, ")
    run = damaged(digits, tmp_path, setting("task", "task", value=bad))
    assert_clean_error(invoke("eval", "--checkpoint", run), f"unknown task {bad!r}; choose one of digits, ")


def test_the_undamaged_classifier_evaluates_and_exports(digits, tmp_path):
    assert_ok(invoke("eval", "--checkpoint", digits))
    assert_ok(invoke("export", "--checkpoint", digits, "--out", tmp_path / "d.safetensors"))
    assert (tmp_path / "d.safetensors").stat().st_size > 0


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf")], ids=repr)
def test_a_forget_bias_that_is_not_finite_is_refused_before_an_export_is_written(digits, tmp_path, bad):
    with pytest.raises(ValueError) as e:
        RecurrentStack("lstm", "ln", 2, 3, 1, forget_bias=bad)
    assert str(e.value) == f"forget_bias must be a finite number, got {bad}"
    run = damaged(digits, tmp_path, setting("model", "forget_bias", value=bad))
    assert_clean_error(invoke("export", "--checkpoint", run, "--out", tmp_path / "d.safetensors"),
                       f"forget_bias must be a finite number, got {bad}")
    assert not (tmp_path / "d.safetensors").exists()
    assert RecurrentStack("lstm", "ln", 2, 3, 1, forget_bias=-2.5).config["forget_bias"] == -2.5


# ---------------------------------------------------------------- a line whose offsets overflow

def iam_line(path, xs):
    points = "".join(f'<Point x="{x}" y="{k}" time="{k}"/>' for k, x in enumerate(xs))
    path.write_text('<?xml version="1.0" encoding="ISO-8859-1"?>\n<WhiteboardCaptureSession><StrokeSet><Stroke>'
                    f"{points}</Stroke></StrokeSet></WhiteboardCaptureSession>", encoding="latin-1")
    return path


def test_an_iam_line_whose_offsets_overflow_is_refused_without_numpys_warnings(reader, tmp_path):
    import warnings
    from lnrnn.data.iamondb import read_line
    from lnrnn.errors import DataError
    bad = iam_line(tmp_path / "far.xml", ["-1e308", "1e308", "0"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")                            # an overflow warning fails the test
        with pytest.raises(DataError) as e:
            read_line(str(bad))
    assert str(e.value) == (f"{bad}: its points lie so far apart that their offsets overflow a float64; it is not a "
                            "line of handwriting.")
    res = invoke("read", "--checkpoint", reader, "--input", bad, "-q")
    assert_clean_error(res, "its points lie so far apart")
    assert "Warning" not in res.stderr
    near = read_line(str(iam_line(tmp_path / "near.xml", ["-1e307", "1e307", "0"])))
    np.testing.assert_array_equal(near[:, 0], [0.0, 2e307, -1e307])
    np.testing.assert_array_equal(near[:, 2], [0.0, 0.0, 1.0])


# ---------------------------------------------------------------- a prime whose lengths do not fit its points

PRIME = np.array([[0.0, 0.0, 0.0], [1.0, 0.5, 1.0], [0.5, -1.0, 0.0], [2.0, 1.0, 0.0], [1.0, 1.0, 1.0]])


@pytest.mark.parametrize("lengths", [[2, 2], [2, 4], [2, -1, 4], [2], [5, 0, 1]], ids=repr)
def test_a_prime_npz_whose_lengths_do_not_add_up_to_its_points_is_refused(writer, tmp_path, lengths):
    from lnrnn.sample import read_stroke3
    path = tmp_path / "prime.npz"
    np.savez(path, points=PRIME, lengths=np.array(lengths))
    words = f"--prime-strokes {path} has a 'lengths' array that does not split its points into lines."
    with pytest.raises(UserError) as e:
        read_stroke3(path, "--prime-strokes")
    assert str(e.value) == words
    assert_clean_error(invoke("sample", "--checkpoint", writer, "--text", "a", "--prime-strokes", path,
                              "--prime-text", "a", "--steps", 10, "--out", tmp_path / "s.png"), words)
    assert not (tmp_path / "s.png").exists()


def test_a_prime_npz_is_its_first_line_when_the_lengths_fit(tmp_path):
    from lnrnn.sample import read_stroke3
    for lengths, first in (([2, 3], 2), ([5], 5), ([1, 0, 4], 1), ([4, 1], 4)):
        np.savez(tmp_path / "prime.npz", points=PRIME, lengths=np.array(lengths))
        np.testing.assert_array_equal(read_stroke3(tmp_path / "prime.npz"), PRIME[:first])


# ---------------------------------------------------------------- which of several predict inputs is refused

@pytest.mark.parametrize("bad,words", [
    (np.array([[0.1] * 63 + [np.nan]]), "the sequences hold NaN or infinite values."),
    (np.zeros((2, 64, 2)), "the sequences have 2 inputs per step but the model of this run reads 1; shape (2, 64, 2) "
                           "does not fit it (expected (N,T,1) or (N,T))."),
    (np.zeros((0, 64)), "there are no sequences to predict (shape (0, 64, 1))."),
    (np.ones((1, 64), complex), "the sequences must be real numbers, not complex128 values.")], ids=range(4))
def test_the_input_of_several_that_is_refused_is_named(digits, tmp_path, bad, words):
    np.save(tmp_path / "good.npy", np.full((3, 64), 0.5))
    np.save(tmp_path / "bad.npy", bad)
    for force in ([], ["--force"]):
        res = invoke("predict", "--checkpoint", digits, "--input", tmp_path / "good.npy", "--input",
                     tmp_path / "bad.npy", "--out", tmp_path / "p.csv", *force)
        assert assert_clean_error(res, words) == f"Error: {tmp_path / 'bad.npy'}: {words}"
    assert not (tmp_path / "p.csv").exists()
    assert_ok(invoke("predict", "--checkpoint", digits, "--input", tmp_path / "good.npy", "--out", tmp_path / "p.csv"))


def test_a_file_predict_cannot_read_is_named_once(digits, tmp_path):
    np.save(tmp_path / "good.npy", np.full((3, 64), 0.5))
    (tmp_path / "bad.npz").write_bytes(b"PK\x03\x04 not a zip")
    res = invoke("predict", "--checkpoint", digits, "--input", tmp_path / "good.npy", "--input", tmp_path / "bad.npz",
                 "--out", tmp_path / "p.csv")
    line = assert_clean_error(res, "is an .npz file, which predict does not read")
    assert line.startswith(f"Error: {tmp_path / 'bad.npz'} is an .npz file") and line.count("bad.npz") == 1


# ---------------------------------------------------------------- a dtype that is not the saved weights'

@pytest.mark.parametrize("bad", [None, "float64", "int32", 32], ids=repr)
def test_a_dtype_the_weights_do_not_have_is_refused_before_the_build(digits, tmp_path, bad):
    from lnrnn.training.evaluation import check_saved_sizes
    words = f"its description says dtype {bad!r}, but rnn.l0.Wh holds float32 values"
    run = damaged(digits, tmp_path, setting("model", "dtype", value=bad))
    assert_clean_error(invoke("eval", "--checkpoint", run), words)
    assert_clean_error(invoke("export", "--checkpoint", run, "--out", tmp_path / "d.safetensors"), words)
    with pytest.raises(CheckpointError) as e:
        lnrnn.load_run(run)
    assert words in str(e.value)
    saved = {"param/rnn.l0.Wh": np.zeros((3, 12), np.float32), "param/rnn.l0.Wx": np.zeros((1, 12), np.float32)}
    with pytest.raises(ValueError) as e:
        check_saved_sizes(dict(num_layers=1, hidden_size=3, input_size=1, dtype=bad), saved)
    assert str(e.value) == words
    check_saved_sizes(dict(num_layers=1, hidden_size=3, input_size=1, dtype="float32"), saved)
    check_saved_sizes(dict(num_layers=1, hidden_size=3, input_size=1), saved)   # none given: build_model's to refuse
    saved = {k: v.astype(np.float64) for k, v in saved.items()}
    check_saved_sizes(dict(num_layers=1, hidden_size=3, input_size=1, dtype="float64"), saved)
    assert lnrnn.load_run(digits).model.dtype == np.float32


# ---------------------------------------------------------------- a head description that is not an object

@pytest.mark.parametrize("bad", ["x", None, [1], 3.5], ids=repr)
def test_a_head_that_is_not_an_object_is_refused_by_the_build_and_by_init_from(digits, tmp_path, bad):
    from lnrnn.model.heads import make_head
    with pytest.raises(ValueError) as e:
        make_head(bad, 4)
    assert str(e.value) == f"a head's config is an object naming its kind, not {bad!r}"
    run = damaged(digits, tmp_path, setting("model", "head", value=bad))
    assert_clean_error(invoke("export", "--checkpoint", run, "--out", tmp_path / "d.safetensors"),
                       f"does not describe a model lnrnn can rebuild (a head's config is an object naming its kind, "
                       f"not {bad!r})")
    line = assert_clean_error(invoke("train", "--task", "digits", "--hidden", 3, "--max-steps", 1, "-q",
                                     "--init-from", run, "--out", tmp_path / "new"), "")
    assert line.startswith(f"Error: --init-from {run}: its model has the task's head (--task, --head, --objective) "
                           f"{bad}, this run {{'kind': 'classifier'"), line
    assert make_head({"kind": "classifier", "outputs": 3, "per_step": False}, 4).O == 3


# ---------------------------------------------------------------- a resume whose optimizer lost its rate

@pytest.mark.parametrize("hyper", [{}, {"beta1": 0.9, "beta2": 0.999, "eps": 1e-8}], ids=["empty", "no-lr"])
def test_a_resume_without_the_saved_learning_rate_is_refused(digits, tmp_path, hyper):
    run = damaged(digits, tmp_path, setting("optimizer", "hyper", value=hyper))
    before = (run / "checkpoint.json").read_text()
    assert_clean_error(invoke("train", "--out", run, "--resume", "--max-steps", 2),
                       f"the checkpoint in {run} holds optimizer.hyper without lr (the learning rate every optimizer "
                       "saves); its checkpoint.json is damaged")
    assert (run / "checkpoint.json").read_text() == before


def test_a_resume_with_only_the_learning_rate_saved_goes_on(digits, tmp_path):
    run = damaged(digits, tmp_path, setting("optimizer", "hyper", value={"lr": 0.003}))
    assert_ok(invoke("train", "--out", run, "--resume", "--max-steps", 2, "-q"))
    assert json.loads((run / "checkpoint.json").read_text())["step"] == 2

