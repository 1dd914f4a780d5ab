"""Data package: the 3D models and textures shipped with towerworld (see towerworld/paths.py)."""
