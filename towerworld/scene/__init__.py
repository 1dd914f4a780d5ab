"""Panda3D: stage (layout -> nodes, layout diff -> intervals), camera, picking, HUD."""
