"""The house's rules that a machine checks beside import-linter (`lint-imports` in
`make test`, contracts in pyproject.toml): no import inside a function to dodge a cycle,
the rules app's layer lists every module of the app, and no comment names a branch or an
issue."""

import ast
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APPS = ("config", "characters", "campaigns", "rules")


def _sources(*folders: str):
    for folder in folders or APPS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


def _project_imports_inside_functions(path: Path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                if name.split(".")[0] in APPS:
                    yield f"{path.relative_to(ROOT)}:{node.lineno} imports {name}"


def test_it_finds_no_project_import_inside_a_function():
    offenders = [line for path in _sources() for line in _project_imports_inside_functions(path)]
    assert offenders == []


def test_it_lists_every_module_of_the_rules_app_in_its_layer():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    layers = next(c for c in config["contracts"] if c["type"] == "layers")["layers"]
    app_layer = next(layer for layer in layers if "rules.calculators" in layer)
    listed = {name.strip() for name in re.split(r"[:|]", app_layer)}
    present = {
        f"rules.{path.stem}"
        for path in (ROOT / "rules").iterdir()
        if path.name not in {"__init__.py", "engine", "migrations", "__pycache__"}
        and (path.suffix == ".py" or (path / "__init__.py").exists())
    }
    assert listed == present


def test_it_finds_no_comment_naming_a_branch_or_an_issue():
    words = ["issue", "issues"]
    pattern = re.compile(
        rf"\b(?:{'|'.join(words)}) \d|\bbranch\)|\(\w+ branch|\bkchap\b|\botd\b", re.I
    )
    offenders = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in _sources(*APPS, "tests")
        if path != Path(__file__).resolve()
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line)
    ]
    assert offenders == []
