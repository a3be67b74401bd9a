"""The type stubs name exactly what the module exports: every public name, and every public method and property of
every class (a method added without its stub fails here)."""

import ast
import pathlib

import swz

STUB = pathlib.Path(__file__).resolve().parents[1] / "python" / "swz" / "__init__.pyi"


def stub_names():
    tree = ast.parse(STUB.read_text())
    top, members = set(), {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            top.add(node.name)
        if isinstance(node, ast.ClassDef):
            members[node.name] = {
                n.name if isinstance(n, ast.FunctionDef) else n.target.id
                for n in node.body
                if isinstance(n, ast.FunctionDef) or (isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name))
            }
        if isinstance(node, ast.AnnAssign):
            top.add(node.target.id)
    return top, members


def test_stubs_match_the_module():
    top, members = stub_names()
    assert top == set(swz.__all__)
    for cls, names in members.items():
        if cls == "SwizzleError":
            continue
        public = {n for n in dir(getattr(swz, cls)) if not n.startswith("_")}
        assert public == {n for n in names if not n.startswith("_")}, cls
