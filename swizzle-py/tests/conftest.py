"""Shared helpers: the repository root, the `swz` binary the Python API is compared with, and the CLI tests'
hostile spellings."""

import os
import pathlib
import re
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def swz_binary():
    """`$SWZ_BIN`, else the debug build `cargo test --workspace` leaves in target/ (the test command builds it)."""
    path = pathlib.Path(os.environ.get("SWZ_BIN", ROOT / "target" / "debug" / "swz"))
    assert path.is_file(), f"{path} not found: build it with `cargo build -p swizzle-cli` or set SWZ_BIN"
    return str(path)


def run_swz(*args, stdin=None):
    """`swz ARGS`: (exit status, stdout, stderr)."""
    p = subprocess.run([swz_binary(), *args], capture_output=True, text=True, input=stdin, timeout=120)
    return p.returncode, p.stdout, p.stderr


def cli_error(stderr, flag, param):
    """The one-line reason of `swz: --flag: reason` as the Python API words it: `param: reason`."""
    assert stderr.startswith("swz: ") and stderr.count("\n") == 1, stderr
    line = stderr[len("swz: "):].rstrip("\n")
    return line.replace(flag, param, 1) if param is not None else line


def rust_str_list(path, name):
    """The string literals of `const NAME: &[&str] = &[...];` in a Rust test file."""
    text = (ROOT / path).read_text()
    m = re.search(r"const " + name + r": &\[&str\] = &\[(.*?)\];", text, re.S)
    assert m, f"{path} has no const {name}: the hostile spellings moved; update this test"
    items = [bytes(s, "utf-8").decode("unicode_escape") for s in re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1))]
    assert items, name
    return items


@pytest.fixture(scope="session")
def swz_bin():
    return swz_binary()
