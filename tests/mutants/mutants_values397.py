"""Planted bugs, round 397 (format: tests/mutants/mutants.py): single-line slips in the run folder
(lnrnn/training/rundir.py), twentieth pass, planted before any test was written for them.

The planted bugs: the per-update log renamed DIR/update.jsonl; --resume without --out and no default run advising a
new run instead of naming the run; UpdateLog.start handing back None; an unwritable folder refused with the whole
OSError instead of its reason; a held folder advising to remove its lnrnn.lock instead of another --out; a flocked
holder's line read from its first 16 bytes (the start time cut off); ENOLCK (NFS without a lock daemon) no longer
taken as a missing flock; a flock failing for another reason raised with the lock file left open; the lock file's
identity compared with itself, so a file removed or replaced between the open and the flock is kept; a removed lock
file taken as the same one; acquire not keeping its descriptor; release raising when the lock file cannot be
removed. 12 mutants. Against the old targeted files alone (the 17 run folder files listed in OLD): 8 of 12 caught;
missed: the flock failure leaving the lock file open, the replaced lock file not rechecked, the removed lock file
taken as the same, release raising on an unremovable lock file. test_values397_rundir catches all 4: a lock file its
holder removes between the open and the flock (the run ends holding the file at DIR/lnrnn.lock, a second run
refused), one replaced by a new holder's file refused naming that holder word for word, EIO and EBADF from flock
raised with no descriptor left on the lock file, a release whose unlink fails (EACCES, EROFS, EPERM) closing the
lock and leaving the folder takeable; and path shapes word for word (a trailing separator, a folder not yet existing
under a read-only folder, a read-only run folder, a name that is a file or a file in the way). Alone it catches 8 of
12 (not the file name, the --resume advice, start's return value, ENOLCK). Nothing left out as equivalent.

    python tests/mutants/run.py --only 'v397-*'
"""
RUNDIR = "lnrnn/training/rundir.py"
NEW = ["tests/training/test_values397_rundir.py"]
OLD = [
    "tests/training/test_values_rundir.py",
    "tests/training/test_values15_rundir.py",
    "tests/training/test_values40_rundir.py",
    "tests/training/test_values63_rundir.py",
    "tests/training/test_values91_rundir.py",
    "tests/training/test_values116_rundir.py",
    "tests/training/test_values145_finetune_lock.py",
    "tests/training/test_values171_runfiles.py",
    "tests/training/test_values185_rundir.py",
    "tests/training/test_values209_rundir.py",
    "tests/training/test_values222_rundir.py",
    "tests/training/test_values227_rundir.py",
    "tests/training/test_values251_rundir.py",
    "tests/training/test_values266_rundir.py",
    "tests/training/test_values321_rundir.py",
    "tests/training/test_values348_rundir.py",
    "tests/training/test_values371_rundir_memory.py",
]

MUTANTS = [
    dict(name="v397-rundir-updates-file-renamed", file=RUNDIR,
         old='UPDATES_FILE = "updates.jsonl"',
         new='UPDATES_FILE = "update.jsonl"',
         tests=NEW + OLD,
         why="the per-update log is DIR/update.jsonl, not the documented DIR/updates.jsonl"),
    dict(name="v397-rundir-resume-without-out-advice", file=RUNDIR,
         old='"pass --out RUN_FOLDER to say which run to continue.")',
         new='"pass --out RUN_FOLDER to start a new run.")',
         tests=NEW + OLD,
         why="--resume without --out and no default run advises starting a new run instead of naming the run"),
    dict(name="v397-rundir-update-log-start-returns-none", file=RUNDIR,
         old="        self.f = open(self.path, \"a\")\n        return self",
         new="        self.f = open(self.path, \"a\")\n        return None",
         tests=NEW + OLD,
         why="UpdateLog(out).start(step) hands back None: the chained call training makes has no log to append to"),
    dict(name="v397-rundir-write-error-whole-oserror", file=RUNDIR,
         old="({e.strerror or e})",
         new="({e})",
         tests=NEW + OLD,
         why="an unwritable folder is refused with the whole OSError ([Errno 13] ... and the probe's path), "
             "not its reason alone"),
    dict(name="v397-rundir-in-use-advice-remove-lock", file=RUNDIR,
         old='"or choose another --out.")',
         new='"or remove its lnrnn.lock.")',
         tests=NEW + OLD,
         why="a folder held by a live run advises removing its lock file (breaking that run) instead of "
             "another --out"),
    dict(name="v397-rundir-holder-read-short", file=RUNDIR,
         old='                text = os.read(fd, 4096).decode("utf-8", "replace")',
         new='                text = os.read(fd, 16).decode("utf-8", "replace")',
         tests=NEW + OLD,
         why="a folder held by an flock names the holder from its lock file's first 16 bytes: the start time is "
             "cut off"),
    dict(name="v397-rundir-enolck-not-a-missing-flock", file=RUNDIR,
         old="if e.errno not in (errno.ENOLCK, errno.EINVAL, errno.EOPNOTSUPP, errno.ENOSYS):",
         new="if e.errno not in (errno.EINVAL, errno.EOPNOTSUPP, errno.ENOSYS):",
         tests=NEW + OLD,
         why="an NFS mount without a lock daemon (flock fails with ENOLCK) ends in a raw OSError instead of the "
             "pid check"),
    dict(name="v397-rundir-other-flock-error-leaks-fd", file=RUNDIR,
         old="                    os.close(fd)\n                    raise",
         new="                    pass\n                    raise",
         tests=NEW + OLD,
         why="a flock that fails for another reason (EIO) is raised with the lock file left open"),
    dict(name="v397-rundir-replaced-lock-not-rechecked", file=RUNDIR,
         old="same = os.path.samestat(os.fstat(fd), os.stat(self.path))",
         new="same = os.path.samestat(os.fstat(fd), os.fstat(fd))",
         tests=NEW + OLD,
         why="a lock file removed or replaced between the open and the flock is taken as the lock: the run holds a "
             "file nobody else opens"),
    dict(name="v397-rundir-removed-lock-taken-as-same", file=RUNDIR,
         old="                same = False",
         new="                same = True",
         tests=NEW + OLD,
         why="a lock file its holder removed between the open and the flock is kept: the run holds an unlinked "
             "file and its folder shows no lock"),
    dict(name="v397-rundir-lock-fd-not-kept", file=RUNDIR,
         old="        self.fd = fd\n        return self",
         new="        self.fd = None\n        return self",
         tests=NEW + OLD,
         why="acquire does not keep its descriptor: the lock reads as not held and release leaves DIR/lnrnn.lock"),
    dict(name="v397-rundir-release-unlink-error-escapes", file=RUNDIR,
         old="        except OSError:\n            pass\n        os.close(self.fd)",
         new="        except FileNotFoundError:\n            pass\n        os.close(self.fd)",
         tests=NEW + OLD,
         why="a lock file that cannot be removed (a folder made read-only during the run) makes release raise, "
             "with the lock still open"),
]
