"""Planted bugs, round 457 (format: tests/mutants/mutants.py): the real survivors of the thirty-sixth and
thirty-seventh random samples (tests/mutants/random_sample.py --seed 36 / 37 --count 40 --all-named, on 4db3e6c /
3bf5a68: 35 and 33 of 40 caught) and their neighbours, fifty-second pass.

Seed 36's 5 missed: 3 caught by files named after other modules (rnd36-07: lnrnn plot --help without --x's default,
tests/commands/test_values446_sample_cli_defaults.py fails; rnd36-18: config.ROWS compiled without nogil,
tests/kernels/test_values444_threads.py fails; rnd36-29: a validation's non-finite activations reported as a
divergence during the next update rather than after the last, tests/training/test_values425_diverged_state.py
fails), 1 CUDA-only line caught by the CUDA synthesis file (rnd36-24: the synthesis stack's host-device crossings
counted twice; tests/model/test_synthesis_cuda.py fails), 1 real: a synthetic spike never planted at a line's first
inner point (rnd36-04).

Seed 37's 7 missed: 3 equivalent (rnd37-05: a model's device views switched off uploading its BN statistics when
none are there yet, which a switch-off never finds, and a model without BN given empty statistics on the device that
its layers never read; rnd37-20: the exported LayerNorm gain norm_hh_weight, a 1-D vector, "transposed"; rnd37-24: a
KanjiVG file without its own kvg: binding getting it on a second <svg as well, the same prefix bound to the same
namespace again), 1 CUDA-only line caught by the CUDA synthesis file (rnd37-10: the synthesis stack refusing a
device array as its input; tests/model/test_synthesis_cuda.py fails), 3 real: Trainer.first_update_s a clock reading
plus the loop's start (rnd37-04), judge() reading with a beam of 2 by default (rnd37-07), a synthetic word's loops
drawn from t = 1 rather than 0, so no loop starts on its baseline (rnd37-25).

The planted bugs: a synthetic spike never at a line's first inner point, or never at its last; a synthetic word's
loops drawn from t = 1, or three in four of them tall; judge() reading with a beam of 2 by default, or with the best
path whatever its beam; Trainer.first_update_s a clock reading plus the loop's start. 7 mutants. The old files named
after the modules (OLD_*) catch 0; the new files alone catch 7 of 7.

    python tests/mutants/run.py --only 'v457-*'
"""
JUDGE = "lnrnn/judge.py"
STROKES = "lnrnn/data/strokes.py"
TRAIN = "lnrnn/training/train.py"
NEW_JUDGE = ["tests/commands/test_values457_judge.py"]
NEW_STROKES = ["tests/data/test_values457_strokes_synthetic.py"]
NEW_TRAIN = ["tests/training/test_values457_train_first_update.py"]
# every file named after the module (pytest -k <name>, as random_sample.py --all-named judges)
OLD_JUDGE = ["tests/commands/test_judge.py", "tests/commands/test_values37_judge.py",
             "tests/commands/test_values387_judge.py", "tests/commands/test_values_judge.py",
             "tests/test_values118_diagnostics_judge.py", "tests/test_values12_judge.py",
             "tests/test_values184_judge.py", "tests/test_values20_judge.py", "tests/test_values267_judge.py",
             "tests/test_values281_judge.py", "tests/test_values360_judge.py", "tests/test_values70_judge.py",
             "tests/test_values96_judge_backend.py", "tests/training/test_values47_stopping_judge.py"]
OLD_STROKES = ["tests/data/test_strokes_data.py", "tests/data/test_text_strokes.py",
               "tests/data/test_values109_strokes.py", "tests/data/test_values126_strokes.py",
               "tests/data/test_values12_strokes.py", "tests/data/test_values164_strokes.py",
               "tests/data/test_values200_strokes.py", "tests/data/test_values20_strokes.py",
               "tests/data/test_values21_strokes.py", "tests/data/test_values220_strokes.py",
               "tests/data/test_values232_strokes.py", "tests/data/test_values244_strokes.py",
               "tests/data/test_values246_kanjivg_strokes.py", "tests/data/test_values258_strokes.py",
               "tests/data/test_values299_strokes.py", "tests/data/test_values311_strokes.py",
               "tests/data/test_values339_strokes.py", "tests/data/test_values366_strokes_text.py",
               "tests/data/test_values433_strokes.py", "tests/data/test_values441_strokes.py",
               "tests/data/test_values446_strokes.py", "tests/data/test_values44_strokes.py",
               "tests/data/test_values53_strokes.py", "tests/data/test_values76_strokes.py",
               "tests/data/test_values89_strokes.py", "tests/data/test_values_strokes.py"]
OLD_TRAIN = ["tests/commands/test_cli_train_config.py", "tests/commands/test_pretrained.py",
             "tests/commands/test_values125_train_options.py", "tests/commands/test_values13_train_command.py",
             "tests/commands/test_values143_train_cli.py", "tests/commands/test_values208_train_options.py",
             "tests/commands/test_values237_train_sample.py", "tests/commands/test_values245_train_data.py",
             "tests/commands/test_values263_train_data.py", "tests/commands/test_values367_train_options.py",
             "tests/commands/test_values401_train_options.py", "tests/commands/test_values453_train_help.py",
             "tests/commands/test_values69_train_options.py", "tests/commands/test_values_train_command.py",
             "tests/training/test_values124_train_driver.py", "tests/training/test_values165_train_run.py",
             "tests/training/test_values17_train.py", "tests/training/test_values202_train_run.py",
             "tests/training/test_values217_train_run.py", "tests/training/test_values236_train_driver.py",
             "tests/training/test_values236_train_resume.py", "tests/training/test_values243_train_policies.py",
             "tests/training/test_values243_train_recorder_summary.py",
             "tests/training/test_values259_train_policies.py", "tests/training/test_values25_training.py",
             "tests/training/test_values274_train_policies.py", "tests/training/test_values295_train_stopping.py",
             "tests/training/test_values301_train_loop.py", "tests/training/test_values33_train.py",
             "tests/training/test_values345_train_loop.py", "tests/training/test_values370_train_loop.py",
             "tests/training/test_values393_train.py", "tests/training/test_values426_train_resume_position.py",
             "tests/training/test_values427_train.py", "tests/training/test_values435_train.py",
             "tests/training/test_values_train.py", "tests/training/test_values_train_policies.py",
             "tests/training/test_values_train_schedule.py"]

MUTANTS = [
    dict(name="v457-spike-never-at-first-inner-point", file=STROKES,
         old="i = int(rng.integers(1, len(seq) - 1))", new="i = int(rng.integers(2, len(seq) - 1))",
         tests=NEW_STROKES + OLD_STROKES, why="rnd36-04: a synthetic spike never moves a line's first inner point"),
    dict(name="v457-spike-never-at-last-inner-point", file=STROKES,
         old="i = int(rng.integers(1, len(seq) - 1))", new="i = int(rng.integers(1, len(seq) - 2))",
         tests=NEW_STROKES + OLD_STROKES, why="a synthetic spike never moves a line's last inner point"),
    dict(name="v457-loop-word-from-one-radian", file=STROKES,
         old="t = np.linspace(0, 2 * np.pi * loops, per_loop * loops + 1)",
         new="t = np.linspace(1, 2 * np.pi * loops, per_loop * loops + 1)",
         tests=NEW_STROKES + OLD_STROKES, why="rnd37-25: a synthetic word's loops no longer start on its baseline"),
    dict(name="v457-loop-word-mostly-tall", file=STROKES,
         old="tall = np.repeat(np.where(rng.random(loops) < 0.25, 2.0, 1.0), per_loop)",
         new="tall = np.repeat(np.where(rng.random(loops) < 0.25, 1.0, 2.0), per_loop)",
         tests=NEW_STROKES + OLD_STROKES, why="three synthetic loops in four tall, not one"),
    dict(name="v457-judge-beam-2", file=JUDGE, old="def judge(writer, reader, rows, beam=1, seed=0):",
         new="def judge(writer, reader, rows, beam=2, seed=0):",
         tests=NEW_JUDGE + OLD_JUDGE, why="rnd37-07: lnrnn sample --judge reads with a beam of 2, not the best path"),
    dict(name="v457-judge-beam-ignored", file=JUDGE,
         old="reads = read(reader, [np.asarray(r.points) for r in rows], beam=beam)",
         new="reads = read(reader, [np.asarray(r.points) for r in rows], beam=1)",
         tests=NEW_JUDGE + OLD_JUDGE, why="judge's beam never reaches the reader"),
    dict(name="v457-first-update-plus-start", file=TRAIN,
         old="self.first_update_s = time.perf_counter() - t_start",
         new="self.first_update_s = time.perf_counter() + t_start",
         tests=NEW_TRAIN + OLD_TRAIN, why="rnd37-04: the first update's seconds are a clock reading plus the start"),
]
