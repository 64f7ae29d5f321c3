"""Planted bugs, round 481 (format: tests/mutants/mutants.py): the real survivors of a sixty-ninth and a seventieth
random sample (tests/mutants/random_sample.py --seed 69 and --seed 70 --count 40 --all-named, on 7f628dd: 37 and 38
of 40 caught) and their neighbours, seventy-seventh pass.

Seed 69's 3 missed: 2 equivalent (rnd69-10: glibc's mmap threshold doubled, a tuning figure no result reads;
rnd69-37: the orthogonal initialisation dividing by the signs of R's diagonal for multiplying, the same for signs of
+-1), 1 real for the named files: a row of updates.jsonl without a step, which read_jsonl accepts, dropped by a
resume from update 0 (rnd69-21). Seed 70's 2 missed: 1 equivalent (rnd70-02: the L2 budget of the weight gradients'
blocks doubled, a tuning figure that picks the block sizes, not what is summed), 1 real: the window's part of the
memory estimate on the device one value more than its weights (rnd70-32).

The planted bugs, in the window's part of the estimate: one value more on the device (rnd70-32), p and kappa counted
on the device and not on the host, the bias left out, 4K rows, no copy for saving, T steps for the --tbptt chunk; in
UpdateLog.start: a stepless row dropped from update 0 (rnd69-21), dropped always, the checkpoint's own row dropped.
9 mutants. The old files named after the two modules catch 5 of 9; the new files alone catch 9 of 9.

    python tests/mutants/run.py --only 'v481-*'
"""
MEMORY = "lnrnn/training/memory.py"
RUNDIR = "lnrnn/training/rundir.py"
NEW_MEMORY = ["tests/training/test_values481_memory_window.py"]
NEW_RUNDIR = ["tests/training/test_values481_rundir_stepless.py"]
OLD_MEMORY = ["tests/commands/test_values419_memory_refusals.py", "tests/training/test_values10_memory.py",
              "tests/training/test_values118_progress_memory.py", "tests/training/test_values157_memory.py",
              "tests/training/test_values185_memory.py", "tests/training/test_values218_memory.py",
              "tests/training/test_values251_progress_memory.py", "tests/training/test_values271_prewarm_memory.py",
              "tests/training/test_values279_memory.py", "tests/training/test_values323_memory.py",
              "tests/training/test_values353_memory.py", "tests/training/test_values36_memory.py",
              "tests/training/test_values371_rundir_memory.py", "tests/training/test_values410_memory.py",
              "tests/training/test_values417_memory_extremes.py", "tests/training/test_values70_memory.py",
              "tests/training/test_values95_memory.py", "tests/training/test_values_memory.py"]
OLD_RUNDIR = ["tests/training/test_values116_rundir.py", "tests/training/test_values15_rundir.py",
              "tests/training/test_values185_rundir.py", "tests/training/test_values209_rundir.py",
              "tests/training/test_values222_rundir.py", "tests/training/test_values227_rundir.py",
              "tests/training/test_values251_rundir.py", "tests/training/test_values266_rundir.py",
              "tests/training/test_values321_rundir.py", "tests/training/test_values348_rundir.py",
              "tests/training/test_values371_rundir_memory.py", "tests/training/test_values397_rundir.py",
              "tests/training/test_values40_rundir.py", "tests/training/test_values420_rundir_log_rows.py",
              "tests/training/test_values431_rundir.py", "tests/training/test_values63_rundir.py",
              "tests/training/test_values91_rundir.py", "tests/training/test_values_rundir.py"]
WINDOW = ("        parts[\"window\"] = isz * (3 * K * (H + 1) * (3 + slots(cfg.optimizer)) + "
          "(Tc * B * 4 * K if on_host else 0))")
KEEP = "for r in rows if r.get(\"step\", 0) <= step"


def _memory(name, new, why):
    return dict(name="v481-memory-" + name, file=MEMORY, old=WINDOW, new=new, tests=NEW_MEMORY + OLD_MEMORY, why=why)


def _rundir(name, new, why):
    return dict(name="v481-rundir-" + name, file=RUNDIR, old=KEEP, new=new, tests=NEW_RUNDIR + OLD_RUNDIR, why=why)


MUTANTS = [
    _memory("device-one-more", WINDOW.replace("if on_host else 0", "if on_host else 1"),
            "the device's window part one value more than its weights (rnd70-32)"),
    _memory("device-keeps-steps", WINDOW.replace("if on_host else 0", "if not on_host else 0"),
            "p and kappa per step counted on the device and not on the host"),
    _memory("rows-without-bias", WINDOW.replace("(H + 1)", "H"), "the window's bias bp left out of its weights"),
    _memory("four-k-rows", WINDOW.replace("(3 * K", "(4 * K"), "4K rows of weights for 3K"),
    _memory("no-copy", WINDOW.replace("(3 + slots", "(2 + slots"),
            "the window's weights without their copy for saving"),
    _memory("whole-sequence", WINDOW.replace("Tc * B", "T * B"), "p and kappa over T steps where --tbptt keeps Tc"),
    _rundir("stepless-after-0", KEEP.replace("get(\"step\", 0)", "get(\"step\", 1)"),
            "a row without a step dropped by a resume from update 0 (rnd69-21)"),
    _rundir("stepless-dropped", KEEP.replace("r.get(\"step\", 0) <= step", "\"step\" in r and r[\"step\"] <= step"),
            "a row without a step dropped by every resume"),
    _rundir("drops-its-step", KEEP.replace("<= step", "< step"), "the checkpoint's own update's row dropped"),
]
