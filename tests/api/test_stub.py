"""The type stub ``pylayer_jax/__init__.pyi`` names what the package holds at run time.

Tensor methods and many ``paddle.<name>`` functions are made from the op table at import, so only the stub
shows them to a type checker. Oracle: the runtime names themselves (``dir(pylayer_jax)``, ``Tensor``'s members).
"""

import ast
import os

import gen_stub

import pylayer_jax as paddle


def _stub() -> str:
    with open(gen_stub.STUB) as f:
        return f.read()


def test_the_stub_is_up_to_date_with_the_runtime_names() -> None:
    # (after adding an op or a public name: python tests/gen_stub.py)
    assert _stub() == gen_stub.render()


def test_the_stub_declares_every_public_name_and_tensor_member() -> None:
    tree = ast.parse(_stub())
    top: set[str] = set()
    tensor: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == "Tensor":
            top.add("Tensor")
            tensor = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
            tensor |= {n.target.id for n in node.body if isinstance(n, ast.AnnAssign)}
        elif isinstance(node, ast.FunctionDef):
            top.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            top.add(node.target.id)
        elif isinstance(node, ast.Assign):
            top |= {t.id for t in node.targets}
        elif isinstance(node, ast.ImportFrom):
            top |= {a.asname for a in node.names if a.asname}
    assert set(dir(paddle)) <= top
    members = {n for n in vars(paddle.Tensor) if not n.startswith("_") or (n.startswith("__") and n.endswith("__"))}
    members -= {"__module__", "__doc__", "__slots__", "__weakref__"}
    assert members <= tensor
    assert {"tanh", "matmul", "backward", "numpy", "stop_gradient", "grad", "__add__", "__getitem__"} <= tensor
    assert {"tanh", "to_tensor", "grad", "Tensor", "float32", "nn", "optimizer"} <= top


def test_py_typed_and_the_stub_are_package_data() -> None:
    pkg = os.path.dirname(paddle.__file__)
    assert os.path.exists(os.path.join(pkg, "py.typed"))
    with open(os.path.join(os.path.dirname(gen_stub.STUB), "..", "..", "pyproject.toml")) as f:
        assert 'pylayer_jax = ["py.typed", "*.pyi"]' in f.read()
