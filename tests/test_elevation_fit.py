"""scripts/elevation_fit.py: the search's positional weights fitted to how the lead moved in recorded games."""
from __future__ import annotations

import json
import os

import numpy as np

SEED7 = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "ladders",
                     "elevation-seed7-ply100.moves.jsonl")


def test_every_other_position_is_a_sample_seen_from_the_search(script, tmp_path):
    fit = script("elevation_fit")
    with open(SEED7) as f:
        records = [json.loads(next(f)) for _ in range(2)]
    path = tmp_path / "two.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    x, y = fit.samples(str(path), horizon=10)
    assert x.shape == (sum(len(r["moves"]) // 2 + 1 for r in records), len(fit.PARTS))
    # the opening position is the same for both sides: every part is level, and so is the lead
    assert not x[0].any() and y[0] == 0
    # a planted weight is found again
    planted = x @ np.array([0.0, 7.0, 0.0, 0.0, -3.0])
    assert np.allclose(fit.fit(x, planted)[[2, 5]], [7.0, -3.0])
