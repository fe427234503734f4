"""Output paths are checked before any work: one line on stderr, exit status 2, nothing written."""

from __future__ import annotations

import pytest

import graphpart as gp
from graphpart.cli import main
from graphpart.fs.outpath import check_output_path

PARTITION = ["partition", "--dataset", "karate_club", "--graph-name", "k", "--num-parts", "2"]


def _refused(capsys, argv: list[str], *words: str) -> str:
    assert main([*argv, "--quiet"] if argv[0] == "partition" else argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("graphpart: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err and all(w in err for w in words), err
    return err


@pytest.fixture
def fail_if_partitioned(monkeypatch):
    """Any partitioning means a path was checked too late."""

    def refuse(*args, **kwargs):
        raise AssertionError("partitioned before the output paths were checked")

    monkeypatch.setattr("graphpart.partitioning.core.partition", refuse)
    monkeypatch.setattr("graphpart.storage.write.partition", refuse)


def test_partition_checks_every_output_path_first(tmp_path, capsys, fail_if_partitioned):
    (tmp_path / "folder").mkdir()
    (tmp_path / "file.txt").write_text("mine")
    out = tmp_path / "out"
    cases = {
        "is a folder": ["--out-path", str(out), "--mapping-out", str(tmp_path / "folder")],
        "which is a file": ["--out-path", str(tmp_path / "file.txt" / "parts")],
        "file.txt, which is": ["--out-path", str(out), "--mapping-out", f"{tmp_path}/file.txt/m"],
        "NUL": ["--out-path", str(tmp_path / "a\0b")],
        "too long": ["--out-path", str(tmp_path / ("x" * 250))],
        "for this system": ["--out-path", str(tmp_path / ("x" * 300) / "y")],
        "holds": ["--out-path", str(out), "--mapping-out", str(out / "map.pt")],
        "exists and is not a folder": ["--out-path", str(tmp_path / "file.txt")],
    }
    for words, extra in cases.items():
        _refused(capsys, [*PARTITION, *extra], words)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt", "folder"]


def test_partition_refuses_to_write_over_its_input_graph(tmp_path, capsys, fail_if_partitioned):
    from graphpart.datasets import load_karate_club
    from graphpart.graph.npz import save_graph

    g = tmp_path / "in" / "g.npz"
    g.parent.mkdir()
    save_graph(load_karate_club(), g)
    argv = ["partition", "--graph", str(g), "--graph-name", "k", "--num-parts", "2"]
    _refused(capsys, [*argv, "--out-path", str(tmp_path / "in")], "holds", "g.npz")
    _refused(capsys, [*argv, "--out-path", str(tmp_path / "o"), "--mapping-out", str(g)], "is")
    assert g.is_file() and not (tmp_path / "o").exists()


def test_the_chunked_commands_check_their_out_dir_first(tmp_path, capsys):
    (tmp_path / "file.txt").write_text("mine")
    bad = str(tmp_path / "file.txt" / "out")
    chunks = tmp_path / "chunks"
    assert (
        main(["chunk", "--dataset", "karate_club", "--out-dir", str(chunks), "--num-chunks", "2"])
        == 0
    )
    capsys.readouterr()
    commands = [
        ["chunk", "--dataset", "karate_club", "--num-chunks", "2"],
        ["assign", "--in-dir", str(chunks), "--num-parts", "2"],
        ["dispatch", "--in-dir", str(chunks), "--partitions-dir", str(tmp_path / "p")],
        ["parmetis-export", "--in-dir", str(chunks)],
        ["parmetis-import", "--in-dir", str(chunks), "--parmetis-dir", str(tmp_path / "pm")],
    ]
    for argv in commands:
        _refused(capsys, [*argv, "--out-dir", bad], "--out-dir", "which is a file")
        _refused(capsys, [*argv, "--out-dir", str(tmp_path / "a\0b")], "NUL")
        if "--in-dir" in argv:  # writing the input's folder would replace the input
            _refused(capsys, [*argv, "--out-dir", str(tmp_path)], "holds", "chunks")
    assert (chunks / "metadata.json").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chunks", "file.txt"]


def test_partition_graph_checks_its_out_path_before_partitioning(tmp_path, fail_if_partitioned):
    from graphpart.datasets import load_karate_club

    (tmp_path / "file.txt").write_text("mine")
    with pytest.raises(gp.GraphpartError, match="which is a file"):
        gp.partition_graph(load_karate_club(), "k", 2, tmp_path / "file.txt" / "out")


def test_check_output_path_accepts_what_can_be_written(tmp_path):
    (tmp_path / "old").mkdir()
    (tmp_path / "m.pt").write_bytes(b"")
    assert check_output_path(tmp_path / "new" / "deeper") == tmp_path / "new" / "deeper"
    assert check_output_path(tmp_path / "old") == tmp_path / "old"
    assert check_output_path(str(tmp_path / "m.pt"), kind="file") == tmp_path / "m.pt"
    assert check_output_path(tmp_path / "new" / ("y" * 241)).name == "y" * 241
    assert not (tmp_path / "new").exists()  # a check creates nothing
    with pytest.raises(gp.GraphpartError, match="is a folder"):
        check_output_path(tmp_path / "old", kind="file")


@pytest.mark.parametrize("where", [".", "..", "sub/.."])
def test_the_current_folder_or_one_holding_it_is_refused_before_any_work(
    where, tmp_path, capsys, monkeypatch, fail_if_partitioned
):
    (tmp_path / "cwd" / "sub").mkdir(parents=True)
    (tmp_path / "cwd" / "notes.txt").write_text("mine")
    monkeypatch.chdir(tmp_path / "cwd")
    _refused(capsys, [*PARTITION, "--out-path", where], "--out-path", "is the current folder")
    assert (tmp_path / "cwd" / "notes.txt").read_text() == "mine"


def test_an_out_path_with_dot_dot_is_written_where_it_leads(tmp_path):
    from graphpart.datasets import load_karate_club

    g = load_karate_club()
    gp.partition_graph(g, "k", 2, tmp_path / "o", seed=0)
    gp.partition_graph(g, "k", 3, tmp_path / "o" / "part0" / "..", seed=0)
    assert gp.load_partition_book(tmp_path / "o" / "k.json", 0).book.num_partitions() == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o"]


def test_an_out_path_that_is_a_symlink_is_written_into_its_target_and_stays_a_link(tmp_path):
    from graphpart.datasets import load_karate_club

    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real", target_is_directory=True)
    g = load_karate_club()
    for k in (2, 3):  # a first output, then one replacing it
        gp.partition_graph(g, "k", k, tmp_path / "link", seed=0)
        assert (tmp_path / "link").is_symlink()
        assert (tmp_path / "real" / "k.json").is_file()
        assert gp.load_partition_book(tmp_path / "link" / "k.json", 0).book.num_partitions() == k
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link", "real"]
    (tmp_path / "real" / "mine.txt").write_text("notes")
    with pytest.raises(gp.GraphpartError, match="mine.txt"):
        gp.partition_graph(g, "k", 2, tmp_path / "link", seed=0)
    assert (tmp_path / "real" / "mine.txt").read_text() == "notes"


def test_an_output_folder_takes_the_users_umask_not_0700(tmp_path):
    import os

    from graphpart.datasets import load_karate_club

    old = os.umask(0o022)
    try:
        gp.partition_graph(load_karate_club(), "k", 2, tmp_path / "o", seed=0)
    finally:
        os.umask(old)
    assert (tmp_path / "o").stat().st_mode & 0o777 == 0o755


def test_mapping_out_replaces_only_a_mapping_graphpart_wrote(tmp_path, capsys):
    """A user's file given as --mapping-out was replaced by the mapping without a word."""
    import torch

    notes, model = tmp_path / "notes.txt", tmp_path / "model.pt"
    notes.write_text("my notes")
    torch.save({"weight": torch.ones(3)}, model)  # a torch file, but not a mapping
    (tmp_path / "link.pt").symlink_to(notes)
    for target in (notes, model, tmp_path / "link.pt"):
        argv = [*PARTITION, "--out-path", str(tmp_path / "o"), "--mapping-out", str(target)]
        _refused(capsys, argv, "is not a mapping graphpart wrote")
    assert notes.read_text() == "my notes" and list(torch.load(model)) == ["weight"]
    mapping = tmp_path / "map.pt"
    argv = [*PARTITION, "--out-path", str(tmp_path / "o"), "--mapping-out", str(mapping)]
    assert main([*argv, "--quiet"]) == 0 and main([*argv, "--quiet"]) == 0  # its own: replaced
    assert sorted(torch.load(mapping)) == ["orig_eids", "orig_nids"]


def test_a_dangling_symlink_as_the_output_folder_is_refused_and_kept(tmp_path, capsys):
    """It was replaced by a real folder: the user's link deleted, its target never made."""
    link = tmp_path / "dl"
    link.symlink_to(tmp_path / "nowhere")
    _refused(capsys, [*PARTITION, "--out-path", str(link)], "which does not exist")
    assert link.is_symlink() and not (tmp_path / "nowhere").exists()
    ch = ["chunk", "--dataset", "karate_club", "--num-chunks", "2", "--out-dir", str(link)]
    _refused(capsys, ch, "which does not exist")
    assert link.is_symlink()


def test_a_users_torch_file_under_a_part_files_name_is_not_replaced(tmp_path, capsys):
    """Only "is it a torch zip" was checked: the user's weights at part0/node_feats.pt went."""
    import torch

    out = tmp_path / "o"
    argv = [*PARTITION, "--out-path", str(out)]
    assert main([*argv, "--quiet"]) == 0
    mine = out / "part0" / "node_feats.pt"
    torch.save({"weights": torch.ones(3)}, mine)
    _refused(capsys, argv, "part0/node_feats.pt")
    assert list(torch.load(mine)) == ["weights"]
    assert main([*PARTITION, "--out-path", str(tmp_path / "p"), "--quiet"]) == 0
    assert main([*PARTITION, "--out-path", str(tmp_path / "p"), "--quiet"]) == 0  # its own


def test_the_partition_command_checks_its_output_folder_once(tmp_path, monkeypatch):
    """The CLI checks --out-path before loading the graph and hands the checked target on:
    save_partitions does not walk the folder a second time."""
    from graphpart.cli import main
    from graphpart.storage import owned

    calls = []
    real = owned.check_partition_output

    def counting(out, *args, **kwargs):
        target = real(out, *args, **kwargs)
        if not isinstance(out, owned.OutputTarget):
            calls.append(out)
        return target

    monkeypatch.setattr(owned, "check_partition_output", counting)
    monkeypatch.setattr("graphpart.cli.partition.check_partition_output", counting, raising=False)
    monkeypatch.setattr("graphpart.storage.write.check_partition_output", counting)
    out = tmp_path / "out"
    args = ["partition", "--dataset", "karate_club", "--graph-name", "k", "--num-parts", "2"]
    assert main([*args, "--out-path", str(out), "--quiet"]) == 0
    assert calls == [str(out)]


def test_an_output_target_built_by_hand_is_refused(tmp_path):
    """Only check_partition_output makes an OutputTarget: one built by hand would skip the check
    that keeps a folder of the user's files from being replaced."""
    from graphpart.datasets import load_karate_club
    from graphpart.storage import OutputTarget

    (tmp_path / "mine.txt").write_text("thesis")
    match = "comes from graphpart.storage.check_partition_output"
    with pytest.raises(gp.GraphpartError, match=match):
        gp.partition_graph(load_karate_club(), "k", 2, OutputTarget(tmp_path))
    assert (tmp_path / "mine.txt").read_text() == "thesis"
