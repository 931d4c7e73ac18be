"""Control of the settlement's steps from the worker tests, through files in a directory.

The worker tests start their Celery worker with `--include tests.settlement_checkpoints` and
SETTLEMENT_CHECKPOINT_DIR in its environment: this module then listens to
`campaigns.settlement.signals.settlement_step_reached` in that worker. The test writes
`control`:

- `kill <step>`: on reaching `<step>`, write `paused` ("<pid> <step>") and wait to be
  killed;
- `hold`: on reaching `start`, write `held` ("<pid>") and wait until `control` changes.

Every step reached is appended to `log` ("<pid> <step> <unix time>").
"""

import os
import time
from pathlib import Path

from campaigns.settlement.signals import settlement_step_reached


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


def _on_step(sender, step: str, **kwargs) -> None:
    reached(os.environ["SETTLEMENT_CHECKPOINT_DIR"], step)


if os.environ.get("SETTLEMENT_CHECKPOINT_DIR"):
    settlement_step_reached.connect(_on_step, dispatch_uid="settlement-checkpoints")
