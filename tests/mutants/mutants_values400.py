"""Planted bugs, round 400 (format: tests/mutants/mutants.py): single-line slips in the sample command
(lnrnn/commands/sample.py), twentieth pass, planted before any test was written for them.

The planted bugs: --steps at the documented most (20,000) refused without --no-cap; --bias inf accepted; --count 1
with two --text lines accepted; --judge without --text advising --prime-text; a prime of exactly 20,000 points
refused without --no-cap; an unusable --judge-out refused naming --judge; an --npz of another suffix inside a folder
advised a .npz in the working folder; the progress bar counting the points of one sample; the progress bar never
closed; the lines that reached the --steps cap named from 0; the --judge-out JSON with writer and reader swapped;
the .npz's points saved in float16. 12 mutants. The old files alone catch 7 (missed: the two caps at exactly 20,000,
--bias inf, --judge-out refused as --judge, the unclosed progress bar). test_values400_sample_command checks, with
the run, the sampler and the drawing replaced by recording stand-ins: the caps at 20,000 taken and one more refused
word for word before the run is read; inf, nan and negative biases refused; --count against the number of --text
lines; --judge without --text pointing to --text; --judge-out refused in its own name; the .npz advice in the same
folder; the progress bar's total (--steps times --count) and its closing line; capped lines counted from 1; float32
points; the judge JSON's writer and reader. NEW + OLD catch 12 of 12; the new file alone catches 12 of 12. Nothing
left out as equivalent.

    python tests/mutants/run.py --only 'v400-*'
"""
SAMPLE = "lnrnn/commands/sample.py"
NEW = ["tests/commands/test_values400_sample_command.py"]
OLD = [
    "tests/commands/test_sample_text.py",
    "tests/commands/test_values12_sample.py",
    "tests/commands/test_values52_sample_cli.py",
    "tests/commands/test_values69_sample_errors.py",
    "tests/commands/test_values99_sample_cli.py",
    "tests/commands/test_values126_sample_cli.py",
    "tests/commands/test_values143_sample_cli.py",
    "tests/commands/test_values208_sample_cli.py",
    "tests/commands/test_values221_sample_cli.py",
    "tests/commands/test_values272_sample_cli.py",
    "tests/commands/test_values367_sample.py",
]

MUTANTS = [
    dict(name="v400-steps-cap-off-by-one", file=SAMPLE,
         old="    if steps > SAMPLE_MAX_STEPS and not no_cap:",
         new="    if steps >= SAMPLE_MAX_STEPS and not no_cap:",
         tests=NEW + OLD,
         why="--steps 20000, the documented most a sample may have, is refused without --no-cap"),
    dict(name="v400-bias-infinite-accepted", file=SAMPLE,
         old="    if not (bias >= 0 and np.isfinite(bias)):",
         new="    if not (bias >= 0):",
         tests=NEW + OLD,
         why="--bias inf is no longer refused up front: the run is loaded and sampled with an infinite bias"),
    dict(name="v400-count-fewer-than-texts-accepted", file=SAMPLE,
         old="ParameterSource.DEFAULT and count != len(texts):",
         new="ParameterSource.DEFAULT and count > len(texts):",
         tests=NEW + OLD,
         why="--count 1 with two --text lines is accepted silently (both lines written) instead of refused"),
    dict(name="v400-judge-without-text-advice", file=SAMPLE,
         old='"--judge reads the lines a synthesis run writes; give them with --text."',
         new='"--judge reads the lines a synthesis run writes; give them with --prime-text."',
         tests=NEW + OLD,
         why="--judge without --text advises --prime-text, which gives no line to judge"),
    dict(name="v400-prime-cap-off-by-one", file=SAMPLE,
         old="len(prime_points) > SAMPLE_MAX_STEPS and not no_cap:",
         new="len(prime_points) >= SAMPLE_MAX_STEPS and not no_cap:",
         tests=NEW + OLD,
         why="a prime of exactly 20,000 points, the documented most, is refused without --no-cap"),
    dict(name="v400-judge-out-checked-as-judge", file=SAMPLE,
         old='        check_output_file(judge_out, "--judge-out")',
         new='        check_output_file(judge_out, "--judge")',
         tests=NEW + OLD,
         why="an unusable --judge-out is refused naming --judge (the reader's folder) instead of --judge-out"),
    dict(name="v400-npz-advice-drops-folder", file=SAMPLE,
         old="name it {os.path.splitext(str(npz))[0]}.npz.",
         new="name it {os.path.splitext(os.path.basename(str(npz)))[0]}.npz.",
         tests=NEW + OLD,
         why="--npz OUT/pts.txt is refused advising pts.npz, in the working folder, not OUT/pts.npz"),
    dict(name="v400-progress-total-one-sample", file=SAMPLE,
         old='    progress = Progress(steps * count, "sample", quiet=quiet, unit="points")',
         new='    progress = Progress(steps, "sample", quiet=quiet, unit="points")',
         tests=NEW + OLD,
         why="the progress bar counts to the points of one sample: 4 samples of 5 points show 20/5"),
    dict(name="v400-progress-not-closed", file=SAMPLE,
         old="    progress.close()\n",
         new="    pass\n",
         tests=NEW + OLD,
         why="the progress bar is never closed: no final line on stderr with the points drawn and the time"),
    dict(name="v400-capped-lines-counted-from-zero", file=SAMPLE,
         old="    capped = [k + 1 for k, r in enumerate(lines) if r.capped]",
         new="    capped = [k for k, r in enumerate(lines) if r.capped]",
         tests=NEW + OLD,
         why="the lines that reached the --steps cap are named from 0: the first line is called line 0"),
    dict(name="v400-judge-out-writer-reader-swapped", file=SAMPLE,
         old="writer=str(path), reader=str(judge_path)",
         new="writer=str(judge_path), reader=str(path)",
         tests=NEW + OLD,
         why="the --judge-out JSON names the reader as the writer and the writer as the reader"),
    dict(name="v400-npz-points-half-precision", file=SAMPLE,
         old="        flat = np.concatenate(points).astype(np.float32)",
         new="        flat = np.concatenate(points).astype(np.float16)",
         tests=NEW + OLD,
         why="the .npz's points are saved in float16: offsets in data units lose digits (0.1 saved as 0.09998)"),
]
