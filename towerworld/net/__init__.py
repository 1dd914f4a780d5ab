"""Network play: a server holding many rooms, each driven by the engine's pull driver (the only authority), and
clients that are sent only what their seat (or a watcher) may see. Never imports panda3d (the window client does,
lazily)."""
