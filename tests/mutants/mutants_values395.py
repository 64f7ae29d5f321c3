"""Planted bugs, round 395 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates,
in the checkpoints (lnrnn/training/checkpoint.py), twentieth pass, planted before any test was written for them: the
arrays file's SHA-256 cut to its first 16 hex digits; a failed save's refusal quoting the whole OSError instead of
its reason; that refusal without what to do; a failed save over an earlier checkpoint reading its description as
text, so an AttributeError escapes; a --keep copy's arrays file a symbolic link instead of a hard link; the copy's
temp file made in the run folder; a failed copy advising a larger --keep; that refusal calling the removed copy's
folder the run's saved checkpoint; no checkpoint at a path advising `lnrnn train --checkpoint DIR`; the description
decoded as Latin-1; an unreadable arrays file refused naming the description; a superseded arrays file that cannot
be deleted failing a save already committed.

12 mutants. Against the old targeted files alone (the 17 checkpoint test files of tests/training listed in OLD): 7
of 12 caught; missed: the copy's temp file in the run folder, the larger --keep, the removed copy called saved, the
description read as Latin-1, an undeletable old arrays file failing the save. The new file test_values395_checkpoint
catches the five misses: a --keep copy with no hard link and a disk full half-way through the copy refused word for
word (update, the copy's folder, the reason, free space or a smaller --keep, the run's own folder saved) with the run
folder holding what it held before and nothing under checkpoints/; a description edited by hand as UTF-8 (as
json.dumps writes it with ensure_ascii off) read back with its text intact, and one holding byte 0xE9 refused in the
words Python's UTF-8 decoder gives for those bytes; update 10 saved over update 9 whose arrays file cannot be
unlinked (EACCES): the save done and loading, the old file left, and dropped by the next save. 6 of 12 alone
(measured with every list cut to it): the five misses and the symbolic link (its copy needs no copyfile, so the
half-way failure never comes). Nothing left out as equivalent.

    python tests/mutants/run.py --only 'v395-*'
"""
CKPT = "lnrnn/training/checkpoint.py"
NEW = ["tests/training/test_values395_checkpoint.py"]
OLD = [
    "tests/training/test_checkpoint.py",
    "tests/training/test_checkpoints_best.py",
    "tests/training/test_values102_checkpoint.py",
    "tests/training/test_values122_checkpoint.py",
    "tests/training/test_values142_checkpoint.py",
    "tests/training/test_values14_checkpoint.py",
    "tests/training/test_values19_checkpoint.py",
    "tests/training/test_values209_checkpoint.py",
    "tests/training/test_values222_checkpoint.py",
    "tests/training/test_values227_checkpoint.py",
    "tests/training/test_values259_checkpoint.py",
    "tests/training/test_values274_checkpoint_progress.py",
    "tests/training/test_values321_checkpoint.py",
    "tests/training/test_values348_checkpoint.py",
    "tests/training/test_values370_optim_checkpoint.py",
    "tests/training/test_values63_checkpoint.py",
    "tests/training/test_values91_checkpoint.py",
]

MUTANTS = [
    dict(name="v395-ckpt-hash-cut-to-16-digits", file=CKPT,
         old="    return h.hexdigest()\n",
         new="    return h.hexdigest()[:16]\n",
         tests=NEW + OLD,
         why="the arrays file's SHA-256 recorded and checked as its first 16 hex digits only"),
    dict(name="v395-ckpt-save-error-quotes-the-whole-oserror", file=CKPT,
         old='f"({e.strerror or e}; it needs about {size})',
         new='f"({e}; it needs about {size})',
         tests=NEW + OLD,
         why="a failed save's refusal quotes the OSError whole ([Errno n] ... 'path') instead of its reason"),
    dict(name="v395-ckpt-save-error-without-the-hint", file=CKPT,
         old='): {space_hint(e)}; {kept}.")',
         new='); {kept}.")',
         tests=NEW + OLD,
         why="a failed save's refusal drops what to do (free some space, make the folder writable)"),
    dict(name="v395-ckpt-save-error-reads-the-kept-description-as-text", file=CKPT,
         old='        with open(os.path.join(directory, DESCRIPTION), "rb") as f:\n            kept',
         new='        with open(os.path.join(directory, DESCRIPTION), "r") as f:\n            kept',
         tests=NEW + OLD,
         why="a failed save over an earlier checkpoint escapes as an AttributeError (a str has no decode)"),
    dict(name="v395-ckpt-keep-past-symlinks-the-arrays", file=CKPT,
         old="                os.link(os.path.join(directory, name), tmp)",
         new="                os.symlink(os.path.join(directory, name), tmp)",
         tests=NEW + OLD,
         why="a kept copy's arrays file a symbolic link to the run's: the next save deletes what it points at"),
    dict(name="v395-ckpt-keep-past-temp-in-the-run-folder", file=CKPT,
         old='    tmp = os.path.join(dest, ".tmp-" + name)',
         new='    tmp = os.path.join(directory, ".tmp-" + name)',
         tests=NEW + OLD,
         why="the kept copy's temp file made in the run folder: a failed copy leaves it there"),
    dict(name="v395-ckpt-keep-refusal-asks-a-larger-keep", file=CKPT,
         old="or pass a smaller --keep;",
         new="or pass a larger --keep;",
         tests=NEW + OLD,
         why="a failed --keep copy advises a larger --keep"),
    dict(name="v395-ckpt-keep-refusal-says-the-copy-is-saved", file=CKPT,
         old='f"checkpoint in {directory} is saved.")',
         new='f"checkpoint in {dest} is saved.")',
         tests=NEW + OLD,
         why="a failed --keep copy says the half-made (removed) copy is the run's saved checkpoint"),
    dict(name="v395-ckpt-none-advice-names-checkpoint-flag", file=CKPT,
         old='"`lnrnn train --out DIR` first.")',
         new='"`lnrnn train --checkpoint DIR` first.")',
         tests=NEW + OLD,
         why="no checkpoint at a path: the advice names --checkpoint, which reads one, not --out"),
    dict(name="v395-ckpt-description-read-as-latin-1", file=CKPT,
         old='            meta = json.loads(f.read().decode("utf-8"))',
         new='            meta = json.loads(f.read().decode("latin-1"))',
         tests=NEW + OLD,
         why="a description read as Latin-1: UTF-8 text in it comes back garbled, bad bytes are not refused"),
    dict(name="v395-ckpt-unreadable-arrays-names-the-description", file=CKPT,
         old='f"checkpoint arrays file {npz_path} cannot be read ({e}).")',
         new='f"checkpoint arrays file {desc} cannot be read ({e}).")',
         tests=NEW + OLD,
         why="an unreadable arrays file refused naming the description as the arrays file"),
    dict(name="v395-ckpt-undeletable-old-arrays-fail-the-save", file=CKPT,
         old="            except OSError:\n                pass",
         new="            except FileNotFoundError:\n                pass",
         tests=NEW + OLD,
         why="a superseded arrays file that cannot be deleted (EACCES, EBUSY) fails a save already committed"),
]
