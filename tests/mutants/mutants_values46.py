"""Planted bugs, round 46 (format: tests/mutants/mutants.py): the file names whose suffix says the format. The
commands' early checks and their writers read a name two ways (``str.endswith`` in lnrnn sample's, lnrnn
export's and predict's checks, ``os.path.splitext`` in the drawing and the learning curves): lnrnn sample --out
.svg passed the command's check, sampled every point, and was then refused by the drawing; lnrnn export --out
.safetensors wrote a hidden file with no name. Every check now goes through lnrnn.files.named_suffix (and lnrnn
sample's and lnrnn plot's commands and drawings through one picture rule, training.plot.picture_format), which
refuses a name that is a suffix alone.
The eight older mutants of those lines (edges-export-*, values-sample-suffix-case, values-curves-suffix-not-checked,
v12-*-suffix-case, v12-sample-command-out-suffix-case, v39-sample-npz-any-suffix) are re-pointed to the new lines
and caught there.

The same probe of the Python API: lnrnn.api.load_run blamed the checkpoint for an unknown device argument, and
lnrnn.api.export_run told a caller who gave a folder to add a suffix, naming the command's --out.

And the bindings' sizes: lnrnn.torch's modules and cells, lnrnn.jax's init and init_stats and the layers read
them with one function (layers.check_sizes, which replaces three copies): hidden_size=True built a model of size
1, None was int()'s TypeError, init_stats took 2.5 steps as 2. Three older mutants of the replaced lines
(vals6-layers-zero-hidden-accepted, v19-jax-init-zero-layers-accepted, v19-jax-init-stats-steps-and-width-swapped)
are re-pointed to the new ones.

And lnrnn plot of several runs: one folder given twice (r, ./r/) was drawn as two runs under one label, and runs
whose folders share a name (runs/a/r, runs/b/r) were both labelled r.

15 mutants; no old test could catch them (the checks are new); tests/commands/test_values46_suffixes.py,
tests/test_values46_api.py, tests/interop/test_values46_layers_sizes.py and tests/commands/test_values46_plot_runs.py
catch each.

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
    dict(name="v46-drawing-reads-the-suffix-its-own-way", file="lnrnn/training/plot.py",
         old="    ext = named_suffix(path, FORMATS)\n",
         new="    ext = (\".\" + str(path).rsplit(\".\", 1)[1].lower()) if \".\" in str(path) else None\n",
         tests=NEW,
         why="the picture rule (training.plot.picture_format, samples and curves alike) takes s.jpg: matplotlib "
             "writes a JPEG where .png, .svg and .pdf are promised"),
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

SIZES = ["tests/interop/test_values46_layers_sizes.py"]
MUTANTS += [
    dict(name="v46-sizes-bool-taken", file="lnrnn/model/layers.py",
         old="            ok = not isinstance(v, (bool, str, bytes)) and int(v) == v and v >= 1\n",
         new="            ok = not isinstance(v, (str, bytes)) and int(v) == v and v >= 1\n",
         tests=SIZES,
         why="lnrnn.torch.LSTM(3, True) builds a model of hidden size 1"),
    dict(name="v46-sizes-fraction-floored", file="lnrnn/model/layers.py",
         old="            ok = not isinstance(v, (bool, str, bytes)) and int(v) == v and v >= 1\n",
         new="            ok = not isinstance(v, (bool, str, bytes)) and v >= 1\n",
         tests=SIZES,
         why="a hidden size of 2.5 is built as 2"),
    dict(name="v46-sizes-none-a-typeerror", file="lnrnn/model/layers.py",
         old="        except (TypeError, ValueError, OverflowError):\n",
         new="        except (ValueError, OverflowError):\n",
         tests=SIZES,
         why="hidden_size=None is int()'s TypeError, naming neither the class nor the argument"),
    dict(name="v46-sizes-kept-as-given", file="lnrnn/model/layers.py",
         old="        out[name] = int(v)\n",
         new="        out[name] = v\n",
         tests=SIZES,
         why="a module built with hidden_size=4.0 keeps a float size (its repr, exports and shapes read 4.0)"),
    dict(name="v46-jax-init-stats-unchecked", file="lnrnn/interop/jax.py",
         old='    H, T, L = check_sizes("init_stats", hidden_size=hidden_size, max_steps=max_steps, num_layers=num_layers).values()\n',
         new="    H, T, L = int(hidden_size), int(max_steps), int(num_layers)\n",
         tests=SIZES,
         why="init_stats(max_steps=2.5) keeps 2 rows of statistics; num_layers=0 returns no statistics"),
]

PLOT = ["tests/commands/test_values46_plot_runs.py"]
MUTANTS += [
    dict(name="v46-plot-same-run-twice-drawn", file="lnrnn/commands/plot.py",
         old="        if key in seen:\n",
         new="        if False:\n",
         tests=PLOT,
         why="lnrnn plot r r draws one run as two curves under one label"),
    dict(name="v46-plot-same-run-by-its-spelling", file="lnrnn/commands/plot.py",
         old="        key = os.path.realpath(r)\n",
         new="        key = r\n",
         tests=PLOT,
         why="lnrnn plot r ./r/ is taken for two runs"),
    dict(name="v46-plot-shared-names-one-label", file="lnrnn/commands/plot.py",
         old="    if len({d.label for d in data}) < len(data):  # runs/a/r and runs/b/r: the legend names them by their paths\n",
         new="    if False:  # runs/a/r and runs/b/r: the legend names them by their paths\n",
         tests=PLOT,
         why="runs/a/r and runs/b/r are both labelled r in the legend"),
]
