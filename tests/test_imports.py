"""Imports run one way: no circle among towerworld's modules, counting imports inside functions.

Every `import` and `from ... import` of a towerworld module in every module (at the top, inside a function, under
`TYPE_CHECKING`: all of them) is an edge of a graph; a circle is a strongly connected component of more than one
module, or a module that imports itself. An import inside a function is there only to load a heavy library when it
is first used (so that `towerworld check`, `simulate` and the window's first frame do not wait for it): its target is
one of HEAVY, or a towerworld module that imports one at its top (directly or through the modules it imports there).
"""
from __future__ import annotations

import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "towerworld"

# the only libraries a function may import for itself: each is slow to load (import times on this 2-core machine,
# after the engine's own modules are loaded) and needed by few callers
HEAVY = frozenset({
    "panda3d", "direct",        # Panda3D: about 250 ms with its window machinery; Bullet apart (panda3d.bullet)
    "pyspiel", "open_spiel",    # OpenSpiel (and scipy with it): the research adapter only
    "ray", "matplotlib",        # the ladder's cluster and its charts
    "numpy",                    # 140 ms: the ladder's statistics
    "imageio_ffmpeg", "imageio",  # the video encoder
    "asyncio",                  # 37 ms: the network's event loop
    "websockets", "msgspec",    # 35 ms and 15 ms: the network's connections and its wire format
    "multiprocessing",          # 10 ms: the worker process an AI seat thinks in, started on its first turn
    "importlib.resources",      # 21 ms: a game's help text, read when the help overlay first opens
})


def is_heavy(name: str) -> bool:
    """Whether importing the module `name` (or a name from it) loads one of HEAVY."""
    return any(name == h or name.startswith(h + ".") for h in HEAVY)


def modules(root: str = ROOT) -> dict[str, str]:
    """Dotted module name -> file path, for every .py file of the package (a package is its __init__)."""
    found: dict[str, str] = {}
    base = os.path.join(root, PACKAGE)
    for dirpath, dirnames, files in os.walk(base):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith((".", "__")))
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, name), root)[:-3].split(os.sep)
            if rel[-1] == "__init__":
                rel = rel[:-1]
            found[".".join(rel)] = os.path.join(dirpath, name)
    return found


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute name a `from` import names (relative imports resolved against `module`)."""
    if not node.level:
        return node.module or ""
    parts = module.split(".")
    if not is_package:
        parts = parts[:-1]
    parts = parts[: len(parts) - (node.level - 1)]
    return ".".join(parts + ([node.module] if node.module else []))


def imports(known: dict[str, str]) -> list[tuple[str, str, int, bool]]:
    """(importer, imported, line, inside a function) for every import of a towerworld module."""
    edges = []
    for module, path in known.items():
        tree = ast.parse(open(path, encoding="utf-8").read(), path)
        is_package = path.endswith("__init__.py")
        inside: set[int] = set()
        for fn in ast.walk(tree):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                inside.update(id(n) for n in ast.walk(fn) if n is not fn)
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(module, is_package, node)
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    targets.append(sub if sub in known else base)
            for target in targets:
                # `import a.b.c` loads a.b.c; the nearest known module names the edge
                while target and target not in known:
                    target = target.rpartition(".")[0]
                if target and target != PACKAGE and target != module:
                    edges.append((module, target, node.lineno, id(node) in inside))
                elif target == module:
                    edges.append((module, target, node.lineno, id(node) in inside))
    return edges


def circles(edges) -> list[list[str]]:
    """Strongly connected components of more than one module (and self-imports), each sorted; Tarjan's algorithm."""
    graph: dict[str, set[str]] = {}
    for a, b, _, _ in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        # iterative depth-first search (the graph has a few hundred modules, recursion would do, but stays bounded)
        work = [(v, iter(sorted(graph[v])))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        while work:
            node, children = work[-1]
            advanced = False
            for w in children:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    advanced = True
                    break
                if w in on_stack:
                    low[node] = min(low[node], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == node:
                        break
                if len(component) > 1 or node in graph[node]:
                    found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def function_imports(known: dict[str, str]):
    """(module, is_package, node) for every import statement inside a function of the `known` modules."""
    for module, path in known.items():
        tree = ast.parse(open(path, encoding="utf-8").read(), path)
        is_package = path.endswith("__init__.py")
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    yield module, is_package, node


def lazy_imports(known: dict[str, str]) -> list[str]:
    """'module:line name' for every import inside a function that is not a lazy heavy library."""
    out = []
    for module, is_package, node in function_imports(known):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else [_resolve(module, is_package, node)]
        for name in names:
            if name.split(".")[0] == PACKAGE:
                out.append(f"{module}:{node.lineno} {name}")
    return sorted(set(out))


def test_the_circle_finder_finds_a_circle_through_a_function_level_import(tmp_path):
    """The finder is not blind: a circle closed only by an import inside a function is reported."""
    pkg = tmp_path / PACKAGE
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from towerworld import b\n")
    (pkg / "b.py").write_text("def f():\n    from towerworld.a import x\n    return x\n")
    (pkg / "c.py").write_text("from . import a\n")
    known = modules(str(tmp_path))
    assert circles(imports(known)) == [["towerworld.a", "towerworld.b"]]
    assert lazy_imports(known) == ["towerworld.b:2 towerworld.a"]


# circles not yet broken; the list only shrinks (a new circle, or a known one grown, fails the test)
KNOWN: list[list[str]] = []


def test_no_import_circles_in_the_package():
    """Design: "its imports run one way (no circle, no import inside a function except lazy heavy libraries)"."""
    found = circles(imports(modules()))
    new = [c for c in found if c not in KNOWN]
    assert not new, f"{len(new)} import circle(s):\n" + "\n".join(" <-> ".join(c) for c in new)


def test_the_floors_without_panda3d_import_the_house_only_at_the_top():
    """engine, games and ai import towerworld's modules at the top of a file, never inside a function: with no circle
    among them there is nothing to break, and what they import is plain Python (the lazy heavy libraries they use,
    open_spiel and the like, are not towerworld's)."""
    lower = ("towerworld.engine", "towerworld.games", "towerworld.ai")
    inside = [entry for entry in lazy_imports(modules()) if entry.startswith(lower)]
    assert not inside, "imports inside functions: " + ", ".join(inside)


def _top_level(tree: ast.AST) -> list[ast.stmt]:
    """The statements that run when the module is imported: its body, into if/try/with/class blocks, not into
    functions, nor into `if TYPE_CHECKING:` (which never runs)."""
    out: list[ast.stmt] = []
    todo = list(getattr(tree, "body", []))
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        out.append(node)
        if isinstance(node, ast.If):
            test = node.test
            checking = (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
                (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")
            todo += node.orelse if checking else node.body + node.orelse
        elif isinstance(node, ast.Try):
            todo += node.body + node.orelse + node.finalbody + [s for h in node.handlers for s in h.body]
        elif isinstance(node, (ast.With, ast.ClassDef, ast.For, ast.While)):
            todo += node.body + getattr(node, "orelse", [])
    return out


def _named(module: str, is_package: bool, node: ast.stmt, known: dict[str, str]) -> list[str]:
    """The modules an import statement loads: towerworld's by their known dotted name (with the packages above them,
    which Python runs first), anything else by its full dotted name."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    elif isinstance(node, ast.ImportFrom):
        base = _resolve(module, is_package, node)
        if base.split(".")[0] == PACKAGE:
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        else:       # `from importlib import resources` may load a module of its own: named in full
            names = [f"{base}.{alias.name}" for alias in node.names]
    else:
        return []
    out = []
    for name in names:
        if name.split(".")[0] != PACKAGE:
            out.append(name)
            continue
        parts = name.split(".")
        out += [".".join(parts[:i]) for i in range(1, len(parts) + 1) if ".".join(parts[:i]) in known]
    return out


def heavy_modules(known: dict[str, str]) -> set[str]:
    """The towerworld modules whose import loads a HEAVY library: one imported at the top of the module, or of a
    towerworld module it imports at its top, and so on."""
    top: dict[str, set[str]] = {}
    for module, path in known.items():
        tree = ast.parse(open(path, encoding="utf-8").read(), path)
        is_package = path.endswith("__init__.py")
        names = top.setdefault(module, set())
        for node in _top_level(tree):
            names.update(_named(module, is_package, node, known))
        # importing a module runs the packages above it first
        parts = module.split(".")
        names.update(".".join(parts[:i]) for i in range(1, len(parts)) if ".".join(parts[:i]) in known)
    heavy = {m for m, names in top.items() if any(is_heavy(n) for n in names)}
    grown = True
    while grown:
        grown = False
        for module, names in top.items():
            if module not in heavy and names & heavy:
                heavy.add(module)
                grown = True
    return heavy


def light_function_imports(known: dict[str, str]) -> list[str]:
    """'module:line name' for every import inside a function whose target loads nothing heavy: a standard or light
    library, or a towerworld module that imports no HEAVY library at its top. Such an import saves nobody any time;
    at the top of its module it says what the module needs."""
    heavy = heavy_modules(known)
    out = []
    for module, is_package, node in function_imports(known):
        named = _named(module, is_package, node, known)
        for name in named:
            if name.split(".")[0] == PACKAGE:
                if name == PACKAGE or name in heavy or name == module or any(
                        other.startswith(name + ".") for other in named):
                    continue        # heavy, or a package above the module named (that one is checked)
            elif is_heavy(name):
                continue
            out.append(f"{module}:{node.lineno} {name}")
    return sorted(set(out))


def test_the_lazy_import_check_finds_a_light_import_inside_a_function(tmp_path):
    """The check is not blind: a standard library or a light towerworld module imported inside a function is
    reported; a heavy library, or a towerworld module that loads one at its top (itself or through another), is
    not."""
    pkg = tmp_path / PACKAGE
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "plot.py").write_text("import matplotlib.pyplot as plt\n")
    (pkg / "chart.py").write_text("from towerworld import plot\n")
    (pkg / "words.py").write_text("X = 1\n")
    (pkg / "guarded.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import numpy\n")
    (pkg / "user.py").write_text(
        "def draw():\n    from towerworld.chart import plt\n    import panda3d.core\n    return plt\n"
        "def word():\n    from towerworld.words import X\n    import json\n    return X, json\n"
        "def typed():\n    from towerworld import guarded\n    return guarded\n")
    known = modules(str(tmp_path))
    assert heavy_modules(known) == {"towerworld.plot", "towerworld.chart"}
    assert light_function_imports(known) == ["towerworld.user:10 towerworld.guarded", "towerworld.user:6 towerworld.words",
                                             "towerworld.user:7 json"]


def test_imports_inside_functions_load_only_heavy_libraries():
    """Design: "no import inside a function except lazy heavy libraries" (panda3d, open_spiel, ray, matplotlib, and
    the few others in HEAVY), or a towerworld module that loads one at its top."""
    light = light_function_imports(modules())
    assert not light, f"{len(light)} light import(s) inside functions (move them to the top of their module):\n" + \
        "\n".join(light)
