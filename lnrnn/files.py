"""Where lnrnn writes files: every file a command or run writes goes through ``atomic_write`` (a temp
file beside the target, fsync, rename), so a crash or Ctrl-C leaves the old file or the new one, never
a torn one, and new files get the permissions the user's umask gives (``mkstemp`` alone would make
them owner-only).

A command's output (``--out``, ``--npz``) is checked before any work (``check_output_file``: not a folder,
under a writable folder, no file in the way), and written by ``write_output_file``, which creates the
missing folders above it first, as ``lnrnn train`` creates its run folder. Where a file's format follows
from its name (a picture, an .npz, a .safetensors), ``named_suffix`` reads the name, the one rule every
command's check and writer share."""
import os
import tempfile


def umask():
    """The process's umask (read from /proc where it can be, as setting it to read it races with threads)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _open_temp(fd):
    """The file object ``atomic_write`` hands its writer (a seam: tests put a full disk here)."""
    return os.fdopen(fd, "wb")


def _os_error_within(e):
    """The OSError that ``e`` is or that its chain of causes holds, else None. A writer that meets a full
    disk may raise something else while it cleans up (matplotlib's PDF writer: zlib.error or AttributeError,
    with the OSError as its context); the disk's error is what the user needs to hear."""
    seen = set()
    while e is not None and id(e) not in seen:
        if isinstance(e, OSError):
            return e
        seen.add(id(e))
        e = e.__cause__ or e.__context__
    return None


def atomic_write(path, write):
    """Call write(fileobj) on a temp file beside path, fsync it, then rename it over path. Any failure
    removes the temp file and leaves the old ``path``, if any, as it was; a failure to write (a full disk,
    a read-only folder), whatever the writer made of it, is raised as an OSError naming ``path``."""
    folder = os.path.dirname(os.path.abspath(path))
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=folder)
        os.fchmod(fd, 0o666 & ~umask())  # what open() would have given the file
        with _open_temp(fd) as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException as e:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
        cause = _os_error_within(e) if isinstance(e, Exception) else None
        if cause is None:
            raise
        raise OSError(cause.errno, cause.strerror or str(cause), str(path)) from None


def atomic_write_text(path, text):
    """Write a str to path atomically, as UTF-8."""
    atomic_write(path, lambda f: f.write(text.encode("utf-8")))


def nearest_existing(path):
    """``path`` itself, or its nearest ancestor that exists: where a missing path would be created."""
    probe = path
    while not os.path.exists(probe):
        parent = os.path.dirname(probe)
        if parent == probe:
            break
        probe = parent
    return probe


def missing_before_up(text):
    """The first folder of path ``text`` that a '..' step leaves but that does not exist, else None. The
    checks here read paths the way os.path.abspath writes them ('a/..' dropped without looking at the disk),
    but the file system walks into 'a' first: such a path would pass every check and fail at the write."""
    parts = text.split(os.sep)
    for i, part in enumerate(parts):
        if part == "..":
            head = os.sep.join(parts[:i]) or (os.sep if text.startswith(os.sep) else os.curdir)
            if not os.path.isdir(head):
                return head
    return None


def write_error(folder):
    """None when a new file can be created in ``folder``, else the OSError that says why. The probe is an
    unnamed temporary file: nothing is left behind."""
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as e:
        return e
    return None


def named_suffix(path, suffixes, option="--out"):
    """The lower-cased extension of ``path``'s file name if it is one of ``suffixes`` (lower case, with
    their dot), else None: the caller says what it expected. A name that is one of them alone ('.png',
    'runs/.safetensors': a hidden file with nothing before its dot, to which os.path.splitext gives no
    extension) is a UserError, so that a command's early check and its writer never disagree on it."""
    from lnrnn.errors import UserError

    base = os.path.basename(str(path))
    if base.lower() in suffixes:
        raise UserError(f"{option} {str(path)!r} is a suffix alone; give the file a name before {base}.")
    ext = os.path.splitext(base)[1].lower()
    return ext if ext in suffixes else None


def check_output_file(path, option="--out"):
    """UserError unless ``path`` names a file lnrnn can write: not a folder, and its nearest existing
    ancestor a writable folder (missing folders between are created when the file is written). Creates
    nothing (the probe is an unnamed temporary file); commands call it before any work, so a bad
    destination costs no computation."""
    from lnrnn.errors import UserError

    text = str(path)
    if not text.strip():
        raise UserError(f"{option} {text!r} names no file; give a file name.")
    if text.endswith(os.sep):
        raise UserError(f"{option} {text!r} names a folder; give a file name.")
    up = missing_before_up(text)
    if up is not None:
        raise UserError(f"{option} {text} goes up ('..') from {up}, which does not exist, so it cannot be written "
                        f"there; give the path without that step.")
    target = os.path.abspath(text)
    if os.path.isdir(target):
        raise UserError(f"{option} {text} is a folder; give a file name inside it.")
    probe = nearest_existing(os.path.dirname(target))
    if not os.path.isdir(probe):
        raise UserError(f"{probe} is a file, not a folder, so {option} {text} cannot be written there; choose "
                        f"another {option}.")
    unmade_names(probe, target, text, option)
    e = write_error(probe)
    if e is not None:
        where = "" if probe == os.path.dirname(target) else f", where {option} {text} would be created"
        raise UserError(f"cannot write to {probe}{where} ({e.strerror or e}); choose another {option} or make "
                        "it writable.")
    return text


def unmade_names(probe, target, text, option):
    """UserError where a folder to be made between the existing folder ``probe`` and ``target`` (a file's
    absolute path) cannot be made, or the file's own name cannot be: a link to nowhere where a folder would be
    made (os.path.exists follows it, so nearest_existing walked past it), or a name longer than the file
    system's limit (NAME_MAX bytes, 255 on Linux's file systems)."""
    from lnrnn.errors import UserError

    try:
        limit = os.pathconf(probe, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):   # no such query here (Windows): the write will say
        limit = None
    names = os.path.relpath(target, probe).split(os.sep)
    for k, name in enumerate(names):
        here = os.path.join(probe, *names[:k + 1])
        if k < len(names) - 1 and os.path.islink(here):
            raise UserError(f"{here} is a link to {os.readlink(here)}, which does not exist, so {option} {text} "
                            f"cannot be written there; choose another {option}.")
        size = len(os.fsencode(name))
        if limit is not None and size > limit:
            raise UserError(f"{option} {text} has a name of {size} bytes ({name[:16]}...), longer than the {limit} "
                            f"the file system allows; choose a shorter {option}.")


def prepare_output_file(path, option="--out"):
    """``check_output_file``, then create the missing folders above ``path`` (as ``lnrnn train`` creates its
    run folder). -> path."""
    from lnrnn.errors import UserError

    check_output_file(path, option)
    folder = os.path.dirname(os.path.abspath(str(path)))
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as e:
        raise UserError(f"cannot create the folder {folder} for {option} {path} ({e.strerror or e}); choose "
                        f"another {option}.") from None
    return str(path)


def write_output_file(path, write, option="--out"):
    """What a command writes for the user: ``prepare_output_file``, then ``atomic_write``; an OSError on
    the way (a full disk, a folder removed meanwhile) is a UserError naming the option, and the old file,
    if any, is kept."""
    from lnrnn.errors import UserError

    prepare_output_file(path, option)
    try:
        atomic_write(str(path), write)
    except OSError as e:
        raise UserError(f"cannot write {option} {path} ({e.strerror or e}): {space_hint(e)} or choose another "
                        f"{option}; nothing was written.") from None
    return str(path)


def space_hint(e):
    """What the user must do about an OSError met while writing: free space, or make the place writable."""
    import errno

    if e.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return "free some space there"
    if e.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return "make the folder writable"
    return "check that file system"
