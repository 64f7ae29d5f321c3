"""Planted bugs, round 488 (format: tests/mutants/mutants.py): the real survivors of a seventy-seventh random sample
(tests/mutants/random_sample.py --seed 77 --count 40 --all-named, on 78f589c: 35 of 40 caught) and their
neighbours, eighty-fourth pass.

Seed 77's 5 missed: 2 equivalent (rnd77-00: describe_split comparing hi[1] + hi[0], where rank 0's shard starts at 0;
rnd77-22: the synthetic validation lines drawn from another fixed seed, still fixed and a stream apart from the
training lines'), 1 CUDA-only and caught by the CUDA file that runs the line (rnd77-17: the device update's loss
scale 1 / min(count, 1), tests/training/test_device_update.py, checked by planting), 2 real for the named files:
a cache folder that exists already makes compile_once compile without its lock (rnd77-36), and a download of
unknown size counted against a total of 1 (rnd77-33: 1 or 2, either way a bar as long as the bytes on a terminal;
the library now takes None as unknown, so the line the sample changed is gone and its old form is planted here).

The planted bugs. In compile_once: a cache folder that exists refused (exist_ok=False, rnd77-36), a folder made in
the lock file's place, a folder that cannot be made still locked. In the progress line: the download's unknown size
counted against 1 byte (the code before), a count past its total drawing a bar longer than its width, an unknown
total shown as /None, no log line while the total is unknown. 7 mutants. The old files named after each module catch
1 of 7; the new files alone catch 7 of 7.

    python tests/mutants/run.py --only 'v488-*'
"""
COMPILING = "lnrnn/compiling.py"
PROGRESS = "lnrnn/training/progress.py"
DATA = "lnrnn/commands/data.py"
NEW_LOCK = ["tests/kernels/test_values488_compile_lock_folder.py"]
NEW_BAR = ["tests/commands/test_values488_download_progress.py"]
OLD_COMPILING = [
    "tests/test_values141_compiling.py",
    "tests/test_values205_compiling.py",
    "tests/test_values254_compiling.py",
    "tests/test_values32_compiling.py",
    "tests/test_values96_compiling.py",
    "tests/kernels/test_values284_compiling.py",
    "tests/kernels/test_values325_compiling.py",
    "tests/kernels/test_values351_compiling.py",
    "tests/test_values112_compiling.py",
    "tests/test_values178_compiling.py",
    "tests/test_values17_compiling.py",
    "tests/test_values218_compiling.py",
    "tests/test_values369_compiling.py",
    "tests/test_values461_compiling.py",
    "tests/test_values71_compiling.py",
    "tests/test_values_compiling.py",
    "tests/test_values_compiling_stamp.py",
]
OLD_PROGRESS = [
    "tests/training/test_values145_progress.py",
    "tests/training/test_values326_progress_logs.py",
    "tests/training/test_values373_progress_finetune.py",
    "tests/training/test_values70_progress.py",
    "tests/training/test_values_progress.py",
    "tests/training/test_values10_progress.py",
    "tests/training/test_values118_progress_memory.py",
    "tests/training/test_values180_progress.py",
    "tests/training/test_values210_progress.py",
    "tests/training/test_values251_progress_memory.py",
    "tests/training/test_values274_checkpoint_progress.py",
    "tests/training/test_values32_progress_logs.py",
    "tests/training/test_values352_progress_logs.py",
    "tests/training/test_values95_progress.py",
]
OLD_DATA = [
    "tests/commands/test_values131_data.py",
    "tests/commands/test_values173_info_data.py",
    "tests/commands/test_values208_data.py",
    "tests/commands/test_values237_data.py",
    "tests/commands/test_values322_data_sample.py",
    "tests/commands/test_values367_data.py",
    "tests/commands/test_values37_data.py",
    "tests/commands/test_values408_data_download.py",
    "tests/commands/test_values461_data_download_bar.py",
    "tests/commands/test_values69_data.py",
    "tests/commands/test_values9_data.py",
    "tests/commands/test_values_data.py",
    "tests/commands/test_values17_data.py",
    "tests/commands/test_values245_train_data.py",
    "tests/commands/test_values263_train_data.py",
    "tests/commands/test_values425_other_data.py",
    "tests/data/test_data.py",
    "tests/data/test_data_alignment.py",
    "tests/data/test_own_data.py",
    "tests/data/test_strokes_data.py",
    "tests/data/test_values186_data.py",
    "tests/data/test_values249_idx_taskdata.py",
    "tests/data/test_values25_data.py",
    "tests/data/test_values40_data.py",
    "tests/data/test_values_data_counts.py",
    "tests/data/test_values_taskdata.py",
    "tests/test_values473_api_other_data.py",
]


def _x(name, file, old, new, tests, why):
    return dict(name=f"v488-{name}", file=file, old=old, new=new, tests=tests, why=why)


MAKE = "                os.makedirs(os.path.dirname(path), exist_ok=True)\n"
NO_DIR = "            except OSError:\n                return compile(self, sig)\n"
FRAC = "        frac = min(self.done / self.total, 1.0) if known and self.total else 1.0\n"
COUNT = '        count = f"{self.done}/{self.total}" if known else f"{self.done}"\n'
LOG = "            if now - self.last_draw >= self.log_every and (self.total is None or self.done < self.total):\n"
BAR = '    bar = Progress(total or None, os.path.basename(dest_path), quiet=quiet, unit="bytes")'

MUTANTS = [
    _x("lock-folder-exists", COMPILING, MAKE, MAKE.replace("exist_ok=True", "exist_ok=False"),
       NEW_LOCK + OLD_COMPILING, "a cache folder that exists already refuses the lock: compiled unlocked (rnd77-36)"),
    _x("lock-folder-named-as-lock", COMPILING, MAKE, MAKE.replace("os.path.dirname(path)", "path"),
       NEW_LOCK + OLD_COMPILING, "a folder made in the lock file's place, not the folder it lies in"),
    _x("lock-without-folder", COMPILING, NO_DIR, NO_DIR.replace("return compile(self, sig)", "pass"),
       NEW_LOCK + OLD_COMPILING, "a cache folder that cannot be made still locked (the lock cannot be taken there)"),
    _x("download-total-one", DATA, BAR, BAR.replace("total or None", "total or 1"), NEW_BAR + OLD_DATA,
       "a download of unknown size counted against 1 byte (rnd77-33's line before: a bar as long as the bytes)"),
    _x("bar-past-width", PROGRESS, FRAC, FRAC.replace("min(self.done / self.total, 1.0)", "self.done / self.total"),
       NEW_BAR + OLD_PROGRESS, "a count past its total draws a bar longer than its width"),
    _x("unknown-shown-over-none", PROGRESS, COUNT, COUNT.replace('if known else f"{self.done}"', ""),
       NEW_BAR + OLD_PROGRESS, "an unknown total shown as /None after the count"),
    _x("unknown-no-log-lines", PROGRESS, LOG, LOG.replace("self.total is None or", "self.total is not None and"),
       NEW_BAR + OLD_PROGRESS, "a log (not a terminal) gets no line while the total is unknown"),
]
