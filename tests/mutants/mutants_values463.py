"""Planted bugs, round 463 (format: tests/mutants/mutants.py): the real survivors of a forty-third random sample
(tests/mutants/random_sample.py --seed 43 --count 40 --all-named, on 6bc5dbc: 34 of 40 caught) and their neighbours,
fifty-eighth pass.

Seed 43's 6 missed: 1 equivalent in values (rnd43-13: a device model's last-step path running its stack with the
output copied to the host, then reading the last step of that copy: the same rows, a larger copy), 1 CUDA-only line
caught by the CUDA update file (rnd43-20: each row's last step in a chunk read one step early by the device update;
tests/training/test_device_update_more.py fails), 4 real: --keep's deletion of an old copy that is already gone
raising, so a save fails (rnd43-01; and a file named like a copy was counted as one and so cost a real copy: keep
now counts folders only); lnrnn.api.Evaluation's repr printing its whole task (rnd43-05); lnrnn gradcheck's write
mode never reading a text as long as its code array (rnd43-24); a group's time-budget vote missing the exact budget
where one process stops on it (rnd43-30).

The planted bugs: keep_past raising on a copy already gone, counting files named like copies, leaving one copy more;
Evaluation's repr printing its task; the write gradcheck's texts never longer than U - 2 or never U; the budget vote
or one process's budget strict at the exact budget, every rank voting on the budget. 9 mutants. The old files named
after the modules (OLD_*) catch 3 (one copy more; one process going on at its exact budget; every rank voting); the
new files alone catch 9 of 9.

    python tests/mutants/run.py --only 'v463-*'
"""
CKPT = "lnrnn/training/checkpoint.py"
API = "lnrnn/api.py"
GC = "lnrnn/gradcheck.py"
STOP = "lnrnn/training/stopping.py"
NEW_CKPT = ["tests/training/test_values463_checkpoint_keep.py"]
NEW_API = ["tests/test_values463_api.py"]
NEW_GC = ["tests/test_values463_gradcheck_texts.py"]
NEW_STOP = ["tests/training/test_values463_stopping.py"]
# every file named after the module (pytest -k <name>, as random_sample.py --all-named judges)
OLD_CKPT = ["tests/training/test_checkpoint.py", "tests/training/test_checkpoints_best.py",
            "tests/training/test_values102_checkpoint.py", "tests/training/test_values122_checkpoint.py",
            "tests/training/test_values142_checkpoint.py", "tests/training/test_values14_checkpoint.py",
            "tests/training/test_values19_checkpoint.py", "tests/training/test_values209_checkpoint.py",
            "tests/training/test_values222_checkpoint.py", "tests/training/test_values227_checkpoint.py",
            "tests/training/test_values259_checkpoint.py", "tests/training/test_values274_checkpoint_progress.py",
            "tests/training/test_values321_checkpoint.py", "tests/training/test_values348_checkpoint.py",
            "tests/training/test_values370_optim_checkpoint.py", "tests/training/test_values395_checkpoint.py",
            "tests/training/test_values63_checkpoint.py", "tests/training/test_values91_checkpoint.py"]
OLD_API = ["tests/commands/test_values277_api.py", "tests/commands/test_values305_api.py",
           "tests/test_values101_api.py", "tests/test_values10_api.py", "tests/test_values117_api.py",
           "tests/test_values140_api.py", "tests/test_values15_api.py", "tests/test_values161_api.py",
           "tests/test_values196_api.py", "tests/test_values214_api.py", "tests/test_values234_api.py",
           "tests/test_values252_api.py", "tests/test_values27_api.py", "tests/test_values315_api.py",
           "tests/test_values343_api.py", "tests/test_values364_api.py", "tests/test_values392_api.py",
           "tests/test_values392_api_read.py", "tests/test_values439_api.py", "tests/test_values441_api.py",
           "tests/test_values450_api.py", "tests/test_values46_api.py", "tests/test_values50_api.py",
           "tests/test_values77_api.py", "tests/test_values83_api.py", "tests/test_values_api.py",
           "tests/test_values_api_read.py"]
OLD_GC = ["tests/commands/test_gradcheck_cli.py", "tests/commands/test_values10_gradcheck.py",
          "tests/commands/test_values173_gradcheck_plan.py", "tests/commands/test_values215_gradcheck.py",
          "tests/commands/test_values253_gradcheck.py", "tests/commands/test_values281_gradcheck_cli.py",
          "tests/commands/test_values37_predict_read_gradcheck.py", "tests/commands/test_values437_gradcheck.py",
          "tests/commands/test_values440_gradcheck.py", "tests/commands/test_values96_gradcheck_plan.py",
          "tests/test_values118_gradcheck.py", "tests/test_values184_gradcheck.py",
          "tests/test_values214_gradcheck_files.py", "tests/test_values267_gradcheck.py",
          "tests/test_values27_gradcheck.py", "tests/test_values281_gradcheck.py",
          "tests/test_values373_gradcheck.py", "tests/test_values409_gradcheck_problems.py",
          "tests/test_values430_gradcheck.py", "tests/test_values433_gradcheck.py",
          "tests/test_values435_gradcheck.py", "tests/test_values439_gradcheck.py",
          "tests/test_values440_gradcheck_model.py", "tests/test_values449_gradcheck.py",
          "tests/test_values83_gradcheck.py", "tests/test_values9_gradcheck.py", "tests/test_values_gradcheck.py"]
OLD_STOP = ["tests/training/test_stopping_recorder_parts.py", "tests/training/test_values114_stopping.py",
            "tests/training/test_values124_stopping.py", "tests/training/test_values12_stopping.py",
            "tests/training/test_values134_stopping.py", "tests/training/test_values180_stopping.py",
            "tests/training/test_values209_stopping.py", "tests/training/test_values21_stopping.py",
            "tests/training/test_values227_stopping.py", "tests/training/test_values295_train_stopping.py",
            "tests/training/test_values316_stopping.py", "tests/training/test_values335_stopping.py",
            "tests/training/test_values362_stopping.py", "tests/training/test_values36_stopping.py",
            "tests/training/test_values396_stopping.py", "tests/training/test_values47_stopping_judge.py",
            "tests/training/test_values54_stopping.py", "tests/training/test_values80_stopping.py",
            "tests/training/test_values9_stopping.py"]

MUTANTS = [
    dict(name="v463-keep-raises-on-gone", file=CKPT,
         old="shutil.rmtree(os.path.join(past, old), ignore_errors=True)",
         new="shutil.rmtree(os.path.join(past, old), ignore_errors=False)",
         tests=NEW_CKPT + OLD_CKPT, why="rnd43-01: a kept copy removed by hand meanwhile fails the save"),
    dict(name="v463-keep-counts-files", file=CKPT,
         old=' and os.path.isdir(os.path.join(past, d)))', new=')',
         tests=NEW_CKPT + OLD_CKPT, why="a file named like a kept copy counted as one: a real copy deleted for it"),
    dict(name="v463-keep-one-more", file=CKPT,
         old="for old in kept[:max(len(kept) - keep, 0)]:", new="for old in kept[:max(len(kept) - keep - 1, 0)]:",
         tests=NEW_CKPT + OLD_CKPT, why="--keep N leaves N + 1 copies"),
    dict(name="v463-evaluation-repr-task", file=API,
         old="    task: object = field(repr=False)", new="    task: object = field(repr=True)",
         tests=NEW_API + OLD_API, why="rnd43-05: an Evaluation's repr prints its whole task"),
    dict(name="v463-gradcheck-texts-short", file=GC,
         old="np.arange(B) % (U + 1))", new="np.arange(B) % (U - 1))",
         tests=NEW_GC + OLD_GC, why="rnd43-24: the write check's texts never longer than U - 2"),
    dict(name="v463-gradcheck-texts-never-full", file=GC,
         old="np.arange(B) % (U + 1))", new="np.arange(B) % U)",
         tests=NEW_GC + OLD_GC, why="the write check's texts never as long as their code array"),
    dict(name="v463-budget-vote-strict", file=STOP,
         old="t.group.root and self.clock_over())",
         new="t.group.root and t.cfg.time_budget is not None and self.budget_seconds() > t.cfg.time_budget)",
         tests=NEW_STOP + OLD_STOP, why="rnd43-30: rank 0's budget vote misses the exact budget"),
    dict(name="v463-over-budget-strict", file=STOP,
         old="return self.clock_over()",
         new="return t.cfg.time_budget is not None and self.budget_seconds() > t.cfg.time_budget",
         tests=NEW_STOP + OLD_STOP, why="one process goes on at exactly its --time-budget"),
    dict(name="v463-budget-vote-any-rank", file=STOP,
         old="t.group.root and self.clock_over())", new="self.clock_over())",
         tests=NEW_STOP + OLD_STOP, why="every rank votes on the budget by its own clock"),
]
