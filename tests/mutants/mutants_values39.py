"""Planted bugs, round 39 (format: tests/mutants/mutants.py): the bad values a probe of every command found getting
through (each fixed with its test): a negative --seed (plan.validate refuses it for lnrnn train, its config files
and lnrnn.api.fit; sample and gradcheck, which have no plan, take click.IntRange(min=0); lnrnn.api.sample_run checks
it through api._count), an empty or blank --out run
folder (rundir.check_writable) or --dest (data.check_dest), an empty output file name (files.check_output_file),
an evaluation batch below 1 (named as eval's option, not the API's parameter), a plot of a run with an empty
metrics.jsonl (it drew empty axes), lnrnn sample --npz under a name without .npz (an archive under another
name), lnrnn.torch's float lengths (cast to int64: 1.5 steps ran as 1; tests/interop/test_values39_torch_lengths),
complex sequences given to predict (cast, imaginary parts dropped), a --checkpoint that is some other file (called a
corrupt checkpoint description), and --steps 0 of the synthetic tasks (read as "not given" by an `or`
default; tasks._steps now reads the default in one place for the shape and the build: the four older mutants of
those lines re-pointed there).

12 mutants, each the check as it was before the fix (or a near relative); no old test could catch their absence
(the checks did not exist); tests/commands/test_values39_bad_values.py catches each, and
tests/data/test_values32_tasks.py the --steps 0 one (round 32's mutant of that line, re-pointed).

    python tests/mutants/run.py --only 'v39-*'
"""
NEW = ["tests/commands/test_values39_bad_values.py"]

MUTANTS = [
    dict(name="v39-plan-seed-unchecked", file="lnrnn/training/plan.py",
         old='        (cfg.seed >= 0, f"--seed must be 0 or more, not {cfg.seed}."),',
         new='        (cfg.seed >= 0 or True, f"--seed must be 0 or more, not {cfg.seed}."),',
         tests=NEW,
         why="a configuration with seed -1 reaches NumPy's generator: a traceback after the data were loaded"),
    dict(name="v39-api-sample-seed-negative-taken", file="lnrnn/api.py",
         old='    _count(seed, "seed", least=0)',
         new='    _count(seed, "seed", least=-(2 ** 63))',
         tests=NEW,
         why="sample_run(seed=-1) fails inside NumPy instead of a UserError naming the seed"),
    dict(name="v39-sample-seed-any-int", file="lnrnn/commands/sample.py",
         old='@click.option("--seed", type=click.IntRange(min=0),',
         new='@click.option("--seed", type=int,',
         tests=NEW,
         why="lnrnn sample --seed -1 loads the run first and then fails in its generator"),
    dict(name="v39-rundir-empty-out-taken", file="lnrnn/training/rundir.py",
         old="    if not str(out).strip():",
         new="    if not str(out):",
         tests=NEW,
         why="--out '   ' (blank) is taken as a folder of that name"),
    dict(name="v39-data-empty-dest-taken", file="lnrnn/commands/data.py",
         old="    if not str(dest).strip():",
         new="    if False:",
         tests=NEW,
         why="--dest '' reads as the current folder's missing parent: a misleading 'cannot write' line"),
    dict(name="v39-files-empty-name-a-folder", file="lnrnn/files.py",
         old="    if not text.strip():",
         new="    if not text:",
         tests=NEW,
         why="a blank output name ('  ') passes as a file name"),
    dict(name="v39-eval-batch-option-any-int", file="lnrnn/commands/options.py",
         old='eval_batch_option = click.option("--eval-batch-size", type=click.IntRange(min=1), default=D.eval_batch_size,',
         new='eval_batch_option = click.option("--eval-batch-size", type=int, default=D.eval_batch_size,',
         tests=NEW,
         why="lnrnn eval --eval-batch-size 0 is refused by the API under its parameter's name, not the option's"),
    dict(name="v39-plot-empty-metrics-drawn", file="lnrnn/commands/plot.py",
         old="    if not records:  # a run still before its first evaluation: a picture of empty axes would say nothing",
         new="    if False:",
         tests=NEW,
         why="lnrnn plot of a run whose metrics.jsonl is still empty writes a picture of empty axes"),
    dict(name="v39-sample-npz-any-suffix", file="lnrnn/commands/sample.py",
         old='        if named_suffix(npz, (".npz",), "--npz") is None:  # the file is an .npz archive whatever its name says',
         new='        if str(npz).lower().endswith(".txt"):  # the file is an .npz archive whatever its name says',
         tests=NEW,
         why="--npz pts writes an .npz archive named pts (no suffix): lnrnn read cannot tell its kind"),
    dict(name="v39-torch-float-lengths-cast", file="lnrnn/interop/torch.py",
         old="            if lengths.is_floating_point() or lengths.is_complex() or lengths.dtype == torch.bool:",
         new="            if lengths.is_complex():",
         tests=["tests/interop/test_values39_torch_lengths.py"],
         why="lnrnn.torch takes lengths [1.5, 2.0] and runs them as [1, 2]"),
    dict(name="v39-predict-complex-cast", file="lnrnn/predict_io.py",
         old="    if np.issubdtype(x.dtype, np.complexfloating):  # a cast to the model's dtype would drop the imaginary parts",
         new="    if False:",
         tests=NEW,
         why="complex sequences are cast to floats, their imaginary parts dropped with a warning"),
    dict(name="v39-checkpoint-other-file-called-corrupt", file="lnrnn/training/checkpoint.py",
         old="        if os.path.basename(desc) != DESCRIPTION:  # some other file named as the checkpoint",
         new="        if False:",
         tests=NEW,
         why="--checkpoint notes.txt says a checkpoint description is corrupt"),
]
