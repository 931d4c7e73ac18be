"""The release: what the running code is, by content.

Everything the cache keeps (kept pages, fragments, sessions, players) is named under it,
as the cache's `KEY_PREFIX` (config/settings.py): a digest of every source the project
ships (Python, templates, translations, catalogues and other data files, static sources)
and of the secret key (the CSRF mark of kept pages derives from it). A deploy that changes
any of them, or an edit in development, starts from an empty cache by construction, with no
list of files to keep by hand; every process of one release (web workers, daphne, the
Celery worker) computes the same value, so they share their entries. About 40 ms, once per
process (2,760 KB in 468 files when it was written).
"""

import hashlib
from pathlib import Path

SOURCES = ("config", "characters", "campaigns", "rules", "templates", "locale", "static")
SUFFIXES = frozenset(
    {".py", ".html", ".txt", ".json", ".yaml", ".yml", ".toml", ".mo", ".js", ".css", ".svg",
     ".webmanifest"}
)  # fmt: skip


def code_release(root: Path, secret: str = "") -> str:
    """A digest of the sources under `root` (their paths and bytes) and of `secret`."""
    digest = hashlib.blake2b(digest_size=8)
    digest.update(hashlib.blake2b(secret.encode(), digest_size=16).digest())
    files = sorted(
        path
        for folder in SOURCES
        for path in (root / folder).rglob("*")
        if path.suffix in SUFFIXES and "__pycache__" not in path.parts and path.is_file()
    )
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()
