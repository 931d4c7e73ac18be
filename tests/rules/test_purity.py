"""rules/engine/ is pure Python: it imports nothing from Django or the apps, so it runs anywhere."""

import ast
import subprocess
import sys
from pathlib import Path

from rules.engine.systems import SYSTEMS, system_get

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "rules" / "engine"
APPS = ("campaigns", "characters", "config")


def _imports(path: Path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module


def test_it_finds_no_django_or_app_import_under_the_engine():
    offenders = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in ENGINE.rglob("*.py")
        for name in _imports(path)
        if name.split(".")[0] in {"django", "rest_framework", "celery", *APPS}
        or (name.startswith("rules") and not name.startswith("rules.engine"))
    ]
    assert list(ENGINE.rglob("*.py")), "rules/engine/ holds the rules"
    assert offenders == []


def test_it_imports_every_rules_module_with_django_unavailable():
    """Importing all of rules/engine/ with `django` made unimportable still works."""
    modules = [
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for path in ENGINE.rglob("*.py")
    ]
    code = (
        "import sys, importlib\n"
        "sys.modules['django'] = None\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "print('ok')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_it_lists_the_five_game_systems_of_the_seeds():
    assert [s.slug for s in SYSTEMS] == [
        "kolaps",
        "of-the-dead",
        "rapid40k",
        "corporates",
        "modern-rpg",
    ]
    assert system_get("kolaps").source == "000_54d039a2b5ac2f23.txt"
