"""lnrnn/training/runconfig.py: a TOML config file read as UTF-8 (a non-ASCII folder name comes back as
written), and a run's config.json read back equal to the documented rule applied here by hand: every field
under its option name (underscores made dashes), None values, out, max-steps and time-budget left out."""
import dataclasses

from lnrnn.training.runconfig import TrainConfig, read_config_file, write_run_config


def test_a_toml_file_is_read_as_utf8(tmp_path):
    path = tmp_path / "run.toml"
    path.write_bytes('out = "runs/ü-Ωmega"\nbatch-size = 32\nlr = 0.002\nskip = true\n'.encode("utf-8"))
    assert read_config_file(str(path)) == {"out": "runs/ü-Ωmega", "batch-size": 32, "lr": 0.002, "skip": True}


def test_config_json_reads_back_every_option_set(tmp_path):
    cfg = TrainConfig(cell="bn-lstm", task="adding", steps=100, hidden=10, layers=2, skip=True, batch_size=9,
                      epochs=11, lr=1e-3, lr_decay=0.99, optimizer="rmsprop", clip=0.0, clip_gates=10.0,
                      seed=99, dtype="float64", reproducible=True, eval_batch_size=100, max_steps=1000,
                      time_budget=9.5, eval_every=10, best_metric="acc", keep=3, patience=10, save_every=100,
                      tbptt=9, state_noise=0.1, out=str(tmp_path), log_every=1)
    write_run_config(str(tmp_path), cfg)
    want = {}
    for k, v in dataclasses.asdict(cfg).items():
        if k not in ("out", "max_steps", "time_budget") and v is not None:
            want[k.replace("_", "-")] = v
    got = read_config_file(str(tmp_path / "config.json"))
    assert got == want
    assert got["batch-size"] == 9 and got["log-every"] == 1 and "max-steps" not in got and "out" not in got
