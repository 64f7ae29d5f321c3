"""Planted bugs, round 46 (format: tests/mutants/mutants.py): the file names whose suffix says the format. The
commands' early checks and their writers read a name two ways (``str.endswith`` in lnrnn sample's, lnrnn
export's and predict's checks, ``os.path.splitext`` in the drawing and the learning curves): lnrnn sample --out
.svg passed the command's check, sampled every point, and was then refused by the drawing; lnrnn export --out
.safetensors wrote a hidden file with no name. Every check now goes through lnrnn.files.named_suffix (and lnrnn
sample's command through the drawing's own sample.picture_format), which refuses a name that is a suffix alone.
The eight older mutants of those lines (edges-export-*, values-sample-suffix-case, values-curves-suffix-not-checked,
v12-*-suffix-case, v12-sample-command-out-suffix-case, v39-sample-npz-any-suffix) are re-pointed to the new lines
and caught there.

The same probe of the Python API: lnrnn.api.load_run blamed the checkpoint for an unknown device argument, and
lnrnn.api.export_run told a caller who gave a folder to add a suffix, naming the command's --out.

7 mutants; no old test could catch them (the checks are new); tests/commands/test_values46_suffixes.py and
tests/test_values46_api.py catch each.

    python tests/mutants/run.py --only 'v46-*'
"""
NEW = ["tests/commands/test_values46_suffixes.py"]
FILES = "lnrnn/files.py"

MUTANTS = [
    dict(name="v46-files-suffix-alone-passes", file=FILES,
         old="    if base.lower() in suffixes:\n",
         new="    if False:\n",
         tests=NEW,
         why="--out .png is refused as a name without a picture suffix: the user is told to add the suffix it has"),
    dict(name="v46-files-suffix-alone-case", file=FILES,
         old="    if base.lower() in suffixes:\n",
         new="    if base in suffixes:\n",
         tests=NEW,
         why="--out .PNG is not seen as a suffix alone"),
    dict(name="v46-files-suffix-of-the-whole-path", file=FILES,
         old="    base = os.path.basename(str(path))\n",
         new="    base = str(path)\n",
         tests=NEW,
         why="runs/.svg is not seen as a suffix alone: only a bare '.svg' is"),
    dict(name="v46-drawing-reads-the-suffix-its-own-way", file="lnrnn/sample.py",
         old="    ext = named_suffix(path, FORMATS)\n",
         new="    ext = os.path.splitext(str(path))[1].lower() or None\n",
         tests=NEW,
         why="the drawing takes s.jpg (matplotlib writes a JPEG) where the command's rule refuses it"),
]

API = ["tests/test_values46_api.py"]
MUTANTS += [
    dict(name="v46-api-device-unchecked", file="lnrnn/api.py",
         old="    if device not in DEVICES:  # the caller's argument, not the checkpoint's description, is wrong\n",
         new="    if False:  # the caller's argument, not the checkpoint's description, is wrong\n",
         tests=API,
         why="load_run(path, device='tpu') says the checkpoint does not describe a model lnrnn can rebuild"),
    dict(name="v46-export-run-folder-called-suffixless", file="lnrnn/interop/export.py",
         old="    check_output_file(path, option)  # first: a folder is named as one, not as a name without a suffix\n",
         new="    pass  # first: a folder is named as one, not as a name without a suffix\n",
         tests=API,
         why="api.export_run(run, 'some_folder') is told to name it some_folder.safetensors"),
    dict(name="v46-export-run-option-of-the-command", file="lnrnn/interop/export.py",
         old="    check_suffix(path, option)\n",
         new="    check_suffix(path)\n",
         tests=API,
         why="api.export_run(run, 'w.pt') blames an --out the caller never gave"),
]
