"""Piece models by component family: each module registers its builders with `towerworld.scene.models.model`."""
