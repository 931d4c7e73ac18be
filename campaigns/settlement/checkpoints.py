"""Test-only control of the settlement's checkpoints, through files in a directory.

Used only when SETTLEMENT_CHECKPOINT_DIR is set (the worker tests set it for their own
worker; production leaves it empty and `campaigns.settlement.services._checkpoint` returns at
once). The test writes `control`:

- `kill <step>`: on reaching `<step>`, write `paused` ("<pid> <step>") and wait to be
  killed;
- `hold`: on reaching `start`, write `held` ("<pid>") and wait until `control` changes.

Every step reached is appended to `log` ("<pid> <step> <unix time>").
"""

import os
import time
from pathlib import Path


def _control(directory: Path) -> str:
    try:
        return (directory / "control").read_text().strip()
    except FileNotFoundError:
        return ""


def _write(path: Path, text: str) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text)
    tmp.replace(path)  # atomic: the test never reads half a line


def reached(directory: str, step: str) -> None:
    root = Path(directory)
    pid = os.getpid()
    with open(root / "log", "a") as log:
        log.write(f"{pid} {step} {time.time():.3f}\n")
    control = _control(root)
    if control == f"kill {step}":
        _write(root / "paused", f"{pid} {step}")
        while True:  # until SIGKILL
            time.sleep(0.05)
    if control == "hold" and step == "start":
        _write(root / "held", str(pid))
        while _control(root) == "hold":
            time.sleep(0.05)
