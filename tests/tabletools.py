"""Driving a play table in tests as a person would wait for it: run frames until someone must act."""


def settle(table, limit=200):
    """Run the table's tasks, finishing animations at once, until a person must act, the game is over, the screen
    waits to be handed on, or an AI thinks in its worker (then every frame would only draw the same picture)."""
    for _ in range(limit):
        if table.anim is not None:
            table.anim.finish()
        table.base.taskMgr.step()
        if table.anim is not None:
            table.anim.finish()
        if table._human_turn() or table.match.over or table.handoff is not None or table.waiting_for is not None:
            return
