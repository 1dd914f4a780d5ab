"""A non-editable install ships everything it needs: every package, the shaders and the models (fonts)."""
import os
import subprocess
import sys
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_wheel_carries_every_package_and_the_data(tmp_path):
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), ROOT],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    wheel = next(tmp_path.glob("towerworld-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for data in ("towerworld/shaders/lit.vert", "towerworld/shaders/lit.frag", "towerworld/models/DejaVuSans-Bold.ttf"):
        assert data in names, data
    # every package in the source tree is in the wheel (setup.cfg lists them by name)
    for folder, _dirs, files in os.walk(os.path.join(ROOT, "towerworld")):
        if "__init__.py" in files:
            rel = os.path.relpath(folder, ROOT).replace(os.sep, "/")
            assert f"{rel}/__init__.py" in names, f"{rel} is missing from setup.cfg's packages"
    entry = next(n for n in names if n.endswith("entry_points.txt"))
    assert "towerworld = towerworld.cli:main" in zipfile.ZipFile(wheel).read(entry).decode()
