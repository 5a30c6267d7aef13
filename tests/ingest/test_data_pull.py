"""``data pull`` against a real HTTP server on 127.0.0.1: download, resume, bad files, errors."""

from __future__ import annotations

import hashlib
import os
import socket
from pathlib import Path

import pytest

from engine.config import Settings
from engine.ingest.datadir import State, locate, search_dirs
from engine.ingest.download import DownloadError, fetch, pull, to_pull
from engine.ingest.manifest import Manifest, SourceFile
from tests.ingest.loopback import Served, serve


def _src(path: str, body: bytes, url: str = "") -> SourceFile:
    return SourceFile(
        path=path,
        role="test",
        url=url or f"http://upstream.invalid/{path}",
        size=len(body),
        sha256=hashlib.sha256(body).hexdigest(),
        license="CC0-1.0",
        attribution="test data",
    )


@pytest.fixture
def bodies() -> dict[str, bytes]:
    return {
        "kg_hetionet/nodes.tsv": b"id\tname\tkind\n" + os.urandom(200_000).hex().encode(),
        "kg_aliases/names.tsv": b"alias\tnode\n" + b"x\ty\n" * 5000,
    }


@pytest.fixture(autouse=True)
def no_checkout_data(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Search only the test's own directories, not ../shared/data beside the checkout."""
    monkeypatch.setattr("engine.ingest.datadir.CHECKOUT_SHARED", tmp_path / "no-shared")


def _settings(tmp_path: Path, base: str, **kw: object) -> Settings:
    return Settings(home=tmp_path / "home", data_mirror=base, **kw)  # type: ignore[arg-type]


def test_fresh_download_verifies_and_lands_in_the_data_home(
    tmp_path: Path, bodies: dict[str, bytes]
) -> None:
    manifest = Manifest(files=[_src(p, b) for p, b in bodies.items()])
    with serve(Served(files=dict(bodies))) as base:
        s = _settings(tmp_path, base)
        assert [f.path for f in to_pull(s, manifest)] == list(bodies)
        done = pull(s, to_pull(s, manifest))
    assert [r.path.read_bytes() for r in done] == list(bodies.values())
    assert all(r.path.is_relative_to(tmp_path / "home" / "data") for r in done)
    found = locate(manifest, search_dirs(s), verify=True, rehash=True)
    assert [x.state for x in found] == [State.OK, State.OK]
    assert to_pull(s, manifest) == []


def test_a_cut_connection_resumes_from_the_bytes_already_there(
    tmp_path: Path, bodies: dict[str, bytes]
) -> None:
    path, body = next(iter(bodies.items()))
    src = _src(path, body)
    state = Served(files={path: body}, cut_after={path: 100_000})
    with serve(state) as base:
        with pytest.raises(DownloadError, match=r"interrupted at [\d,]+ of 400,013 bytes"):
            fetch(src, tmp_path, mirror=base)
        part = tmp_path / (path + ".part")
        kept = part.stat().st_size
        assert 0 < kept <= 100_000
        assert not (tmp_path / path).exists()
        result = fetch(src, tmp_path, mirror=base)
    assert result.resumed and result.downloaded == len(body) - kept
    assert state.ranges[-1] == (path, f"bytes={kept}-")
    assert (tmp_path / path).read_bytes() == body
    assert not part.exists()


def test_a_checksum_mismatch_is_an_error_and_the_file_is_discarded(
    tmp_path: Path, bodies: dict[str, bytes]
) -> None:
    path, body = next(iter(bodies.items()))
    tampered = body[:-4] + b"XXXX"
    with (
        serve(Served(files={path: tampered})) as base,
        pytest.raises(DownloadError, match="checksum mismatch"),
    ):
        fetch(_src(path, body), tmp_path, mirror=base)
    assert not (tmp_path / path).exists()
    assert not (tmp_path / (path + ".part")).exists()


def test_a_missing_file_is_reported_and_the_others_still_arrive(
    tmp_path: Path, bodies: dict[str, bytes]
) -> None:
    (first, b1), (second, b2) = bodies.items()
    manifest = Manifest(files=[_src(first, b1), _src(second, b2)])
    with serve(Served(files={second: b2})) as base:
        s = _settings(tmp_path, base)
        with pytest.raises(DownloadError, match=r"(?s)1 of 2 download\(s\) failed.*HTTP 404"):
            pull(s, to_pull(s, manifest))
    assert (tmp_path / "home" / "data" / second).read_bytes() == b2
    assert not (tmp_path / "home" / "data" / first).exists()


def test_a_server_that_is_down_gives_a_clear_error(
    tmp_path: Path, bodies: dict[str, bytes]
) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    path, body = next(iter(bodies.items()))
    with pytest.raises(DownloadError, match=r"cannot fetch .*ConnectError"):
        fetch(_src(path, body), tmp_path, mirror=f"http://127.0.0.1:{port}")


def test_a_stalled_server_times_out(tmp_path: Path, bodies: dict[str, bytes]) -> None:
    path, body = next(iter(bodies.items()))
    with (
        serve(Served(files={path: body}, stall={path: 2.0})) as base,
        pytest.raises(DownloadError, match=r"timed out after 0\.3 s"),
    ):
        fetch(_src(path, body), tmp_path, mirror=base, timeout_s=0.3)


def test_offline_refuses_to_download(tmp_path: Path, bodies: dict[str, bytes]) -> None:
    manifest = Manifest(files=[_src(p, b) for p, b in bodies.items()])
    s = Settings(home=tmp_path / "home", offline=True)
    with pytest.raises(DownloadError, match="HELIX_OFFLINE"):
        pull(s, to_pull(s, manifest))


def test_upstream_urls_are_used_without_a_mirror(tmp_path: Path, bodies: dict[str, bytes]) -> None:
    path, body = next(iter(bodies.items()))
    with serve(Served(files={"pinned/" + path: body})) as base:
        result = fetch(_src(path, body, url=f"{base}/pinned/{path}"), tmp_path)
    assert result.path.read_bytes() == body


def test_cli_pull_fetches_the_real_manifest_from_a_mirror(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`helix-chat data pull --mirror` over loopback, serving the real data directory's files."""
    from click.testing import CliRunner

    from engine.ingest.manifest import default_manifest
    from helix_tui.cli import cli
    from tests.support.kgslice import source_files

    monkeypatch.undo()  # find the real data directory for serving
    files = source_files()
    if files is None:
        pytest.skip("no data directory with the source files (helix-chat data status)")
    monkeypatch.setattr("engine.ingest.datadir.CHECKOUT_SHARED", tmp_path / "no-shared")
    served = Served(files={rel: path.read_bytes() for rel, path in files.items()})
    home = tmp_path / "home"
    env = {"HELIX_HOME": str(home), "HELIX_DATA_DIR": "", "COLUMNS": "200"}
    with serve(served) as base:
        res = CliRunner().invoke(cli, ["data", "pull", "--mirror", base], env=env, obj={})
    assert res.exit_code == 0, res.output
    manifest = default_manifest()
    assert f"Downloading {len(manifest.files)} source file(s)" in res.output
    s = Settings(home=home)
    assert to_pull(s, manifest) == []
    found = locate(manifest, search_dirs(s), verify=True, rehash=True)
    assert {x.state for x in found} == {State.OK}
    assert all(x.path and x.path.is_relative_to(home / "data") for x in found)
    res = CliRunner().invoke(cli, ["data", "pull"], env=env, obj={})
    assert res.exit_code == 0 and "nothing to download" in res.output


def test_manifest_layers_keep_the_default_build_to_hetionet() -> None:
    from engine.ingest.manifest import default_manifest

    manifest = default_manifest()
    default = manifest.for_layers(["hetionet"]).files
    assert len(default) == 27
    # the Disease Ontology hierarchy reads names the graph lacks as its nearest diseases
    assert "do_terms" in {f.role for f in default}
    pack = manifest.for_layers(["disease-pack"]).files
    assert pack and all(f.path.startswith("kg_extra/") for f in pack)
    assert not any("orphanet" in f.path for f in pack)  # a layer of its own, opt-in
    assert {f.role for f in manifest.for_layers(["orphanet"]).files} == {
        "orphanet_genes",
        "mondo_orphanet",
    }
