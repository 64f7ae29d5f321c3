"""README.md and docs/*.md stay true to the tree they describe.

Checked: every relative link, image and anchor resolves; every repository path written in backticks
exists; README carries the set-up and test command that `.ci/run` runs, verbatim; README's package map
names every module file under `lnrnn/` (a module added without a map entry fails here); the pages speak
of the project alone (no issue numbers, no "session", no "this machine"); README stays a user's page.
Pure text checks: nothing is imported from lnrnn, nothing compiles.
"""
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
# pages other parts of the project write: a link to them may come before the page does
MAY_BE_ABSENT = {DOCS / "bindings.md", DOCS / "commands.md"}
README_MAX_LINES = 400  # a user's page; measurements and design reasoning live in docs/

LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")  # [text](target), ![alt](target)
CODE_SPAN = re.compile(r"`([^`\n]+)`")
REPO_PATH = re.compile(r"^(?:lnrnn|bench|tests|notebooks|docs|data|\.ci)/[\w./-]*$")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
NOT_THE_PROJECT = [
    (re.compile(r"\bissues? #?\d+", re.I), "an issue number"),
    (re.compile(r"\bsessions?\b", re.I), "'session'"),
    (re.compile(r"\bthis machine\b", re.I), "'this machine'"),
    (re.compile(r"\bour machine\b", re.I), "'our machine'"),
    (re.compile(r"\bruns/i\d+\b"), "a run folder named after an issue"),
]


def pages():
    return [README] + sorted(DOCS.glob("*.md"))


def page_ids(paths):
    return [str(p.relative_to(ROOT)) for p in paths]


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation other than - and _ dropped, spaces -> -."""
    text = re.sub(r"[`*]", "", heading.strip().lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link in a heading anchors by its text
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    """Every heading anchor of a Markdown file (repeated headings get -1, -2, ... as on GitHub)."""
    seen, out = {}, set()
    for line in FENCE.sub("", path.read_text(encoding="utf-8")).splitlines():
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            s = slug(m.group(1))
            n = seen.get(s, 0)
            seen[s] = n + 1
            out.add(s if n == 0 else f"{s}-{n}")
    return out


def links(path):
    text = path.read_text(encoding="utf-8")
    return [m.group(1) for m in LINK.finditer(text)]


@pytest.mark.parametrize("page", pages(), ids=page_ids(pages()))
def test_every_relative_link_and_image_resolves(page):
    broken = []
    for target in links(page):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # https:, mailto:, ...
            continue
        file_part, _, anchor = target.partition("#")
        dest = (page.parent / file_part).resolve() if file_part else page
        if not dest.exists():
            if dest not in MAY_BE_ABSENT:
                broken.append(f"{target}: no such file")
            continue
        if anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(f"{target}: no heading with anchor #{anchor} in {dest.relative_to(ROOT)}")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


@pytest.mark.parametrize("page", pages(), ids=page_ids(pages()))
def test_every_repository_path_in_backticks_exists(page):
    """`lnrnn/training/memory.py`, `bench/results/...`: a path a reader is sent to must be there (globs and
    placeholders such as `tests/test_cuda_*.py` or `mutants_<topic>.py` are not paths)."""
    missing = []
    for span in CODE_SPAN.findall(FENCE.sub("", page.read_text(encoding="utf-8"))):
        for word in span.split():
            word = word.rstrip(",;:.)")
            if not REPO_PATH.match(word):
                continue
            path = word.split(":", 1)[0]
            if not (ROOT / path).exists() and (ROOT / path).resolve() not in MAY_BE_ABSENT:
                missing.append(word)
    assert not missing, f"{page.relative_to(ROOT)} names paths that do not exist: {missing}"


def ci_commands():
    """The `pip install ... && python -m pytest ...` lines of .ci/run."""
    text = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines()
            if re.match(r"^\s*pip install .*&&\s*python -m pytest\b", line)]


def test_readme_has_the_commands_ci_runs():
    commands = ci_commands()
    assert commands, ".ci/run has no `pip install ... && python -m pytest` line"
    fenced = "\n".join(FENCE.findall(README.read_text(encoding="utf-8")))
    for command in commands:
        assert re.search(rf"^{re.escape(command)}\s*$", fenced, re.M), \
            f"README's set-up block lacks the command .ci/run runs, verbatim: {command}"
    assert re.search(r"^pip install -e \. && lnrnn train\s*$", fenced, re.M), \
        "README's set-up block lacks the first command (install, then the main job)"


def package_map():
    """The paths (relative to the repository) that README's package map names.

    The map is the fenced block under '## Package map': one entry per line, indented two spaces per
    folder level; an entry starts with one or more names separated by ', ' (a folder ends in '/'),
    then two or more spaces and what it holds. Lines that start otherwise continue a description."""
    text = README.read_text(encoding="utf-8")
    m = re.search(r"^## Package map\s*\n+```[^\n]*\n(.*?)^```", text, re.S | re.M)
    assert m, "README has no '## Package map' section with a fenced block"
    named, folders = set(), []  # folders: [(indent, 'lnrnn/kernels/'), ...]
    for line in m.group(1).splitlines():
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip(" "))
        field = re.split(r"\s{2,}", line.strip(), maxsplit=1)[0]
        names = [n.strip() for n in field.split(",")]
        if not all(re.fullmatch(r"[A-Za-z_][\w]*(?:\.py|/)", n) for n in names):
            continue
        while folders and folders[-1][0] >= indent:
            folders.pop()
        parent = folders[-1][1] if folders else ""
        for n in names:
            named.add(parent + n)
        if len(names) == 1 and names[0].endswith("/"):
            folders.append((indent, parent + names[0]))
    return named


def test_package_map_names_every_module():
    named = package_map()
    modules = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "lnrnn").rglob("*.py")
                     if "__pycache__" not in p.parts)
    missing = [m for m in modules if m not in named]
    assert not missing, f"README's package map has no entry for {missing}: add a line under its folder"
    folders = {str(p.relative_to(ROOT)) + "/" for p in (ROOT / "lnrnn").rglob("*")
               if p.is_dir() and "__pycache__" not in p.parts and any(p.glob("*.py"))}
    assert folders <= named, f"README's package map lacks the folders {sorted(folders - named)}"


@pytest.mark.parametrize("page", pages(), ids=page_ids(pages()))
def test_pages_speak_of_the_project_alone(page):
    text = page.read_text(encoding="utf-8")
    found = [f"{what}: {m.group(0)!r} (line {text.count(chr(10), 0, m.start()) + 1})"
             for pattern, what in NOT_THE_PROJECT for m in pattern.finditer(text)]
    assert not found, f"{page.relative_to(ROOT)}: " + "; ".join(found)


def test_readme_is_a_users_page():
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= README_MAX_LINES, \
        f"README has {lines} lines; move measurements and design reasoning to docs/ (at most {README_MAX_LINES})"
    for required in ("## Set-up", "## Quick start", "## Python API", "## Package map", "## In PyTorch and JAX"):
        assert required in README.read_text(encoding="utf-8"), f"README lacks its section {required!r}"
