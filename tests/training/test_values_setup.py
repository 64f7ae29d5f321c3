"""lnrnn/training/setup.py by value: a batch as large as the training set is one batch an epoch, a resumed
fine-tuning run takes its own --init-from given again, and the start line counts layers and epochs in words."""
from types import SimpleNamespace

from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.setup import describe
from test_cli import assert_clean_error, assert_ok, invoke

ARGS = ["--cell", "lstm", "--task", "digits", "--split", "32/16", "--hidden", "4", "-q"]


def test_a_batch_as_large_as_the_training_set_is_one_batch_an_epoch(tmp_path):
    assert_ok(invoke("train", *ARGS, "--batch-size", 32, "--max-steps", 1, "--out", tmp_path / "a"))
    assert_clean_error(invoke("train", *ARGS, "--batch-size", 33, "--out", tmp_path / "b"),
                       "--batch-size 33 is larger than the 32 training sequences")


def test_a_fine_tuned_run_resumes_with_its_own_init_from_given_again(tmp_path):
    src, out = tmp_path / "src", tmp_path / "tuned"
    assert_ok(invoke("train", *ARGS, "--batch-size", 16, "--max-steps", 1, "--out", src))
    assert_ok(invoke("train", *ARGS, "--batch-size", 16, "--max-steps", 1, "--init-from", src, "--out", out))
    r = invoke("train", *ARGS, "--batch-size", 16, "--max-steps", 2, "--init-from", src, "--resume", "--out", out)
    assert_ok(r)
    assert f"starting from {src}" in r.output


def _start_line(layers, epochs):
    cfg = TrainConfig(cell="lstm", hidden=4, layers=layers, epochs=epochs, lr_decay=1.0, out="runs/x")
    model = SimpleNamespace(config={}, num_params=lambda: 1234)
    return describe(SimpleNamespace(cfg=cfg, model=model, task=SimpleNamespace(description="digits"),
                                    init_record=None))


def test_the_start_line_counts_layers_and_epochs_in_words():
    assert "(hidden 4, 1 layer, 1,234 parameters, float32) on digits" in _start_line(1, 1)
    assert ", 1 epoch, seed 0; writing to runs/x." in _start_line(1, 1)
    assert "(hidden 4, 2 layers, 1,234 parameters" in _start_line(2, 3)
    assert ", 3 epochs, seed 0;" in _start_line(2, 3)
