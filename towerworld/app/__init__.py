"""The ShowBase application: play and replay screens."""
