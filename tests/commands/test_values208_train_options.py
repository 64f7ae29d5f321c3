"""lnrnn/commands/train.py and options.py: the options counted as given are the trainer's options given on
the command line, never --quiet (the command's own flag); --layers and --hidden arrive as ints and a
fraction is refused by click naming the option; --device takes cpu or cuda alone; --data-dir is passed on
as written even when the folder does not exist (the task's loader says what is missing, in its own words);
--task, --cell, --device and --best-metric show their default in the help, equal to TrainConfig's."""
import click
import pytest

from lnrnn.cli import main
from lnrnn.training.runconfig import TrainConfig

from test_cli import assert_clean_error, invoke
from test_values143_train_cli import trainer  # noqa: F401  (fixture: train patched to record its calls)


def test_quiet_is_not_an_option_given_to_the_trainer(tmp_path, trainer):
    out = str(tmp_path / "run")
    r = invoke("train", "--out", out, "-q", "--lr", "0.5")
    assert r.exit_code == 0, r.output + repr(r.exception)
    (cfg, kw), = trainer
    assert kw["explicit"] == {"out", "lr"} and kw["quiet"] is True and cfg.lr == 0.5


@pytest.mark.parametrize("name", ["layers", "hidden"])
def test_sizes_are_whole_numbers(tmp_path, trainer, name):
    out = str(tmp_path / "run")
    r = invoke("train", "--out", out, f"--{name}", "2")
    assert r.exit_code == 0, r.output + repr(r.exception)
    assert type(getattr(trainer[0][0], name)) is int and getattr(trainer[0][0], name) == 2
    r = invoke("train", "--out", out, f"--{name}", "1.5")
    assert_clean_error(r, f"'--{name}': '1.5'")
    assert len(trainer) == 1 and not (tmp_path / "run").exists()


def test_device_is_cpu_or_cuda(tmp_path, trainer):
    r = invoke("train", "--out", tmp_path / "run", "--device", "gpu")
    assert_clean_error(r, "'--device': 'gpu'")
    assert trainer == [] and not (tmp_path / "run").exists()
    (p,) = [p for p in main.commands["train"].params if p.name == "device"]
    assert list(p.type.choices) == ["cpu", "cuda"]


def test_a_missing_data_dir_is_passed_on(tmp_path, trainer):
    missing = tmp_path / "nowhere" / "mnist"
    r = invoke("train", "--out", tmp_path / "run", "--data-dir", missing)
    assert r.exit_code == 0, r.output + repr(r.exception)
    (cfg, kw), = trainer
    assert cfg.data_dir == str(missing) and "data_dir" in kw["explicit"]


@pytest.mark.parametrize("name", ["task", "cell", "device", "best_metric"])
def test_help_shows_trainconfigs_default(name):
    cmd = main.commands["train"]
    (p,) = [p for p in cmd.params if p.name == name]
    _, text = p.get_help_record(click.Context(cmd))
    assert text.endswith(f"[default: {getattr(TrainConfig(), name)}]"), text
