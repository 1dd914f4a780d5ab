"""Data package: the GLSL 330 shaders shipped with towerworld (see towerworld/paths.py)."""
