"""Planted bugs in the early check of the names an output file would make (lnrnn/files.py: unmade_names; format:
tests/mutants/mutants.py): the link check dropped or applied to the file itself, the limit off by one, counted in
characters, or read from the wrong folder. tests/commands/test_files_unmade_names.py and
test_values229_files_predict_io_paths compare each refusal word for word and write at the edge.

    python tests/mutants/run.py --only 'names-*'
"""
F = "lnrnn/files.py"
T = ["tests/commands/test_files_unmade_names.py", "tests/commands/test_values229_files_predict_io_paths.py"]

MUTANTS = [
    dict(name="names-not-checked", file=F,
         old="    unmade_names(probe, target, text, option)\n",
         new="",
         tests=T,
         why="a folder that cannot be made passes the early check: the refusal comes after the work"),
    dict(name="names-link-not-refused", file=F,
         old="        if k < len(names) - 1 and os.path.islink(here):\n",
         new="        if k < len(names) - 1 and os.path.isdir(here):\n",
         tests=T,
         why="a link to nowhere where a folder would be made is let through"),
    dict(name="names-file-link-refused", file=F,
         old="        if k < len(names) - 1 and os.path.islink(here):\n",
         new="        if os.path.islink(here):\n",
         tests=T,
         why="an output file that is a dangling link is refused, though the write replaces it"),
    dict(name="names-limit-off-by-one", file=F,
         old="        if limit is not None and size > limit:\n",
         new="        if limit is not None and size >= limit:\n",
         tests=T,
         why="a name of exactly the file system's limit is refused"),
    dict(name="names-limit-in-characters", file=F,
         old="        size = len(os.fsencode(name))\n",
         new="        size = len(name)\n",
         tests=T,
         why="the limit counted in characters: 128 accented letters (256 bytes) pass"),
    dict(name="names-counts-existing-folders", file=F,
         old="    names = os.path.relpath(target, probe).split(os.sep)\n",
         new="    names = target.split(os.sep)[1:]\n",
         tests=T,
         why="the names of the existing folders above are checked too (as if they were to be made)"),
]
