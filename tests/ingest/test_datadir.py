"""Finding the source files: search order, verification, the manifest, the CLI around them."""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.config import Settings
from engine.ingest.datadir import State, locate, search_dirs
from engine.ingest.defaults import DataMissing, resolve_default
from engine.ingest.manifest import (
    Manifest,
    ManifestError,
    SourceFile,
    default_manifest,
    load_manifest,
)
from engine.ingest.passages import disease_definitions, pubmedqa_passages

REPO = Path(__file__).resolve().parents[2]


def _src(path: str, body: bytes) -> SourceFile:
    return SourceFile(
        path=path,
        role="test",
        url=f"http://upstream.invalid/{path}",
        size=len(body),
        sha256=hashlib.sha256(body).hexdigest(),
        license="CC0-1.0",
        attribution="test",
    )


@pytest.fixture(autouse=True)
def no_checkout_data(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr("engine.ingest.datadir.CHECKOUT_SHARED", tmp_path / "no-shared")


def test_each_file_comes_from_the_first_directory_that_has_it(tmp_path: Path) -> None:
    mine, home = tmp_path / "mine", tmp_path / "home"
    (mine / "a").mkdir(parents=True)
    (home / "data" / "a").mkdir(parents=True)
    (mine / "a" / "x.tsv").write_bytes(b"custom")
    (home / "data" / "a" / "x.tsv").write_bytes(b"pulled")
    (home / "data" / "a" / "y.tsv").write_bytes(b"only here")
    manifest = Manifest(files=[_src("a/x.tsv", b"pulled"), _src("a/y.tsv", b"only here")])
    s = Settings(home=home, data_dir=mine)
    assert search_dirs(s) == [mine.resolve(), (home / "data").resolve()]
    found = locate(manifest, search_dirs(s), verify=True)
    assert found[0].path == (mine / "a" / "x.tsv").resolve()
    assert found[0].state is State.MODIFIED  # a user's own copy is used, and said to differ
    assert found[1].path == (home / "data" / "a" / "y.tsv").resolve()
    assert found[1].state is State.OK


def test_verification_notices_a_changed_file(tmp_path: Path) -> None:
    d = tmp_path / "data"
    d.mkdir()
    f = d / "f.tsv"
    f.write_bytes(b"abcdef")
    manifest = Manifest(files=[_src("f.tsv", b"abcdef")])
    cache = tmp_path / "hashes.json"
    assert locate(manifest, [d], verify=True, cache=cache)[0].state is State.OK
    f.write_bytes(b"abcdeX")  # same size, other bytes
    assert locate(manifest, [d], verify=True, cache=cache, rehash=True)[0].state is State.MODIFIED
    assert json.loads(cache.read_text())  # hashes are remembered in the data home


def test_missing_files_are_named_with_the_command_that_gets_them(tmp_path: Path) -> None:
    with pytest.raises(DataMissing, match=r"27 data file\(s\) missing.*helix-chat data pull"):
        resolve_default(Settings(home=tmp_path / "home"))


def test_malformed_manifest_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "sources.yaml"
    bad.write_text("files:\n  - path: x\n    sha256: nothex\n")
    with pytest.raises(ManifestError, match="malformed manifest"):
        load_manifest(bad)
    with pytest.raises(ManifestError, match="cannot read"):
        load_manifest(tmp_path / "absent.yaml")


def test_the_manifest_pins_every_file_to_a_commit_with_license_and_checksum() -> None:
    m = default_manifest()
    roles = {f.role for f in m.files}
    assert {"nodes", "metaedges", "edges", "edge_sample", "metapaths", "pubmedqa"} <= roles
    assert len(m.by_role("edges")) == 16
    for f in m.files:
        commit = f.url.split("/")[5]
        assert len(commit) == 40 and all(c in "0123456789abcdef" for c in commit), f.url
        assert f.license and f.attribution and f.size > 0


def test_no_third_party_data_file_is_tracked_by_git() -> None:
    if not (REPO / ".git").exists():
        pytest.skip("not a git checkout")
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    names = {Path(f.path).name for f in default_manifest().files}
    names |= {n + ".gz" for n in names}
    assert not [t for t in tracked if Path(t).name in names]


def test_passages_are_built_from_pubmedqa_and_disease_definitions(tmp_path: Path) -> None:
    pqa = tmp_path / "ori_pqal.json"
    pqa.write_text(
        json.dumps(
            {
                "21645374": {"CONTEXTS": ["b0"], "MESHES": ["Apoptosis"]},
                "1571683": {"CONTEXTS": ["a0", "a1"], "MESHES": ["Child", "Vaccines"]},
            }
        )
    )
    assert [p[0] for p in pubmedqa_passages(pqa)] == [
        "pubmedqa:1571683:0",
        "pubmedqa:1571683:1",
        "pubmedqa:21645374:0",
    ]
    assert next(pubmedqa_passages(pqa))[2] == "Child; Vaccines"
    desc = tmp_path / "description.tsv"
    desc.write_text(
        "disease_id\tname\tdescription\n"
        "DOID:1\tlymphoma\tA cancer located_in the lymphatic system.\n"
        "DOID:2\tother\tNot in the graph.\n"
        "DOID:3\tempty\t\n"
    )
    rows = list(disease_definitions(desc, {"Disease::DOID:1", "Disease::DOID:3"}))
    assert rows == [
        ("doid:DOID:1", "disease-ontology", "lymphoma", "A cancer located in the lymphatic system.")
    ]


def test_cli_status_verify_and_an_offline_first_run(tmp_path: Path) -> None:
    from helix_tui.cli import cli

    runner = CliRunner()
    home = tmp_path / "home"
    env = {"HELIX_HOME": str(home), "HELIX_OFFLINE": "1", "COLUMNS": "200"}
    res = runner.invoke(cli, ["data", "status"], env=env, obj={})
    assert res.exit_code == 0
    assert "0 of 38 files verified; 38 missing" in res.output
    assert "helix-chat data pull" in res.output
    res = runner.invoke(cli, ["data", "verify"], env=env, obj={})
    assert res.exit_code == 1
    res = runner.invoke(cli, ["ask", "What drugs treat asthma?"], env=env, obj={})
    assert res.exit_code == 1
    assert "HELIX_OFFLINE is set, so nothing is downloaded" in res.output
    assert "helix-chat data pull" in res.output
    assert not (home / "stores" / "kg.duckdb").exists()
