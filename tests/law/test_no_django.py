"""The law engine is pure Python: nothing under dogcase/law may import Django."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import dogcase.law

LAW_DIR = Path(dogcase.law.__file__).parent


def test_no_module_under_dogcase_law_imports_django():
    offenders = []
    for path in LAW_DIR.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [
                f"{path.name}: {n}" for n in names if n == "django" or n.startswith(("django.", "ninja"))
            ]
    assert offenders == []


def test_loading_the_law_does_not_load_django():
    code = (
        "import sys, dogcase.law as law; law.library();"
        "sys.exit(1 if any(m == 'django' or m.startswith('django.') for m in sys.modules) else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)  # noqa: S603
    assert result.returncode == 0, result.stderr
