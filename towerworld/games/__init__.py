"""One package per game; each exposes `GAME`, an instance of towerworld.engine.game.Game. No panda3d here."""
