"""The house's shape, read from the source: ui -> rag -> store, no import cycle, no borrowed private names, small
modules. A newcomer's map stays true only if CI checks it."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("store", "rag", "ui")
LAYER = {"store": 0, "rag": 1, "ui": 2}  # a package may import only its own layer and those below
MAX_LINES = 400


def modules() -> dict[str, Path]:
    return {f"{pkg}.{path.stem}": path for pkg in PACKAGES for path in sorted((ROOT / pkg).glob("*.py"))
            if path.stem != "__init__"}


def imports(path: Path) -> list[tuple[str, list[str]]]:
    """(module, names) of every import of the house's packages in a file, wherever it is made (a lazy import in a
    function is a dependency all the same)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] in PACKAGES:
                found.append((node.module, [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            found += [(a.name, []) for a in node.names if a.name.split(".")[0] in PACKAGES]
    return found


def graph() -> dict[str, set[str]]:
    known = modules()
    edges: dict[str, set[str]] = {name: set() for name in known}
    for name, path in known.items():
        for module, names in imports(path):
            targets = [module] if module in known else [f"{module}.{n}" for n in names if f"{module}.{n}" in known]
            edges[name].update(t for t in targets if t != name)
    return edges


def test_layers_point_down():
    wrong = [f"{name} imports {target}" for name, targets in graph().items() for target in targets
             if LAYER[target.split(".")[0]] > LAYER[name.split(".")[0]]]
    assert not wrong, "store/ must not know rag/ or ui/, nor rag/ know ui/:\n" + "\n".join(wrong)


def test_no_import_cycle():
    edges, state, cycles = graph(), {}, []

    def visit(node: str, path: list[str]) -> None:
        state[node] = "open"
        for target in sorted(edges[node]):
            if state.get(target) == "open":
                cycles.append(" -> ".join(path[path.index(target):] + [target]))
            elif target not in state:
                visit(target, path + [target])
        state[node] = "done"

    for node in sorted(edges):
        if node not in state:
            visit(node, [node])
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def test_no_private_names_borrowed():
    borrowed = [f"{name} takes {module}.{n}" for name, path in modules().items() for module, names in imports(path)
                for n in names if n.startswith("_") and module != name]
    assert not borrowed, "\n".join(borrowed)


@pytest.mark.parametrize("package", PACKAGES)
def test_modules_stay_small(package):
    big = {path.name: n for path in (ROOT / package).glob("*.py")
           if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not big, f"{package}/ modules over {MAX_LINES} lines: {big}"


def test_the_graph_is_read():
    """The checks above read real edges: chat imports the store it opens."""
    assert "store.chroma" in graph()["rag.chat"]
