"""Planted bugs, round 222 (format: tests/mutants/mutants.py): single-line slips on lines no
earlier round mutates, in run folders, checkpoints, output files and learning-curve pictures: the refusal of
a folder in use naming the holder's start time as its host, the run lock taken as a shared flock, a released
lock keeping its descriptor; the checkpoint description naming its arrays file by its absolute path, keep_past
moving the copied arrays into checkpoints/ instead of the update's folder, the refusal of a truncated arrays
file naming checkpoint.json as the corrupt file; check_output_file stripping a trailing separator, the
refusal of a folder named as the file giving its absolute path; the plot's percent flag read from the axis
label, the log loss axis decided by the x values, the legend's final validation figure taken from training,
metric names read from the epoch records only, picture_format keeping the extension's dot.

13 mutants. Against the existing targeted tests alone 11 were caught and 2 missed: the shared flock (every
old lock test holds the lock from an open file the test made with LOCK_EX, which blocks a shared flock as
well; none locks one folder twice through RunLock) and the metric names read from the epoch records only (no
old figure has per-update rows with a metric the epoch records lack). The new value tests catch every mutant
on their own (checked with the old tests taken off the lists): test_values222_rundir (a second RunLock on a
folder this process holds is refused naming the pid, host and start time split here from the lock file, the
file left byte for byte; a held lock whose start time has several words; a released lock is no longer held,
its file gone, a second release a no-op, the folder lockable again), test_values222_checkpoint (the
description's arrays file is the one .npz beside it, its SHA-256 hashlib's of the file's bytes and each
array's shape and dtype; a moved run folder and a kept copy load back array by array, dtype and shape
included; a truncated arrays file and another model's checkpoint refused word for word, nothing rewritten),
test_values222_files (a trailing separator refused by the check and the writer, nothing written; a folder
refused naming it as typed), test_values222_plot (lines read back from the figure against the records, times
100 for a percentage; the log axis against LOG_SPAN over the loss values; the legend's final figure formatted
here; a panel for a metric logged per update only; an .svg file that is SVG). Dropped as equivalent or near
it: atomic_write's folder without abspath (mkstemp takes '' as the current folder), missing_before_up
splitting on '/' instead of os.sep (the same on POSIX), the annotation placed at pts[-1] instead of pts[0] (a
lone point is both). Left out: TensorBoardLog (tensorboard is an optional extra the test environment lacks,
so its tags cannot be read back).

    python tests/mutants/run.py --only 'v222-*'
"""
RUNDIR = "lnrnn/training/rundir.py"
CKPT = "lnrnn/training/checkpoint.py"
PLOT = "lnrnn/training/plot.py"
FILES = "lnrnn/files.py"

# existing tests of these modules
RUNDIR_OLD = ["tests/training/test_values209_rundir.py", "tests/training/test_values185_rundir.py",
              "tests/training/test_values116_rundir.py", "tests/training/test_values91_rundir.py",
              "tests/training/test_values63_rundir.py", "tests/training/test_values40_rundir.py",
              "tests/training/test_values15_rundir.py", "tests/training/test_values_rundir.py"]
CKPT_OLD = ["tests/training/test_checkpoint.py", "tests/training/test_values209_checkpoint.py",
            "tests/training/test_values142_checkpoint.py", "tests/training/test_values122_checkpoint.py",
            "tests/training/test_values102_checkpoint.py", "tests/training/test_values91_checkpoint.py",
            "tests/training/test_values63_checkpoint.py", "tests/training/test_values19_checkpoint.py",
            "tests/training/test_values14_checkpoint.py"]
PLOT_OLD = ["tests/training/test_values_plot.py", "tests/training/test_values9_plot.py",
            "tests/training/test_values20_plot.py", "tests/training/test_values34_plot.py",
            "tests/training/test_values95_plot.py", "tests/training/test_values118_plot.py",
            "tests/training/test_values145_plot.py", "tests/training/test_values185_plot.py",
            "tests/commands/test_plot.py", "tests/commands/test_values131_plot.py",
            "tests/commands/test_values173_plot.py"]
FILES_OLD = ["tests/test_values12_files.py", "tests/test_values23_files.py", "tests/test_values63_files.py",
             "tests/test_values91_files.py", "tests/test_values116_files.py", "tests/test_values131_files.py",
             "tests/test_values171_files.py", "tests/commands/test_values_output_checks.py",
             "tests/commands/test_values9_output_files.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
RUNDIR_NEW = ["tests/training/test_values222_rundir.py"]
CKPT_NEW = ["tests/training/test_values222_checkpoint.py"]
PLOT_NEW = ["tests/training/test_values222_plot.py"]
FILES_NEW = ["tests/test_values222_files.py"]

MUTANTS = [
    # ---- the run lock: its message, its kind, its release ----
    dict(name="v222-lock-in-use-host-and-start-swapped", file=RUNDIR,
         old='who = f"pid {pid} on host {host}, started {started}" if pid',
         new='who = f"pid {pid} on host {started}, started {host}" if pid',
         tests=RUNDIR_NEW + RUNDIR_OLD,
         why="the refusal of a folder in use names the holder's start time as its host and its host as its start"),
    dict(name="v222-lock-shared", file=RUNDIR,
         old="fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)",
         new="fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)",
         tests=RUNDIR_NEW + RUNDIR_OLD,
         why="the run lock is a shared flock: two runs in one folder both get it, the second silently taking over "
             "the first's lock file"),
    dict(name="v222-lock-release-keeps-its-fd", file=RUNDIR,
         old="        os.close(self.fd)\n        self.fd = None",
         new="        os.close(self.fd)",
         tests=RUNDIR_NEW + RUNDIR_OLD,
         why="release closes the lock's descriptor but keeps it: held() stays true and a second release closes a "
             "closed (or reused) descriptor"),
    # ---- checkpoints: the arrays file's name, the kept copies, the truncated file's refusal ----
    dict(name="v222-ckpt-arrays-file-absolute", file=CKPT,
         old="arrays_file=name, arrays_sha256",
         new="arrays_file=npz_path, arrays_sha256",
         tests=CKPT_NEW + CKPT_OLD,
         why="the description names its arrays file by the path it was saved under: a run folder moved or copied "
             "elsewhere reads (or misses) the arrays of the old place"),
    dict(name="v222-ckpt-keep-past-copy-into-the-wrong-folder", file=CKPT,
         old="            os.replace(tmp, os.path.join(dest, name))",
         new="            os.replace(tmp, os.path.join(past, name))",
         tests=CKPT_NEW + CKPT_OLD,
         why="keep_past moves the copied arrays into checkpoints/ instead of checkpoints/update-<step>/: the kept "
             "copy's description names an arrays file that is not beside it"),
    dict(name="v222-ckpt-corrupt-arrays-message-names-the-description", file=CKPT,
         old='f"checkpoint arrays file {npz_path} is corrupt (its SHA-256',
         new='f"checkpoint arrays file {desc} is corrupt (its SHA-256',
         tests=CKPT_NEW + CKPT_OLD,
         why="a truncated arrays file is refused naming checkpoint.json as the corrupt arrays file"),
    # ---- output files: a trailing separator, a folder named as the file ----
    dict(name="v222-files-trailing-separator-stripped", file=FILES,
         old="    text = str(path)\n    if not text.strip():",
         new="    text = str(path).rstrip(os.sep)\n    if not text.strip():",
         tests=FILES_NEW + FILES_OLD,
         why="check_output_file strips a trailing separator first: --out pic.svg/ (a folder) is taken as the file "
             "pic.svg and written"),
    dict(name="v222-files-folder-refusal-names-the-absolute-path", file=FILES,
         old='f"{option} {text} is a folder; give a file name inside it."',
         new='f"{option} {target} is a folder; give a file name inside it."',
         tests=FILES_NEW + FILES_OLD,
         why="the refusal of an existing folder as the output file names its absolute path, not what the user typed"),
    # ---- learning-curve pictures: percent scaling, the log axis, the legend's final figure, the format ----
    dict(name="v222-plot-percent-from-the-label", file=PLOT,
         old="        percent = METRIC_INFO.get(m, (m, False))[1]",
         new="        percent = METRIC_INFO.get(m, (m, False))[0]",
         tests=PLOT_NEW + PLOT_OLD,
         why="a panel's percent flag reads the axis label (a non-empty string, always true): every metric, the "
             "loss too, is drawn times 100"),
    dict(name="v222-plot-log-span-of-the-x-values", file=PLOT,
         old="                seen += [p[1] for p in pts]",
         new="                seen += [p[0] for p in pts]",
         tests=PLOT_NEW + PLOT_OLD,
         why="the epoch lines' x values (updates) instead of their loss values decide the log loss axis"),
    dict(name="v222-plot-final-note-from-training", file=PLOT,
         old='    v = last[f"val_{metric}"]',
         new='    v = last[f"train_{metric}"]',
         tests=PLOT_NEW + PLOT_OLD,
         why="the legend's final validation figure shows the last epoch's training value"),
    dict(name="v222-plot-metric-names-from-records-only", file=PLOT,
         old="        for r in run.records + run.updates:\n            for k in r:",
         new="        for r in run.records:\n            for k in r:",
         tests=PLOT_NEW + PLOT_OLD,
         why="a metric logged only in the per-update rows (no epoch finished yet) gets no panel"),
    dict(name="v222-plot-format-keeps-the-dot", file=PLOT,
         old="    return ext[1:]",
         new="    return ext",
         tests=PLOT_NEW + PLOT_OLD,
         why="picture_format returns '.svg' with its dot: matplotlib knows no such format and nothing is written"),
]
