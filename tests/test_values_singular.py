"""Counts of one said in the singular in the sentences that can give them (a sampler's text of one line, a
run's IDX files of one image or one label, a KanjiVG folder of one Latin character, sequences of one step, BatchNorm statistics of one step, an
evaluation over one sequence), and in the plural at two: each sentence worked out word for word here."""
from types import SimpleNamespace

import numpy as np
import pytest
from test_cli import invoke
from test_strokes_data import A_PATHS, kvg_svg
from test_values186_idx import _folder, _pack
from test_values213_sampler import fake_model
from test_values221_sampler import message

import lnrnn.api
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
