"""Counts of one said in the singular in the sentences that can give them (a sampler's text of one line, a
run's IDX files of one image or one label, a KanjiVG folder of one Latin character, sequences of one step,
BatchNorm statistics of one step, an evaluation over one sequence; a layer's state of one array, unpaired
text lines, a head of one output, a checkpoint of one input, a patience of one evaluation, a run of one update,
stroke files of one row, a path command of one number, npz sequences of one input, a BLAS of one thread), and
in the plural at two: each sentence worked out word for word here."""
from types import SimpleNamespace

import numpy as np
import pytest
from test_cli import invoke
from test_strokes_data import A_PATHS, kvg_svg
from test_values186_idx import _folder, _pack
from test_values213_sampler import fake_model
from test_values221_sampler import message

import lnrnn.api
import lnrnn.training.plan
from lnrnn.data import kanjivg
from lnrnn.data.idx import load_mnist_split
from lnrnn.errors import DataError
from lnrnn.model.functional import _buffer_rows
from lnrnn.predict_io import check_like_training
from lnrnn.sample import sample_strokes


def test_a_text_of_one_line_with_count_two():
    got = message(lambda: sample_strokes(fake_model(5), 4, 2, text=[np.array([1, 2])]))
    assert got == "text holds 1 line but count is 2: each line is one sample."


@pytest.mark.parametrize("n_img,n_lab,said", [(1, 2, "1 image but {lab} holds 2 labels"),
                                              (2, 1, "2 images but {lab} holds 1 label")])
def test_idx_files_of_one_image_or_one_label(tmp_path, n_img, n_lab, said):
    d, img, lab = _folder(tmp_path / "m", _pack(np.zeros((n_img, 2, 2))), _pack([1] * n_lab))
    with pytest.raises(DataError) as e:
        load_mnist_split(d, "train")
    assert str(e.value) == f"{img} holds {said.format(lab=lab)}; the two files do not belong together."


def test_sequences_of_one_step_against_the_training_length():
    assert check_like_training(np.zeros((4, 1, 1)), {"steps": 3}) == \
        ["they have 1 step where the training sequences had 3"]
    assert check_like_training(np.zeros((4, 1, 1)), {"steps": [2, 5]}) == \
        ["they have 1 step where the training sequences had 2 to 5"]


@pytest.mark.parametrize("Ts,word", [(1, "step"), (2, "steps")])
def test_batchnorm_statistics_of_one_step(Ts, word):
    with pytest.raises(ValueError) as e:
        _buffer_rows({"rm": np.zeros((Ts, 3)), "rv": np.ones((Ts, 3))}, 4, True, 0)
    assert str(e.value) == (f"BatchNorm statistics hold {Ts} {word}, fewer than the sequence's 4: grow them first "
                            "(lnrnn.model.functional.grow_buffers)")


@pytest.mark.parametrize("n,said", [(1, "(1 sequence)."), (2, "(2 sequences).")])
def test_eval_over_one_sequence(monkeypatch, n, said):
    """lnrnn eval's sentence with the library's run and evaluation stood in (a run of one validation
    sequence would take a training run)."""
    run = SimpleNamespace(describe=lambda: "run A", config={"head": {"kind": "classifier"}}, epoch=1, step=2)
    means = {"loss": 0.5, "acc": 0.25}
    res = SimpleNamespace(metrics=means, task=SimpleNamespace(description="task B", spec={}), sequences=n)
    monkeypatch.setattr(lnrnn.api, "load_run", lambda path: run)
    monkeypatch.setattr(lnrnn.api, "evaluate_run", lambda *a, **k: res)
    r = invoke("eval", "--checkpoint", "anywhere")
    assert r.exit_code == 0, r.output
    assert r.stdout == f"run A, on val of task B: cross-entropy loss 0.5000 nats, accuracy 25.00% {said}\n"


def test_a_kanjivg_folder_of_one_latin_character(tmp_path):
    (tmp_path / "00041.svg").write_bytes(kvg_svg(0x41, A_PATHS))
    (tmp_path / "04e00.svg").write_bytes(kvg_svg(0x4E00, A_PATHS[:1]))  # a kanji: not of the Latin set
    with pytest.raises(DataError) as e:
        kanjivg.build({"task": "strokes-kanjivg", "data_dir": str(tmp_path), "charset": "latin"})
    assert str(e.value) == f"{tmp_path} holds 1 latin character; at least 2 are needed to split them."


# ---- more sentences that can count one: each at one and at two or more ----
def test_a_one_array_state_of_an_rnn_layer_is_said_in_the_singular():
    from lnrnn.model.layers import RecurrentLayer
    x, h = np.zeros((2, 1, 2)), np.zeros((1, 3))
    with pytest.raises(ValueError) as e:
        RecurrentLayer("rnn", "none", 2, 3, dtype=np.float64).forward(x, state=(h, h))
    assert str(e.value) == "a rnn layer's state is a tuple of 1 array, got 2"
    with pytest.raises(ValueError) as e:
        RecurrentLayer("lstm", "none", 2, 3, dtype=np.float64).forward(x, state=(h,))
    assert str(e.value) == "a lstm layer's state is a tuple of 2 arrays, got 1"


@pytest.mark.parametrize("n,word", [(1, "array"), (3, "arrays")])
def test_a_window_layers_state_of_one_or_three_arrays(n, word):
    from lnrnn.model.window import WindowStack
    L1 = WindowStack("lstm", "none", 2, 3, num_layers=1, alphabet_size=4, window=2, dtype=np.float64).layers[0]
    text = (np.zeros((1, 2), np.int64), np.array([2]))
    with pytest.raises(ValueError) as e:
        L1.forward_text(np.zeros((2, 1, 2)), text, state=(np.zeros((1, 3)),) * n)
    assert str(e.value) == f"the window layer's state is (h, c) or (h, c, kappa, w), got {n} {word}"


@pytest.mark.parametrize("refs,hyps,said", [(["a"], ["a", "b"], "1 reference line but 2 hypotheses"),
                                            (["a", "b"], ["a"], "2 reference lines but 1 hypothesis")])
def test_error_rates_of_unpaired_lines(refs, hyps, said):
    from lnrnn.textmetrics import error_rates
    with pytest.raises(ValueError) as e:
        error_rates(refs, hyps)
    assert str(e.value) == said


@pytest.mark.parametrize("head,said", [
    ({"kind": "regression", "outputs": 1}, "regression head with 1 output"),
    ({"kind": "classifier", "outputs": 2}, "classifier head with 2 outputs"),
    ({"kind": "mdn", "components": 1}, "mdn head with 1 component"),
    ({"kind": "mdn", "components": 20}, "mdn head with 20 components"),
    ({"kind": "mdn"}, "mdn head with ? components")])
def test_a_heads_words(head, said):
    assert lnrnn.api._head_words(head) == said


def test_a_checkpoint_of_one_input_against_a_task_of_two(monkeypatch, tmp_path):
    """evaluate_run's refusal with the run and the task stood in: 1 input, then 2."""
    run = SimpleNamespace(path="runs/a", config={"input_size": 1, "head": {"kind": "regression", "outputs": 1}},
                          task_spec={"task": "npz"})
    task = SimpleNamespace(input_size=2, spec={"task": "npz"})
    monkeypatch.setattr(lnrnn.api, "load_run", lambda path: run)
    monkeypatch.setattr(lnrnn.api, "load_task", lambda spec: task)
    monkeypatch.setattr(lnrnn.training.plan, "task_head", lambda t: {"kind": "regression", "outputs": 1})
    with pytest.raises(lnrnn.api.CheckpointError) as e:
        lnrnn.api.evaluate_run(run)
    assert str(e.value) == ("checkpoint runs/a expects 1 input and a regression head with 1 output, but npz has "
                            "2 inputs and needs a regression head with 1 output.")


@pytest.mark.parametrize("since,made,evals,updates", [(1, 1, "1 evaluation", "1 update"),
                                                       (2, 3, "2 evaluations", "3 updates")])
def test_nothing_left_after_one_evaluation_or_one_update(since, made, evals, updates):
    from lnrnn.training.stopping import StopPolicy
    cfg = SimpleNamespace(out="runs/x", epochs=9, max_steps=None, time_budget=None, patience=since)
    early = {"step": 4, "metric": "loss"}
    t = SimpleNamespace(cfg=cfg, epoch=1, step=4, early_stop=early, best={"since": since})
    assert StopPolicy(t).nothing_left() == (
        f"Nothing to do: the run in runs/x stopped early at update 4 (no better validation loss in {evals}, "
        f"--patience {since}); pass a larger --patience to train it further.")
    cfg.max_steps = made
    t = SimpleNamespace(cfg=cfg, epoch=1, step=made, early_stop=None, best={"since": 0})
    assert StopPolicy(t).nothing_left() == (
        f"Nothing to do: the run in runs/x has made {updates} (--max-steps {made}); pass a larger --max-steps, or "
        "none, to train it further.")


@pytest.mark.parametrize("rows,said", [(1, "1 row"), (2, "2 rows")])
def test_stroke_lengths_that_do_not_add_up_to_one_row(rows, said):
    from lnrnn.data.stroke_files import _packed
    with pytest.raises(DataError) as e:
        _packed(np.zeros((rows, 3)), np.array([3]), "f.npz", "strokes")
    assert str(e.value) == f"f.npz: the lengths beside strokes add up to 3 but it has {said}; the arrays do not " \
                           "belong together."


@pytest.mark.parametrize("d,said", [("M 1 2 H", "H needs a multiple of 1 number in 'M 1 2 H', got 0."),
                                    ("M 1 2 3", "M needs a multiple of 2 numbers in 'M 1 2 3', got 3.")])
def test_a_kanjivg_path_command_short_of_numbers(d, said):
    with pytest.raises(DataError) as e:
        kanjivg.path_polylines(d, "k.svg")
    assert str(e.value) == f"k.svg: path command {said}"


@pytest.mark.parametrize("width,said", [(1, "1 input"), (2, "2 inputs")])
def test_npz_widths_of_x_and_x_val(width, said):
    from test_values228_arrays import _refusal
    given = {"x": np.zeros((3, 4, width), np.float32), "y": np.array([0, 1, 0]),
             "x_val": np.zeros((2, 4, 3), np.float32), "y_val": np.array([1, 0])}
    assert _refusal(given) == f"the arrays: x has {said} per step but x_val has 3; they must match."


@pytest.mark.parametrize("n,said", [(1, "1 thread"), (2, "2 threads")])
def test_info_counts_the_blas_threads(monkeypatch, n, said):
    import threadpoolctl

    from lnrnn.commands import info
    pool = {"user_api": "blas", "internal_api": "mkl", "version": "1.0", "num_threads": n,
            "filepath": "/x/libmkl_rt.so"}
    monkeypatch.setattr(threadpoolctl, "threadpool_info", lambda: [pool])
    assert info._blas()[0] == f"mkl 1.0 ({said}, libmkl_rt.so)"
