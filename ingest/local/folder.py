"""The data folder as the file system sees it: a folder that cannot be written is the user's to fix."""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ingest.errors import FolderNotWritable

# What a read-only mount, a folder without write permission or a locked-down parent raise.
_NOT_WRITABLE = {errno.EACCES, errno.EPERM, errno.EROFS}


@contextmanager
def not_writable_as_error(data_dir: Path) -> Iterator[None]:
    """Turn "cannot write here" OSErrors into FolderNotWritable naming the folder (or the
    existing ancestor that stopped it being created); other OSErrors pass through."""
    try:
        yield
    except OSError as exc:
        if exc.errno not in _NOT_WRITABLE:
            raise
        cause = os.strerror(exc.errno).lower()
        existing = next((p for p in (data_dir, *data_dir.parents) if _exists(p)), None)
        blocked_by = None if existing == data_dir else str(existing)
        raise FolderNotWritable(str(data_dir), cause, blocked_by) from exc


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except OSError:  # a parent that may not be searched: as good as absent here
        return False
