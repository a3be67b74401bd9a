"""The README's "From Python" example and the package docstring run as written."""

import doctest
import re

import swz
from conftest import ROOT


def python_blocks(text, section):
    body = text.split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", body, re.S)
    assert blocks, f"no python example under {section!r}"
    return blocks


def test_readme_from_python_runs(capsys):
    for block in python_blocks((ROOT / "README.md").read_text(), "From Python"):
        exec(compile(block, "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "bank conflicts in 1 of 2 pattern(s): ldmatrix.x4" in out
    assert "|S| must be >= B" in out


def test_package_readme_examples_run():
    for block in python_blocks((ROOT / "swizzle-py" / "README.md").read_text(), "The API in one screen"):
        exec(compile(block, "swizzle-py/README.md", "exec"), {})


def test_docstring_examples():
    failed, tried = doctest.testmod(swz, verbose=False)
    assert tried > 0 and failed == 0
