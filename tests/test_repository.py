"""The repository speaks of the product: no tracked text file tells the history of its making."""
from __future__ import annotations

import os
import re
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Wording that dates a line by the work that made it rather than saying what the product is.
WORK_HISTORY = re.compile(
    r"\bsessions? \d+"                                  # a numbered sitting and its plural
    r"|\bsession-\d+"
    r"|\b(?:this|last|next|previous|earlier) session\b"
    r"|\bsince the last (?:change|session)\b"
    r"|\bissue #?\d+"                                   # a tracker's number in place of what the code does
    r"|\bother helpers\b",
    re.IGNORECASE)


def tracked_files(root: str = ROOT) -> list[str]:
    out = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True).stdout
    return [name for name in out.decode("utf-8").split("\0") if name]


def text_of(path: str) -> str | None:
    """The file's text, or None for a binary file (a NUL byte, or bytes that are not UTF-8)."""
    with open(path, "rb") as f:
        data = f.read()
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def work_history(root: str, names: list[str]) -> list[str]:
    """'path:line: text' for every line of the named text files that speaks of the work's history."""
    found = []
    for name in names:
        path = os.path.join(root, name)
        if not os.path.isfile(path):                    # deleted in the work tree, not yet in the index
            continue
        text = text_of(path)
        if text is None:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if WORK_HISTORY.search(line):
                found.append(f"{name}:{number}: {line.strip()[:120]}")
    return found


def test_no_tracked_text_file_speaks_of_the_work_history():
    found = work_history(ROOT, tracked_files())
    assert not found, "work-history wording (say what the product is instead):\n" + "\n".join(found)


def test_a_planted_line_of_work_history_is_found(tmp_path):
    sitting = "ses" + "sion"                            # spelled apart so this file holds no such line itself
    (tmp_path / "notes.md").write_text(f"# Notes\n\nThe search got faster in {sitting} 12.\n", encoding="utf-8")
    (tmp_path / "code.py").write_text(f"x = 1  # fixed {'since the last'} change\n", encoding="utf-8")
    (tmp_path / "ok.py").write_text(f'SCOPE = "{sitting}"  # a pytest fixture scope is no history\n',
                                    encoding="utf-8")
    (tmp_path / "picture.png").write_bytes(b"\x89PNG\r\n\x1a\n\0\0" + f"{sitting} 3".encode())
    found = work_history(str(tmp_path), ["notes.md", "code.py", "ok.py", "picture.png"])
    assert [line.split(":")[:2] for line in found] == [["notes.md", "3"], ["code.py", "1"]]


README_WORDS = 1500     # the README is for players: the two commands, the games, a first game, keys, commands


def readme_problems(readme: str, ci: str, setup_cfg: str) -> list[str]:
    """What keeps the README from being a player's page: too long, or not opening with the two commands that work on a
    fresh machine (install and play; install and run the tests exactly as CI does)."""
    problems = []
    words = len(readme.split())
    if words >= README_WORDS:
        problems.append(f"the README has {words} words, not under {README_WORDS}")
    commands = [line.strip() for line in readme.splitlines() if line.startswith("    ") and line.strip()][:2]
    if len(commands) < 2:
        return problems + ["the README does not open with two commands"]
    play, test = commands
    before = readme[:readme.index(play)]
    if "\n## " in before or "|" in before:
        problems.append("the two commands are not the first thing in the README")
    scripts = re.search(r"^console_scripts\s*=\s*\n\s+(\S+)\s*=", setup_cfg, re.MULTILINE)
    app = scripts.group(1) if scripts else None
    if not (play.startswith("python3 -m venv .venv && .venv/bin/pip install . ") and play.endswith(f".venv/bin/{app}")):
        problems.append(f"the first command does not install the package and run {app!r}: {play}")
    install = re.search(r"^\.venv/bin/pip install .*?('\.\[[\w,]+\]')", ci, re.MULTILINE)
    pytest_line = re.search(r"^(\.venv/bin/python -m pytest)\s*$", ci, re.MULTILINE)
    if not install or not pytest_line:
        problems.append(".ci/run no longer installs an extra and runs pytest as the README expects")
    elif test != f"python3 -m venv .venv && .venv/bin/pip install {install.group(1)} && {pytest_line.group(1)}":
        problems.append(f"the second command is not CI's install and test run: {test}")
    return problems


def _read(*parts: str) -> str:
    with open(os.path.join(ROOT, *parts), encoding="utf-8") as f:
        return f.read()


def test_the_readme_is_short_and_opens_with_the_commands_ci_runs():
    assert readme_problems(_read("README.md"), _read(".ci", "run"), _read("setup.cfg")) == []


def test_a_long_readme_or_one_without_the_commands_is_caught():
    readme, ci, cfg = _read("README.md"), _read(".ci", "run"), _read("setup.cfg")
    assert any("words" in p for p in readme_problems(readme + " word" * README_WORDS, ci, cfg))
    assert any("first thing" in p for p in readme_problems("# t\n\n## Games\n\n" + readme, ci, cfg))
    assert any("second command" in p for p in readme_problems(readme.replace("'.[test]'", "."), ci, cfg))
    assert any("second command" in p
               for p in readme_problems(readme, ci.replace("'.[test]'", "'.[test,research]'"), cfg))
    assert any("first command" in p for p in readme_problems(readme.replace(".venv/bin/towerworld", "tw"), ci, cfg))
    assert readme_problems("# t\n\nNo commands here.\n", ci, cfg) == ["the README does not open with two commands"]
