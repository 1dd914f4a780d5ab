"""The stage diff and its animation, without a window: plan() is pure, intervals are driven with setT/finish."""
from towerworld.engine.driver import answer_chance
from towerworld.engine.game import Event
from towerworld.engine.layout import Cell, Layout, Pose, look
from towerworld.scene.camera import LABEL_EM
from towerworld.scene.stage import HIGHLIGHT_TARGET, Stage, plan


def tower(removed=False, fallen=False):
    L = Layout()
    L.place("tile:a0", Pose("pp_tile", 0, 0, 0, look=look(suit="suns", rank=1)))
    if not removed:
        L.place("tile:a1", Pose("pp_tile", 0, 0, 6.35, face_up=False))
    top = 6.35 if removed else 12.7
    L.place("tile:a2", Pose("pp_tile", 0, 0, top, face_up=False))
    L.place("pawn:0", Pose("pp_pawn", 0, 0, top + 6.35 if not fallen else 6.35, look=look(colour=0)))
    L.cells["out"] = Cell(80, 0, 0, 30, 30)
    return L


def actions(phases):
    return [[(c.piece, c.action) for c in phase] for phase in phases]


def test_unchanged_layout_needs_no_animation():
    assert plan(tower(), tower()) == []


def test_pieces_that_only_went_down_fall_after_named_events():
    old, new = tower(), tower(removed=True)
    events = [Event("remove", ("tile:a1",), "a tile disintegrates")]
    phases = actions(plan(old, new, events))
    assert phases[0] == [("tile:a1", "leave")]
    assert sorted(phases[-1]) == [("pawn:0", "fall"), ("tile:a2", "fall")]


def test_events_order_the_phases():
    old, new = tower(), tower(removed=True)
    events = [Event("remove", ("tile:a1",)), Event("fall", ("pawn:0",)), Event("settle", ("tile:a2",))]
    assert actions(plan(old, new, events)) == [[("tile:a1", "leave")], [("pawn:0", "fall")], [("tile:a2", "fall")]]


def test_turning_over_is_a_flip_and_new_pieces_arrive():
    old = tower()
    new = tower()
    new.pieces["tile:a2"] = Pose("pp_tile", 0, 0, 12.7, face_up=True, look=look(suit="moons", rank=5))
    new.place("die", Pose("pp_die", 90, 0, 0, look=look(face=3)))
    kinds = dict(c for phase in actions(plan(old, new)) for c in phase)
    assert kinds == {"tile:a2": "flip", "die": "arrive"}


def test_sideways_moves_arc_and_look_changes_restyle():
    old = tower()
    new = tower()
    new.pieces["pawn:0"] = Pose("pp_pawn", 51, 0, 0, look=look(colour=0))
    new.pieces["tile:a0"] = Pose("pp_tile", 0, 0, 0, look=look(suit="suns", rank=2))
    kinds = dict(c for phase in actions(plan(old, new)) for c in phase)
    assert kinds == {"pawn:0": "move", "tile:a0": "restyle"}


def _world(stage, pid):
    node = stage.nodes[pid]
    return tuple(round(v, 3) for v in node.getPos())


def test_transition_ends_exactly_at_the_new_layout():
    from panda3d.core import NodePath
    stage = Stage(NodePath("root"))
    old, new = tower(), tower(removed=True)
    stage.show(old)
    ival = stage.transition(old, new, [Event("remove", ("tile:a1",))])
    ival.setT(ival.getDuration() * 0.3)   # mid-way the removed tile is still there, shrinking
    assert "tile:a1" in stage.nodes
    ival.finish()
    assert "tile:a1" not in stage.nodes
    assert _world(stage, "pawn:0") == (0, 0, round(6.35 + 6.35, 3))
    assert _world(stage, "tile:a2") == (0, 0, 6.35)



def test_pieces_moving_together_travel_each_as_its_own_arc_would_and_end_on_the_new_layout():
    """The plain moves of a phase go in one step (Stage._travel): at every moment each piece stands where an arc of
    its own (Stage._arc) would have it, turned as it would be, and the step ends exactly on the new layout."""
    from panda3d.core import NodePath

    from towerworld.scene.timeline import Timeline, par
    old, new = Layout(), Layout()
    for i in range(3):
        old.place(f"tile:{i}", Pose("pp_tile", 60.0 * i, 0, 0, look=look(suit="moons", rank=i)))
        new.place(f"tile:{i}", Pose("pp_tile", 60.0 * i + 20, 30.0 - 10 * i, 6.35 * i, heading=90.0 * i,
                                    look=look(suit="moons", rank=i)))
    together, apart = Stage(NodePath("a")), Stage(NodePath("b"))
    together.show(old)
    apart.show(old)
    ival = together.transition(old, new)
    assert [[c.action for c in phase] for phase in plan(old, new)] == [["move", "move", "move"]]
    arcs = Timeline(par(*[apart._arc(pid, old.pieces[pid], new.pieces[pid], ival.getDuration())
                          for pid in old.pieces]))
    for t in (0.1, 0.3, 0.5, 0.8):
        ival.setT(ival.getDuration() * t)
        arcs.setT(arcs.getDuration() * t)
        for pid in old.pieces:
            a, b = together.nodes[pid], apart.nodes[pid]
            assert (a.getPos() - b.getPos()).length() < 1e-4 and abs(a.getH() - b.getH()) < 1e-4, (pid, t)
    ival.finish()
    shown = Stage(NodePath("c"))
    shown.show(new)
    for pid in new.pieces:
        assert together.nodes[pid].getMat().almostEqual(shown.nodes[pid].getMat(), 1e-5)
        assert together.poses[pid] is new.pieces[pid]


def test_fall_is_gravity_eased():
    """Half-way through a fall a piece has dropped a quarter of the way (ease-in), not half."""
    from panda3d.core import NodePath
    stage = Stage(NodePath("root"))
    old, new = tower(), tower(removed=True)
    stage.show(old)
    ival = stage.transition(old, new, [])
    fall_phase_start = ival.getDuration() - 0.45 * 0.8   # the fall phase runs last
    ival.setT(fall_phase_start + 0.45 * 0.8 / 2)
    z = stage.nodes["tile:a2"].getZ()
    assert abs(z - (12.7 - 6.35 * 0.25)) < 0.3


def test_flip_turns_the_model_over():
    from panda3d.core import NodePath
    stage = Stage(NodePath("root"))
    old = tower()
    new = tower()
    new.pieces["tile:a2"] = Pose("pp_tile", 0, 0, 12.7, face_up=True, look=look(suit="moons", rank=5))
    stage.show(old)
    assert abs(abs(stage.models["tile:a2"].getR()) - 180) < 1e-3
    ival = stage.transition(old, new, [])
    ival.finish()
    assert abs(stage.models["tile:a2"].getR()) < 1e-3
    assert stage.poses["tile:a2"].get("rank") == 5


def test_highlight_marks_targets_only():
    from panda3d.core import NodePath
    stage = Stage(NodePath("root"))
    stage.show(tower())
    stage.highlight({"tile:a2": (0, 1, 0, 0.5), "out": (0, 1, 0, 0.5)})
    glow = stage.nodes["tile:a2"].getShaderInput("highlight")   # keep a reference: the vector lives in it
    assert tuple(glow.getVector()) == (0, 1, 0, 0.5)
    assert stage.nodes["tile:a0"].getShaderInput("highlight").getValueType() == 0   # not highlighted
    assert stage.cells["out"].getColorScale()[3] > 0
    stage.highlight({})
    assert stage.cells["out"].getColorScale()[3] == 0


def test_only_lit_cells_are_drawn():
    """A cell paints nothing until it is a target: an unlit one costs no draw call, and a lit one is drawn."""
    from panda3d.core import NodePath
    stage = Stage(NodePath("root"))
    stage.show(tower())
    assert stage.cells["out"].isHidden()
    stage.highlight({"out": (0, 1, 0, 0.5)})
    assert not stage.cells["out"].isHidden()
    stage.highlight({})
    assert stage.cells["out"].isHidden()
    stage.highlight({"out": (0, 1, 0, 0.5)})
    stage.show(tower(removed=True))            # showing a layout clears the highlight
    assert stage.cells["out"].isHidden() and stage.cells["out"].getColorScale()[3] == 0


def test_memory_aid_labels_face_down_pieces_whose_face_is_known():
    from panda3d.core import NodePath
    stage = Stage(NodePath("root"))
    L = tower()
    L.pieces["tile:a1"] = Pose("pp_tile", 0, 0, 6.35, face_up=False, look=look(suit="moons", rank=4))
    stage.show(L)
    assert stage.nodes["tile:a1"].find("memory").isEmpty()
    stage.set_memory_aid(True)
    assert not stage.nodes["tile:a1"].find("memory").isEmpty()      # seen before: labelled
    assert stage.nodes["tile:a2"].find("memory").isEmpty()          # never seen: nothing to remember
    assert stage.nodes["tile:a0"].find("memory").isEmpty()          # face up: no need
    stage.set_memory_aid(False)
    assert stage.nodes["tile:a1"].find("memory").isEmpty()


def test_cutaway_lifts_storeys_above_a_height_and_lets_clicks_through():
    from panda3d.core import NodePath
    stage = Stage(NodePath("root"))
    stage.show(tower())
    stage.set_cutaway(12.7, ("pp_tile",))
    assert stage.nodes["tile:a2"].isHidden() and stage.nodes["tile:a2"].hasTag("ghost")
    assert not stage.nodes["tile:a1"].isHidden()
    assert not stage.nodes["pawn:0"].isHidden()        # only the stack's own kinds are lifted away
    stage.show(tower(removed=True))                      # tile:a2 fell to 6.35: below the cut, visible again
    assert not stage.nodes["tile:a2"].isHidden()
    stage.set_cutaway(None)
    assert not any(n.isHidden() for n in stage.nodes.values())


def test_a_removed_piece_crumbles_where_it_stood_before_it_goes_to_the_discards():
    from panda3d.core import NodePath
    stage = Stage(NodePath("root"))
    old = tower()
    new = tower(removed=True)
    new.place("tile:a1", Pose("pp_tile", 0, -120, 0, look=look(suit="arms", rank=3)))   # discarded face up in front
    stage.show(old)
    ival = stage.transition(old, new, [Event("remove", ("tile:a1",))])
    ival.setT(0.3)                                  # crumbling: still over its column, smaller
    node = stage.nodes["tile:a1"]
    assert abs(node.getY()) < 2 and node.getSx() < 1 and node.hasTransparency()
    ival.finish()
    assert tuple(round(v, 3) for v in node.getPos()) == (0, -120, 0) and node.getSx() == 1
    assert not node.hasTransparency() and not node.hasColorScale()     # whole again, drawn opaque


def test_a_lifted_away_piece_that_is_a_target_shows_as_clickable_glass():
    from panda3d.core import NodePath
    stage = Stage(NodePath("root"))
    stage.show(tower())
    stage.set_cutaway(6.35, ("pp_tile",))
    assert stage.nodes["tile:a1"].isHidden()
    stage.highlight({"tile:a1": (0, 1, 0, 0.5)})          # climbing up is a legal pick
    node = stage.nodes["tile:a1"]
    assert not node.isHidden() and not node.hasTag("ghost") and node.getColorScale()[3] < 1
    assert stage.nodes["tile:a2"].isHidden()             # not a target: still lifted away
    stage.highlight({})
    assert node.isHidden()


def test_a_heading_turns_the_short_way_round():
    """Heading animation takes the short way round (never -270 deg for +90 deg)."""
    from towerworld.scene.stage import short_turn
    assert short_turn(270.0, 0.0) == 90.0
    assert short_turn(0.0, 270.0) == -90.0
    assert short_turn(10.0, 350.0) == -20.0
    assert short_turn(0.0, 180.0) in (180.0, -180.0)
    assert short_turn(90.0, 90.0 + 720.0) == 0.0


def _board():
    """Two tiles of the same face, a pawn, two cells and two labels."""
    layout = tower()
    layout.place("tile:b0", Pose("pp_tile", 60, 0, 0, look=look(suit="suns", rank=1)))
    layout.cells["in"] = Cell(-80, 0, 0, 30, 30)
    layout.labels["row"] = (0, -60, 0, "row 1")
    layout.labels["score"] = (0, 60, 0, "0 points")
    return layout


def test_a_warm_update_rebuilds_nothing_that_did_not_change(monkeypatch):
    """A move re-places only the piece that moved: every piece keeps its node and model, no model is built, the
    cells that did not change keep their nodes, and a label whose words did not change keeps its text."""
    from panda3d.core import NodePath

    from towerworld.scene import components, stage as stage_module
    stage = Stage(NodePath("root"))
    old = _board()
    stage.show(old)
    holders, models, cells = dict(stage.nodes), dict(stage.models), dict(stage.cells)
    labels = {lid: node for lid, (_spec, node) in stage.label_nodes.items()}
    words = {lid: node.getChild(0).node() for lid, node in labels.items()}
    new = _board()
    new.pieces["pawn:0"] = Pose("pp_pawn", 60, 0, 6.35, look=look(colour=0))       # onto the other tile
    new.labels["score"] = (0, 60, 0, "1 point")
    placed, built = [], []
    monkeypatch.setattr(stage, "_place", lambda pid, pose, place=stage._place: (placed.append(pid),
                                                                                place(pid, pose))[1])
    monkeypatch.setattr(stage_module.components, "build",
                        lambda pose, *under, build=components.build: (built.append(pose), build(pose, *under))[1])
    ival = stage.transition(old, new, [Event("move", ("pawn:0",))])
    ival.finish()
    assert set(placed) == {"pawn:0"} and built == []
    assert all(stage.nodes[pid] == node for pid, node in holders.items())
    assert all(stage.models[pid] == model for pid, model in models.items())
    assert all(stage.cells[cid] == node for cid, node in cells.items())
    assert stage.label_nodes["row"][1] == labels["row"]
    assert stage.label_nodes["row"][1].getChild(0).node() == words["row"]
    # the score's node stays, showing the new words
    assert stage.label_nodes["score"][1] == labels["score"] and labels["score"].getChild(0).node() != words["score"]
    assert _world(stage, "pawn:0") == (60, 0, 6.35)


def test_repeated_shapes_share_one_geometry():
    """Pieces of the same kind and face are instances of one built shape, and every cell of one unit box: the
    geometry is built once, each piece's own node only places it."""
    from panda3d.core import NodePath
    stage = Stage(NodePath("root"))
    stage.show(_board())
    twins = [stage.models[pid].find("**/+GeomNode").node() for pid in ("tile:a0", "tile:b0")]
    assert twins[0] == twins[1]
    assert stage.models["tile:a0"] != stage.models["tile:b0"]       # each is turned and hidden on its own
    boxes = {cid: node.find("**/+GeomNode").node() for cid, node in stage.cells.items()}
    assert boxes["in"] == boxes["out"]
    assert stage.cells["in"].getSx() == 30 and stage.cells["in"].getX() == -80


def test_a_cell_that_changes_size_is_rescaled():
    from panda3d.core import NodePath
    stage = Stage(NodePath("root"))
    layout = _board()
    stage.show(layout)
    node = stage.cells["in"]
    bigger = _board()
    bigger.cells["in"] = Cell(-80, 0, 0, 50, 40)
    stage.show(bigger)
    assert stage.cells["in"] == node and (node.getSx(), node.getSy()) == (50, 40)


def test_pictures_are_written_as_png_that_reads_back_pixel_for_pixel(tmp_path):
    """The picture writer (rows bottom-up as GL reads them) makes a PNG any reader opens, top row first."""
    from panda3d.core import Filename, PNMImage

    from towerworld.scene.offscreen import write_png
    width, height = 5, 3
    rows = [[(x * 50, y * 100, 7) for x in range(width)] for y in range(height)]       # rows[0] is the top row
    bottom_up = b"".join(bytes(v for pixel in row for v in pixel) for row in reversed(rows))
    path = tmp_path / "tiny.png"
    write_png(str(path), width, height, bottom_up)
    image = PNMImage()
    assert image.read(Filename.fromOsSpecific(str(path)))
    assert (image.getXSize(), image.getYSize(), image.getNumChannels()) == (width, height, 3)
    assert [[tuple(image.getXelVal(x, y)) for x in range(width)] for y in range(height)] == rows


def test_a_board_just_shown_draws_its_pieces_combined_at_once():
    """A board of COMBINE_FROM pieces or more draws through a few combined chunks from its first frame (nothing on it
    has moved yet), not piece by piece until its pieces have rested for a while; a move lets go of the chunk holding
    the piece it moves and the others go on drawing."""
    from panda3d.core import NodePath

    from towerworld.scene.stage import COMBINE_FROM
    stage = Stage(NodePath("root"))
    grid = Layout()
    for i in range(COMBINE_FROM):
        grid.place(f"tile:{i}", Pose("pp_tile", 60 * (i % 6), 60 * (i // 6), 0, look=look(suit="suns", rank=1)))
    stage.show(grid)
    drawn = [np for np in stage.root.findAllMatches("**/+GeomNode") if not np.isHidden()]
    assert stage.combined is not None
    assert sorted(pid for chunk in stage.chunks for pid in chunk.members) == sorted(grid.pieces)
    # piece by piece would be one geom a piece or more; a chunk holds a geom per render state of the tile (3 or so,
    # more when earlier tests have filled the face atlas), so the bound leaves room for that, not for pieces
    assert sum(np.node().getNumGeoms() for np in drawn) < COMBINE_FROM / 2
    moved = Layout()
    moved.pieces = dict(grid.pieces)
    moved.pieces["tile:0"] = Pose("pp_tile", -60, 0, 0, look=look(suit="suns", rank=1))
    stage.transition(grid, moved, []).finish()
    kept = {pid for chunk in stage.chunks for pid in chunk.members}
    assert "tile:0" not in kept and len(kept) >= COMBINE_FROM - 12
    assert not stage.models["tile:0"].isHidden() and _world(stage, "tile:0") == (-60, 0, 0)


def test_a_tilted_piece_rests_on_its_lowest_point_whatever_it_carries():
    """A piece lying tilted is lifted so that its lowest point touches the table; a ring hanging below it (a
    highlight) does not lift it, and every piece of that shape turned that way rests the same."""
    from panda3d.core import NodePath

    from towerworld.scene import components
    from towerworld.scene.components.shapes import box
    components.clear_cache()
    pose = Pose("pp_tile", 0, 0, 0, tilt=60.0, look=look(suit="suns", rank=1))
    holder = NodePath("holder")
    ringed = components.build(pose)
    ringed.reparentTo(holder)
    ring = box(80, 80, 2, z0=-30)          # far below the tile
    ring.reparentTo(ringed)
    components.orient(ringed, pose, 0.0)
    ring.detachNode()
    assert abs(ringed.getTightBounds(holder)[0].z) < 1e-3
    plain = components.build(pose)
    plain.reparentTo(NodePath("other"))
    components.orient(plain, pose, 0.0)
    assert abs(plain.getZ() - ringed.getZ()) < 1e-6 and plain.getZ() > 0


def test_a_cell_that_changes_id_takes_the_node_of_one_gone():
    """A cell that moves up a storey changes its id (a Ziggurat cell is `cell:t1:c3` once a domino covers
    `cell:t0:c3`): it is drawn by the node of the cell that went, tagged with its own id for picking and unlit, even
    when the one that went was lit; no node is built for it."""
    from panda3d.core import NodePath
    stage = Stage(NodePath("root"))
    stage.show(_board())
    stage.highlight({"in": HIGHLIGHT_TARGET})
    node = stage.cells["in"]
    up = _board()
    del up.cells["in"]
    up.cells["in:up"] = Cell(-80, 0, 6.35, 30, 30)
    stage.show(up)
    assert "in" not in stage.cells and stage.cells["in:up"] == node
    assert node.hasTag("cell") and node.getName() == "in:up"
    assert abs(node.getZ() - 6.4) < 1e-6 and node.isHidden() and node.getColorScale()[3] == 0
    assert stage.cells_root.getNumChildren() == 2


def test_a_cell_that_takes_the_node_of_one_gone_of_another_size_is_rescaled_and_one_of_the_same_size_kept():
    """A node taken from a cell gone keeps its scale only where the new cell has the same size; a node left over is
    detached (nothing stale stays under the cells to be picked) and taken by a later one."""
    from panda3d.core import NodePath
    stage = Stage(NodePath("root"))
    stage.show(_board())
    node = stage.cells["in"]
    wide = _board()
    del wide.cells["in"]
    wide.cells["wide"] = Cell(10, 20, 0, 50, 40)
    stage.show(wide)
    assert stage.cells["wide"] == node and (node.getSx(), node.getSy(), node.getX()) == (50, 40, 10)
    same = _board()
    del same.cells["in"]
    same.cells["same"] = Cell(-10, 5, 0, 50, 40)
    stage.show(same)
    assert stage.cells["same"] == node and (node.getSx(), node.getSy(), node.getX(), node.getY()) == (50, 40, -10, 5)
    fewer = _board()
    del fewer.cells["in"], fewer.cells["out"]
    stage.show(fewer)
    assert stage.cells_root.getNumChildren() == 0 and not stage.cells
    again = _board()
    stage.show(again)
    assert sorted(stage.cells) == ["in", "out"] and stage.cells_root.getNumChildren() == 2
    assert (stage.cells["in"].getSx(), stage.cells["in"].getX()) == (30, -80)

def test_a_label_whose_words_or_place_change_keeps_its_node_with_the_new_words_only():
    """A score that changes is the same label node showing the new words (the glyphs shared with any other label of
    those words), where the layout now puts it; a label the layout drops is taken away."""
    from panda3d.core import NodePath

    from towerworld.scene.components.shapes import shared_text
    stage = Stage(NodePath("root"))
    stage.show(_board())
    node = stage.label_nodes["score"][1]
    later = _board()
    later.labels["score"] = (10, 70, 0, "3 points")
    stage.show(later)
    assert stage.label_nodes["score"][1] == node and node.getNumChildren() == 1
    same_words = shared_text("3 points", LABEL_EM, (0.1, 0.1, 0.1, 1), facing="viewer")
    assert node.getChild(0).node() == same_words.getChild(0).node()
    assert (node.getX(), node.getY()) == (10, 70) and node.getParent() == stage.labels_root
    gone = _board()
    del gone.labels["score"]
    stage.show(gone)
    assert "score" not in stage.label_nodes and node.isEmpty()

def test_labels_with_the_same_words_share_their_glyphs_and_outlive_each_other():
    """A label's glyphs are generated once for its words and shared: the pile's count shown again, after an undo,
    costs no new text; taking one label away leaves the others with the same words drawing."""
    from panda3d.core import NodePath
    stage = Stage(NodePath("root"))
    board = _board()
    board.labels["again"] = (0, 90, 0, "row 1")
    stage.show(board)
    glyphs = [stage.label_nodes[lid][1].find("**/+GeomNode").node() for lid in ("row", "again")]
    assert glyphs[0] == glyphs[1] and glyphs[0].getNumGeoms() > 0
    del board.labels["row"]
    stage.show(board)
    left = stage.label_nodes["again"][1]
    assert not left.isEmpty() and left.find("**/+GeomNode").node() == glyphs[1] and glyphs[1].getNumGeoms() > 0


def test_a_turn_broken_off_half_way_is_put_right_by_the_next_show():
    """A model is turned again only when how it lies changes; a flip broken off half way (a seek, an undo) leaves the
    model on edge, and showing the old layout turns it back face down."""
    from panda3d.core import NodePath
    stage = Stage(NodePath("root"))
    old = tower()
    new = tower()
    new.pieces["tile:a2"] = Pose("pp_tile", 0, 0, 12.7, face_up=True, look=look(suit="moons", rank=5))
    stage.show(old)
    ival = stage.transition(old, new, [])
    ival.setT(ival.getDuration() / 2)
    assert 10 < abs(stage.models["tile:a2"].getR()) < 170
    stage.show(old)
    assert abs(abs(stage.models["tile:a2"].getR()) - 180) < 1e-3


def test_a_combined_board_draws_each_resting_piece_once_move_after_move():
    """Through many moves (chunks let go of moved pieces, loose ones are chunked again, small chunks merge) each
    piece is drawn once: by the chunk that holds it, its own model hidden, or by its own model while it is loose."""
    import random

    from panda3d.core import NodePath

    from towerworld.scene.stage import COMBINE_FROM
    rng = random.Random(7)
    stage = Stage(NodePath("root"))
    spots = [(60.0 * (i % 8), 60.0 * (i // 8)) for i in range(64)]
    layout = Layout()
    for i in range(COMBINE_FROM + 12):
        layout.place(f"tile:{i}", Pose("pp_tile", *spots[i], 0, look=look(suit="suns", rank=1)))
    stage.show(layout)
    regrouped = 0
    for _ in range(40):
        moved = Layout()
        moved.pieces = dict(layout.pieces)
        free = [xy for xy in spots if xy not in {(p.x, p.y) for p in moved.pieces.values()}]
        for pid in rng.sample(sorted(moved.pieces), rng.randint(0, 3)):
            moved.pieces[pid] = Pose("pp_tile", *free.pop(rng.randrange(len(free))), 0, look=look(suit="suns", rank=1))
        before = len(stage.chunks)
        stage.transition(layout, moved, []).finish()
        layout = moved
        members = {pid for chunk in stage.chunks for pid in chunk.members}
        regrouped += len(stage.chunks) != before
        for pid, model in stage.models.items():
            assert model.isHidden() == (pid in members), pid
        assert set(stage.hidden) == members
    assert regrouped > 3            # the moves did chunk pieces again, not only let go of them


def test_pieces_let_go_by_a_highlight_and_chunked_again_are_drawn():
    """A board's first combine chunks every piece; the highlight that follows (the pieces a player may pick) takes
    its targets out of the chunks, and the other pieces of those chunks are chunked again in the same combine. They
    must be copied as they look, not with the models their old chunk had hidden: a chunk copied from hidden models
    drew nothing, and Elevation's first frame showed half its terrain and three pieces missing."""
    from panda3d.core import NodePath

    from towerworld.scene.stage import COMBINE_FROM
    stage = Stage(NodePath("root"))
    grid = Layout()
    for i in range(2 * COMBINE_FROM):
        grid.place(f"tile:{i}", Pose("pp_tile", 60 * (i % 8), 60 * (i // 8), 0, look=look(suit="suns", rank=1)))
    stage.show(grid)
    assert len(stage.chunks) > 1
    stage.highlight({f"tile:{i}": HIGHLIGHT_TARGET for i in range(0, 2 * COMBINE_FROM, 7)})
    members = {pid for chunk in stage.chunks for pid in chunk.members}
    assert members and not members & set(stage.targets)
    for chunk in stage.chunks:
        hidden = [np.getName() for np in chunk.node.find("drawn").findAllMatches("**") if np.isHidden()]
        assert not hidden, (sorted(chunk.members)[:3], hidden)
    for pid, model in stage.models.items():
        assert model.isHidden() == (pid in members), pid


def test_a_piece_carried_under_a_new_id_keeps_its_node_and_gets_its_new_faces():
    """One thing under two ids (a card in a hand becomes a discard): the event names both, and the piece travels on
    the node it had, named and tagged for picking by its new id, with the faces of its new look on the same model."""
    from panda3d.core import NodePath

    from towerworld.scene import components
    stage = Stage(NodePath("root"))
    old = tower()
    new = tower()
    del new.pieces["tile:a2"]
    face = look(suit="moons", rank=5)
    new.place("tile:top", Pose("pp_tile", 80, 0, 0, face_up=True, look=face))
    stage.show(old)
    node, model = stage.nodes["tile:a2"], stage.models["tile:a2"]
    stage.transition(old, new, [Event("discard", ("tile:a2", "tile:top"))]).finish()
    assert "tile:a2" not in stage.nodes and "tile:a2" not in stage.models and "tile:a2" not in stage.poses
    assert stage.nodes["tile:top"] == node and stage.models["tile:top"] == model
    assert node.getTag("piece") == node.getPythonTag("piece") == node.getName() == "tile:top"
    shape = components.build(new.pieces["tile:top"]).getChild(0).node()
    assert model.getNumChildren() == 1 and model.getChild(0).node() == shape
    assert _world(stage, "tile:top") == (80, 0, 0) and abs(model.getR()) < 1e-3          # face up


def test_a_piece_that_travels_and_tips_over_lands_as_a_fresh_table_lays_it_at_every_frame_rate():
    """Its arc leaves the landing to the place that ends its step: jumped over, or played to a frame just short of
    its landing and then past it, the pyramid lies where and as a table showing the new layout from scratch has it,
    while the move goes on (a pawn moves after it)."""
    from panda3d.core import NodePath
    standing, lying = Layout(), Layout()
    standing.place("pyr", Pose("pyramid_2", 0, 0, 0, 30.0, look=look(colour="red")))
    lying.place("pyr", Pose("pyramid_2", 120, -40, 0, 75.0, look=look(colour="red"), tilt=90.0))
    standing.place("pawn", Pose("pp_pawn", 50, 50, 0, look=look(colour=0)))
    lying.place("pawn", Pose("pp_pawn", -50, 50, 0, look=look(colour=0)))
    fresh = Stage(NodePath("fresh"))
    fresh.show(lying)

    def laid(stage):
        node, model = stage.nodes["pyr"], stage.models["pyr"]
        return [round(v, 3) for v in (*node.getPos(), *node.getHpr(), *model.getPos(), *model.getHpr())]
    for frames in ([], [0.2]):
        stage = Stage(NodePath("root"))
        stage.show(standing)
        ival = stage.transition(standing, lying, [Event("move", ("pyr",))])
        assert ival.getDuration() > 0.6            # the pyramid's step, then the pawn's
        for at in frames:
            ival.setT(at)
            assert laid(stage) != laid(fresh)         # still on its way
        ival.setT(0.5)
        assert laid(stage) == laid(fresh) and stage.nodes["pawn"].getX() > 0
        ival.finish()
        assert laid(stage) == laid(fresh)


def test_a_piece_half_way_through_tipping_over_lies_as_a_pose_with_the_tilt_in_between():
    """In flight a pyramid tips from standing (tilt 0) to lying (tilt 90): half way through its arc it is pitched
    and lifted as a piece laid with tilt 45 is."""
    from dataclasses import replace

    from panda3d.core import NodePath

    from towerworld.scene import components
    standing, lying = Layout(), Layout()
    standing.place("pyr", Pose("pyramid_2", 0, 0, 0, 30.0, look=look(colour="red")))
    lying.place("pyr", Pose("pyramid_2", 120, -40, 0, 75.0, look=look(colour="red"), tilt=90.0))
    stage = Stage(NodePath("root"))
    stage.show(standing)
    ival = stage.transition(standing, lying, [Event("move", ("pyr",))])
    ival.setT(ival.getDuration() / 2)          # the smooth step is half way at half the time
    between = components.build(replace(lying.pieces["pyr"], tilt=45.0))
    components.orient(between, replace(lying.pieces["pyr"], tilt=45.0), 0.0)
    model = stage.models["pyr"]
    assert abs(model.getP() - 45.0) < 1e-3 and abs(model.getZ() - between.getZ()) < 1e-3 and model.getZ() > 0
    ival.finish()
    assert abs(model.getZ() - between.getZ()) > 1


def test_a_piece_that_arrives_takes_the_node_of_a_plain_one_that_went_and_lies_as_a_fresh_table_lays_it():
    """A tile crumbles away, then another is drawn: the new one is drawn by the node the first one left (freeing a
    node and making one cost more than the rest of a move), named and tagged for picking as itself, with its own
    faces, turned face down, at full size and opaque as a fresh table shows it. A highlighted piece's node (its
    marks name it) is not kept."""
    from panda3d.core import NodePath

    from towerworld.scene import components
    before, after = _board(), _board()
    del after.pieces["tile:b0"]
    after.place("tile:c9", Pose("pp_tile", 90, 30, 0, face_up=False, look=look(suit="moons", rank=7)))
    fresh = Stage(NodePath("fresh"))
    fresh.show(after)
    stage = Stage(NodePath("root"))
    stage.show(before)
    node = stage.nodes["tile:b0"]
    ival = stage.transition(before, after, [Event("remove", ("tile:b0",)), Event("draw", ("tile:c9",))])
    ival.setT(0.3)
    assert node.hasTransparency() and node.getSx() < 1        # crumbling
    ival.finish()
    taken = stage.nodes["tile:c9"]
    assert taken == node and "tile:b0" not in stage.nodes and len(stage.nodes) == len(after.pieces)
    assert taken.getName() == taken.getTag("piece") == taken.getPythonTag("piece") == "tile:c9"
    assert not taken.hasTransparency() and not taken.hasColorScale() and taken.getScale() == (1, 1, 1)
    model = stage.models["tile:c9"]
    assert model.getNumChildren() == 1
    assert model.getChild(0).node() == components._shape(after.pieces["tile:c9"]).node()
    assert [round(v, 3) for v in (*taken.getPos(), *model.getHpr(), *model.getPos())] == \
        [round(v, 3) for v in (*fresh.nodes["tile:c9"].getPos(), *fresh.models["tile:c9"].getHpr(),
                               *fresh.models["tile:c9"].getPos())]
    stage.highlight({"tile:c9": HIGHLIGHT_TARGET})
    stage.show(before)
    assert taken.isEmpty() and stage.nodes["tile:b0"] != node


def _laid(stage, pid):
    """How a piece's node and model lie and look, as a fresh table would have them."""
    node, model = stage.nodes[pid], stage.models[pid]

    def r(values):
        return tuple(round(v, 3) for v in values)
    return (r(node.getPos()), r(node.getHpr()), r(node.getScale()), node.hasColorScale(), node.hasTransparency(),
            node.getName(), node.getTag("piece"), r(model.getPos()), r(model.getHpr()),
            [child.node() for child in model.getChildren()], model.isHidden() and pid not in stage.hidden)


def _random_moves(game, seed: int, count: int):
    """(layout before, layout after, events) for each of up to `count` moves of a random game of `game`."""
    import random

    from towerworld.engine.game import OMNISCIENT
    from towerworld.engine.match import Match
    match, rng = Match(game, seed=seed), random.Random(seed)
    old = game.layout(match.state, OMNISCIENT)
    for _ in range(count):
        if match.over:
            break
        if match.current_player < 0:
            events = answer_chance(match)
        else:
            moves = game.legal_moves(match.state)
            events = match.apply(moves[rng.randrange(len(moves))], save=False)
        new = game.layout(match.state, OMNISCIENT)
        yield old, new, events
        old = new


def test_a_table_that_played_every_move_lies_as_a_fresh_table_shows_each_position(showbase):
    """Random games of every game, each move played through its transition (started and finished at once, as a
    hurried player does): after every move each piece's node is placed, turned, sized, coloured, named and drawn
    with the faces that a table showing that position from scratch gives it (nodes taken from pieces gone, cells
    moved up, arcs landed by their place, all end as a fresh table)."""
    from towerworld.engine.registry import all_games
    for name, game in sorted(all_games().items()):
        steps = list(_random_moves(game, 5, 24))
        stage = Stage(showbase.render)
        stage.show(steps[0][0])
        for old, new, events in steps:
            ival = stage.transition(old, new, events)
            ival.start()
            ival.finish()
            fresh = Stage(showbase.render)
            fresh.show(new)
            assert set(stage.nodes) == set(fresh.nodes) == set(new.pieces), name
            for pid in new.pieces:
                assert _laid(stage, pid) == _laid(fresh, pid), (name, pid)
            assert set(stage.cells) == set(new.cells), name
            for cid in new.cells:
                ours, theirs = stage.cells[cid], fresh.cells[cid]
                assert [round(v, 3) for v in (*ours.getPos(), *ours.getScale(), ours.getColorScale()[3])] == \
                    [round(v, 3) for v in (*theirs.getPos(), *theirs.getScale(), theirs.getColorScale()[3])]
                assert ours.hasTag("cell") and ours.getName() == cid and ours.isHidden() and \
                    ours.getParent() == stage.cells_root
            assert set(stage.label_nodes) == set(fresh.label_nodes) == set(new.labels), name
            for lid, (_, ours) in stage.label_nodes.items():
                theirs = fresh.label_nodes[lid][1]
                assert [round(v, 3) for v in (*ours.getPos(), *ours.getHpr())] == \
                    [round(v, 3) for v in (*theirs.getPos(), *theirs.getHpr())]
                assert [c.node() for c in ours.getChildren()] == [c.node() for c in theirs.getChildren()]
                assert ours.getParent() == stage.labels_root
            fresh.root.removeNode()
        stage.root.removeNode()


def test_a_hidden_piece_s_node_is_not_kept_for_another():
    """A node something hid (a physical crumble hides the pieces it breaks) is taken away with its piece, not
    handed to one that arrives, which would be drawn hidden."""
    from panda3d.core import NodePath
    before, after = _board(), _board()
    del after.pieces["tile:b0"]
    after.place("tile:c9", Pose("pp_tile", 90, 30, 0, look=look(suit="moons", rank=7)))
    stage = Stage(NodePath("root"))
    stage.show(before)
    hidden = stage.nodes["tile:b0"]
    hidden.hide()
    stage.show(after)
    assert hidden.isEmpty() and not stage.nodes["tile:c9"].isHidden() and not stage.spare_pieces


def test_the_phases_hold_every_piece_the_diff_changed_so_its_keys_are_what_a_transition_moves():
    """`transition` takes the pieces it moves (which it lets out of their chunks and looks at again at its end) from
    the diff's keys, not from the phases: that holds only while every changed piece is in a phase, or is the piece
    a carry starts from. Checked over random play of every game (a _phases that leaves out the pieces that only fell
    fails it)."""
    from towerworld.engine.registry import all_games
    from towerworld.scene.stage import _changes, _phases

    def moved(phases):
        return {c.piece for phase in phases for c in phase} | \
            {c.source for phase in phases for c in phase if c.source is not None}
    checked = 0
    for name, game in sorted(all_games().items()):
        for old, new, events in _random_moves(game, 9, 30):
            changes = _changes(old, new)
            assert moved(_phases(changes, events)) == set(changes), name
            checked += len(changes)
    assert checked


def test_no_piece_is_tagged_ghost_or_glass_before_a_cutaway_tags_one_and_one_tagged_is_put_right_after():
    """Placing a piece asks its node for the cutaway's tags only once a cutaway has tagged some piece (`cut_tags`):
    before that no node carries one; after it, a piece the cutaway left tagged is put right by the next show, the
    cutaway gone (a piece not there when it was taken away keeps its tag until then)."""
    from panda3d.core import NodePath
    stage = Stage(NodePath("root"))
    stage.show(tower())
    stage.transition(tower(), tower(removed=True)).finish()
    assert not stage.cut_tags
    assert not any(n.hasTag("ghost") or n.hasTag("glass") for n in stage.nodes.values())
    stage.show(tower())
    stage.set_cutaway(12.7, ("pp_tile",))
    assert stage.cut_tags and stage.nodes["tile:a2"].hasTag("ghost")
    stage.cut = None            # as if the cutaway went without passing over this piece
    stage.show(tower(removed=True))
    assert not stage.nodes["tile:a2"].hasTag("ghost") and not stage.nodes["tile:a2"].isHidden()


def test_a_placed_piece_has_the_transform_setPosHprScale_would_give_it_and_no_motion_to_sweep():
    """Placing sets the transform made once per pose: the very state setPosHprScale makes, and, as that call does, it
    leaves no previous transform behind (a jump, not a motion for a fluid collision test to sweep)."""
    from panda3d.core import NodePath
    stage = Stage(NodePath("root"))
    old, new = tower(), tower()
    new.pieces["pawn:0"] = Pose("pp_pawn", 51.5, -20.25, 3.0, heading=33.0, look=look(colour=0))
    stage.show(old)
    stage.transition(old, new).finish()
    node = stage.nodes["pawn:0"]
    plain = NodePath("plain")
    plain.setPosHprScale(51.5, -20.25, 3.0, 33.0, 0, 0, 1, 1, 1)
    assert node.getTransform() == plain.getTransform()
    assert node.node().getPrevTransform() == node.getTransform()


def _untold(layout):
    """The same layout without what it tells of its change: a stage compares every piece and cell of it."""
    return Layout(layout.pieces, layout.cells, layout.labels)


def test_a_layout_that_tells_its_change_gets_the_changes_the_full_diff_finds():
    """Over random play of every game, the changes a transition finds from the ids a layout tells (LayoutChange) are
    those it finds comparing every piece: the same pieces, each with the same action and poses; and a table told the
    changes ends each move with the cells (and their ids on the nodes) a table that compared them all has."""
    from towerworld.engine.registry import all_games
    from towerworld.scene.stage import _changes
    from panda3d.core import NodePath

    def found(changes):
        return {pid: (c.action, c.old, c.new, c.source) for pid, c in changes.items()}
    told = 0
    for name, game in sorted(all_games().items()):
        steps = list(_random_moves(game, 7, 30))
        ours, theirs = Stage(NodePath("ours")), Stage(NodePath("theirs"))
        ours.show(steps[0][0])
        theirs.show(_untold(steps[0][0]))
        for old, new, events in steps:
            assert found(_changes(old, new)) == found(_changes(old, _untold(new))), name
            told += new.changes is not None and new.changes.after(old)
            ours.transition(old, new, events).finish()
            theirs.transition(theirs.layout, _untold(new), events).finish()
            assert {cid: (node.getName(), node.getTag("cell"), node.getTransform()) for cid, node in ours.cells.items()} \
                == {cid: (node.getName(), node.getTag("cell"), node.getTransform())
                    for cid, node in theirs.cells.items()}, name
            assert ours.cell_shapes == theirs.cell_shapes == new.cells, name
    assert told > 0


def test_a_table_told_a_change_that_leaves_out_what_moved_does_not_lie_as_a_fresh_table():
    """The checks above can fail: a layout whose change leaves out a piece that moved and a cell that went up a storey
    leaves that piece where it was and the cell unmoved, which a fresh table showing the layout does not."""
    import weakref

    from panda3d.core import NodePath

    from towerworld.engine.layout import LayoutChange
    before = _board()
    after = _board()
    after.pieces["tile:b0"] = Pose("pp_tile", 120, 0, 0, look=look(suit="suns", rank=1))
    del after.cells["in"]
    after.cells["in:up"] = Cell(-80, 0, 6.35, 30, 30)
    after.changes = LayoutChange(weakref.ref(before), (), ())      # a lie: it says nothing changed
    stage, fresh = Stage(NodePath("stage")), Stage(NodePath("fresh"))
    stage.show(before)
    stage.transition(before, after).finish()
    fresh.show(_untold(after))
    assert _laid(stage, "tile:b0") != _laid(fresh, "tile:b0")
    assert set(stage.cells) != set(after.cells)
    honest = _board()
    honest.pieces.update(after.pieces)
    honest.cells = dict(after.cells)
    honest.changes = LayoutChange(weakref.ref(before), ("tile:b0",), ("in", "in:up"))
    told = Stage(NodePath("told"))
    told.show(before)
    told.transition(before, honest).finish()
    assert _laid(told, "tile:b0") == _laid(fresh, "tile:b0") and set(told.cells) == set(after.cells)


def _told_all(old, new):
    """`new` telling every piece and cell id of both layouts as changed since `old` (the most a layout may tell): the
    stage's way for a layout that tells, on any game's move."""
    import weakref

    from towerworld.engine.layout import LayoutChange
    told = Layout(dict(new.pieces), dict(new.cells), dict(new.labels))
    told.changes = LayoutChange(weakref.ref(old), tuple(dict.fromkeys([*old.pieces, *new.pieces])),
                                tuple(dict.fromkeys([*old.cells, *new.cells])))
    return told


def _timeline_steps(timeline):
    """What a timeline does, interval by interval: its shape (sequences and parallels of what) and what each call and
    lerp calls with what (a closure by its code and every value it holds, a bound method by its name and what it is
    bound to, the stage as itself), and how long each lerp and wait lasts."""
    from collections.abc import KeysView

    from direct.interval.FunctionInterval import Func, Wait
    from direct.interval.LerpInterval import LerpFunc
    from direct.interval.MetaInterval import Parallel, Sequence
    from panda3d.core import NodePath

    def value(v):
        if isinstance(v, Stage):
            return "stage"
        if isinstance(v, NodePath):
            return ("node", v.getName())
        if type(v).__name__ == "_Ends":       # a lerp's function with its first and last calls
            return ("_Ends", value(v.fn), value(v.first), value(v.then))
        if type(v).__name__ == "_Fn":
            return ("_Fn", value(v.fn))
        if type(v).__name__ == "_Phase":      # the plain steps of a phase, one lerp: each step, and its calls
            return ("_Phase", v.seconds, value(v.steps), value(v.first), value(v.then))
        if type(v).__name__ in ("_Travel", "_Drop", "_Crumble", "_Carry", "_Flip", "_Restyle"):
            # a step that is its own function: what it holds
            return (type(v).__name__, v.seconds,
                    tuple((name, value(getattr(v, name))) for name in type(v).__slots__))
        if hasattr(v, "__func__"):
            return ("method", v.__func__.__name__, value(v.__self__))
        if type(v).__name__ == "builtin_function_or_method":
            return ("method", v.__name__, value(v.__self__))
        if hasattr(v, "__code__"):
            return ("fn", v.__code__.co_name, value(v.__defaults__ or ()),
                    value(tuple(cell.cell_contents for cell in v.__closure__ or ())))
        if isinstance(v, (tuple, list, KeysView)):
            return tuple(value(x) for x in v)
        return v

    def shape(ival):
        if isinstance(ival, (Sequence, Parallel)):
            return (type(ival).__name__, tuple(shape(child) for child in ival.ivals))
        if isinstance(ival, LerpFunc):
            return ("lerp", ival.getDuration(), value(ival.function), ival.fromData, ival.toData)
        if isinstance(ival, Wait):
            return ("wait", ival.getDuration())
        if isinstance(ival, Func):
            return ("call", value(ival.function), value(ival.extraArgs))
        return (type(ival).__name__, ival.getDuration())
    return shape(timeline)


def _frame(stage):
    """Where every piece's node and model lie and how they are drawn, now (mid-animation too)."""
    def r(values):
        return tuple(round(v, 4) for v in values)
    return {pid: (r(node.getPos()), r(node.getHpr()), r(node.getScale()), r(node.getColorScale()),
                  node.hasTransparency(), node.node().getPrevTransform() == node.getTransform(),
                  r(stage.models[pid].getPos()), r(stage.models[pid].getHpr()),
                  [child.node() for child in stage.models[pid].getChildren()])
            for pid, node in stage.nodes.items() if pid in stage.models}


def test_a_plain_move_is_laid_out_and_played_as_the_general_path_lays_out_and_plays_it(monkeypatch):
    """Moves whose pieces only travel, arrive or leave take a shorter way to their timeline (Stage._plain): over
    random play of every game, each move told both ways (as Ziggurat's layouts tell it, and telling every id for the
    other games), the plain way lays out the very steps the general path does (same times, same calls, closures
    holding the same values), and played frame by frame, each frame lies the same on both tables, to the end."""
    from panda3d.core import NodePath

    from towerworld.engine.registry import all_games
    plain = Stage._plain
    taken = []

    def counted(self, *args):
        timeline = plain(self, *args)
        taken.append(timeline is not None)
        return timeline
    monkeypatch.setattr(Stage, "_plain", counted)
    for name, game in sorted(all_games().items()):
        for seed in (3, 8):
            steps = list(_random_moves(game, seed, 30))
            if not steps:
                continue
            ours, theirs = Stage(NodePath("ours")), Stage(NodePath("theirs"))
            shown = steps[0][0]
            ours.show(shown)
            theirs.show(shown)
            for old, new, events in steps:
                if new.changes is None or not new.changes.after(old):
                    new = _told_all(shown, new)
                monkeypatch.setattr(Stage, "_plain", counted)
                mine = ours.transition(shown, new, events)
                monkeypatch.setattr(Stage, "_plain", lambda *args: None)
                general = theirs.transition(shown, new, events)
                assert _timeline_steps(mine) == _timeline_steps(general), name
                length = general.getDuration()
                for t in (0.0, 0.17, 0.4, 0.5, 0.63, 0.9, 1.0, 1.2, 1.41):
                    if t < length:
                        mine.setT(t)
                        general.setT(t)
                        assert _frame(ours) == _frame(theirs), (name, t)
                mine.finish()
                general.finish()
                assert _frame(ours) == _frame(theirs), name
                shown = new
    assert sum(taken) >= 100 and not all(taken)     # the plain way taken on many moves, and turned down on some


def test_a_chunk_casts_its_shadow_through_one_plain_copy_that_only_the_shadow_camera_draws():
    """Resting pieces of many looks (card faces on several pages, pyramids of several colours) draw through a chunk
    of a geom per look; the key light's shadow camera draws instead one plain copy of the same geometry, one geom a
    chunk (a shadow has no colour), which no other camera draws: every frame's shadow pass draws a geom a chunk, not
    one per look."""
    import random

    from panda3d.core import BitMask32, NodePath

    from towerworld.engine.game import OMNISCIENT
    from towerworld.engine.registry import get_game
    from towerworld.scene.setup import SHADOW_MASK
    game = get_game("throwdown")
    state = game.random_playout(game.new_state(None, 2), random.Random(5))
    stage = Stage(NodePath("root"))
    stage.show(game.layout(state, OMNISCIENT))
    assert stage.chunks
    main = BitMask32.bit(0)         # a camera of the table (any camera but the shadow camera)

    def geoms(root, mask):
        return sum(p.node().getNumGeoms() for p in root.findAllMatches("**/+GeomNode") if not p.isHidden(mask))
    looks = shadows = 0
    for chunk in stage.chunks:
        drawn, caster = chunk.node.find("drawn"), chunk.node.find("shadow-caster")
        assert not drawn.isEmpty() and not caster.isEmpty()
        assert geoms(caster, main) == 0 and geoms(drawn, SHADOW_MASK) == 0     # each drawn by its camera alone
        assert 1 <= geoms(caster, SHADOW_MASK) <= geoms(drawn, main)
        a, b = drawn.getTightBounds(), caster.getTightBounds()
        assert all(abs(u - v) < 0.01 for p, q in zip(a, b) for u, v in zip(p, q))   # the same geometry
        looks += geoms(drawn, main)
        shadows += geoms(caster, SHADOW_MASK)
    assert shadows <= len(stage.chunks) < looks, (shadows, len(stage.chunks), looks)


def test_a_move_played_frame_by_frame_ends_as_the_same_move_jumped_over(showbase):
    """A move jumped over (started and finished at once: a hurried player) places the pieces it carries under new
    ids, turns over and gives new faces only where they end, not first where they start; played frame by frame it
    starts each of them where it starts. Over random games of every game, a table that plays each move frame by
    frame and one that jumps over it lie the same after every move, piece by piece, and draw the same pieces through
    the same chunks."""
    from towerworld.engine.registry import all_games
    for name, game in sorted(all_games().items()):
        steps = list(_random_moves(game, 7, 30))
        played, jumped = Stage(showbase.render), Stage(showbase.render)
        played.show(steps[0][0])
        jumped.show(steps[0][0])
        for old, new, events in steps:
            frames = played.transition(old, new, events)
            frames.start()
            length = frames.getDuration()
            for t in (0.0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.1, 1.3):
                if t < length:
                    frames.setT(t)
            frames.finish()
            jump = jumped.transition(old, new, events)
            jump.start()
            jump.finish()
            assert _frame(played) == _frame(jumped), name
            assert {pid: _laid(played, pid) for pid in new.pieces} == {pid: _laid(jumped, pid) for pid in new.pieces}
            assert sorted(sorted(c.members) for c in played.chunks) == sorted(sorted(c.members) for c in jumped.chunks)
        played.root.removeNode()
        jumped.root.removeNode()
