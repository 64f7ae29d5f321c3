"""Planted bugs, round 410 (format: tests/mutants/mutants.py): single-line slips in the memory estimate and the
memory a run may still take (lnrnn/training/memory.py), twentieth pass, planted before any test was written for
them.

The planted bugs: a skip-connected stack's head counted as reading the top layer alone; a bidirectional stack's
activations counted for one direction; a --tbptt longer than the sequence counted at its own length; a head that
reads the last step counted at every step; a /proc/meminfo line that cannot be parsed, a sysconf name this system
lacks, and a cgroup usage file that is not a number each ending in a traceback. 7 mutants. The old targeted files
alone (the memory files in OLD) catch 4 of 7; missed: the three except clauses (a meminfo line that is no number, no
SC_AVPHYS_PAGES, a cgroup usage that is no number). test_values410_memory counts a skip-connected and a
bidirectional stack by hand, a head on every step against one on the last, --tbptt at and past the sequence, and
serves garbled meminfo and cgroup files and a sysconf that knows no name through the stand-in open of
test_values_memory: the next source or nothing, and a run let through. NEW + OLD catch 7 of 7; the new file alone
catches 7 of 7. Nothing left out as equivalent.

    python tests/mutants/run.py --only 'v410-*'
"""
MEMORY = "lnrnn/training/memory.py"
NEW = ["tests/training/test_values410_memory.py"]
OLD = [
    "tests/training/test_values10_memory.py",
    "tests/training/test_values118_progress_memory.py",
    "tests/training/test_values157_memory.py",
    "tests/training/test_values185_memory.py",
    "tests/training/test_values218_memory.py",
    "tests/training/test_values251_progress_memory.py",
    "tests/training/test_values271_prewarm_memory.py",
    "tests/training/test_values279_memory.py",
    "tests/training/test_values323_memory.py",
    "tests/training/test_values353_memory.py",
    "tests/training/test_values36_memory.py",
    "tests/training/test_values371_rundir_memory.py",
    "tests/training/test_values70_memory.py",
    "tests/training/test_values95_memory.py",
    "tests/training/test_values_memory.py",
]

MUTANTS = [
    dict(name="v410-skip-head-reads-top-layer", file=MEMORY,
         old="    params = (W * L if skip else W) * outputs + outputs",
         new="    params = W * outputs + outputs",
         tests=NEW + OLD,
         why="the head of a skip-connected stack reads every layer's output, counted as reading the top one"),
    dict(name="v410-bidirectional-activations-halved", file=MEMORY,
         old="    per_row_step = D * L * (a * H + c)",
         new="    per_row_step = L * (a * H + c)",
         tests=NEW + OLD,
         why="a bidirectional stack's activations counted for its forward direction alone"),
    dict(name="v410-tbptt-past-the-sequence", file=MEMORY,
         old="    Tc = min(cfg.tbptt or T, T)",
         new="    Tc = cfg.tbptt or T",
         tests=NEW + OLD,
         why="--tbptt 1000 on sequences of 28 steps counted as keeping 1000 steps of activations"),
    dict(name="v410-last-step-head-every-step", file=MEMORY,
         old="    head = outputs * (T if per_step else 1)",
         new="    head = outputs * T",
         tests=NEW + OLD,
         why="a classifier on the last step counted as writing its outputs at every step"),
    dict(name="v410-meminfo-garbled-traceback", file=MEMORY,
         old="    except (OSError, ValueError, IndexError):",
         new="    except OSError:",
         tests=NEW + OLD,
         why="a MemAvailable line that is not a number (a container's stand-in meminfo) ends in a ValueError"),
    dict(name="v410-sysconf-name-missing-traceback", file=MEMORY,
         old="        except (ValueError, OSError, AttributeError):",
         new="        except OSError:",
         tests=NEW + OLD,
         why="no MemAvailable and a system without SC_AVPHYS_PAGES (ValueError) ends in a traceback"),
    dict(name="v410-cgroup-usage-garbled-traceback", file=MEMORY,
         old="        except (OSError, ValueError):\n            continue",
         new="        except OSError:\n            continue",
         tests=NEW + OLD,
         why="a cgroup usage file that is not a number ends in a ValueError traceback"),
]
