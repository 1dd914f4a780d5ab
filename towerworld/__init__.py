"""towerworld: stacking board games in true 3D."""
__version__ = "0.1.0"
