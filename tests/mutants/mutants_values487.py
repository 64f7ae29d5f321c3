"""Planted bugs, round 487 (format: tests/mutants/mutants.py): the figure survivors of a seventy-eighth random sample
(tests/mutants/random_sample.py --seed 78 --count 40 --all-named, on 78f589c: 37 of 40 caught; its 3 missed are in
round 486's docstring) and their neighbours, eighty-third pass.

The planted bugs, in the figure of written lines and how it is saved: its grid of two columns (rnd78-09), an ink
row's height, an attention image's height from the line's points rather than its characters, the next line's ink
drawn in this line's image row, the title's half inch added without a title, draw_written's attention on by default
(rnd78-34), the pictures saved at 100 dots per inch. 7 mutants. The old files named after the module catch 3 of 7;
the new file alone catches 7 of 7, from where matplotlib placed each axes, the grid's height ratios, the figure's
size and a saved PNG's pixel size.

    python tests/mutants/run.py --only 'v487-*'
"""
SAMPLE = "lnrnn/sample.py"
NEW = ["tests/test_values487_sampler_layout.py"]
OLD = [
    "tests/commands/test_sample_text.py",
    "tests/commands/test_values42_sampler.py",
    "tests/commands/test_values400_sample_command.py",
    "tests/commands/test_values208_sample_cli.py",
    "tests/commands/test_values12_sample.py",
    "tests/commands/test_values143_sample_cli.py",
    "tests/commands/test_values221_sample_cli.py",
    "tests/commands/test_values52_sample_cli.py",
    "tests/commands/test_sample.py",
    "tests/commands/test_values126_sample_cli.py",
    "tests/commands/test_values14_sample.py",
    "tests/commands/test_values20_sample.py",
    "tests/commands/test_values21_sample.py",
    "tests/commands/test_values256_sampler.py",
    "tests/commands/test_values292_sample_text.py",
    "tests/commands/test_values300_sampler.py",
    "tests/commands/test_values308_sampler.py",
    "tests/commands/test_values52_sampler.py",
    "tests/commands/test_values99_sample_cli.py",
    "tests/commands/test_values_sampler_rule.py",
    "tests/model/test_values272_sampler_window.py",
    "tests/model/test_values337_sampler.py",
    "tests/test_values109_sampler.py",
    "tests/test_values120_sampler.py",
    "tests/test_values126_sampler.py",
    "tests/test_values133_sampler.py",
    "tests/test_values162_sampler.py",
    "tests/test_values198_sampler.py",
    "tests/test_values213_sampler.py",
    "tests/test_values221_sampler.py",
    "tests/test_values226_sampler.py",
    "tests/test_values238_sampler.py",
    "tests/test_values360_sampler.py",
    "tests/test_values378_sampler.py",
    "tests/test_values444_sample.py",
    "tests/test_values462_sample_scale.py",
    "tests/test_values480_sample_fits.py",
    "tests/test_values76_sampler.py",
    "tests/test_values87_sampler.py",
    "tests/test_values99_sampler.py",
    "tests/commands/test_values10_sample.py",
    "tests/commands/test_values237_train_sample.py",
    "tests/commands/test_values272_sample_cli.py",
    "tests/commands/test_values322_data_sample.py",
    "tests/commands/test_values367_sample.py",
    "tests/commands/test_values427_sample.py",
    "tests/commands/test_values428_sample.py",
    "tests/commands/test_values446_sample_cli_defaults.py",
    "tests/commands/test_values459_sample_prime_folder.py",
    "tests/commands/test_values69_sample_errors.py",
    "tests/test_values479_sampler_attention.py",
]


def _x(name, old, new, why):
    return dict(name=f"v487-{name}", file=SAMPLE, old=old, new=new, tests=NEW + OLD, why=why)


MUTANTS = [
    _x("two-columns", "    grid = fig.add_gridspec(len(heights), 1, height_ratios=heights)\n",
       "    grid = fig.add_gridspec(len(heights), 2, height_ratios=heights)\n",
       "the written lines' grid of two columns: rows fill it left to right, half as wide (rnd78-09)"),
    _x("ink-height", "        heights.append(1.6)\n", "        heights.append(1.2)\n",
       "an ink row 1.2 inches high where it is 1.6"),
    _x("image-height-points", "            heights.append(max(1.2, 0.13 * r.phi.shape[1] + 0.6))\n",
       "            heights.append(max(1.2, 0.13 * r.phi.shape[0] + 0.6))\n",
       "an attention image's height from the line's points, not its characters"),
    _x("image-row-shared", "            _attention(fig, fig.add_subplot(grid[k]), r)\n            k += 1\n",
       "            _attention(fig, fig.add_subplot(grid[k]), r)\n            k += 0\n",
       "the next line's ink drawn in the row of this line's attention image"),
    _x("title-room-always", "    fig = plt.figure(figsize=(10, sum(heights) + (0.5 if title else 0)))\n",
       "    fig = plt.figure(figsize=(10, sum(heights) + (0.5 if title else 0.5)))\n",
       "the title's half inch added without a title"),
    _x("attention-default", "def draw_written(results, path, title=None, attention=False, y_down=False):\n",
       "def draw_written(results, path, title=None, attention=True, y_down=False):\n",
       "draw_written draws the attention images unless told not to (rnd78-34)"),
    _x("dpi", "    write_output_file(path, lambda f: fig.savefig(f, format=fmt, dpi=120))\n",
       "    write_output_file(path, lambda f: fig.savefig(f, format=fmt, dpi=100))\n",
       "the written lines and strokes saved at 100 dots per inch, not 120"),
]
