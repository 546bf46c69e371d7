"""What `--ray-address` is told, in RecordLens's words: an empty address (an unset variable, say) is refused rather
than taken for a local instance; host:port whose port is no number is said so before Ray reads it (its own words
named another host, its guess of this machine's); Ray's "`--address` flag" is said as this command's --ray-address;
and a cluster that asks for its token, when this machine holds one that only RAY_AUTH_MODE=token would send, says
to set that, not to set a token that is there already.

The checks need no Ray; the tests that join a cluster, or Ray's own connection, do (the optional extra `ray`: `pip
install -e '.[ray]'` in the checkout), and skip where it is not installed (`make test-ray` installs it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.runs import ray_engine
from recordlens.core.runs.engine_choice import make_engine
from recordlens.core.runs.engines import EngineError, EngineOptions
from tests.core.ray_helpers import require_ray, small_copy

TOKEN = "0123456789abcdef0123456789abcdef"  # a test cluster's own, given in its environment only
ADVICE = ("give the cluster head's host:port (its GCS port, 6379 unless ray start --port gave another), "
          "ray://host:10001 for Ray Client, or auto on a machine of the cluster")


def test_an_empty_ray_address_is_refused_not_taken_for_a_local_instance(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(EngineError, match=r"^--ray-address is empty: give the cluster head's host:port, or auto on a "
                                          r"machine of the cluster; leave --ray-address out to start a local Ray "
                                          r"instance$"):
        make_engine(EngineOptions("ray", address="  "))
    assert main(["score", "--pred", ".", "--gt", ".", "--pages", ".", "-q", "--engine", "ray", "--ray-address", "",
                 "--workers", "2"]) == 2
    assert capsys.readouterr().err.splitlines()[-1].startswith("recordlens: error: --ray-address is empty")


@pytest.mark.parametrize("address, problem", [
    ("127.0.0.1:abc", "abc is not a port number"),
    ("127.0.0.1", "no port is given"),
    ("127.0.0.1:", "no port is given"),
    (":6379", "no host is given"),
    ("ray://10.0.0.9:x", "x is not a port number"),
])
def test_an_address_of_the_wrong_form_is_said_before_ray_reads_it(address: str, problem: str) -> None:
    with pytest.raises(EngineError) as refused:
        ray_engine._check_reachable(address)
    assert str(refused.value) == f"--ray-address {address}: {problem}; {ADVICE}"


def test_forms_ray_reads_itself_are_left_to_it() -> None:
    for address in ("auto", "local", "ray://10.0.0.9", "[::1]:6379", "head.example:6379"):
        assert ray_engine._form_problem(address) is None, address


def test_rays_words_for_its_own_address_flag_name_the_commands_option() -> None:
    for said in ("Please specify the one to connect to by setting `--address` flag or `RAY_ADDRESS` environment "
                 "variable.", "Please specify the one to connect to by setting the `--address` flag or `RAY_ADDRESS` "
                 "environment variable."):
        assert ray_engine._as_said_here(ConnectionError(said)) == (
            "Please specify the one to connect to by setting --ray-address or `RAY_ADDRESS` environment variable.")


def test_a_token_held_here_but_not_sent_is_said_with_what_sends_it(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    for name in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH"):
        monkeypatch.delenv(name, raising=False)
    as_before = (" and refused this process's (none set, or another): run on a machine of the cluster with "
                 "--ray-address auto, or set RAY_AUTH_MODE=token and the cluster's token (RAY_AUTH_TOKEN, or "
                 "~/.ray/auth_token)")
    assert ray_engine._token_advice(refused=True) == as_before  # no token here

    (tmp_path / ".ray").mkdir()
    (tmp_path / ".ray" / "auth_token").write_text(TOKEN + "\n")
    assert ray_engine._token_advice(refused=True) == (
        ", and this process sent none: ~/.ray/auth_token holds one, but Ray sends it to a cluster at an address given "
        "only when RAY_AUTH_MODE=token is set: set RAY_AUTH_MODE=token (or run on a machine of the cluster with "
        "--ray-address auto)")
    monkeypatch.setenv("RAY_AUTH_MODE", "token")  # sent, and refused: another token than the cluster's
    assert ray_engine._token_advice(refused=True) == as_before
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    monkeypatch.setenv("RAY_AUTH_TOKEN", TOKEN)
    assert ray_engine._token_advice().startswith(": RAY_AUTH_TOKEN holds one, but Ray sends it to a cluster")


def test_auto_without_a_cluster_says_the_commands_option(monkeypatch: pytest.MonkeyPatch) -> None:
    ray = require_ray()
    from recordlens.core.runs.ray_engine import RayEngine

    def no_cluster(**options: object) -> None:  # Ray's own words, where no cluster runs on this machine
        raise ConnectionError("Could not find any running Ray instance. Please specify the one to connect to by "
                              "setting `--address` flag or `RAY_ADDRESS` environment variable.")

    monkeypatch.setattr(ray, "is_initialized", lambda: False)  # whether or not another test's instance is up
    monkeypatch.setattr(ray, "init", no_cluster)
    with pytest.raises(EngineError) as refused:
        RayEngine.connect(address="auto")
    assert str(refused.value) == (
        "could not connect to Ray at auto: ConnectionError: Could not find any running Ray instance. Please specify "
        "the one to connect to by setting --ray-address or `RAY_ADDRESS` environment variable.")


def test_a_cluster_that_asks_for_the_token_held_here_says_to_set_ray_auth_mode(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The token in ~/.ray/auth_token (as `ray start` leaves it), RAY_AUTH_MODE not set: Ray sends no token to an
    address given, and the cluster refuses the command; said so, and with RAY_AUTH_MODE=token the command joins."""
    require_ray()
    from tests import ray_cluster

    home = tmp_path / "home"
    (home / ".ray").mkdir(parents=True)
    (home / ".ray" / "auth_token").write_text(TOKEN)
    environment = {**ray_cluster.cluster_environment(), "HOME": str(home)}
    environment.pop("RAY_AUTH_MODE")
    monkeypatch.setattr(ray_cluster, "cluster_environment",
                        lambda: {**environment, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": TOKEN})
    pages = small_copy(tmp_path / "data", 2) / "html"
    with ray_cluster.ray_cluster() as cluster:
        command = ["extract", "--pages", str(pages), "--out", str(tmp_path / "run"), "--engine", "ray",
                   "--ray-address", cluster.address]
        refused = ray_cluster.recordlens(command, env=environment)
        joined = ray_cluster.recordlens(command, env={**environment, "RAY_AUTH_MODE": "token"})

    assert refused.returncode == 2, refused.stderr
    assert refused.stderr.splitlines()[-1] == (
        f"recordlens: error: could not connect to Ray at {cluster.address}: the cluster asks for its authentication "
        "token, and this process sent none: ~/.ray/auth_token holds one, but Ray sends it to a cluster at an address "
        "given only when RAY_AUTH_MODE=token is set: set RAY_AUTH_MODE=token (or run on a machine of the cluster "
        "with --ray-address auto)")
    assert joined.returncode == 0, joined.stderr
    assert len(list((tmp_path / "run").glob("*.json"))) == 2
