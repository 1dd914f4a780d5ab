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
